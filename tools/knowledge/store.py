"""The knowledge index on disk: a tantivy index of the sections beside a SQLite table of the files it holds.

The index is a directory (``.<folder>.index`` beside the documents' folder unless configured):

* ``sections/`` is a tantivy index, one document per section. Its scored field holds our terms
  (:mod:`tools.knowledge.tokens`: Latin identifiers whole and in parts, CJK characters and bigrams) split on
  spaces, so tantivy's inverted index serves our vocabulary: the document title's terms once, the section's own
  headings' ``HEADING_WEIGHT`` (3) times, then the text's. ``terms`` (each distinct term once, for document
  frequencies) and ``path`` (to delete a file's sections) are indexed too, and the section itself is stored.
* ``files.sqlite`` holds each file's mtime, size, hash and section count, or why it was skipped.

A change is one tantivy commit, which a reader sees whole or not at all, so a query never sees half a sync.
The files table is written after the commit: if the process dies in between, the table still holds the old
stamps and the next sync reads those files again and replaces their sections, which converges.

Ranking is tantivy's BM25 (k1 = 1.2, b = 0.75) over that field: repeating the headings weights them inside one
saturation, as BM25F does, where a field per part would saturate each part on its own (measured: the labelled
set's recall@3 0.830 against 0.793). tantivy skips blocks of postings that cannot reach the top hits
(block-max WAND), which keeps a query near two milliseconds at 60,000 sections.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import threading
from collections.abc import Iterable
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import tantivy

from contract.vocabulary import HarnessError
from tools.knowledge.chunks import BREADCRUMB_SEPARATOR, Chunk
from tools.knowledge.tokens import document_tokens

SCHEMA_VERSION = 1
TITLE_WEIGHT = 1
HEADING_WEIGHT = 3
WRITER_HEAP_BYTES = 64_000_000
BUSY_TIMEOUT_S = 10.0
_TOKENIZER = "terms"
_FILES_SCHEMA = """
CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY, mtime_ns INTEGER NOT NULL, size INTEGER NOT NULL, sha256 TEXT NOT NULL,
    sections INTEGER NOT NULL, skipped TEXT
);
"""


class Store(Protocol):
    """What :class:`tools.knowledge.index.KnowledgeIndex` needs of an index on disk."""

    def files(self, paths: Iterable[str] | None = None) -> dict[str, StoredFile]: ...
    def apply(self, indexed: Iterable[Indexed], touched: Iterable[Indexed], removed: Iterable[str]) -> None: ...
    def search(self, terms: Iterable[str], limit: int) -> list[Candidate]: ...
    def document_frequencies(self, terms: Iterable[str]) -> dict[str, int]: ...
    def totals(self) -> Totals: ...
    def size_bytes(self) -> int: ...
    def close(self) -> None: ...


class IndexUnusable(HarnessError):
    """Another process holds the index's writer (``superbiz kb index``, or a replica taking in an edit)."""

    code = "KNOWLEDGE_INDEX_BUSY"


@dataclass(frozen=True)
class StoredFile:
    mtime_ns: int
    size: int
    sha256: str


@dataclass(frozen=True)
class Indexed:
    """One file as the index takes it in: its sections, or why it was skipped."""

    path: str
    mtime_ns: int
    size: int
    sha256: str
    chunks: tuple[Chunk, ...] = ()
    skipped: str | None = None


@dataclass(frozen=True)
class Candidate:
    chunk: Chunk
    position: int
    """The section's place in its file, from 0."""
    score: float
    """BM25, higher is better."""
    terms: str
    """The section's distinct terms, space-separated and space-framed: ``" a b c "``."""


@dataclass(frozen=True)
class Totals:
    documents: int
    sections: int
    skipped: tuple[tuple[str, str], ...]
    """``(path, reason)`` of every file the index holds no section of."""


def _schema() -> tantivy.Schema:
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("path", tokenizer_name="raw", index_option="basic")
    builder.add_text_field("weighted", tokenizer_name=_TOKENIZER, index_option="freq")
    builder.add_text_field("terms", tokenizer_name=_TOKENIZER, index_option="basic")
    builder.add_bytes_field("section", stored=True, indexed=False)
    return builder.build()


def own_headings(chunk: Chunk) -> str:
    """The breadcrumb below the document title. The title is every section's context and counts once, so the
    title's own section does not outrank the sections it introduces."""
    parts = chunk.breadcrumb.split(BREADCRUMB_SEPARATOR)
    if parts and parts[0] == chunk.title:
        parts = parts[1:]
    return BREADCRUMB_SEPARATOR.join(parts)


class KnowledgeStore:
    """The index directory at ``path``. Searches share one reader under a lock; a sync takes the writer."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        sections = path / "sections"
        version_file = path / "version"
        if path.exists() and (not version_file.is_file() or version_file.read_text().strip() != str(SCHEMA_VERSION)):
            shutil.rmtree(path)
        sections.mkdir(parents=True, exist_ok=True)
        version_file.write_text(f"{SCHEMA_VERSION}\n")
        self._schema = _schema()
        self._index = tantivy.Index(self._schema, path=str(sections), reuse=True)
        self._index.register_tokenizer(_TOKENIZER, tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.whitespace()).build())
        self._files = sqlite3.connect(
            path / "files.sqlite", timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
        )
        self._files.execute("PRAGMA journal_mode = WAL")
        self._files.executescript(_FILES_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._files.close()

    def files(self, paths: Iterable[str] | None = None) -> dict[str, StoredFile]:
        """The stamps of every file the index holds, or of those of ``paths`` it holds."""
        query, wanted = "SELECT path, mtime_ns, size, sha256 FROM files", list(paths or ())
        if paths is not None:
            query += " WHERE path IN (SELECT value FROM json_each(?))"
        with self._lock:
            rows = self._files.execute(query, (json.dumps(wanted),) if paths is not None else ()).fetchall()
        return {path: StoredFile(mtime_ns, size, sha256) for path, mtime_ns, size, sha256 in rows}

    def apply(self, indexed: Iterable[Indexed], touched: Iterable[Indexed], removed: Iterable[str]) -> None:
        """Replace the sections of ``indexed`` and drop ``removed`` in one commit; restamp ``touched``."""
        indexed, touched, removed = list(indexed), list(touched), list(removed)
        with self._lock:
            if indexed or removed:
                self._commit(indexed, removed)
            with closing(self._files.cursor()) as cursor:
                cursor.execute("BEGIN IMMEDIATE")
                for path in removed:
                    cursor.execute("DELETE FROM files WHERE path = ?", (path,))
                for item in touched:
                    cursor.execute(
                        "UPDATE files SET mtime_ns = ?, size = ? WHERE path = ?", (item.mtime_ns, item.size, item.path)
                    )
                cursor.executemany(
                    "INSERT OR REPLACE INTO files (path, mtime_ns, size, sha256, sections, skipped) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    [(i.path, i.mtime_ns, i.size, i.sha256, len(i.chunks), i.skipped) for i in indexed],
                )
                cursor.execute("COMMIT")

    def _commit(self, indexed: list[Indexed], removed: list[str]) -> None:
        try:
            writer = self._index.writer(WRITER_HEAP_BYTES, 1)
        except ValueError as exc:
            raise IndexUnusable(f"knowledge index {self.path} is being written by another process") from exc
        for path in [*removed, *(item.path for item in indexed)]:
            writer.delete_documents_by_term("path", path)
        for item in indexed:
            for position, chunk in enumerate(item.chunks):
                writer.add_document(_document(item.path, position, chunk))
        writer.commit()
        writer.wait_merging_threads()
        self._index.reload()

    def totals(self) -> Totals:
        with self._lock:
            documents, sections = self._files.execute(
                "SELECT count(*), coalesce(sum(sections), 0) FROM files WHERE skipped IS NULL"
            ).fetchone()
            skipped = self._files.execute(
                "SELECT path, skipped FROM files WHERE skipped IS NOT NULL ORDER BY path"
            ).fetchall()
        return Totals(documents, sections, tuple((path, reason) for path, reason in skipped))

    def size_bytes(self) -> int:
        """Everything under the index directory, as it is on disk now."""
        return sum(file.stat().st_size for file in self.path.rglob("*") if file.is_file())

    def document_frequencies(self, terms: Iterable[str]) -> dict[str, int]:
        """How many sections hold each of ``terms``."""
        with self._lock:
            searcher = self._index.searcher()
            return {term: searcher.doc_freq("terms", term) for term in terms}

    def search(self, terms: Iterable[str], limit: int) -> list[Candidate]:
        """The best ``limit`` sections holding any of ``terms``, best first."""
        clauses = [(tantivy.Occur.Should, tantivy.Query.term_query(self._schema, "weighted", term)) for term in terms]
        if not clauses:
            return []
        with self._lock:
            self._index.reload()  # another process's commit (a replica, `superbiz kb index`); ~0.1 ms
            searcher = self._index.searcher()
            result = searcher.search(tantivy.Query.boolean_query(clauses), limit)
            stored = [(score, searcher.doc(address)["section"][0]) for score, address in result.hits]
        return [_candidate(score, raw) for score, raw in stored]


def _document(path: str, position: int, chunk: Chunk) -> tantivy.Document:
    title, heading = document_tokens(chunk.title), document_tokens(own_headings(chunk))
    body = document_tokens(chunk.text)
    distinct = sorted({*title, *heading, *body})
    section = {
        "document_id": chunk.document_id,
        "source": chunk.source,
        "position": position,
        "title": chunk.title,
        "breadcrumb": chunk.breadcrumb,
        "text": chunk.text,
        "terms": " " + " ".join(distinct) + " ",
    }
    return tantivy.Document(
        path=path,
        weighted=" ".join(title * TITLE_WEIGHT + heading * HEADING_WEIGHT + body),
        terms=" ".join(distinct),
        section=json.dumps(section, ensure_ascii=False).encode(),
    )


def _candidate(score: float, raw: bytes) -> Candidate:
    section = json.loads(raw)
    chunk = Chunk(section["document_id"], section["source"], section["title"], section["breadcrumb"], section["text"])
    return Candidate(chunk, section["position"], score, section["terms"])
