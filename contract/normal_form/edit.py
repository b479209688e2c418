"""One transformation of a text that remembers where each character of the result came from."""

from __future__ import annotations

import re


class Edit:
    """A text and the source index of each of its characters, rebuilt by one transformation."""

    def __init__(self, text: str, origin: list[int]) -> None:
        self.text, self.origin = text, origin
        self._parts: list[str] = []
        self._origin: list[int] = []
        self._at = 0

    def keep_to(self, end: int) -> None:
        self._parts.append(self.text[self._at : end])
        self._origin.extend(self.origin[self._at : end])
        self._at = end

    def replace(self, start: int, end: int, new: str, *, anchor: int | None = None) -> None:
        """``text[start:end]`` becomes ``new``; its characters point at ``anchor`` (default: ``start``)."""
        self.keep_to(start)
        source = self.origin[min(anchor if anchor is not None else start, len(self.origin) - 1)] if self.origin else 0
        self._parts.append(new)
        self._origin.extend([source] * len(new))
        self._at = end

    def done(self) -> tuple[str, list[int]]:
        self.keep_to(len(self.text))
        return "".join(self._parts), self._origin


def remove(pattern: re.Pattern[str], text: str, origin: list[int]) -> tuple[str, list[int]]:
    edit = Edit(text, origin)
    for found in pattern.finditer(text):
        edit.replace(found.start(), found.end(), "")
    return edit.done()
