"""Fixtures for the lookup_knowledge tests: settings, budgets, temp knowledge folders and the bundled tool."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from config.tool_budgets import RagBudget
from contract.clock import ManualClock
from contract.tool import Projection
from tools.knowledge.settings import KnowledgeToolSettings
from tools.knowledge.tool import LookupKnowledgeTool

Folder = Callable[[dict[str, str]], Path]
Call = Callable[..., tuple[dict[str, Any], Projection]]
"""Types of the ``make_folder`` and ``call`` fixtures."""


def rag_budget(**overrides: int) -> RagBudget:
    """A RagBudget from kebab-case overrides, e.g. ``rag_budget(**{"max-evidence": 2})``."""
    return RagBudget.model_validate(overrides)


def knowledge_settings(path: Path | None = None) -> KnowledgeToolSettings:
    values: dict[str, Any] = {"concurrency": 1, "max-pending": 0}
    if path is not None:
        values["path"] = str(path)
    return KnowledgeToolSettings.model_validate(values)


@pytest.fixture
def make_folder(tmp_path: Path) -> Folder:
    """Write ``{relative path: markdown}`` into a fresh folder and return it."""
    counter = iter(range(1000))

    def make(files: dict[str, str]) -> Path:
        folder = tmp_path / f"kb{next(counter)}"
        folder.mkdir()
        for name, text in files.items():
            path = folder / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        return folder

    return make


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def bundled_tool(clock: ManualClock) -> LookupKnowledgeTool:
    return LookupKnowledgeTool(knowledge_settings(), rag_budget(), clock=clock)


@pytest.fixture
def call() -> Call:
    """Run a tool and project its raw response, as the Harness does: ``call(tool, query) -> (raw, projection)``."""

    def invoke(tool: LookupKnowledgeTool, query: Any, call_id: str = "call-1") -> tuple[dict[str, Any], Projection]:
        arguments = {"query": query}
        raw = tool.run(call_id, arguments)
        return raw, tool.projector.project(call_id, arguments, raw)

    return invoke
