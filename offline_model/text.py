"""Small text helpers shared by the offline model's roles: JSON reading, sentences, tokens, token estimates."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from typing import Any

_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)
_A = r"(?<![A-Za-z0-9_\-])"
_Z = r"(?![A-Za-z0-9_])"
SERVICE_PATTERN = re.compile(_A + r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*-(?:service|gateway)" + _Z, re.IGNORECASE)
ORDER_ID_PATTERN = re.compile(_A + r"order-\d+" + _Z, re.IGNORECASE)
ERROR_CODE_PATTERN = re.compile(_A + r"ERR_[A-Z0-9_]+" + _Z)
_SENTENCE_END = re.compile(r"(?<=[。！？!?；;])|\n")
_LIST_MARKER = re.compile(r"^\s*(?:[-*>|]+\s*|\d+[.)、]\s*)*")
_INSTRUCTION_LIKE = re.compile(
    r"忽略(?:之前|以上|前面)|ignore (?:all |the )?(?:previous|above)|直接回复|system prompt", re.I
)


def json_object(text: str | None) -> dict[str, Any] | None:
    """The JSON object in ``text`` (optionally in a ```json fence), or None."""
    if not text:
        return None
    fenced = _FENCE.match(text)
    try:
        data = json.loads(fenced.group(1) if fenced else text)
    except (json.JSONDecodeError, TypeError):
        return None
    return data if isinstance(data, dict) else None


def dumps(data: Any) -> str:
    """Stable JSON (same input, same bytes): the offline model's replies are compared byte for byte."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


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


def estimate_tokens(texts: Iterable[str]) -> int:
    """A deterministic token estimate: about four characters a token (CJK text is counted the same way)."""
    return math.ceil(sum(len(text) for text in texts) / 4)


def short_time(iso: str) -> str:
    """``2026-07-21T02:15:01.948+00:00`` -> ``2026-07-21 02:15:01`` (digits kept exactly, for lexical checks)."""
    match = re.match(r"^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})", iso or "")
    return f"{match.group(1)} {match.group(2)}" if match else iso
