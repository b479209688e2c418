"""The query tokens of the in-memory BM25 index as it was before issue 21 (frozen with
:mod:`tools.knowledge.quality.baseline_bm25`, so the bench compares against what shipped, not a moving target).

Original description:
Text is NFKC-normalised (full-width letters and digits become ASCII) and lower-cased, then split into runs:

* a Latin run is letters/digits joined by ``_``, ``-`` or ``.`` (``err_timeout``, ``order-service``,
  ``payment_record.status``). It yields the whole run, each ``.``-separated piece that still holds a joiner
  (``payment_record``), and every letter/digit atom (``err``, ``timeout``), so both the exact identifier and
  its words match. Tokens shorter than two characters are dropped.
* a CJK run yields overlapping character bigrams. Documents also index every single character, so a query
  whose CJK run is one character long (``锁``) can still match; longer query runs use bigrams only, which keeps
  single common characters (``的``, ``是``) from counting as a match.

Query terms are de-duplicated and stripped of a few function words (English and Chinese) that carry no meaning
for retrieval; documents keep them (they only lengthen a section slightly). A query is also split into *units*
for coverage — one per Latin word and one per CJK character (characters only reachable through a function word
do not count) — because CJK has no word boundaries: the bigram that straddles two words (``库连`` in
``数据库连接池``) matches nothing, but its characters are covered by the real words on either side.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

_CJK_CHARS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_RUN = re.compile(rf"(?P<latin>[0-9a-z]+(?:[._\-][0-9a-z]+)*)|(?P<cjk>[{_CJK_CHARS}]+)")
_JOINERS = re.compile(r"[._\-]")

# fmt: off
QUERY_STOPWORDS = frozenset({
    # English function words
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from", "how", "i", "in", "is",
    "it", "me", "my", "of", "on", "or", "should", "the", "this", "to", "what", "when", "where", "which", "why",
    "with",
    # Chinese function bigrams and the junk bigrams of common question phrases
    "怎么", "么办", "么样", "什么", "为什", "如何", "怎样", "是否", "可以", "一下", "我们", "这个", "那个", "哪些",
    "一个", "请问", "应该", "需要", "时候", "是多", "多少", "是什", "么意", "意思", "么是", "么回", "回事",
    "帮我", "我想", "想知", "知道", "告诉", "诉我", "请帮", "解释", "释一", "说明", "明一",
    # one-character runs
    "的", "了", "吗", "呢", "是", "在", "和", "与", "或", "及", "把", "被", "要",
})
# fmt: on


def normalize(text: str) -> str:
    return unicodedata.normalize("NFKC", text).lower()


def _latin_tokens(run: str) -> Iterator[str]:
    yield run
    if "." in run:
        for piece in run.split("."):
            if piece != run and _JOINERS.search(piece):
                yield piece
    if _JOINERS.search(run):
        yield from _JOINERS.split(run)


def _runs(text: str) -> Iterator[tuple[str, str]]:
    for match in _RUN.finditer(normalize(text)):
        kind = "latin" if match.group("latin") is not None else "cjk"
        yield kind, match.group()


def document_tokens(text: str) -> list[str]:
    """Every token of ``text`` in order, repeats kept (term frequencies come from these)."""
    tokens: list[str] = []
    for kind, run in _runs(text):
        if kind == "latin":
            tokens.extend(token for token in _latin_tokens(run) if len(token) >= 2)
        else:
            tokens.extend(run)
            tokens.extend(run[i : i + 2] for i in range(len(run) - 1))
    return tokens


@dataclass(frozen=True)
class Query:
    """A parsed query: its distinct search terms and the units its coverage is measured in."""

    terms: tuple[str, ...]
    """Distinct terms in order of first appearance, function words removed."""
    units: tuple[frozenset[str], ...]
    """One entry per Latin word and per CJK character of the query: the terms that contain it."""

    def coverage(self, matched: set[str]) -> float:
        """Share of the query's words and characters that ``matched`` terms account for."""
        return sum(1 for unit in self.units if unit & matched) / len(self.units) if self.units else 0.0


def parse_query(text: str) -> Query:
    terms: dict[str, None] = {}
    units: list[frozenset[str]] = []
    for kind, run in _runs(text):
        if kind == "latin":
            tokens = [token for token in _latin_tokens(run) if len(token) >= 2 and token not in QUERY_STOPWORDS]
            for atom in _JOINERS.split(run):
                cover = frozenset(token for token in tokens if atom in _JOINERS.split(token))
                if cover:
                    units.append(cover)
        elif len(run) == 1:
            tokens = [] if run in QUERY_STOPWORDS else [run]
            units.extend(frozenset({token}) for token in tokens)
        else:
            bigrams = [run[i : i + 2] for i in range(len(run) - 1)]
            tokens = [bigram for bigram in bigrams if bigram not in QUERY_STOPWORDS]
            for position in range(len(run)):
                cover = frozenset(bigrams[max(0, position - 1) : position + 1]) - QUERY_STOPWORDS
                if cover:
                    units.append(cover)
        for token in tokens:
            terms.setdefault(token, None)
    return Query(tuple(terms), tuple(units))
