"""The quotation rule: a passage quoted as what a source returned must be something it returned.

A model that searched the logs for "db-master-02 connection refused" can write 日志显示「db-master-02 connection
refused」: every word of the quote is in its evidence, as the query it ran. A quoted passage (「…」, “…”, "…", '…',
or code) that repeats the call's own query but occurs in none of the texts the call returned is refused
(UNGROUNDED_QUOTE), unless the sentence names it as the query (以「…」查询, searched for "…"). An ellipsis inside
or at either end of a quote elides text: each piece must occur. Quotes that neither occur in the returned text nor
repeat the query (a paraphrase in quotation marks) are left to the value rule and the SemanticGuard.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from harness.gate.advice import quoted_query, report_language
from harness.gate.evidence import Grounds
from harness.gate.failures import EvidenceFailure, EvidenceFailureCode
from harness.gate.scope_naming import names_scope
from harness.gate.text import normal

_QUOTE = re.compile(
    r"「(?P<a>[^「」\n]{2,500})」|『(?P<b>[^『』\n]{2,500})』|“(?P<c>[^“”\n]{2,500})”|‘(?P<d>[^‘’\n]{2,500})’"
    r"|(?<![A-Za-z0-9])\"(?P<e>[^\"\n]{2,500})\"|(?<![A-Za-z0-9])'(?P<f>[^'\n]{2,500})'(?![A-Za-z0-9])"
)
_ELISION = re.compile(r"…+|\.{3,}")
_WORD = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.:/-]*|[\u4e00-\u9fff]{2,}")
_SPACE = re.compile(r"\s+")
MIN_WORDS = 2
"""A quote of one word is a token, which the value rule reads."""


def quote_failures(where: str, text: str, grounds: Grounds) -> list[EvidenceFailure]:
    """UNGROUNDED_QUOTE for each quoted passage of ``text`` that repeats the query instead of what came back."""
    form = normal(text)
    found = [_flat(item) for item in grounds.found.texts]
    asked = [_flat(item) for item in grounds.asked.texts]
    failures: list[EvidenceFailure] = []
    for start, end in _quoted(form.text, form.code_spans):
        passage = form.text[start:end]
        pieces = [_flat(piece) for piece in _ELISION.split(passage) if piece.strip()]
        if sum(len(_WORD.findall(piece)) for piece in pieces) < MIN_WORDS:
            continue
        if names_scope(form.text, start, end):
            continue
        if all(any(piece in seen for seen in found) for piece in pieces):
            continue
        if any(_repeats(piece, query) for piece in pieces for query in asked):
            shown = passage if len(passage) <= 60 else passage[:57] + "..."
            failures.append(
                EvidenceFailure(EvidenceFailureCode.UNGROUNDED_QUOTE, quoted_query(where, shown, report_language(text)))
            )
    return failures


def _quoted(text: str, code_spans: tuple[tuple[int, int], ...]) -> Iterator[tuple[int, int]]:
    for found in _QUOTE.finditer(text):
        name = next(group for group in "abcdef" if found[group] is not None)
        yield found.span(name)
    yield from code_spans


def _flat(text: str) -> str:
    return _SPACE.sub(" ", normal(text).text.casefold()).strip(" \t'\"「」“”‘’")


def _repeats(piece: str, query: str) -> bool:
    """Whether a quoted piece repeats a query: one holds the other, or they share two words."""
    if piece in query or query in piece:
        return True
    shared = set(_WORD.findall(piece)) & set(_WORD.findall(query))
    return len({word for word in shared if len(word) >= 3}) >= 2
