"""The PromQL builder: the exact query of every allowed shape, the window, the step ladder and the rate window."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tools.metrics.query import AGGREGATIONS, Aggregation, MetricType, plan, step_for

NOW = datetime(2026, 7, 21, 2, 30, 7, 250000, tzinfo=UTC)
END = 1784601007  # NOW, whole seconds

CALLBACKS = "payment_order_callback_total"
ACTIVE = "hikaricp_connections_active"
REQUESTS = "http_server_requests_seconds"
ORDER = {"service": "order-service"}
TWO = {"service": "payment-service", "outcome": "ERR_TIMEOUT"}

SHAPES: list[tuple[str, MetricType, Aggregation, str | None, dict[str, str], str]] = [
    # counters: always per-second rates
    (CALLBACKS, "counter", "rate", None, {}, "rate(payment_order_callback_total[1m])"),
    (
        CALLBACKS,
        "counter",
        "rate",
        None,
        TWO,
        'rate(payment_order_callback_total{outcome="ERR_TIMEOUT",service="payment-service"}[1m])',
    ),
    # rate by a label: the per-second rates summed per value of it
    (CALLBACKS, "counter", "rate", "outcome", {}, "sum by (outcome) (rate(payment_order_callback_total[1m]))"),
    (CALLBACKS, "counter", "sum", None, {}, "sum(rate(payment_order_callback_total[1m]))"),
    (CALLBACKS, "counter", "sum", "outcome", {}, "sum by (outcome) (rate(payment_order_callback_total[1m]))"),
    (
        CALLBACKS,
        "counter",
        "sum",
        "outcome",
        {"service": "payment-service"},
        'sum by (outcome) (rate(payment_order_callback_total{service="payment-service"}[1m]))',
    ),
    (CALLBACKS, "counter", "avg", None, {}, "avg(rate(payment_order_callback_total[1m]))"),
    (CALLBACKS, "counter", "avg", "service", {}, "avg by (service) (rate(payment_order_callback_total[1m]))"),
    (
        CALLBACKS,
        "counter",
        "max",
        None,
        TWO,
        'max(rate(payment_order_callback_total{outcome="ERR_TIMEOUT",service="payment-service"}[1m]))',
    ),
    (CALLBACKS, "counter", "max", "outcome", {}, "max by (outcome) (rate(payment_order_callback_total[1m]))"),
    # gauges: the selector itself
    (ACTIVE, "gauge", "sum", None, {}, "sum(hikaricp_connections_active)"),
    (ACTIVE, "gauge", "sum", "pool", ORDER, 'sum by (pool) (hikaricp_connections_active{service="order-service"})'),
    (ACTIVE, "gauge", "avg", None, ORDER, 'avg(hikaricp_connections_active{service="order-service"})'),
    (ACTIVE, "gauge", "avg", "service", {}, "avg by (service) (hikaricp_connections_active)"),
    (
        ACTIVE,
        "gauge",
        "max",
        None,
        {"service": "order-service", "pool": "HikariPool-1"},
        'max(hikaricp_connections_active{pool="HikariPool-1",service="order-service"})',
    ),
    (ACTIVE, "gauge", "max", "service", {}, "max by (service) (hikaricp_connections_active)"),
    # histograms: requests per second from _count, percentiles from _bucket summed by le
    (REQUESTS, "histogram", "rate", None, {}, "rate(http_server_requests_seconds_count[1m])"),
    (
        REQUESTS,
        "histogram",
        "rate",
        None,
        ORDER,
        'rate(http_server_requests_seconds_count{service="order-service"}[1m])',
    ),
    (
        REQUESTS,
        "histogram",
        "sum",
        None,
        ORDER,
        'sum(rate(http_server_requests_seconds_count{service="order-service"}[1m]))',
    ),
    (REQUESTS, "histogram", "sum", "status", {}, "sum by (status) (rate(http_server_requests_seconds_count[1m]))"),
    (
        REQUESTS,
        "histogram",
        "rate",
        "status",
        ORDER,
        'sum by (status) (rate(http_server_requests_seconds_count{service="order-service"}[1m]))',
    ),
    (
        REQUESTS,
        "histogram",
        "p99",
        None,
        {},
        "histogram_quantile(0.99, sum by (le) (rate(http_server_requests_seconds_bucket[1m])))",
    ),
    (
        REQUESTS,
        "histogram",
        "p99",
        "uri",
        ORDER,
        "histogram_quantile(0.99, sum by (le, uri) "
        '(rate(http_server_requests_seconds_bucket{service="order-service"}[1m])))',
    ),
    (
        REQUESTS,
        "histogram",
        "p90",
        "service",
        {},
        "histogram_quantile(0.9, sum by (le, service) (rate(http_server_requests_seconds_bucket[1m])))",
    ),
    (
        REQUESTS,
        "histogram",
        "p50",
        None,
        {"uri": "/api/v1/orders/{orderId}/pay"},
        "histogram_quantile(0.5, sum by (le) "
        '(rate(http_server_requests_seconds_bucket{uri="/api/v1/orders/{orderId}/pay"}[1m])))',
    ),
]


@pytest.mark.parametrize(("metric", "kind", "aggregation", "by", "matchers", "promql"), SHAPES)
def test_every_allowed_shape_builds_exactly_this_promql(
    metric: str, kind: MetricType, aggregation: Aggregation, by: str | None, matchers: dict[str, str], promql: str
) -> None:
    query = plan(metric, kind, aggregation, by, matchers, NOW, 1800, 15, 15)
    assert query.promql() == promql


def test_the_shapes_cover_every_aggregation_each_type_allows() -> None:
    covered = {(kind, aggregation) for _, kind, aggregation, *_ in SHAPES}
    allowed = {(kind, aggregation) for kind, aggregations in AGGREGATIONS.items() for aggregation in aggregations}
    assert covered == allowed
    assert AGGREGATIONS == {
        "counter": ("rate", "sum", "avg", "max"),
        "gauge": ("sum", "avg", "max"),
        "histogram": ("rate", "sum", "p50", "p90", "p99"),
    }


def test_the_window_ends_at_the_current_second_and_spans_the_lookback() -> None:
    query = plan(ACTIVE, "gauge", "max", None, {}, NOW, 1800, 15, 15)
    assert (query.start_s, query.end_s, query.step_s, query.rate_window_s) == (END - 1800, END, 30, 60)


def test_matchers_are_sorted_by_label_whatever_order_they_came_in() -> None:
    one = plan(CALLBACKS, "counter", "rate", None, {"service": "a", "outcome": "b"}, NOW, 1800, 15, 15)
    two = plan(CALLBACKS, "counter", "rate", None, {"outcome": "b", "service": "a"}, NOW, 1800, 15, 15)
    assert one == two
    assert one.matchers == (("outcome", "b"), ("service", "a"))


@pytest.mark.parametrize(
    ("lookback_s", "min_step_s", "step_s"),
    [
        (60, 15, 15),
        (900, 15, 15),
        (1800, 15, 30),
        (3600, 15, 60),
        (3660, 15, 120),
        (7200, 15, 120),
        (10800, 15, 300),
        (21600, 15, 600),
        (54000, 15, 900),
        (86400, 15, 1800),
        (180000, 15, 3600),
        (360000, 15, 7200),
        (1800, 60, 60),
        (1800, 20, 30),
        (60, 1, 15),
    ],
)
def test_the_step_is_the_first_ladder_rung_at_or_above_lookback_over_60_and_min_step(
    lookback_s: int, min_step_s: float, step_s: int
) -> None:
    assert step_for(lookback_s, min_step_s) == step_s


@pytest.mark.parametrize(
    ("lookback_s", "scrape_s", "window"),
    [
        (900, 15, "[1m]"),  # 4 × scrape
        (1800, 15, "[1m]"),
        (3600, 15, "[2m]"),  # 2 × step
        (86400, 15, "[1h]"),
        (900, 30, "[2m]"),
        (900, 22.5, "[90s]"),
        (900, 10.1, "[41s]"),
    ],
)
def test_the_rate_window_is_four_scrapes_or_two_steps_whichever_is_longer(
    lookback_s: int, scrape_s: float, window: str
) -> None:
    query = plan(CALLBACKS, "counter", "rate", None, {}, NOW, lookback_s, 15, scrape_s)
    assert query.promql() == f"rate(payment_order_callback_total{window})"


@pytest.mark.parametrize(
    ("value", "literal"),
    [
        ("order-service", '"order-service"'),
        ("订单服务", '"订单服务"'),
        ("/api/v1/orders/{orderId}/pay", '"/api/v1/orders/{orderId}/pay"'),
        # the argument rules refuse these; the builder still quotes whatever reaches it
        ('a"} or vector(1) #', '"a\\"} or vector(1) #"'),
        ("a\\", '"a\\\\"'),
        ("a\nb", '"a\\nb"'),
    ],
)
def test_values_are_string_literals(value: str, literal: str) -> None:
    query = plan(ACTIVE, "gauge", "max", None, {"service": value}, NOW, 1800, 15, 15)
    assert query.promql() == f"max(hikaricp_connections_active{{service={literal}}})"
