"""Real tool results of the demo data, made in-process: each bundled tool and its projector on a fixed clock.

A run's tool boundary calls ``tool.run`` for the raw response and the tool's projector for the agent_result;
this does the same, without Ray, Redis or a model, for a fixed list of calls a diagnosis of the demo story would
make (order-123's payment timed out while order-service's connection pool was exhausted). The data sources are
the demo's own embedded ones: the mock logs, the mock metrics and the SQLite copy of ``order_db`` (no MariaDB
is needed), each relative to :data:`DEMO_NOW`, so the results are the same on every machine and every day.

The generated corpus of faithful drafts and their mutations (:mod:`harness.gate_mutations`) is written from
these results; nothing in it is typed by hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from config.app import AppConfig
from contract.clock import ManualClock
from contract.tool import Projection
from tools.registry import configured_kinds

DEMO_NOW = datetime(2026, 12, 1, 11, 40, tzinfo=UTC)
"""The instant every demo call is made at (the demo data is relative to it)."""

_ORDER_SQL = (
    "SELECT o.order_id, o.payment_status, o.created_at, o.updated_at, p.payment_id, p.channel, p.status "
    "FROM biz_order o LEFT JOIN payment_record p ON p.order_id = o.order_id WHERE o.order_id = ?"
)

DEMO_CALLS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("call_logs_order", "query_logs", {"topic": "APPLICATION", "query": "order-service order-123 timeout"}),
    ("call_logs_retry", "query_logs", {"topic": "APPLICATION", "query": "Callback order-123 retry"}),
    ("call_logs_health", "query_logs", {"topic": "APPLICATION", "query": "Health check DOWN"}),
    ("call_logs_slow", "query_logs", {"topic": "SLOW_SQL", "query": "biz_order", "lookback_minutes": 60}),
    ("call_logs_gateway", "query_logs", {"topic": "ACCESS", "query": "order-123 504 pay"}),
    (
        "call_metric_active",
        "query_metrics",
        {"metric": "hikaricp_connections_active", "aggregation": "max", "matchers": {"service": "order-service"}},
    ),
    (
        "call_metric_pending",
        "query_metrics",
        {"metric": "hikaricp_connections_pending", "aggregation": "max", "matchers": {"service": "order-service"}},
    ),
    (
        "call_metric_status",
        "query_metrics",
        {
            "metric": "http_server_requests_seconds",
            "aggregation": "sum",
            "by": "status",
            "matchers": {"service": "order-service"},
        },
    ),
    (
        "call_metric_p99",
        "query_metrics",
        {"metric": "http_server_requests_seconds", "aggregation": "p99", "matchers": {"service": "order-service"}},
    ),
    (
        "call_metric_callbacks",
        "query_metrics",
        {"metric": "payment_order_callback_total", "aggregation": "sum", "by": "outcome"},
    ),
    (
        "call_sql_status",
        "query_mysql",
        {
            "data_source": "order_readonly",
            "sql": "SELECT status, COUNT(*) AS n FROM payment_record GROUP BY status ORDER BY n DESC",
            "params": [],
        },
    ),
    ("call_sql_order", "query_mysql", {"data_source": "order_readonly", "sql": _ORDER_SQL, "params": ["order-123"]}),
    (
        "call_sql_timeouts",
        "query_mysql",
        {
            "data_source": "order_readonly",
            "sql": "SELECT order_id, created_at, updated_at FROM biz_order WHERE payment_status = ? "
            "ORDER BY created_at",
            "params": ["TIMEOUT"],
        },
    ),
    (
        "call_sql_channels",
        "query_mysql",
        {
            "data_source": "order_readonly",
            "sql": "SELECT channel, COUNT(*) AS n FROM payment_record WHERE status = ? GROUP BY channel "
            "ORDER BY n DESC",
            "params": ["TIMEOUT"],
        },
    ),
    ("call_kb_runbook", "lookup_knowledge", {"query": "支付超时 排查"}),
)
"""``(tool_call_id, tool name, arguments)`` of each demo call, in the order an investigation would make them."""


@dataclass(frozen=True)
class DemoCall:
    """One call as its run's tool boundary saw it: what was asked and the projector's agent_result."""

    tool_call_id: str
    tool_name: str
    arguments: dict[str, Any]
    projection: Projection


def demo_calls(config: AppConfig, calls: Sequence[tuple[str, str, dict[str, Any]]] = DEMO_CALLS) -> list[DemoCall]:
    """Each call run by the real tool and projected by its real projector, on the demo data at :data:`DEMO_NOW`.

    A tool this configuration does not offer is skipped (its calls are missing from the result)."""
    clock = ManualClock(DEMO_NOW)
    kinds = configured_kinds(config)
    tools: dict[str, Any] = {}
    made: list[DemoCall] = []
    try:
        for call_id, name, arguments in calls:
            kind = kinds.get(name)
            if kind is None:
                continue
            tool = tools.get(name) or tools.setdefault(name, kind.build(config, clock))
            raw = tool.run(call_id, dict(arguments))
            made.append(DemoCall(call_id, name, dict(arguments), tool.projector.project(call_id, arguments, raw)))
    finally:
        for tool in tools.values():
            close = getattr(tool, "close", None)
            if close is not None:
                close()
    return made
