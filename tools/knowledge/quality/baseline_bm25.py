"""Today's index before issue 21, kept as the quality eval's and the bench's baseline: an in-memory BM25 over markdown.

The index is built when it is created. Afterwards, at most once every ``refresh_interval_s`` (2 s), a search
compares a cheap signature of the folder — the sorted ``(relative path, mtime_ns, size)`` of every ``*.md``
file — with the one the index was built from, and rebuilds only when it differs. A search never rebuilds
otherwise, and never touches the files.

Retrieval rule (see :mod:`tools.knowledge.tokens` for the terms):

* each section is scored with Okapi BM25 (k1 = 1.2, b = 0.75) over its breadcrumb (weighted ×3) and text, each
  distinct query term counted once, ``idf = ln(1 + (N - df + 0.5) / (df + 0.5))``;
* a section is a hit only if (a) it contains at least ``MIN_MATCHED_TERMS`` (2) distinct query terms — or all
  of them when the query has fewer — and (b) its matched terms cover at least ``MIN_COVERAGE`` (40 %) of the
  query's units, one unit per Latin word and per CJK character (:class:`tools.knowledge.tokens.Query`). A
  section sharing a word or two with a query that is mostly about something else (``请告诉我明天北京的天气情况
  和出行建议`` shares ``情况``, ``建议``) fails (b); a single shared bigram fails (a). Below these rules a match
  is noise, not evidence, and the query gets NO_EVIDENCE;
* hits are ordered by score, then by file path and position in the file, so equal scores are deterministic.
"""

from __future__ import annotations

import math
import threading
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

from contract.clock import Clock, SystemClock
from contract.vocabulary import HarnessError
from tools.knowledge.chunks import Chunk, split_sections
from tools.knowledge.quality.baseline_tokens import Query, document_tokens, parse_query

REFRESH_INTERVAL_S = 2.0
BM25_K1 = 1.2
BM25_B = 0.75
HEADING_WEIGHT = 3
"""Heading words count this many times: a section titled ERR_TIMEOUT is about ERR_TIMEOUT."""
MIN_MATCHED_TERMS = 2
MIN_COVERAGE = 0.4
DOCUMENT_GLOB = "*.md"

Signature = tuple[tuple[str, int, int], ...]


class KnowledgeUnavailable(HarnessError):
    """The knowledge folder is missing, unreadable or holds no usable section. The message is for operators."""

    code = "KNOWLEDGE_UNAVAILABLE"


@dataclass(frozen=True)
class Hit:
    chunk: Chunk
    score: float
    coverage: float
    matched_terms: tuple[str, ...]
    """Matched query terms, highest idf (most specific) first."""


@dataclass(frozen=True)
class SearchResult:
    terms: tuple[str, ...]
    hits: tuple[Hit, ...]
    qualified_count: int
    """Hits before ``limit`` was applied."""
    candidate_count: int
    """Sections sharing at least one term with the query, qualified or not."""
    build: int
    documents: int
    sections: int
    skipped: tuple[str, ...]
    """Documents left out of this build because they could not be read as UTF-8."""


def folder_signature(folder: Path) -> Signature | None:
    """``(relative path, mtime_ns, size)`` of every document, sorted; None when the folder cannot be listed."""
    try:
        if not folder.is_dir():
            return None
        entries = []
        for path in folder.rglob(DOCUMENT_GLOB):
            relative = path.relative_to(folder)
            if any(part.startswith(".") for part in relative.parts) or not path.is_file():
                continue
            stat = path.stat()
            entries.append((relative.as_posix(), stat.st_mtime_ns, stat.st_size))
    except OSError:
        return None
    return tuple(sorted(entries))


def _idf(sections: int, document_frequency: int) -> float:
    return math.log(1 + (sections - document_frequency + 0.5) / (document_frequency + 0.5))


@dataclass(frozen=True)
class _Snapshot:
    build: int
    documents: int
    chunks: tuple[Chunk, ...]
    lengths: tuple[int, ...]
    postings: dict[str, tuple[tuple[int, int], ...]]
    skipped: tuple[str, ...]

    @classmethod
    def build_from(cls, folder: Path, signature: Signature, build: int) -> _Snapshot:
        chunks: list[Chunk] = []
        skipped: list[str] = []
        documents = 0
        for relative, _, _ in signature:
            try:
                markdown = (folder / relative).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                skipped.append(relative)
                continue
            documents += 1
            chunks.extend(split_sections(relative, markdown))
        if not chunks:
            raise KnowledgeUnavailable(f"no readable markdown section under {folder}")
        postings: dict[str, list[tuple[int, int]]] = defaultdict(list)
        lengths = []
        for position, chunk in enumerate(chunks):
            counts = Counter(document_tokens(chunk.breadcrumb) * HEADING_WEIGHT + document_tokens(chunk.text))
            lengths.append(sum(counts.values()))
            for term, frequency in counts.items():
                postings[term].append((position, frequency))
        frozen = {term: tuple(entries) for term, entries in postings.items()}
        return cls(build, documents, tuple(chunks), tuple(lengths), frozen, tuple(skipped))

    def search(self, query: Query, limit: int) -> SearchResult:
        terms = query.terms
        count = len(self.chunks)
        average = sum(self.lengths) / count or 1.0
        idf = {term: _idf(count, len(self.postings.get(term, ()))) for term in terms}
        scores: dict[int, float] = defaultdict(float)
        matched: dict[int, list[str]] = defaultdict(list)
        for term in terms:
            for position, frequency in self.postings.get(term, ()):
                norm = frequency + BM25_K1 * (1 - BM25_B + BM25_B * self.lengths[position] / average)
                scores[position] += idf[term] * frequency * (BM25_K1 + 1) / norm
                matched[position].append(term)
        needed = min(MIN_MATCHED_TERMS, len(terms))
        qualified: list[tuple[float, int, float]] = []
        for position, score in scores.items():
            coverage = query.coverage(set(matched[position]))
            if len(matched[position]) >= needed and coverage >= MIN_COVERAGE:
                qualified.append((-score, position, coverage))
        qualified.sort()
        hits = tuple(
            Hit(
                self.chunks[position],
                -negative,
                coverage,
                tuple(sorted(matched[position], key=lambda term: (-idf[term], terms.index(term)))),
            )
            for negative, position, coverage in qualified[:limit]
        )
        return SearchResult(terms, hits, len(qualified), len(scores), self.build, self.documents, count, self.skipped)


class KnowledgeIndex:
    """The search index of one knowledge folder. Thread-safe; searches run on an immutable snapshot."""

    def __init__(self, folder: Path, *, clock: Clock | None = None, refresh_interval_s: float = REFRESH_INTERVAL_S):
        self.folder = folder
        self._clock = clock or SystemClock()
        self._refresh_interval_s = refresh_interval_s
        self._lock = threading.Lock()
        self._builds = 0
        self._snapshot: _Snapshot | None = None
        self._failure = ""
        self._checked_at = self._clock.monotonic()
        self._signature = folder_signature(folder)
        self._load(self._signature)

    @property
    def build_count(self) -> int:
        """How many times the folder was read and indexed (successfully or not)."""
        return self._builds

    def search(self, query: str, limit: int) -> SearchResult:
        """The best ``limit`` sections for ``query``; raises :class:`KnowledgeUnavailable`."""
        snapshot = self._current()
        return snapshot.search(parse_query(query), limit)

    def _current(self) -> _Snapshot:
        with self._lock:
            now = self._clock.monotonic()
            if now - self._checked_at >= self._refresh_interval_s:
                self._checked_at = now
                signature = folder_signature(self.folder)
                if signature != self._signature:
                    self._signature = signature
                    self._load(signature)
            if self._snapshot is None:
                raise KnowledgeUnavailable(self._failure)
            return self._snapshot

    def _load(self, signature: Signature | None) -> None:
        if signature is None:
            self._snapshot, self._failure = None, f"knowledge folder {self.folder} is missing or unreadable"
            return
        self._builds += 1
        try:
            self._snapshot = _Snapshot.build_from(self.folder, signature, self._builds)
        except KnowledgeUnavailable as exc:
            self._snapshot, self._failure = None, str(exc)
