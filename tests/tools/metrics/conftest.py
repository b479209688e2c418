"""Fixtures of the query_metrics tests: a fixed clock, the default settings and budget, a tool over the demo metrics
and a source that answers what a test tells it to."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from config.tool_budgets import MetricsBudget
from contract.clock import ManualClock
from contract.tool import Projection
from tools.metrics.query import RangeQuery
from tools.metrics.settings import MetricsToolSettings
from tools.metrics.source import MetricsSourceError
from tools.metrics.tool import QueryMetricsTool

NOW = datetime(2026, 7, 21, 2, 30, 7, 250000, tzinfo=UTC)
Call = Callable[..., tuple[dict[str, Any], Projection]]


class ScriptedSource:
    """A source that records each query and answers with ``answer`` (a body, or a ``MetricsSourceError`` to
    raise); with ``hold`` set it waits for ``release`` first."""

    kind = "PROMETHEUS"

    def __init__(self, answer: dict[str, Any] | MetricsSourceError | None = None, hold: bool = False) -> None:
        self.answer = answer if answer is not None else matrix([])
        self.queries: list[RangeQuery] = []
        self.release = threading.Event()
        self.hold = hold
        self.closed = False

    def query_range(self, query: RangeQuery) -> dict[str, Any]:
        self.queries.append(query)
        if self.hold:
            self.release.wait(10)
        if isinstance(self.answer, MetricsSourceError):
            raise self.answer
        return self.answer

    def close(self) -> None:
        self.closed = True


def matrix(result: list[dict[str, Any]]) -> dict[str, Any]:
    return {"status": "success", "data": {"resultType": "matrix", "result": result}}


def make_tool(
    clock: ManualClock,
    settings: MetricsToolSettings | None = None,
    budget: MetricsBudget | None = None,
    source: ScriptedSource | None = None,
) -> QueryMetricsTool:
    return QueryMetricsTool(settings or MetricsToolSettings(), budget or MetricsBudget(), clock, source)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(NOW)


@pytest.fixture
def tool(clock: ManualClock) -> QueryMetricsTool:
    return make_tool(clock)


@pytest.fixture
def call(tool: QueryMetricsTool) -> Call:
    """Run the tool and project its raw response: ``call(metric=..., aggregation=...) -> (raw, projection)``."""

    def run(tool_call_id: str = "call-1", **arguments: Any) -> tuple[dict[str, Any], Projection]:
        raw = tool.run(tool_call_id, arguments)
        return raw, tool.projector.project(tool_call_id, arguments, raw)

    return run
