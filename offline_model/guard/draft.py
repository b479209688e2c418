"""The review payload as the rules read it: the analyses, their verified evidence, the negative ones."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Draft:
    """The payload as the rules read it."""

    query: str
    analyses: dict[str, dict[str, Any]]
    evidence: dict[str, list[Any]]
    negative: frozenset[str]

    def texts(self, basis: list[str]) -> tuple[str, ...]:
        return tuple(str(self.analyses[ident].get("text") or "") for ident in basis)
