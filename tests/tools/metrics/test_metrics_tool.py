"""The tool: the demo metrics labelled MOCK, the lookback, failures as raw failures with fixed messages, cancel."""

from __future__ import annotations

import threading
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from config.tool_budgets import MetricsBudget
from contract.clock import ManualClock, isoformat
from contract.tool import SAFE_MESSAGES, TOOL_CANCELLED, failure_of
from contract.vocabulary import EvidenceStatus
from tests.tools.metrics.conftest import NOW, Call, ScriptedSource, make_tool, matrix
from tools.metrics.mock import MockMetricsSource
from tools.metrics.prometheus import CLIENT_GRACE_S, PrometheusSource
from tools.metrics.query import RangeQuery
from tools.metrics.settings import MetricsToolSettings
from tools.metrics.source import (
    METRICS_BAD_RESPONSE,
    METRICS_QUERY_REJECTED,
    METRICS_RESULT_TOO_LARGE,
    METRICS_TIMEOUT,
    METRICS_UNAVAILABLE,
    MetricsSourceError,
)
from tools.metrics.tool import BACKSTOP_S, MESSAGES, QueryMetricsTool

END = NOW.replace(microsecond=0)
PENDING = {"metric": "hikaricp_connections_pending", "aggregation": "max", "matchers": {"service": "order-service"}}


def test_the_demo_metrics_answer_labelled_mock(call: Call) -> None:
    raw, projection = call(**PENDING)
    assert raw["source_kind"] == "MOCK"
    assert raw["source"] == "prometheus"
    assert raw["scope"] == {
        "metric": "hikaricp_connections_pending",
        "type": "gauge",
        "aggregation": "max",
        "by": None,
        "matchers": {"service": "order-service"},
        "promql": 'max(hikaricp_connections_pending{service="order-service"})',
        "start_time": isoformat(END - timedelta(minutes=30)),
        "end_time": isoformat(END),
        "step_seconds": 30,
        "lookback_minutes": 30,
    }
    assert raw["response"]["status"] == "success"
    assert projection.evidence_status is EvidenceStatus.EVIDENCE_FOUND
    (series,) = projection.agent_result["series"]
    assert projection.agent_result["source_kind"] == "MOCK"
    assert series["points"] == 61
    assert series["max"] == 31
    assert series["min"] == 0  # the pool filled up inside the window
    assert series["largest_change"]["from"] == 0


def test_the_demo_tells_the_incident(call: Call) -> None:
    _, active = call(metric="hikaricp_connections_active", aggregation="max", by="service")
    by_service = {series["labels"]["service"]: series for series in active.agent_result["series"]}
    assert by_service["order-service"]["last"] == 50
    assert by_service["user-service"]["max"] <= 6
    _, latency = call(metric="http_server_requests_seconds", aggregation="p99", by="service")
    p99 = {series["labels"]["service"]: series["last"] for series in latency.agent_result["series"]}
    assert p99["order-service"] == 30 and p99["api-gateway"] == 30
    assert p99["user-service"] < 0.25
    _, errors = call(metric="payment_order_callback_total", aggregation="sum", by="outcome")
    rates = {series["labels"]["outcome"]: series for series in errors.agent_result["series"]}
    assert 0.3 < rates["ERR_TIMEOUT"]["last"] < 0.5
    assert rates["SUCCESS"]["sample"][0]["value"] > 0.4 > rates["SUCCESS"]["last"]
    _, statuses = call(metric="http_server_requests_seconds", aggregation="sum", by="status")
    assert {series["labels"]["status"] for series in statuses.agent_result["series"]} == {"200", "500", "504"}


def test_no_series_is_no_evidence(call: Call) -> None:
    raw, projection = call(metric="hikaricp_connections_active", aggregation="max", matchers={"service": "nobody"})
    assert raw["response"]["data"]["result"] == []
    assert projection.evidence_status is EvidenceStatus.NO_EVIDENCE
    assert projection.agent_result["scope"]["matchers"] == {"service": "nobody"}


def test_the_lookback_defaults_and_a_larger_one_is_clamped(clock: ManualClock) -> None:
    source = ScriptedSource()
    tool = make_tool(clock, source=source)
    tool.run("a", {**PENDING, "lookback_minutes": 90})
    raw = tool.run("b", {**PENDING, "lookback_minutes": 100000})
    assert [(q.end_s - q.start_s, q.step_s) for q in source.queries] == [(5400, 120), (86400, 1800)]
    assert raw["scope"]["lookback_minutes"] == 1440
    assert raw["scope"]["lookback_clamped"] is True
    assert raw["scope"]["requested_lookback_minutes"] == 100000
    budget = MetricsBudget.model_validate({"default-lookback": "10m", "max-lookback": "1h"})
    tool = make_tool(clock, budget=budget, source=source)
    assert "lookback_clamped" not in tool.run("c", PENDING)["scope"]
    assert source.queries[-1].end_s - source.queries[-1].start_s == 600


@pytest.mark.parametrize(
    "code",
    [METRICS_UNAVAILABLE, METRICS_TIMEOUT, METRICS_QUERY_REJECTED, METRICS_BAD_RESPONSE, METRICS_RESULT_TOO_LARGE],
)
def test_a_source_failure_is_a_raw_failure_with_a_fixed_message(clock: ManualClock, code: str) -> None:
    detail = 'HTTP 400 bad_data: parse error near "password=hunter2"'
    tool = make_tool(clock, source=ScriptedSource(MetricsSourceError(code, detail)))
    raw = tool.run("call-1", PENDING)
    assert failure_of(raw) == (code, MESSAGES[code])
    assert raw["error"]["detail"] == detail
    assert raw["scope"]["metric"] == "hikaricp_connections_pending"
    projection = tool.projector.project("call-1", PENDING, raw)
    assert projection.evidence_status is EvidenceStatus.ERROR
    assert projection.agent_result["error"] == {"code": code, "message": MESSAGES[code]}
    assert "hunter2" not in str(projection.agent_result) and "bad_data" not in str(projection.agent_result)


@pytest.mark.parametrize(
    "body",
    [
        {"status": "error", "errorType": "bad_data", "error": "nope"},
        {"status": "success", "data": {"resultType": "vector", "result": []}},
        matrix([{"metric": {}, "values": "none"}]),
        ["not", "an", "object"],
    ],
)
def test_an_answer_that_is_not_a_matrix_is_a_bad_response(clock: ManualClock, body: Any) -> None:
    raw = make_tool(clock, source=ScriptedSource(body)).run("call-1", PENDING)
    assert failure_of(raw) == (METRICS_BAD_RESPONSE, MESSAGES[METRICS_BAD_RESPONSE])


def test_cancel_makes_a_running_call_return_at_once(clock: ManualClock) -> None:
    source = ScriptedSource(hold=True)
    tool = make_tool(clock, source=source)
    outcome: list[dict[str, Any]] = []
    runner = threading.Thread(target=lambda: outcome.append(tool.run("call-1", PENDING)))
    runner.start()
    while not source.queries:
        time.sleep(0.01)
    started = time.monotonic()
    tool.cancel("call-1")
    runner.join(2)
    assert time.monotonic() - started < 1
    assert failure_of(outcome[0]) == (TOOL_CANCELLED, SAFE_MESSAGES[TOOL_CANCELLED])
    assert outcome[0]["scope"]["metric"] == "hikaricp_connections_pending"
    source.release.set()
    tool.cancel("unknown")  # nothing running under that id: nothing happens


def test_a_source_that_never_answers_times_out(clock: ManualClock) -> None:
    source = ScriptedSource(hold=True)
    tool = make_tool(clock, budget=MetricsBudget.model_validate({"query-timeout": "10ms"}), source=source)
    tool_wait = 0.01 + CLIENT_GRACE_S + BACKSTOP_S
    started = time.monotonic()
    raw = tool.run("call-1", PENDING)
    assert failure_of(raw) == (METRICS_TIMEOUT, MESSAGES[METRICS_TIMEOUT])
    assert tool_wait - 0.1 < time.monotonic() - started < tool_wait + 1
    source.release.set()


def test_the_source_follows_the_configuration(clock: ManualClock, tmp_path: Path) -> None:
    assert isinstance(QueryMetricsTool(MetricsToolSettings(), MetricsBudget(), clock)._source, MockMetricsSource)
    remote = QueryMetricsTool(MetricsToolSettings(url="http://127.0.0.1:9"), MetricsBudget(), clock)
    assert isinstance(remote._source, PrometheusSource)
    remote.close()
    missing = QueryMetricsTool(MetricsToolSettings(dataset=str(tmp_path / "absent.yaml")), MetricsBudget(), clock)
    raw = missing.run("call-1", PENDING)
    assert failure_of(raw) == (METRICS_UNAVAILABLE, MESSAGES[METRICS_UNAVAILABLE])
    assert raw["source_kind"] == "MOCK"


def test_close_closes_the_source(clock: ManualClock) -> None:
    source = ScriptedSource()
    make_tool(clock, source=source).close()
    assert source.closed


def test_a_source_that_breaks_raises_in_the_calling_thread(clock: ManualClock) -> None:
    class Broken(ScriptedSource):
        def query_range(self, query: RangeQuery) -> dict[str, Any]:
            raise KeyError("a bug")

    with pytest.raises(KeyError, match="a bug"):
        make_tool(clock, source=Broken()).run("call-1", PENDING)
