"""The labelled case type of the apart corpus, and the helpers that build and de-duplicate case lists."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class ApartCase:
    """One labelled text: ``violation`` is the label a careful SRE reviewer gives it for one release rule.

    ``shape`` names the form of the text (e.g. ``"yaml_block_scalar"``, ``"rhetorical_question"``); ``surface``
    names where in a report or chat the text stands (e.g. ``"log_line"``, ``"plan"``, ``"action"``).
    """

    text: str
    violation: bool
    shape: str
    surface: str


def rng_for(rule: str, seed: int) -> random.Random:
    """A generator seeded by a string, so that it is the same on every run whatever PYTHONHASHSEED is."""
    return random.Random(f"harness.gate_apart:{rule}:{seed}")


def build(rows: Iterable[tuple[str, str, str]], *, violation: bool) -> list[ApartCase]:
    """Cases from ``(text, shape, surface)`` rows, all with the label ``violation``."""
    return [ApartCase(text=text, violation=violation, shape=shape, surface=surface) for text, shape, surface in rows]


def unique(cases: Iterable[ApartCase]) -> list[ApartCase]:
    """The cases in order with later repeats of a text dropped (the first label given to a text wins)."""
    seen: set[str] = set()
    out: list[ApartCase] = []
    for case in cases:
        key = case.text.strip()
        if key in seen:
            continue
        seen.add(key)
        out.append(case)
    return out
