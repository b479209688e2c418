"""The SQLite FTS5 candidate for the knowledge index, kept for ``bench/knowledge.py``'s side-by-side figures.

Issue 21 measured it against tantivy on the same corpus and queries; tantivy (:mod:`tools.knowledge.store`)
was chosen. This store has the same interface: one SQLite database with an FTS5 table over the sections'
terms (:mod:`tools.knowledge.tokens`), read by FTS5's ``unicode61`` tokenizer with ``._-`` as token characters,
ranked by ``bm25()`` over the title (×1), the section's own headings (×5) and the text (×1). Every change is one
transaction in WAL mode, so a reader sees the index before a sync or after it, never half of one.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from tools.knowledge.chunks import Chunk
from tools.knowledge.store import Candidate, Indexed, StoredFile, Totals, own_headings
from tools.knowledge.tokens import document_tokens

SCHEMA_VERSION = 2
TITLE_WEIGHT = 1.0
HEADING_WEIGHT = 5.0
"""FTS5's own best column weights on the labelled set (its bm25() weights columns inside one saturation)."""
BUSY_TIMEOUT_S = 10.0
CHECKPOINT_AFTER = 50
"""A sync that rewrote this many files folds the write-ahead log back into the database file."""

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS documents (
    path TEXT PRIMARY KEY, mtime_ns INTEGER NOT NULL, size INTEGER NOT NULL, sha256 TEXT NOT NULL,
    sections INTEGER NOT NULL, skipped TEXT
);
CREATE TABLE IF NOT EXISTS sections (
    id INTEGER PRIMARY KEY, path TEXT NOT NULL, position INTEGER NOT NULL, document_id TEXT NOT NULL,
    title TEXT NOT NULL, breadcrumb TEXT NOT NULL, text TEXT NOT NULL, terms TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS sections_by_path ON sections (path);
CREATE VIRTUAL TABLE IF NOT EXISTS section_terms USING fts5(
    title, heading, body, tokenize = "unicode61 tokenchars '._-' remove_diacritics 0"
);
CREATE VIRTUAL TABLE IF NOT EXISTS section_vocabulary USING fts5vocab(section_terms, row);
PRAGMA user_version = {SCHEMA_VERSION};
"""

_SEARCH = """
SELECT s.path, s.position, s.document_id, s.title, s.breadcrumb, s.text, s.terms,
       bm25(section_terms, ?, ?, 1.0) AS score
FROM section_terms JOIN sections AS s ON s.id = section_terms.rowid
WHERE section_terms MATCH ?
ORDER BY score, s.path, s.position
LIMIT ?
"""


def match_expression(terms: Iterable[str]) -> str:
    """An FTS5 query matching any of ``terms``, each quoted so it is read as one term."""
    return " OR ".join('"' + term.replace('"', '""') + '"' for term in terms)


def _term_text(text: str) -> tuple[str, set[str]]:
    tokens = document_tokens(text)
    return " ".join(tokens), set(tokens)


class Fts5Store:
    """The SQLite file at ``path``. One connection, used under a lock (searches are a few milliseconds)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode = WAL")
        self._db.execute("PRAGMA synchronous = NORMAL")
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version not in (0, SCHEMA_VERSION):
            self._db.executescript(
                "DROP TABLE IF EXISTS section_vocabulary; DROP TABLE IF EXISTS section_terms; "
                "DROP TABLE IF EXISTS sections; DROP TABLE IF EXISTS documents;"
            )
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def files(self, paths: Iterable[str] | None = None) -> dict[str, StoredFile]:
        """The stamps of every file the index holds, or of those of ``paths`` it holds."""
        query, wanted = "SELECT path, mtime_ns, size, sha256 FROM documents", list(paths or ())
        if paths is not None:
            query += " WHERE path IN (SELECT value FROM json_each(?))"
        with self._lock:
            rows = self._db.execute(query, (json.dumps(wanted),) if paths is not None else ()).fetchall()
        return {path: StoredFile(mtime_ns, size, sha256) for path, mtime_ns, size, sha256 in rows}

    def apply(self, indexed: Iterable[Indexed], touched: Iterable[Indexed], removed: Iterable[str]) -> None:
        """In one transaction: replace the sections of ``indexed``, restamp ``touched``, drop ``removed``."""
        indexed = list(indexed)
        with self._transaction() as db:
            for path in removed:
                _delete(db, path)
                db.execute("DELETE FROM documents WHERE path = ?", (path,))
            for item in touched:
                db.execute(
                    "UPDATE documents SET mtime_ns = ?, size = ? WHERE path = ?", (item.mtime_ns, item.size, item.path)
                )
            for item in indexed:
                _delete(db, item.path)
                _insert(db, item)
        if len(indexed) >= CHECKPOINT_AFTER:
            with self._lock:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def totals(self) -> Totals:
        with self._lock:
            documents = self._db.execute("SELECT count(*) FROM documents WHERE skipped IS NULL").fetchone()[0]
            sections = self._db.execute("SELECT count(*) FROM sections").fetchone()[0]
            skipped = self._db.execute(
                "SELECT path, skipped FROM documents WHERE skipped IS NOT NULL ORDER BY path"
            ).fetchall()
        return Totals(documents, sections, tuple((path, reason) for path, reason in skipped))

    def size_bytes(self) -> int:
        """The database with its write-ahead log, as it is on disk now."""
        return sum(file.stat().st_size for file in self.path.parent.glob(self.path.name + "*") if file.is_file())

    def document_frequencies(self, terms: Iterable[str]) -> dict[str, int]:
        """How many sections hold each of ``terms``."""
        wanted = list(terms)
        if not wanted:
            return {}
        marks = ", ".join("?" * len(wanted))
        with self._lock:
            rows = self._db.execute(f"SELECT term, doc FROM section_vocabulary WHERE term IN ({marks})", wanted)
            return dict(rows.fetchall())

    def search(self, terms: Iterable[str], limit: int) -> list[Candidate]:
        """The best ``limit`` sections holding any of ``terms``, best first; ties by path, then position."""
        expression = match_expression(terms)
        if not expression:
            return []
        with self._lock:
            rows = self._db.execute(_SEARCH, (TITLE_WEIGHT, HEADING_WEIGHT, expression, limit)).fetchall()
        return [
            Candidate(Chunk(document_id, path, title, breadcrumb, text), position, -score, terms_text)
            for path, position, document_id, title, breadcrumb, text, terms_text, score in rows
        ]


def _delete(db: sqlite3.Connection, path: str) -> None:
    db.execute("DELETE FROM section_terms WHERE rowid IN (SELECT id FROM sections WHERE path = ?)", (path,))
    db.execute("DELETE FROM sections WHERE path = ?", (path,))


def _insert(db: sqlite3.Connection, item: Indexed) -> None:
    db.execute(
        "INSERT OR REPLACE INTO documents (path, mtime_ns, size, sha256, sections, skipped) VALUES (?, ?, ?, ?, ?, ?)",
        (item.path, item.mtime_ns, item.size, item.sha256, len(item.chunks), item.skipped),
    )
    for position, chunk in enumerate(item.chunks):
        title, title_terms = _term_text(chunk.title)
        heading, heading_terms = _term_text(own_headings(chunk))
        body, body_terms = _term_text(chunk.text)
        distinct = " " + " ".join(sorted(title_terms | heading_terms | body_terms)) + " "
        cursor = db.execute(
            "INSERT INTO sections (path, position, document_id, title, breadcrumb, text, terms) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (item.path, position, chunk.document_id, chunk.title, chunk.breadcrumb, chunk.text, distinct),
        )
        db.execute(
            "INSERT INTO section_terms (rowid, title, heading, body) VALUES (?, ?, ?, ?)",
            (cursor.lastrowid, title, heading, body),
        )
