"""The keyword matching rule of ``query_logs`` (the mock source's; a real backend brings its own).

A query becomes *terms*: the lower-cased query split into words, where a word is a run of ASCII letters,
digits and ``_`` that may be joined by ``-``, ``.``, ``:`` or ``/`` (so ``order-service``, ``order-123``,
``err_timeout``, ``10.0.3.17`` and ``/api/v1/orders`` stay whole), plus, for a run of CJK characters, the
run itself when it is one or two characters long and its overlapping two-character pieces otherwise
(``支付超时`` -> ``支付``, ``付超``, ``超时``). Single ASCII characters and a few filler words (``the``, ``is``,
``logs`` …) are dropped, and repeated terms are counted once.

An event matches when at least ``ceil(n / 2)`` of the ``n`` terms occur, as case-insensitive substrings, in
its service name and message. ``order-service HikariPool timeout`` therefore needs two of its three terms.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_TERM = re.compile(r"[a-z0-9_]+(?:[-.:/][a-z0-9_]+)*|[\u3400-\u4dbf\u4e00-\u9fff]+")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
STOPWORDS = frozenset(
    {"an", "the", "is", "are", "was", "were", "be", "of", "on", "in", "to", "for", "and", "or", "with", "at", "by"}
    | {"from", "as", "it", "this", "that", "log", "logs", "please", "any", "all", "some"}
)


def query_terms(query: str) -> tuple[str, ...]:
    """The distinct search terms of ``query``, in the order they first appear."""
    terms: list[str] = []
    for word in _TERM.findall(query.lower()):
        if _CJK.match(word):
            pieces = [word] if len(word) <= 2 else [word[i : i + 2] for i in range(len(word) - 1)]
        elif len(word) > 1 and word not in STOPWORDS:
            pieces = [word]
        else:
            pieces = []
        terms.extend(piece for piece in pieces if piece not in terms)
    return tuple(terms)


def required_hits(term_count: int) -> int:
    """How many of ``term_count`` terms an event must contain: half of them, rounded up."""
    return (term_count + 1) // 2


def matches(terms: Sequence[str], haystack: str) -> bool:
    """Whether ``haystack`` (already lower-cased service name and message) holds enough of ``terms``."""
    if not terms:
        return False
    needed = required_hits(len(terms))
    hits = 0
    for term in terms:
        if term in haystack:
            hits += 1
            if hits >= needed:
                return True
    return False
