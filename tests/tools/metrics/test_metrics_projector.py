"""The projector: per-series figures, rounding, the sample, caps and truncation, redaction, NO_EVIDENCE and the
safe ERROR envelope."""

from __future__ import annotations

import json
from typing import Any

import pytest

from config.tool_budgets import MetricsBudget
from contract.tool import PROJECTION_FAILED, SAFE_MESSAGES, TOOL_CANCELLED, failure_raw
from contract.vocabulary import EvidenceStatus
from tests.tools.metrics.conftest import matrix
from tools.metrics.projector import QueryMetricsResultProjector
from tools.metrics.source import METRICS_TIMEOUT
from tools.metrics.tool import MESSAGES

T0 = 1784599200  # 2026-07-21T02:00:00Z
SCOPE: dict[str, Any] = {
    "metric": "hikaricp_connections_active",
    "type": "gauge",
    "aggregation": "max",
    "by": "service",
    "matchers": {"pool": "HikariPool-1"},
    "promql": 'max by (service) (hikaricp_connections_active{pool="HikariPool-1"})',
    "start_time": "2026-07-21T02:00:00.000+00:00",
    "end_time": "2026-07-21T02:30:00.000+00:00",
    "step_seconds": 30,
    "lookback_minutes": 30,
}


def _at(index: int) -> str:
    minutes, seconds = divmod(index * 30, 60)
    return f"2026-07-21T02:{minutes:02d}:{seconds:02d}.000+00:00"


def _raw(result: list[dict[str, Any]], **scope: Any) -> dict[str, Any]:
    return {
        "source_kind": "PROMETHEUS",
        "source": "prometheus",
        "scope": {**SCOPE, **scope},
        "response": matrix(result),
    }


def _series(values: list[str], **labels: str) -> dict[str, Any]:
    return {
        "metric": labels or {"service": "order-service"},
        "values": [[T0 + 30 * i, v] for i, v in enumerate(values)],
    }


def _project(raw: dict[str, Any], budget: MetricsBudget | None = None) -> dict[str, Any]:
    projection = QueryMetricsResultProjector(budget or MetricsBudget()).project("call-1", {}, raw)
    json.dumps(projection.agent_result, allow_nan=False)
    return projection.agent_result


def test_a_series_becomes_its_figures_and_a_sample() -> None:
    projection = QueryMetricsResultProjector(MetricsBudget()).project(
        "call-1", {}, _raw([_series(["1", "3", "2", "10", "9"])])
    )
    assert projection.evidence_status is EvidenceStatus.EVIDENCE_FOUND
    assert projection.agent_result == {
        "evidence_status": "EVIDENCE_FOUND",
        "tool_call_id": "call-1",
        "source_kind": "PROMETHEUS",
        "source": "prometheus",
        "scope": SCOPE,
        "series_count": 1,
        "returned_count": 1,
        "series": [
            {
                "labels": {"service": "order-service"},
                "points": 5,
                "min": 1,
                "max": 10,
                "last": 9,
                "mean": 5,
                "first_time": _at(0),
                "last_time": _at(4),
                "largest_change": {"from_time": _at(2), "to_time": _at(3), "from": 2, "to": 10, "change": 8},
                "sample": [{"time": _at(i), "value": v} for i, v in enumerate([1, 3, 2, 10, 9])],
            }
        ],
        "truncated": False,
    }


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("0.30000000000000004", 0.3),
        ("29.700000000000003", 29.7),
        ("0.0853267", 0.08533),
        ("0.512299", 0.5123),
        ("24.4757", 24.48),
        ("123456.789", 123457),
        ("2.0", 2),
        ("50", 50),
        ("1e-9", 1e-9),
        ("-0.5", -0.5),
        ("0", 0),
        ("-0", 0),
        ("1e300", 1e300),
    ],
)
def test_numbers_are_rounded_without_float_noise(text: str, shown: float) -> None:
    (series,) = _project(_raw([_series([text])]))["series"]
    assert series["last"] == shown
    assert type(series["last"]) is type(shown)


def test_the_mean_and_changes_are_rounded_too() -> None:
    (series,) = _project(_raw([_series(["0.1", "0.2", "0.4"])]))["series"]
    assert series["mean"] == 0.2333
    assert series["largest_change"]["change"] == 0.2


def test_the_largest_change_is_the_earliest_of_the_largest_moves_either_way() -> None:
    (series,) = _project(_raw([_series(["5", "1", "5", "1", "9", "0"])]))["series"]
    assert series["largest_change"] == {"from_time": _at(4), "to_time": _at(5), "from": 9, "to": 0, "change": -9}
    (tie,) = _project(_raw([_series(["5", "1", "5"])]))["series"]
    assert tie["largest_change"]["to_time"] == _at(1)
    (flat,) = _project(_raw([_series(["7", "7"])]))["series"]
    assert flat["largest_change"]["change"] == 0
    (single,) = _project(_raw([_series(["7"])]))["series"]
    assert single["largest_change"] is None


def test_the_sample_is_evenly_spaced_with_the_first_and_last_point() -> None:
    (series,) = _project(_raw([_series([str(i) for i in range(61)])]))["series"]
    assert [point["value"] for point in series["sample"]] == [0, 9, 17, 26, 34, 43, 51, 60]
    (small,) = _project(_raw([_series([str(i) for i in range(61)])]), MetricsBudget(max_sample_points=2))["series"]
    assert [point["value"] for point in small["sample"]] == [0, 60]


def test_non_finite_points_are_counted_and_left_out_of_the_figures() -> None:
    (series,) = _project(_raw([_series(["NaN", "4", "+Inf", "2", "NaN"])]))["series"]
    assert series["points"] == 5
    assert series["non_finite_points"] == 3
    assert (series["min"], series["max"], series["last"], series["mean"]) == (2, 4, 2, 3)
    assert series["largest_change"] == {"from_time": _at(1), "to_time": _at(3), "from": 4, "to": 2, "change": -2}
    assert [point["time"] for point in series["sample"]] == [_at(1), _at(3)]
    result = _project(_raw([_series(["NaN", "NaN"])]))
    assert result["evidence_status"] == "EVIDENCE_FOUND"
    (empty,) = result["series"]
    assert empty["min"] is empty["max"] is empty["last"] is empty["mean"] is empty["largest_change"] is None
    assert empty["sample"] == []
    assert "non_finite_points" not in _project(_raw([_series(["1"])]))["series"][0]


def test_series_are_ordered_by_their_maximum_and_capped() -> None:
    result = _project(_raw([_series([str(i)], service=f"s{i:02d}") for i in range(12)]))
    assert result["series_count"] == 12
    assert result["returned_count"] == 10
    assert [series["labels"]["service"] for series in result["series"]] == [f"s{i:02d}" for i in range(11, 1, -1)]
    assert result["truncated"] is True
    ties = _project(_raw([_series(["1"], service=name) for name in ("b", "c", "a")]))
    assert [series["labels"]["service"] for series in ties["series"]] == ["a", "b", "c"]
    assert ties["truncated"] is False


def test_the_total_size_shrinks_samples_first_then_series() -> None:
    result = [_series([str(i * j) for i in range(61)], service=f"service-{j}") for j in range(1, 5)]
    full = _project(_raw(result))
    assert full["truncated"] is False
    assert all(len(series["sample"]) == 8 for series in full["series"])
    budget = MetricsBudget(max_total_chars=len(json.dumps(full, ensure_ascii=False)) - 50)
    shrunk = _project(_raw(result), budget)
    assert shrunk["truncated"] is True
    assert shrunk["returned_count"] == 4
    assert {len(series["sample"]) for series in shrunk["series"]} == {7}
    assert len(json.dumps(shrunk, ensure_ascii=False)) <= budget.max_total_chars
    tight = MetricsBudget(max_total_chars=1500)
    fewer = _project(_raw(result), tight)
    assert fewer["returned_count"] < 4
    assert all(series["sample"] == [] for series in fewer["series"])
    assert fewer["series_count"] == 4
    assert fewer["scope"] == SCOPE
    assert len(json.dumps(fewer, ensure_ascii=False)) <= tight.max_total_chars


def test_a_sample_as_long_as_the_series_is_not_truncated() -> None:
    result = _project(_raw([_series(["1", "2", "3"])]), MetricsBudget(max_sample_points=2))
    assert len(result["series"][0]["sample"]) == 2
    assert result["truncated"] is False


def test_secrets_in_labels_and_in_the_scope_are_redacted() -> None:
    raw = _raw(
        [_series(["1"], service="order-service", dsn="jdbc:mysql://app:Sup3rS3cret@db-1:3306/order_db")],
        matchers={"pool": "Bearer mF_9.B5f-4.1JqM"},
        promql='max(hikaricp_connections_active{pool="Bearer mF_9.B5f-4.1JqM"})',
    )
    result = _project(raw)
    text = json.dumps(result, ensure_ascii=False)
    assert "Sup3rS3cret" not in text and "mF_9.B5f-4.1JqM" not in text
    assert result["series"][0]["labels"]["dsn"] == "jdbc:mysql://[REDACTED]@db-1:3306/order_db"
    assert result["scope"]["matchers"] == {"pool": "Bearer [REDACTED]"}
    assert result["scope"]["promql"] == 'max(hikaricp_connections_active{pool="Bearer [REDACTED]"})'


def test_long_labels_are_clipped_and_say_so() -> None:
    result = _project(_raw([_series(["1"], uri="/x" * 100)]))
    assert len(result["series"][0]["labels"]["uri"]) == 120
    assert result["series"][0]["labels"]["uri"].endswith("…")
    assert result["truncated"] is True


def test_no_series_is_no_evidence_with_the_whole_scope() -> None:
    projection = QueryMetricsResultProjector(MetricsBudget()).project("call-1", {}, _raw([]))
    assert projection.evidence_status is EvidenceStatus.NO_EVIDENCE
    assert projection.agent_result == {
        "evidence_status": "NO_EVIDENCE",
        "tool_call_id": "call-1",
        "source_kind": "PROMETHEUS",
        "source": "prometheus",
        "scope": SCOPE,
        "series_count": 0,
        "returned_count": 0,
        "series": [],
        "truncated": False,
    }


def test_a_clamped_lookback_is_kept_in_the_scope() -> None:
    result = _project(_raw([], lookback_minutes=1440, lookback_clamped=True, requested_lookback_minutes=5000))
    assert result["scope"]["lookback_clamped"] is True
    assert (result["scope"]["lookback_minutes"], result["scope"]["requested_lookback_minutes"]) == (1440, 5000)


def test_a_failure_is_the_error_envelope_with_its_fixed_message_and_no_detail() -> None:
    failure = failure_raw(METRICS_TIMEOUT, MESSAGES[METRICS_TIMEOUT], detail="HTTP 503 timeout: query password=x")
    raw = {**failure, "source_kind": "PROMETHEUS", "source": "prometheus", "scope": SCOPE}
    projection = QueryMetricsResultProjector(MetricsBudget()).project("call-1", {}, raw)
    assert projection.evidence_status is EvidenceStatus.ERROR
    assert projection.error_code == METRICS_TIMEOUT
    assert projection.agent_result == {
        "evidence_status": "ERROR",
        "tool_call_id": "call-1",
        "source_kind": "PROMETHEUS",
        "source": "prometheus",
        "scope": SCOPE,
        "error": {"code": METRICS_TIMEOUT, "message": MESSAGES[METRICS_TIMEOUT]},
    }
    bare = QueryMetricsResultProjector(MetricsBudget()).project(
        "call-2", {}, failure_raw(TOOL_CANCELLED, SAFE_MESSAGES[TOOL_CANCELLED])
    )
    assert bare.agent_result == {
        "evidence_status": "ERROR",
        "tool_call_id": "call-2",
        "error": {"code": TOOL_CANCELLED, "message": SAFE_MESSAGES[TOOL_CANCELLED]},
    }


@pytest.mark.parametrize(
    "raw",
    [
        [],
        {"source_kind": "PROMETHEUS", "source": "prometheus", "scope": SCOPE},
        {**_raw([]), "source_kind": "mock"},
        {**_raw([]), "source": "a b"},
        {**_raw([]), "scope": {**SCOPE, "aggregation": "topk"}},
        {**_raw([]), "response": {"status": "success", "data": {"resultType": "vector", "result": []}}},
        {**_raw([]), "response": {"status": "error", "errorType": "bad_data", "error": "x"}},
        _raw([{"metric": {}, "values": [[T0, "abc"]]}]),
        _raw([{"metric": {}, "values": [[T0, 1.5]]}]),
        _raw([{"metric": {}, "values": [["x", "1"]]}]),
        _raw([{"metric": {}, "values": [[1e20, "1"]]}]),
        _raw([{"metric": {"a": 1}, "values": [[T0, "1"]]}]),
        _raw([{"metric": {}, "values": [[T0, "1", "2"]]}]),
    ],
)
def test_a_malformed_raw_cannot_be_projected(raw: Any) -> None:
    projection = QueryMetricsResultProjector(MetricsBudget()).project("call-1", {}, raw)
    assert projection.error_code == PROJECTION_FAILED
    assert projection.agent_result["error"] == {"code": PROJECTION_FAILED, "message": SAFE_MESSAGES[PROJECTION_FAILED]}


def test_projection_is_deterministic() -> None:
    raw = _raw([_series([str(i % 7) for i in range(61)], service=f"s{j}") for j in range(5)])
    assert _project(raw) == _project(json.loads(json.dumps(raw)))
