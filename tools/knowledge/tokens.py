"""Tokens for the knowledge index: Latin words and CJK character n-grams, no model, no network.

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
from dataclasses import dataclass, replace
from typing import Protocol

_CJK_CHARS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_RUN = re.compile(rf"(?P<latin>[0-9a-z]+(?:[._\-][0-9a-z]+)*)|(?P<cjk>[{_CJK_CHARS}]+)")
_JOINERS = re.compile(r"[._\-]")

# fmt: off
QUERY_STOPWORDS = frozenset({
    "a", "about", "above", "after", "again", "against", "ain", "all", "am", "an", "and", "any", "are", "aren", "as",
    "at", "be", "because", "been", "before", "being", "below", "between", "both", "but", "by", "can", "couldn",
    "did", "didn", "do", "does", "doesn", "doing", "don", "down", "during", "each", "few", "for", "from", "further",
    "had", "hadn", "has", "hasn", "have", "haven", "having", "he", "her", "here", "hers", "herself", "him",
    "himself", "his", "how", "i", "if", "in", "into", "is", "isn", "it", "its", "itself", "just", "ll", "ma", "me",
    "mightn", "more", "most", "mustn", "my", "myself", "needn", "no", "nor", "not", "now", "of", "off", "on",
    "once", "only", "or", "other", "our", "ours", "ourselves", "out", "over", "own", "re", "same", "shan", "she",
    "should", "shouldn", "so", "some", "such", "than", "that", "the", "their", "theirs", "them", "themselves",
    "then", "there", "these", "they", "this", "those", "through", "to", "too", "under", "until", "up", "ve",
    "very", "was", "wasn", "we", "were", "weren", "what", "when", "where", "which", "while", "who", "whom", "why",
    "will", "with", "won", "wouldn", "you", "your", "yours", "yourself", "yourselves",
})
"""English function words (NLTK's English stopword list, written without apostrophes since a token holds none),
dropped from queries: they would otherwise count as words a section must cover."""
CJK_FUNCTION_PHRASES = (
    "是什么意思", "什么意思", "为什么", "怎么办", "怎么样", "想知道", "告诉我", "解释一下", "说明一下", "请帮我",
    "怎么", "什么", "如何", "怎样", "是否", "可以", "一下", "我们", "这个", "那个", "哪些", "哪个", "一个", "请问",
    "应该", "需要", "时候", "多少", "帮我", "我想", "知道", "还要", "的话", "是不是", "有没有", "分别",
    "的", "了", "吗", "呢", "是", "在", "和", "与", "或", "及", "把", "被", "要", "都", "就", "还", "该", "谁", "哪",
)
"""Chinese function words and question phrases: a query's CJK run is cut at them (longest first) before its
bigrams are made, so no term straddles a question word (``积怎`` in ``堆积怎么排查``)."""
# fmt: on
_CJK_FUNCTION = re.compile("|".join(sorted(map(re.escape, CJK_FUNCTION_PHRASES), key=len, reverse=True)))


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
    """One entry per Latin word and per CJK character of the query: the terms that contain it (its expansions
    included)."""
    expansions: tuple[str, ...] = ()
    """Terms of the synonyms of the query's phrases (:mod:`tools.knowledge.synonyms`), not in ``terms``."""

    @property
    def search_terms(self) -> tuple[str, ...]:
        return self.terms + self.expansions

    def coverage(self, matched: set[str]) -> float:
        """Share of the query's words and characters that ``matched`` terms account for."""
        return sum(1 for unit in self.units if unit & matched) / len(self.units) if self.units else 0.0


@dataclass(frozen=True)
class _Unit:
    start: int
    end: int
    cover: frozenset[str]


def _parse(text: str) -> tuple[list[str], list[_Unit]]:
    """The terms of normalised ``text`` in order (repeats kept) and its units with their spans."""
    terms: list[str] = []
    units: list[_Unit] = []
    for match in _RUN.finditer(text):
        run, offset = match.group(), match.start()
        if match.group("latin") is not None:
            tokens = [token for token in _latin_tokens(run) if len(token) >= 2 and token not in QUERY_STOPWORDS]
            for atom in re.finditer(r"[0-9a-z]+", run):
                cover = frozenset(token for token in tokens if atom.group() in _JOINERS.split(token))
                if cover:
                    units.append(_Unit(offset + atom.start(), offset + atom.end(), cover))
            terms.extend(tokens)
            continue
        for segment in _content_segments(run):
            start = offset + segment.start()
            words = segment.group()
            if len(words) == 1:
                terms.append(words)
                units.append(_Unit(start, start + 1, frozenset({words})))
                continue
            bigrams = [words[i : i + 2] for i in range(len(words) - 1)]
            terms.extend(bigrams)
            for position in range(len(words)):
                cover = frozenset(bigrams[max(0, position - 1) : position + 1])
                units.append(_Unit(start + position, start + position + 1, cover))
    return terms, units


def _content_segments(run: str) -> Iterator[re.Match[str]]:
    """The stretches of a CJK run between its function words."""
    return re.finditer(r"[^\x00]+", _CJK_FUNCTION.sub(lambda found: "\x00" * len(found.group()), run))


def parse_query(text: str, synonyms: Synonyms | None = None) -> Query:
    """The query's terms and units; with ``synonyms``, each phrase found also brings its synonyms' terms, which
    cover the phrase's units as well as its own terms do."""
    normalized = normalize(text)
    own, units = _parse(normalized)
    expansions: dict[str, None] = {}
    for start, end, phrases in synonyms.find(normalized) if synonyms else ():
        added = frozenset(term for phrase in phrases for term in _parse(phrase)[0])
        units = [
            replace(unit, cover=unit.cover | added) if start <= unit.start and unit.end <= end else unit
            for unit in units
        ]
        expansions.update(dict.fromkeys(term for phrase in phrases for term in _parse(phrase)[0]))
    terms = tuple(dict.fromkeys(own))
    return Query(
        terms,
        tuple(unit.cover for unit in units),
        tuple(term for term in expansions if term not in terms),
    )


class Synonyms(Protocol):
    def find(self, normalized: str) -> Iterator[tuple[int, int, tuple[str, ...]]]:
        """``(start, end, synonyms)`` of each phrase found in ``normalized`` text."""
        ...
