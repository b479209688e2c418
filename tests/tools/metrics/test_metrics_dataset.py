"""The bundled demo metrics: deterministic, well-formed, the demo's allowlist, and the same story as the logs and
the orders."""

from __future__ import annotations

import json
import math
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tools.logs.source import BUNDLED_DATASET as LOGS
from tools.metrics.dataset import BUNDLED_DATASET, DatasetUnreadable, MetricsDataset, Series, load_dataset
from tools.metrics.settings import DEFAULT_METRICS
from tools.mysql.demo_db import demo_rows

INTERVAL_S = 15
POOL = (("pool", "HikariPool-1"), ("service", "order-service"))
LOG_POOL = re.compile(r"total=(\d+), active=(\d+), idle=(\d+), waiting=(\d+)")
EXHAUSTED_S = 1494
"""The pool is exhausted from this many seconds before now (the first "Connection is not available" at 1491 s)."""


@pytest.fixture(scope="module")
def dataset() -> MetricsDataset:
    return load_dataset()


def _series(dataset: MetricsDataset, name: str, labels: tuple[tuple[str, str], ...]) -> Series:
    (found,) = [series for series in dataset.series(name) if series.labels == labels]
    return found


def _at(series: Series, seconds_ago: int) -> float:
    """The newest sample at or before ``seconds_ago`` seconds before now."""
    return series.value(math.ceil(seconds_ago / INTERVAL_S))


def _logs() -> list[dict[str, object]]:
    return [json.loads(line) for line in LOGS.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_the_bundled_dataset_is_the_demo_allowlist(dataset: MetricsDataset) -> None:
    assert dataset.interval_ms == INTERVAL_S * 1000
    assert set(dataset.metrics) == set(DEFAULT_METRICS)
    for name, metric in dataset.metrics.items():
        assert metric.type == DEFAULT_METRICS[name]["type"], name
        assert set(metric.labels) == set(DEFAULT_METRICS[name]["labels"]), name
        assert metric.help == DEFAULT_METRICS[name]["help"], name


def test_it_is_a_compact_definition_of_many_series(dataset: MetricsDataset) -> None:
    assert len(BUNDLED_DATASET.read_text(encoding="utf-8").splitlines()) < 200
    assert len(dataset.all_series()) > 150  # 11 histograms of 13 buckets and a count, and the rest
    assert min(series.oldest for series in dataset.all_series()) == 1410 // INTERVAL_S  # the callbacks' errors
    assert max(series.oldest for series in dataset.all_series()) == 26 * 3600 // INTERVAL_S


def test_the_same_definition_gives_the_same_samples(dataset: MetricsDataset) -> None:
    again = load_dataset()
    for one, two in zip(dataset.all_series(), again.all_series(), strict=True):
        assert (one.name, one.labels, one.oldest) == (two.name, two.labels, two.oldest)
        assert [one.value(k) for k in range(0, one.oldest + 1, 97)] == [
            two.value(k) for k in range(0, two.oldest + 1, 97)
        ]


def test_counters_never_decrease_and_buckets_never_decrease_with_le(dataset: MetricsDataset) -> None:
    recent = range(0, 3 * 3600 // INTERVAL_S)
    for series in dataset.all_series():
        if series.name.endswith(("_total", "_bucket", "_count")):
            values = [series.value(k) for k in reversed(recent) if k <= series.oldest]
            assert values == sorted(values), series
    buckets: dict[tuple[tuple[str, str], ...], list[Series]] = {}
    for series in dataset.series("http_server_requests_seconds_bucket"):
        key = tuple(pair for pair in series.labels if pair[0] != "le")
        buckets.setdefault(key, []).append(series)
    assert len(buckets) == 11
    for group in buckets.values():
        group.sort(key=lambda series: float(dict(series.labels)["le"]))
        assert len(group) == 13
        for k in (0, 7, 99, 100, 1000, min(series.oldest for series in group)):
            counts = [series.value(k) for series in group]
            assert counts == sorted(counts)


def test_gauges_are_whole_connection_counts(dataset: MetricsDataset) -> None:
    for name in ("hikaricp_connections_active", "hikaricp_connections_pending", "hikaricp_connections_max"):
        for series in dataset.series(name):
            assert all(series.value(k).is_integer() and series.value(k) >= 0 for k in range(0, 400))


def test_the_pool_matches_the_pool_lines_of_the_logs(dataset: MetricsDataset) -> None:
    active = _series(dataset, "hikaricp_connections_active", POOL)
    pending = _series(dataset, "hikaricp_connections_pending", POOL)
    maximum = _series(dataset, "hikaricp_connections_max", POOL)
    checked = 0
    for event in _logs():
        message, ago = str(event["message"]), int(str(event["seconds_ago"]))
        found = LOG_POOL.search(message)
        if event["service"] != "order-service" or "HikariPool-1" not in message or not found or ago > 86400:
            continue
        total, busy, _, waiting = map(int, found.groups())
        assert maximum.value(ago // INTERVAL_S) == total == 50
        if busy < total:  # before the exhaustion, sampled at the line's own second: the same numbers
            assert ago % INTERVAL_S == 0
            assert (active.value(ago // INTERVAL_S), pending.value(ago // INTERVAL_S)) == (busy, waiting)
        else:  # exhausted: the next scrape shows active = max and as many threads waiting as the logs report
            scrape = ago // INTERVAL_S
            assert active.value(scrape) == 50
            assert 17 <= pending.value(scrape) <= 31 and 17 <= waiting <= 31
        checked += 1
    assert checked > 70


def test_the_incident_begins_when_the_logs_say(dataset: MetricsDataset) -> None:
    active = _series(dataset, "hikaricp_connections_active", POOL)
    pending = _series(dataset, "hikaricp_connections_pending", POOL)
    assert [_at(active, ago) for ago in (3600, 2400, 1800, 1680, 1620, 1560, 1500, 1485, 600, 0)] == [
        pytest.approx(_at(active, 3600), abs=3),
        pytest.approx(12, abs=3),
        36,
        38,
        39,
        40,
        41,
        50,
        50,
        50,
    ]
    assert all(_at(pending, ago) == 0 for ago in range(1500, 7200, 15))
    assert all(17 <= _at(pending, ago) <= 31 for ago in range(0, 1485, 15))
    assert max(_at(pending, ago) for ago in range(0, 1485, 15)) == 31


def test_failures_in_the_logs_fall_where_their_series_show_them(dataset: MetricsDataset) -> None:
    def since(name: str, **labels: str) -> int:
        """How many seconds before now the series of ``name`` with ``labels`` starts."""
        (series,) = [s for s in dataset.series(name) if dict(s.labels).items() >= labels.items()]
        return series.oldest * INTERVAL_S

    def ago(event: dict[str, object]) -> int:
        return int(str(event["seconds_ago"]))

    recent = [event for event in _logs() if ago(event) < 3600]
    timeouts = [e for e in recent if "ERR_TIMEOUT calling order-service" in str(e["message"])]
    callbacks = [e for e in recent if "Callback to order-service failed" in str(e["message"])]
    pay_504 = [e for e in recent if re.search(r'/api/v1/orders/order-\d+/pay HTTP/1.1" 504', str(e["message"]))]
    callback_504 = [e for e in recent if '/api/v1/payments/callback HTTP/1.1" 504' in str(e["message"])]
    lock_waits = [e for e in recent if e["topic"] == "SLOW_SQL" and "Lock_time=2" in str(e["message"])]
    assert timeouts and callbacks and pay_504 and callback_504 and lock_waits
    errors_since = since("payment_order_callback_total", outcome="ERR_TIMEOUT")
    assert all(ago(event) <= errors_since for event in timeouts + callbacks)
    requests = "http_server_requests_seconds_count"
    gateway_pay = since(requests, service="api-gateway", status="504", uri="/api/v1/orders/{orderId}/pay")
    gateway_callback = since(requests, service="api-gateway", status="504", uri="/api/v1/payments/callback")
    assert all(ago(event) <= gateway_pay for event in pay_504)
    assert all(ago(event) <= gateway_callback for event in callback_504)
    locks = _series(dataset, "mysql_innodb_row_lock_waits_total", (("service", "order_db"),))
    first_lock_wait = max(ago(event) for event in lock_waits)
    assert locks.value(0) - _at(locks, first_lock_wait) > 0.2 * first_lock_wait  # waits climb from then on
    assert _at(locks, first_lock_wait) - _at(locks, 3600) < 0.03 * (3600 - first_lock_wait)  # and barely before


def test_the_timed_out_orders_fall_in_the_incident_and_the_paid_ones_before(dataset: MetricsDataset) -> None:
    now = datetime(2026, 7, 21, 2, 30, tzinfo=UTC)
    rows = demo_rows(now)["biz_order"]
    active = _series(dataset, "hikaricp_connections_active", POOL)

    def ago(stamp: object) -> int:
        moment = datetime.strptime(str(stamp), "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)
        return int((now - moment).total_seconds())

    gave_up = [ago(row[6]) for row in rows if row[2] == "TIMEOUT"]
    paid = [ago(row[6]) for row in rows if row[2] == "PAID"]
    assert gave_up and paid
    assert all(_at(active, seconds) >= 41 for seconds in gave_up)  # the pool was (nearly) full
    assert all(_at(active, seconds) <= 15 for seconds in paid)  # before the pool started to fill


def test_healthy_services_stay_healthy(dataset: MetricsDataset) -> None:
    user_pool = (("pool", "HikariPool-1"), ("service", "user-service"))
    assert max(_at(_series(dataset, "hikaricp_connections_active", user_pool), s) for s in range(0, 7200, 15)) <= 6
    assert all(_at(_series(dataset, "hikaricp_connections_pending", user_pool), s) == 0 for s in range(0, 7200, 15))
    statuses = {dict(s.labels)["status"] for s in dataset.series("http_server_requests_seconds_count")
                if dict(s.labels)["service"] == "user-service"}  # fmt: skip
    assert statuses == {"200"}


INVALID = [
    ("not yaml", "interval: [15s\n", "unreadable"),
    ("no interval", "buckets: [1]\nmetrics: {}\n", "interval"),
    ("unknown key", "interval: 15s\nbuckets: [1]\nmetrics: {}\nextra: 1\n", "extra"),
    ("bad duration", "interval: 15\nbuckets: [1]\nmetrics: {}\n", "interval"),
    ("buckets out of order", "interval: 15s\nbuckets: [1, 0.5]\nmetrics: {}\n", "buckets must be increasing"),
    (
        "gauge with a rate",
        "interval: 15s\nbuckets: [1]\nmetrics:\n  g:\n    type: gauge\n    series:\n"
        "      - labels: {a: b}\n        segments: [{from: 1h, rate: 1}]\n",
        "a gauge segment takes value",
    ),
    (
        "counter without _total",
        "interval: 15s\nbuckets: [1]\nmetrics:\n  c:\n    type: counter\n    series:\n"
        "      - labels: {a: b}\n        segments: [{from: 1h, rate: 1}]\n",
        "ends in _total",
    ),
    (
        "segments out of order",
        "interval: 15s\nbuckets: [1]\nmetrics:\n  g:\n    type: gauge\n    series:\n"
        "      - labels: {a: b}\n        segments: [{from: 1h, value: 1}, {from: 2h, value: 2}]\n",
        "ever later",
    ),
    (
        "unknown latency",
        "interval: 15s\nbuckets: [1]\nmetrics:\n  h:\n    type: histogram\n    series:\n"
        "      - labels: {a: b}\n        segments: [{from: 1h, rate: 1, latency: slow}]\n",
        "a known latency",
    ),
    (
        "decreasing latency",
        "interval: 15s\nbuckets: [1, 2]\nlatency: {p: {1: 0.9, 2: 0.5}}\nmetrics: {}\n",
        "shares must not decrease",
    ),
    (
        "le label",
        "interval: 15s\nbuckets: [1]\nmetrics:\n  g:\n    type: gauge\n    series:\n"
        "      - labels: {le: '1'}\n        segments: [{from: 1h, value: 1}]\n",
        "le is the histogram",
    ),
]


@pytest.mark.parametrize(("case", "text", "reason"), INVALID, ids=[case for case, *_ in INVALID])
def test_a_definition_that_breaks_a_rule_is_refused(tmp_path: Path, case: str, text: str, reason: str) -> None:
    path = tmp_path / "metrics.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DatasetUnreadable, match=re.escape(reason)):
        load_dataset(path)


def test_a_missing_definition_is_refused(tmp_path: Path) -> None:
    with pytest.raises(DatasetUnreadable, match="unreadable: FileNotFoundError"):
        load_dataset(tmp_path / "absent.yaml")
