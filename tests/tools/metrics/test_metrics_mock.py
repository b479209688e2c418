"""``MockMetricsSource``: Prometheus's answer shape and its evaluation rules over a small hand-made definition (the
integration tests compare the bundled demo with a real Prometheus)."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from contract.clock import ManualClock
from tools.metrics.dataset import load_dataset
from tools.metrics.mock import MockMetricsSource, _format, bucket_quantile, evaluate
from tools.metrics.query import Aggregation, MetricType, RangeQuery, plan
from tools.metrics.source import METRICS_UNAVAILABLE, MetricsSourceError, read_matrix

NOW = datetime(2026, 7, 21, 2, 30, tzinfo=UTC)  # a whole minute: samples fall on the steps
NOW_MS = int(NOW.timestamp() * 1000)
END = NOW_MS // 1000

DEFINITION = """
interval: 15s
buckets: [0.1, 1]
latency:
  fast: {0.1: 1}
  half: {0.1: 0.5, 1: 1}
metrics:
  queue_depth:
    type: gauge
    series:
      - labels: {queue: a, zone: x}
        segments: [{from: 10m, value: 5}, {from: 5m, ramp: [5, 25]}]
      - labels: {queue: b, zone: x}
        segments: [{from: 2m, value: 7}]
  jobs_total:
    type: counter
    series:
      - labels: {job: sync}
        segments: [{from: 2m, rate: 2}]
      - labels: {job: mail}
        segments: [{from: 1h, rate: 1}]
  latency_seconds:
    type: histogram
    series:
      - labels: {route: /a}
        segments: [{from: 1h, rate: 4, latency: fast}, {from: 5m, rate: 4, latency: half}]
"""


@pytest.fixture
def small(tmp_path: Path) -> Path:
    path = tmp_path / "metrics.yaml"
    path.write_text(DEFINITION, encoding="utf-8")
    return path


def _query(
    metric: str,
    kind: MetricType,
    aggregation: Aggregation,
    by: str | None = None,
    matchers: dict[str, str] | None = None,
    lookback_s: int = 600,
    now: datetime = NOW,
) -> RangeQuery:
    return plan(metric, kind, aggregation, by, matchers or {}, now, lookback_s, 15, 15)


def _points(small: Path, query: RangeQuery) -> dict[tuple[tuple[str, str], ...], dict[int, str]]:
    result = evaluate(load_dataset(small), query, NOW_MS)
    return {tuple(sorted(series["metric"].items())): dict(series["values"]) for series in result}


def test_it_answers_exactly_what_query_range_answers(small: Path) -> None:
    source = MockMetricsSource(ManualClock(NOW), small)
    body = source.query_range(_query("queue_depth", "gauge", "max", "queue", lookback_s=60))
    assert body == {
        "status": "success",
        "data": {
            "resultType": "matrix",
            "result": [
                {"metric": {"queue": "a"}, "values": [[END - 60 + 15 * i, str(21 + i)] for i in range(5)]},
                {"metric": {"queue": "b"}, "values": [[END - 60 + 15 * i, "7"] for i in range(5)]},
            ],
        },
    }
    assert read_matrix(body)


def test_a_gauge_reads_its_newest_sample_within_five_minutes(small: Path) -> None:
    points = _points(small, _query("queue_depth", "gauge", "sum", "queue", lookback_s=900))
    # b starts 2 minutes ago: no point before; a starts 10 minutes ago
    assert min(points[(("queue", "b"),)]) == END - 120
    assert min(points[(("queue", "a"),)]) == END - 600
    assert points[(("queue", "a"),)][END - 300] == "5"  # the ramp starts at 5
    assert points[(("queue", "a"),)][END - 150] == "15"  # half way
    off_grid = evaluate(load_dataset(small), _query("queue_depth", "gauge", "max", matchers={"queue": "a"}), NOW_MS + 7)
    assert off_grid[0]["values"][-1] == [END, "24"]  # the sample 7 ms after the step is not read: the one before


def test_rate_extrapolates_as_prometheus_does(small: Path) -> None:
    points = _points(small, _query("jobs_total", "counter", "rate", lookback_s=120))
    sync = points[(("job", "sync"),)]
    # a full window of samples, both ends on it: the increase over the window
    assert sync[END] == "2"
    # 105 s ago the window [165 s, 105 s] holds the first two samples (0, then 30): the zero point stops the
    # extrapolation towards the start, so 30 over 15 s of samples stays 30 over the 60 s window
    assert sync[END - 105] == "0.5"
    assert sync[END - 90] == "1"  # three samples, 0 … 60, the same
    assert END - 120 not in sync  # one sample in the window: no rate
    assert points[(("job", "mail"),)][END] == "1"


CALLS = """
interval: 15s
buckets: [0.1, 1]
latency:
  fast: {0.1: 1}
metrics:
  calls_total:
    type: counter
    series:
      - labels: {outcome: ok, host: a}
        segments: [{from: 1h, rate: 2}]
      - labels: {outcome: ok, host: b}
        segments: [{from: 1h, rate: 1}]
      - labels: {outcome: error, host: a}
        segments: [{from: 1h, rate: 0.5}]
"""


def test_rate_by_a_label_sums_the_rates_of_each_value(tmp_path: Path) -> None:
    path = tmp_path / "calls.yaml"
    path.write_text(CALLS, encoding="utf-8")
    steps = [END - 60 + 15 * i for i in range(5)]
    by_outcome = _points(path, _query("calls_total", "counter", "rate", "outcome", lookback_s=60))
    assert by_outcome == {
        (("outcome", "error"),): dict.fromkeys(steps, "0.5"),
        (("outcome", "ok"),): dict.fromkeys(steps, "3"),
    }
    assert by_outcome == _points(path, _query("calls_total", "counter", "sum", "outcome", lookback_s=60))
    assert len(_points(path, _query("calls_total", "counter", "rate", lookback_s=60))) == 3  # no by: every series


def test_aggregations_group_by_the_label_and_drop_the_others(small: Path) -> None:
    assert set(_points(small, _query("queue_depth", "gauge", "avg"))) == {()}
    assert _points(small, _query("queue_depth", "gauge", "avg", lookback_s=60))[()][END] == "16"
    assert _points(small, _query("queue_depth", "gauge", "max", lookback_s=60))[()][END] == "25"
    assert _points(small, _query("jobs_total", "counter", "sum", lookback_s=60))[()][END] == "3"
    by_zone = _points(small, _query("queue_depth", "gauge", "sum", "zone", lookback_s=60))
    assert by_zone == {(("zone", "x"),): {END - 60 + 15 * i: str(28 + i) for i in range(5)}}


def test_a_histogram_reads_its_count_for_rates_and_its_buckets_for_percentiles(small: Path) -> None:
    assert _points(small, _query("latency_seconds", "histogram", "rate", lookback_s=60)) == {
        (("route", "/a"),): {END - 60 + 15 * i: "4" for i in range(5)}
    }
    p50 = _points(small, _query("latency_seconds", "histogram", "p50", lookback_s=600))[()]
    assert p50[END - 600] == "0.05"  # all under 0.1: half way into the first bucket
    assert p50[END] == "0.1"  # half under 0.1, half under 1: the rank falls on the first bound
    p99 = _points(small, _query("latency_seconds", "histogram", "p99", "route", lookback_s=60))
    assert p99[(("route", "/a"),)][END] == "0.982"


def test_matchers_select_and_an_unmatched_query_has_no_series(small: Path) -> None:
    assert set(_points(small, _query("queue_depth", "gauge", "max", "queue", {"queue": "b"}))) == {(("queue", "b"),)}
    assert _points(small, _query("queue_depth", "gauge", "max", matchers={"queue": "nope"})) == {}
    assert _points(small, _query("queue_depth", "gauge", "max", matchers={"absent": "a"})) == {}
    assert _points(small, _query("missing_metric", "gauge", "max")) == {}


def test_the_same_now_gives_the_same_answer_and_times_follow_now() -> None:
    source = MockMetricsSource(ManualClock(NOW))
    query = _query("hikaricp_connections_pending", "gauge", "max", matchers={"service": "order-service"})
    assert source.query_range(query) == MockMetricsSource(ManualClock(NOW)).query_range(query)
    later = NOW + timedelta(hours=5)
    moved = MockMetricsSource(ManualClock(later)).query_range(
        _query("hikaricp_connections_pending", "gauge", "max", matchers={"service": "order-service"}, now=later)
    )
    values: list[Any] = source.query_range(query)["data"]["result"][0]["values"]
    assert [value for _, value in moved["data"]["result"][0]["values"]] == [value for _, value in values]
    assert moved["data"]["result"][0]["values"][0][0] == values[0][0] + 5 * 3600


def test_an_unreadable_dataset_is_unavailable(tmp_path: Path) -> None:
    source = MockMetricsSource(ManualClock(NOW), tmp_path / "absent.yaml")
    with pytest.raises(MetricsSourceError) as raised:
        source.query_range(_query("queue_depth", "gauge", "max"))
    assert raised.value.code == METRICS_UNAVAILABLE
    assert "FileNotFoundError" in raised.value.detail


@pytest.mark.parametrize(
    ("q", "buckets", "expected"),
    [
        (0.5, [(0.1, 5.0), (1.0, 10.0), (math.inf, 10.0)], 0.1),
        (0.25, [(0.1, 5.0), (1.0, 10.0), (math.inf, 10.0)], 0.05),
        (0.99, [(0.1, 5.0), (1.0, 10.0), (math.inf, 10.0)], 0.982),
        (0.99, [(30.0, 0.0), (math.inf, 4.0)], 30.0),  # the rank in +Inf: the highest finite bound
        (0.5, [(math.inf, 4.0), (1.0, 2.0)], 1.0),  # unsorted: the rank, 2, is the first bucket's count
        (0.5, [(1.0, 3.0), (1.0, 1.0), (math.inf, 8.0)], 1.0),  # coalesced: 4 at or below 1
        (0.5, [(1.0, 6.0), (2.0, 5.0), (math.inf, 10.0)], 0.8333333333333334),  # made monotonic
        (0.5, [(-1.0, 5.0), (math.inf, 10.0)], -1.0),
        (0.5, [(1.0, 0.0), (math.inf, 0.0)], math.nan),  # no observations
        (0.5, [(1.0, 5.0), (2.0, 10.0)], math.nan),  # no +Inf bucket
        (0.5, [(math.inf, 10.0)], math.nan),
        (0.5, [], math.nan),
    ],
)
def test_bucket_quantile(q: float, buckets: list[tuple[float, float]], expected: float) -> None:
    found = bucket_quantile(q, buckets)
    assert found == pytest.approx(expected, nan_ok=True)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (50.0, "50"),
        (0.1, "0.1"),
        (0.30000000000000004, "0.30000000000000004"),
        (1e-05, "0.00001"),
        (1e16, "10000000000000000"),
        (-2.5, "-2.5"),
        (math.nan, "NaN"),
        (math.inf, "+Inf"),
        (-math.inf, "-Inf"),
    ],
)
def test_values_are_formatted_as_prometheus_formats_them(value: float, text: str) -> None:
    assert _format(value) == text
