"""How the guard reads an evidence entry: its readable text (no instructions), the pieces of a quote, zero
results, knowledge excerpts, and the words that state no fact."""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Any

from config.wording import DEFAULT_NON_FACT_WORDS
from offline_model.lexical import normalise
from offline_model.quoting import looks_like_instruction

NOT_FACTS = frozenset(word.lower() for word in DEFAULT_NON_FACT_WORDS)
nfkc = functools.partial(unicodedata.normalize, "NFKC")
SCOPE_KEYS = frozenset({"scope", "query", "asked"})
"""Fields that restate what was asked (the query, window, SQL), not what was found."""


def readable_text(text: str) -> str:
    return normalise("\n".join(line for line in nfkc(text).splitlines() if not looks_like_instruction(line)))


def pieces(phrase: str) -> list[str]:
    return [normalise(piece) for piece in re.split(r"…|\.\.\.", nfkc(phrase)) if piece.strip()]


def is_knowledge(entry: Any) -> bool:
    return isinstance(entry, dict) and entry.get("source_type") == "KNOWLEDGE"


def is_zero(entry: dict[str, Any]) -> bool:
    counts = [entry.get(key) for key in ("match_count", "returned_count", "series_count") if key in entry]
    return bool(counts) and all(count == 0 for count in counts)
