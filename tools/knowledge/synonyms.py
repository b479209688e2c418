"""The synonym groups of lookup_knowledge's query expansion (``synonyms.yaml``), compiled for matching.

A phrase is matched in the query's normalised text (:func:`tools.knowledge.tokens.normalize`): a Latin phrase
on word boundaries (``pool`` is not found in ``hikaripool``), a Chinese one anywhere, and a space in a phrase
matches any run of spaces, or none between Chinese and Latin (``慢 sql`` finds ``慢SQL``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import yaml

from contract.vocabulary import HarnessError
from tools.knowledge.tokens import normalize

BUNDLED_SYNONYMS = Path(__file__).resolve().parent / "synonyms.yaml"


class SynonymsUnreadable(HarnessError):
    code = "KNOWLEDGE_SYNONYMS_UNREADABLE"


def _pattern(phrase: str) -> re.Pattern[str]:
    body = r"\s*".join(re.escape(word) for word in phrase.split())
    before = r"(?<![0-9a-z_.\-])" if phrase[0].isascii() and phrase[0].isalnum() else ""
    after = r"(?![0-9a-z_\-])" if phrase[-1].isascii() and phrase[-1].isalnum() else ""
    return re.compile(before + body + after)


class SynonymGroups:
    """Groups of phrases that mean the same; :meth:`find` names each phrase of a query and its synonyms."""

    def __init__(self, groups: list[list[str]]) -> None:
        self._entries: list[tuple[re.Pattern[str], tuple[str, ...]]] = []
        for group in groups:
            phrases = list(dict.fromkeys(normalize(phrase).strip() for phrase in group if phrase.strip()))
            for phrase in phrases:
                others = tuple(other for other in phrases if other != phrase)
                self._entries.append((_pattern(phrase), others))

    def find(self, normalized: str) -> Iterator[tuple[int, int, tuple[str, ...]]]:
        for pattern, others in self._entries:
            for match in pattern.finditer(normalized):
                yield match.start(), match.end(), others


@cache
def bundled_synonyms() -> SynonymGroups:
    return load_synonyms(BUNDLED_SYNONYMS)


def load_synonyms(path: Path) -> SynonymGroups:
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise SynonymsUnreadable(f"synonyms file {path} unreadable: {type(exc).__name__}") from exc
    groups = raw.get("groups") if isinstance(raw, dict) else None
    if not isinstance(groups, list) or not all(
        isinstance(group, list) and all(isinstance(phrase, str) for phrase in group) for group in groups
    ):
        raise SynonymsUnreadable(f"synonyms file {path}: expected groups: a list of lists of phrases")
    return SynonymGroups(groups)
