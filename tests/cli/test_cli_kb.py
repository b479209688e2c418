"""``superbiz kb index`` and ``superbiz kb search``: the report, skipped files named, the index reused by the tool."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cli.main import main
from config.tool_budgets import RagBudget
from tools.knowledge.settings import KnowledgeToolSettings
from tools.knowledge.store import KnowledgeStore
from tools.knowledge.tool import BUNDLED_DOCS, LookupKnowledgeTool


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    shutil.copytree(BUNDLED_DOCS, tmp_path / "kb")
    (tmp_path / "kb" / "broken.md").write_bytes(b"# \xff\xfe broken\n")
    return tmp_path / "kb"


def test_index_reports_documents_sections_skipped_files_and_size(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["kb", "index", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "documents 7   sections 66   skipped 1" in out
    assert "skipped   broken.md: not UTF-8 text" in out
    assert "read 8, restamped 0, removed 0, unchanged 0" in out
    assert (folder.parent / ".kb.index" / "files.sqlite").stat().st_size > 0
    assert main(["kb", "index", str(folder)]) == 0
    assert "read 0, restamped 0, removed 0, unchanged 8" in capsys.readouterr().out


def test_an_empty_folder_is_an_error_not_a_crash(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "empty").mkdir()
    assert main(["kb", "index", str(tmp_path / "empty")]) == 1
    assert "no readable document" in capsys.readouterr().err


def test_search_prints_the_ranked_sections(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["kb", "search", "ERR_TIMEOUT 是什么意思", "--path", str(folder), "--limit", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1. error-codes#err_timeout")
    assert main(["kb", "search", "请告诉我明天北京的天气情况和出行建议", "--path", str(folder)]) == 0
    assert "NO_EVIDENCE" in capsys.readouterr().out


def test_the_tool_uses_the_index_the_command_built(folder: Path) -> None:
    assert main(["kb", "index", str(folder)]) == 0
    settings = KnowledgeToolSettings.model_validate({"concurrency": 1, "max-pending": 0, "path": str(folder)})
    tool = LookupKnowledgeTool(settings, RagBudget.model_validate({}), watch=False)
    assert tool.index.parsed_count == 0
    raw = tool.run("call-1", {"query": "ERR_TIMEOUT 是什么意思"})
    assert raw["hits"][0]["document_id"] == "error-codes#err_timeout"


def test_index_while_another_process_writes_it_says_so(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = KnowledgeStore(folder.parent / ".kb.index")
    writer = other._index.writer(15_000_000, 1)  # a running `superbiz serve` taking in an edit
    try:
        assert main(["kb", "index", str(folder)]) == 1
        assert "being written by another process; try again when it has finished" in capsys.readouterr().err
    finally:
        del writer
        other.close()
    assert main(["kb", "index", str(folder)]) == 0
