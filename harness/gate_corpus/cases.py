"""The labelled case and the ordered, duplicate-free collection every corpus generator fills."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RuleCase:
    """One labelled text: ``violation`` says whether the rule must refuse it."""

    text: str
    violation: bool
    shape: str
    surface: str


class CaseSet:
    """Cases in the order they were added; a repeated text is kept once, a repeated text with the other label is
    a bug in the generator and raises."""

    def __init__(self) -> None:
        self._cases: list[RuleCase] = []
        self._labels: dict[str, bool] = {}

    def add(self, text: str, violation: bool, shape: str, surface: str) -> None:
        text = text.strip(" ")
        known = self._labels.get(text)
        if known is None:
            self._labels[text] = violation
            self._cases.append(RuleCase(text, violation, shape, surface))
        elif known != violation:
            raise ValueError(f"one text with both labels: {text!r}")

    def __contains__(self, text: object) -> bool:
        return text in self._labels

    def cases(self) -> list[RuleCase]:
        return list(self._cases)
