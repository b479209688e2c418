"""Exact pieces of source text for quoting: sentences, prefixes, short times, and the sentences never quoted."""

from __future__ import annotations

import re

_SENTENCE_END = re.compile(r"(?<=[。！？!?；;])|\n")
_LIST_MARKER = re.compile(r"^\s*(?:[-*>|]+\s*|\d+[.)、]\s*)*")
_INSTRUCTION_LIKE = re.compile(
    r"忽略(?:之前|以上|前面)|ignore (?:all |the )?(?:previous|above)|直接回复|system prompt", re.I
)


def sentences(text: str) -> list[str]:
    """Exact sentences (substrings) of ``text``: split at line breaks and sentence ends, list markers trimmed
    from the front only, so every piece is still a substring of ``text``."""
    pieces: list[str] = []
    for raw in _SENTENCE_END.split(text):
        piece = raw[_LIST_MARKER.match(raw).end() :].strip() if raw else ""
        if len(piece) >= 4 and not piece.startswith("```"):
            pieces.append(piece)
    return pieces


def looks_like_instruction(text: str) -> bool:
    """A sentence that addresses the reader as an instruction (prompt injection in a document): never quoted."""
    return bool(_INSTRUCTION_LIKE.search(text))


def clip_prefix(text: str, limit: int) -> str:
    """The first ``limit`` characters (an exact prefix, no ellipsis inside)."""
    return text if len(text) <= limit else text[:limit].rstrip()


def short_time(iso: str) -> str:
    """``2026-07-21T02:15:01.948+00:00`` -> ``2026-07-21 02:15:01`` (digits kept exactly, for lexical checks)."""
    match = re.match(r"^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})", iso or "")
    return f"{match.group(1)} {match.group(2)}" if match else iso
