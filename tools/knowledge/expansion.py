"""What a query searches for besides its own words: the synonyms of its phrases, and for an English word no
synonym group knows, the Chinese words the dictionary gives for it (:mod:`tools.knowledge.glossary`).

A translation is kept only when the index holds every one of its terms: the dictionary offers several words per
English word (``reject``: 拒绝, 驳回, 排斥, …), and only those the team's documents use can match. So an English
question about something the folder never mentions gains nothing, and stays NO_EVIDENCE.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator

from tools.knowledge.glossary import EnglishGlossary
from tools.knowledge.tokens import QUERY_STOPWORDS, Synonyms, parse_query

ENGLISH_WORD = re.compile(r"(?<![0-9a-z_.\-])[a-z]{3,}(?![0-9a-z_\-])")
"""A plain English word of the normalised query; identifiers (``order_db``, ``pay-gateway-v1``) are not."""
DocumentFrequencies = Callable[[Iterable[str]], dict[str, int]]


class QueryExpansions:
    """The :class:`tools.knowledge.tokens.Synonyms` of one index: ``synonyms`` first, then the ``glossary``'s
    translations (loaded on the first English word) of each English word outside every synonym's phrase, kept if
    ``frequencies`` finds all their terms in the index."""

    def __init__(
        self, synonyms: Synonyms, glossary: Callable[[], EnglishGlossary], frequencies: DocumentFrequencies
    ) -> None:
        self._synonyms = synonyms
        self._glossary = glossary
        self._frequencies = frequencies

    def find(self, normalized: str) -> Iterator[tuple[int, int, tuple[str, ...]]]:
        spans = list(self._synonyms.find(normalized))
        yield from spans
        words = [
            word
            for word in ENGLISH_WORD.finditer(normalized)
            if word.group() not in QUERY_STOPWORDS
            and not any(start <= word.start() and word.end() <= end for start, end, _ in spans)
        ]
        if not words:
            return
        glossary = self._glossary()
        offered = {word.span(): glossary.translations(word.group()) for word in words}
        terms = {chinese: parse_query(chinese).terms for each in offered.values() for chinese in each}
        frequencies = self._frequencies({term for each in terms.values() for term in each})
        for (start, end), translations in offered.items():
            known = tuple(
                chinese
                for chinese in translations
                if terms[chinese] and all(frequencies.get(t) for t in terms[chinese])
            )
            if known:
                yield start, end, known
