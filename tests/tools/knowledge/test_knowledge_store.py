"""The tantivy store: a sync is one commit, an interrupted sync converges, a busy writer costs no query."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from contract.clock import ManualClock
from tests.tools.knowledge.conftest import Folder
from tools.knowledge.index import KnowledgeIndex, KnowledgeUnavailable
from tools.knowledge.store import SCHEMA_VERSION, IndexUnusable, KnowledgeStore

DOC = "# 支付\n\n## 超时\n\n支付超时。\n\n## 退款\n\n退款重复提交。\n"


def ids(index: KnowledgeIndex, query: str) -> list[str]:
    return [hit.chunk.document_id for hit in index.search(query, 10).hits]


def test_a_sync_whose_file_stamps_were_not_written_converges(make_folder: Folder) -> None:
    """The sections are committed first and the file stamps after; a process that died in between leaves old
    stamps, and the next sync replaces those files' sections instead of adding them twice."""
    folder = make_folder({"a.md": DOC})
    location = folder.parent / ".kb.index"
    KnowledgeIndex(folder, location, watch=False).close()
    with sqlite3.connect(location / "files.sqlite") as db:
        db.execute("DELETE FROM files")
    index = KnowledgeIndex(folder, location, watch=False)
    try:
        assert index.parsed_count == 1
        assert ids(index, "支付超时") == ["a#超时"]
        assert index.totals.sections == 2  # the title has no text of its own
    finally:
        index.close()


def test_while_another_writer_holds_the_index_queries_use_it_as_it_stands(make_folder: Folder) -> None:
    folder = make_folder({"a.md": DOC})
    clock = ManualClock()
    location = folder.parent / ".kb.index"
    index = KnowledgeIndex(folder, location, clock=clock, watch=False)
    other = KnowledgeStore(location)
    writer = other._index.writer(15_000_000, 1)  # another process's `superbiz kb index`, holding the lock
    try:
        (folder / "b.md").write_text("# 锁\n\n行锁等待超时。\n", encoding="utf-8")
        clock.advance(2.0)
        assert ids(index, "支付超时") == ["a#超时"]  # answered from the index as it stands
        with pytest.raises(IndexUnusable, match="another process"):
            index.refresh()
        del writer
        assert ids(index, "行锁等待") == ["b#锁"]  # caught up by the next query
    finally:
        other.close()
        index.close()


def test_an_index_of_another_schema_is_rebuilt(make_folder: Folder) -> None:
    folder = make_folder({"a.md": DOC})
    location = folder.parent / ".kb.index"
    KnowledgeIndex(folder, location, watch=False).close()
    (location / "version").write_text(f"{SCHEMA_VERSION - 1}\n")
    (location / "sections" / "stray-segment").write_text("from an older layout")
    index = KnowledgeIndex(folder, location, watch=False)
    try:
        assert index.parsed_count == 1
        assert not (location / "sections" / "stray-segment").exists()
        assert ids(index, "退款重复") == ["a#退款"]
    finally:
        index.close()


def test_the_reported_size_is_what_the_directory_holds(make_folder: Folder) -> None:
    folder = make_folder({"a.md": DOC})
    index = KnowledgeIndex(folder, folder.parent / ".kb.index", watch=False)
    try:
        on_disk = sum(path.stat().st_size for path in Path(index.store.path).rglob("*") if path.is_file())
        assert index.store.size_bytes() == on_disk > 0
    finally:
        index.close()


def test_an_index_opened_while_another_process_builds_it_answers_once_the_build_is_done(make_folder: Folder) -> None:
    folder = make_folder({"a.md": DOC})
    location = folder.parent / ".kb.index"
    builder = KnowledgeStore(location)
    writer = builder._index.writer(15_000_000, 1)
    clock = ManualClock()
    index = KnowledgeIndex(folder, location, clock=clock, watch=False)
    try:
        with pytest.raises(KnowledgeUnavailable):
            index.search("支付超时", 5)
        del writer
        assert ids(index, "支付超时") == ["a#超时"]
    finally:
        builder.close()
        index.close()


def test_a_commit_by_another_process_is_seen_by_the_next_query(make_folder: Folder) -> None:
    folder = make_folder({"a.md": DOC})
    location = folder.parent / ".kb.index"
    replica, writer = (KnowledgeIndex(folder, location, clock=ManualClock(), watch=False) for _ in range(2))
    try:
        (folder / "b.md").write_text("# 锁\n\n行锁等待超时。\n", encoding="utf-8")
        writer.take_in(frozenset({"b.md"}))
        assert ids(replica, "行锁等待") == ["b#锁"]
    finally:
        replica.close()
        writer.close()
