"""The search index of one knowledge folder: the on-disk store (:mod:`tools.knowledge.store`), kept in step
with the folder.

Opening an index syncs it once (only changed files are read, so an index built by ``superbiz kb index`` is
used as it is). Afterwards a file-system watcher (inotify through ``watchdog``) names the files that changed,
and the next search takes exactly those in before it runs, so an edit is visible to the next query. Where no
watcher can run, the folder is rescanned at most every ``refresh_interval_s`` (2 s) instead.

Retrieval rule (see :mod:`tools.knowledge.tokens` for the terms):

* the query's terms are its own plus those of the synonyms of its phrases (:mod:`tools.knowledge.synonyms`)
  and, for an English word no synonym knows, of the dictionary's Chinese words for it that the index holds
  (:mod:`tools.knowledge.expansion`), so an English question finds a Chinese runbook; an expansion covers the
  words it stands for;
* sections are ranked by BM25 over the document title (once), the section's own headings (×3) and the text
  (:mod:`tools.knowledge.store`); the best ``CANDIDATES`` are examined;
* a section is a hit only if (a) it contains at least ``MIN_MATCHED_TERMS`` (2) distinct query terms — or all
  of them when the query has fewer — and (b) its matched terms cover at least ``MIN_COVERAGE`` (40 %) of the
  query's units, one unit per Latin word and per CJK character (:class:`tools.knowledge.tokens.Query`). Below
  these rules a match is noise, not evidence, and the query gets NO_EVIDENCE;
* a hit's score is its BM25 times the square of its coverage, so a section that answers the whole question
  ranks above one that repeats a part of it; equal scores are ordered by file path and position in the file.

Measured on the labelled sets of :mod:`tools.knowledge.quality` (``bench/knowledge.py``), each rule above earns
its place: the title counted once, synonyms, CJK function-word cuts (:mod:`tools.knowledge.tokens`) and the
coverage factor took recall@3 from 0.733 to 0.855 and MRR from 0.743 to 0.857 on the tuned set (bundled + 300
distractors); the dictionary and the English function words took a blind set's from 0.669 to 0.777 and from
0.742 to 0.852.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from contract.clock import Clock, SystemClock
from contract.vocabulary import HarnessError
from tools.knowledge.chunks import Chunk
from tools.knowledge.expansion import QueryExpansions
from tools.knowledge.glossary import EnglishGlossary, bundled_glossary
from tools.knowledge.store import IndexUnusable, KnowledgeStore, Store, Totals
from tools.knowledge.sync import Progress, SyncReport, scan, stat_file, sync
from tools.knowledge.synonyms import SynonymGroups, bundled_synonyms
from tools.knowledge.tokens import parse_query
from tools.knowledge.watch import FolderWatch

REFRESH_INTERVAL_S = 2.0
CANDIDATES = 64
"""Sections examined per query, best BM25 first; the rules below pick the hits among them."""
MIN_MATCHED_TERMS = 2
MIN_COVERAGE = 0.4


class KnowledgeUnavailable(HarnessError):
    """The knowledge folder is missing, unreadable or holds no usable section. The message is for operators."""

    code = "KNOWLEDGE_UNAVAILABLE"


@dataclass(frozen=True)
class Hit:
    chunk: Chunk
    score: float
    coverage: float
    matched_terms: tuple[str, ...]
    """Matched query terms, in the fewest sections (most specific) first, then in query order."""


@dataclass(frozen=True)
class SearchResult:
    terms: tuple[str, ...]
    expansions: tuple[str, ...]
    """Terms the synonyms of the query's phrases added."""
    hits: tuple[Hit, ...]
    qualified_count: int
    """Hits among the examined candidates, before ``limit`` was applied."""
    candidate_count: int
    """Sections examined: the best-ranked ones sharing at least one term with the query."""
    totals: Totals


class KnowledgeIndex:
    """The index of ``folder`` stored at ``index_path``. Thread-safe.

    ``defer_sync`` leaves the first sync to an explicit :meth:`refresh` (the CLI shows its progress). ``store``
    opens the index at ``index_path``: tantivy's, or a candidate the bench compares it with.
    """

    def __init__(
        self,
        folder: Path,
        index_path: Path,
        *,
        clock: Clock | None = None,
        refresh_interval_s: float = REFRESH_INTERVAL_S,
        watch: bool = True,
        defer_sync: bool = False,
        synonyms: SynonymGroups | None = None,
        glossary: Callable[[], EnglishGlossary] = bundled_glossary,
        store: Callable[[Path], Store] = KnowledgeStore,
    ) -> None:
        self.folder = folder
        self.store = store(index_path)
        self._expansions = QueryExpansions(
            synonyms if synonyms is not None else bundled_synonyms(), glossary, self.store.document_frequencies
        )
        self._clock = clock or SystemClock()
        self._refresh_interval_s = refresh_interval_s
        self._lock = threading.Lock()
        self._parsed = 0
        self._available = False
        self._stale = False
        self._totals = Totals(0, 0, ())
        self._watch = FolderWatch.start(folder) if watch else None
        self._checked_at = self._clock.monotonic()
        if not defer_sync:
            self._stale = True
            self._catch_up()

    @property
    def parsed_count(self) -> int:
        """How many files this index has read and parsed since it was opened (unchanged files are not)."""
        return self._parsed

    @property
    def watching(self) -> bool:
        """True while a file-system watcher reports this folder's changes; otherwise the folder is polled."""
        return self._watch is not None and self._watch.alive

    @property
    def totals(self) -> Totals:
        return self._totals

    def close(self) -> None:
        if self._watch is not None:
            self._watch.stop()
        self.store.close()

    def refresh(self, progress: Progress | None = None) -> SyncReport:
        """Rescan the whole folder now and take in what changed."""
        with self._lock:
            return self._full_sync(progress)

    def search(self, query: str, limit: int) -> SearchResult:
        """The best ``limit`` sections for ``query``; raises :class:`KnowledgeUnavailable`."""
        with self._lock:
            self._catch_up()
            if not self._available:
                raise KnowledgeUnavailable(self._failure())
            totals = self._totals
        parsed = parse_query(query, self._expansions)
        candidates = self.store.search(parsed.search_terms, max(CANDIDATES, limit))
        needed = min(MIN_MATCHED_TERMS, len(parsed.terms))
        ranked: list[tuple[float, str, int, Hit]] = []
        for candidate in candidates:
            matched = [term for term in parsed.search_terms if f" {term} " in candidate.terms]
            coverage = parsed.coverage(set(matched))
            if len(matched) >= needed and coverage >= MIN_COVERAGE:
                hit = Hit(candidate.chunk, candidate.score * coverage**2, coverage, tuple(matched))
                ranked.append((-hit.score, hit.chunk.source, candidate.position, hit))
        ranked.sort(key=lambda entry: entry[:3])
        best = [hit for *_, hit in ranked[:limit]]
        frequencies = self.store.document_frequencies({term for hit in best for term in hit.matched_terms})
        hits = tuple(
            replace(hit, matched_terms=tuple(sorted(hit.matched_terms, key=lambda term: frequencies.get(term, 0))))
            for hit in best
        )
        return SearchResult(parsed.terms, parsed.expansions, hits, len(ranked), len(candidates), totals)

    def _catch_up(self) -> None:
        """Take in what changed since the last query. While another process writes the index (``superbiz kb
        index``), the query is answered from the index as it stands and the folder is rescanned next time."""
        try:
            if self._stale:
                self._full_sync()
            elif self.watching:
                changes = self._watch.take()
                if changes.everything:
                    self._full_sync()
                elif changes.paths:
                    self._take_in(changes.paths)
            elif self._clock.monotonic() - self._checked_at >= self._refresh_interval_s:
                self._full_sync()
        except IndexUnusable:
            self._stale = True
            return
        self._stale = False

    def _full_sync(self, progress: Progress | None = None) -> SyncReport:
        self._checked_at = self._clock.monotonic()
        files = scan(self.folder)
        if files is None:
            self._available = False
            return SyncReport()
        return self._record(sync(self.store, self.folder, files, progress=progress))

    def take_in(self, paths: frozenset[str]) -> SyncReport:
        """Take in the files named by ``paths`` now (what the watcher reports), without rescanning the folder."""
        with self._lock:
            return self._take_in(paths)

    def _take_in(self, paths: frozenset[str]) -> SyncReport:
        files = {}
        for path in paths:
            state = stat_file(self.folder, path)
            if state is not None:
                files[path] = state
        return self._record(sync(self.store, self.folder, files, only=paths))

    def _record(self, report: SyncReport) -> SyncReport:
        self._parsed += len(report.parsed)
        if report.parsed or report.removed or not self._available:
            self._totals = self.store.totals()
        self._available = self._totals.sections > 0
        return report

    def _failure(self) -> str:
        if scan(self.folder) is None:
            return f"knowledge folder {self.folder} is missing or unreadable"
        return f"no readable section under {self.folder}"
