"""The text lexical support is checked against: every leaf of a value, normalised for substring checks."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any


def leaf_text(value: Any, skip: Iterable[str] = ()) -> str:
    """Every string and number inside ``value`` (except under the keys in ``skip``), joined: what lexical
    support is checked against."""
    parts: list[str] = []
    skipped = frozenset(skip)

    def walk(item: Any) -> None:
        if isinstance(item, dict):
            for key, child in item.items():
                if key in skipped:
                    continue
                parts.append(str(key))
                walk(child)
        elif isinstance(item, list | tuple):
            for child in item:
                walk(child)
        elif item is not None:
            parts.append(str(item))

    walk(value)
    return "\n".join(parts)


def normalise(text: str) -> str:
    """Lower case, runs of whitespace as one space: for substring checks that ignore layout."""
    return re.sub(r"\s+", " ", text).strip().lower()
