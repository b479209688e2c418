"""query_metrics against a real Prometheus (Debian's 2.42, private, on loopback) holding the demo metrics: every
query shape answers as the mock answers from the same definition, and the failures map to their codes.

The private server holds the last two hours of the demo series, ending at ``prometheus_demo_now`` (a whole second,
so samples fall on the steps and on the windows' edges); the tool's clock is set there.
"""

from __future__ import annotations

import dataclasses
import json
import math
import socket
import threading
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest

from config.tool_budgets import MetricsBudget
from contract.clock import ManualClock
from contract.tool import TOOL_CANCELLED, failure_of
from contract.vocabulary import EvidenceStatus
from tests.services import PrometheusServer
from tools.metrics.dataset import load_dataset
from tools.metrics.kind import KIND
from tools.metrics.mock import evaluate
from tools.metrics.prometheus import CLIENT_GRACE_S, PrometheusSource
from tools.metrics.query import Aggregation, MetricType, RangeQuery, plan
from tools.metrics.settings import MetricsToolSettings
from tools.metrics.source import METRICS_QUERY_REJECTED, METRICS_TIMEOUT, METRICS_UNAVAILABLE
from tools.metrics.tool import MESSAGES, QueryMetricsTool

SHAPES: list[dict[str, Any]] = [
    {"metric": "hikaricp_connections_active", "aggregation": "max", "by": "service"},
    {"metric": "hikaricp_connections_active", "aggregation": "sum", "matchers": {"pool": "HikariPool-1"}},
    {"metric": "hikaricp_connections_pending", "aggregation": "avg", "matchers": {"service": "order-service"}},
    {"metric": "hikaricp_connections_max", "aggregation": "sum", "by": "service", "lookback_minutes": 60},
    {"metric": "payment_order_callback_total", "aggregation": "rate"},
    {"metric": "payment_order_callback_total", "aggregation": "rate", "by": "outcome"},
    {"metric": "payment_order_callback_total", "aggregation": "sum", "by": "outcome", "lookback_minutes": 60},
    {"metric": "payment_order_callback_total", "aggregation": "avg", "matchers": {"service": "payment-service"}},
    {"metric": "mysql_innodb_row_lock_waits_total", "aggregation": "max", "lookback_minutes": 45},
    {"metric": "http_server_requests_seconds", "aggregation": "rate", "matchers": {"service": "order-service"}},
    {"metric": "http_server_requests_seconds", "aggregation": "rate", "by": "status", "lookback_minutes": 60},
    {"metric": "http_server_requests_seconds", "aggregation": "sum", "by": "status", "lookback_minutes": 60},
    {"metric": "http_server_requests_seconds", "aggregation": "p50", "by": "uri"},
    {"metric": "http_server_requests_seconds", "aggregation": "p90", "by": "service", "lookback_minutes": 90},
    {"metric": "http_server_requests_seconds", "aggregation": "p99", "by": "uri"},
    {
        "metric": "http_server_requests_seconds",
        "aggregation": "p99",
        "matchers": {"service": "api-gateway", "uri": "/api/v1/orders/{orderId}/pay"},
        "lookback_minutes": 60,
    },
    {"metric": "http_server_requests_seconds", "aggregation": "p99", "matchers": {"service": "nobody"}},
]


def _id(shape: dict[str, Any]) -> str:
    return "-".join(str(value) for value in shape.values())


def _same(prometheus: dict[str, Any], mock: dict[str, Any]) -> None:
    """Both bodies hold the same series, steps and values (to the last bits floating-point summing may move)."""

    def series(body: dict[str, Any]) -> dict[str, list[list[Any]]]:
        return {json.dumps(s["metric"], sort_keys=True): s["values"] for s in body["data"]["result"]}

    ours, theirs = series(mock), series(prometheus)
    assert ours.keys() == theirs.keys()
    for key, values in theirs.items():
        assert [t for t, _ in values] == [t for t, _ in ours[key]], key
        for (_, expected), (_, found) in zip(values, ours[key], strict=True):
            assert float(found) == pytest.approx(float(expected), rel=1e-9, abs=1e-12, nan_ok=True), key


@pytest.fixture
def prometheus(prometheus_server: PrometheusServer) -> PrometheusServer:
    """The session's Prometheus, started again if a test stopped it."""
    prometheus_server.start()
    return prometheus_server


def _tool(url: str, now: datetime, budget: MetricsBudget | None = None) -> QueryMetricsTool:
    return QueryMetricsTool(MetricsToolSettings(url=url), budget or MetricsBudget(), ManualClock(now))


@pytest.mark.parametrize("shape", SHAPES, ids=[_id(shape) for shape in SHAPES])
def test_every_shape_answers_through_the_tool_as_the_mock_does(
    prometheus: PrometheusServer, prometheus_demo_now: datetime, shape: dict[str, Any]
) -> None:
    real = _tool(prometheus.url, prometheus_demo_now)
    demo = QueryMetricsTool(MetricsToolSettings(), MetricsBudget(), ManualClock(prometheus_demo_now))
    raw, mock_raw = real.run("call-1", shape), demo.run("call-1", shape)
    assert failure_of(raw) is None, raw
    assert (raw["source_kind"], mock_raw["source_kind"]) == ("PROMETHEUS", "MOCK")
    assert raw["scope"] == mock_raw["scope"]
    _same(raw["response"], mock_raw["response"])
    projected, mock_projected = (
        tool.projector.project("call-1", shape, answer) for tool, answer in ((real, raw), (demo, mock_raw))
    )
    assert projected.evidence_status == mock_projected.evidence_status
    assert projected.agent_result["series"] == mock_projected.agent_result["series"]
    result = KIND.read(projected.agent_result)
    assert result is not None
    assert KIND.scope(result).source == "prometheus"
    real.close()


@pytest.mark.parametrize("offset", [timedelta(0), timedelta(seconds=7, milliseconds=250), timedelta(minutes=41)])
def test_windows_off_the_sample_grid_agree_too(
    prometheus: PrometheusServer, prometheus_demo_now: datetime, offset: timedelta
) -> None:
    source = PrometheusSource(MetricsToolSettings(url=prometheus.url), MetricsBudget())
    dataset = load_dataset()
    data_now_ms = math.floor(prometheus_demo_now.timestamp() * 1000)
    shapes: list[tuple[str, MetricType, Aggregation, str | None]] = [
        ("hikaricp_connections_pending", "gauge", "max", "service"),
        ("payment_order_callback_total", "counter", "rate", None),
        ("http_server_requests_seconds", "histogram", "p99", "uri"),
    ]
    for metric, kind, aggregation, by in shapes:
        query = plan(metric, kind, aggregation, by, {}, prometheus_demo_now - offset, 1800, 15, 15)
        _same(source.query_range(query), {"data": {"result": evaluate(dataset, query, data_now_ms)}})
    source.close()


def test_a_value_cannot_leave_its_string_literal(prometheus: PrometheusServer, prometheus_demo_now: datetime) -> None:
    source = PrometheusSource(MetricsToolSettings(url=prometheus.url), MetricsBudget())
    # the argument rules refuse this value; handed to the builder anyway, it stays one literal: no vector(1) series
    query = plan(
        "hikaricp_connections_max",
        "gauge",
        "max",
        None,
        {"service": 'x"} or vector(1) #'},
        prometheus_demo_now,
        600,
        15,
        15,
    )
    assert source.query_range(query)["data"]["result"] == []
    source.close()


def test_a_stopped_server_is_unavailable(prometheus: PrometheusServer, prometheus_demo_now: datetime) -> None:
    tool = _tool(prometheus.url, prometheus_demo_now)
    prometheus.stop()
    try:
        raw = tool.run("call-1", SHAPES[0])
    finally:
        prometheus.start()
    assert failure_of(raw) == (METRICS_UNAVAILABLE, MESSAGES[METRICS_UNAVAILABLE])
    assert raw["error"]["detail"] == "request failed: ConnectError"
    projection = tool.projector.project("call-1", SHAPES[0], raw)
    assert projection.agent_result["error"] == {"code": METRICS_UNAVAILABLE, "message": MESSAGES[METRICS_UNAVAILABLE]}
    assert failure_of(tool.run("call-2", SHAPES[0])) is None  # back once it is
    tool.close()


class _TooFine:
    """Prometheus, asked for the tool's query at one point a second over two days: more points than it serves."""

    kind = "PROMETHEUS"

    def __init__(self, source: PrometheusSource) -> None:
        self._source = source

    def query_range(self, query: RangeQuery) -> dict[str, Any]:
        return self._source.query_range(dataclasses.replace(query, start_s=query.end_s - 2 * 86400, step_s=1))

    def close(self) -> None:
        self._source.close()


def test_a_query_the_server_rejects_is_a_safe_error(
    prometheus: PrometheusServer, prometheus_demo_now: datetime
) -> None:
    source = _TooFine(PrometheusSource(MetricsToolSettings(url=prometheus.url), MetricsBudget()))
    tool = QueryMetricsTool(MetricsToolSettings(), MetricsBudget(), ManualClock(prometheus_demo_now), source)
    raw = tool.run("call-1", SHAPES[0])
    assert failure_of(raw) == (METRICS_QUERY_REJECTED, MESSAGES[METRICS_QUERY_REJECTED])
    assert "HTTP 400 bad_data: exceeded maximum resolution of 11,000 points" in raw["error"]["detail"]
    projection = tool.projector.project("call-1", SHAPES[0], raw)
    assert projection.evidence_status is EvidenceStatus.ERROR
    assert "11,000" not in json.dumps(projection.agent_result) and "bad_data" not in json.dumps(projection.agent_result)
    assert projection.agent_result["scope"]["metric"] == SHAPES[0]["metric"]
    tool.close()


def test_the_servers_own_timeout_is_a_timeout(prometheus: PrometheusServer, prometheus_demo_now: datetime) -> None:
    budget = MetricsBudget.model_validate({"query-timeout": "0.001ms"})
    tool = _tool(prometheus.url, prometheus_demo_now, budget)
    raw = tool.run("call-1", {**SHAPES[12], "lookback_minutes": 120})
    assert failure_of(raw) == (METRICS_TIMEOUT, MESSAGES[METRICS_TIMEOUT])
    assert "timeout" in raw["error"]["detail"] or "deadline exceeded" in raw["error"]["detail"]
    tool.close()


@pytest.fixture
def silent() -> Iterator[str]:
    """A server that accepts connections and never answers."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"


def test_a_server_that_never_answers_times_out(silent: str, prometheus_demo_now: datetime) -> None:
    budget = MetricsBudget.model_validate({"query-timeout": "100ms"})
    tool = _tool(silent, prometheus_demo_now, budget)
    started = time.monotonic()
    raw = tool.run("call-1", SHAPES[0])
    assert failure_of(raw) == (METRICS_TIMEOUT, MESSAGES[METRICS_TIMEOUT])
    assert raw["error"]["detail"] == "client timeout: ReadTimeout"
    assert 0.1 + CLIENT_GRACE_S - 0.2 < time.monotonic() - started < 0.1 + CLIENT_GRACE_S + 1
    tool.close()


def test_cancel_returns_at_once_while_the_server_is_silent(silent: str, prometheus_demo_now: datetime) -> None:
    tool = _tool(silent, prometheus_demo_now)
    outcome: list[dict[str, Any]] = []
    runner = threading.Thread(target=lambda: outcome.append(tool.run("call-1", SHAPES[0])))
    runner.start()
    time.sleep(0.3)
    started = time.monotonic()
    tool.cancel("call-1")
    runner.join(2)
    assert time.monotonic() - started < 0.5
    assert failure_of(outcome[0]) == (TOOL_CANCELLED, "The call was cancelled.")
    tool.close()
