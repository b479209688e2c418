"""Fixtures of the query_logs tests: a fixed clock, the default budget and a tool over the bundled dataset."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from config.tool_budgets import LogsBudget
from contract.clock import ManualClock
from contract.tool import Projection
from tools.logs.settings import LogsToolSettings
from tools.logs.tool import QueryLogsTool

Call = Callable[..., tuple[dict[str, Any], Projection]]


def make_tool(
    clock: ManualClock, budget: LogsBudget | None = None, dataset: str | None = None, run_deadline_s: float = 240.0
) -> QueryLogsTool:
    settings = LogsToolSettings(concurrency=4, max_pending=16, dataset=dataset)
    return QueryLogsTool(settings, budget or LogsBudget(), clock, run_deadline_s=run_deadline_s)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def tool(clock: ManualClock) -> QueryLogsTool:
    return make_tool(clock)


@pytest.fixture
def call(tool: QueryLogsTool) -> Call:
    """Run the tool and project its raw response: ``call(topic=..., query=...) -> (raw, projection)``."""

    def run(tool_call_id: str = "call-1", **arguments: Any) -> tuple[dict[str, Any], Projection]:
        raw = tool.run(tool_call_id, arguments)
        return raw, tool.projector.project(tool_call_id, arguments, raw)

    return run
