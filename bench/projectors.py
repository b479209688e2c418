"""ToolResultProjector CPU time per result, next to a JSON round trip of the same raw.

Cases: the query_logs result of the demo diagnosis (the offline model's first log query, ``order-service
order-123 timeout timed`` over the last 30 minutes of the bundled mock dataset: 130 events) through
QueryLogsResultProjector; a ~1 MB query_logs raw response (thousands of matching events, secrets in some of
them); and a 10,000-row query_mysql raw response through MysqlResultProjector. The baseline is
``json.loads(json.dumps(raw))`` of the same object: what merely copying the raw would cost. Rounds alternate
projector and baseline; times are CPU time (``time.process_time``), the median round.

Before and after issue 11 (the fingerprint's placeholders in one linear-time pass instead of seven, each
distinct message and service redacted and templated once per result): two runs of this script, alternating, on
the 2-core VM (2026-12-01, load ~3 from other work), one on an export of commit 4262ca7 with this script copied
in, one with the change. The demo result 4.6-4.8 ms -> 2.2-2.3 ms; the 1 MB result 163 ms -> 97-103 ms. Both
trees give the same agent_results.

    python bench/projectors.py [--rounds 7]
"""

from __future__ import annotations

import argparse
import functools
import json
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from config.tool_budgets import LogsBudget, MysqlBudget
from contract.clock import ManualClock, isoformat
from contract.tool import ToolResultProjector
from tools.logs.projector import QueryLogsResultProjector
from tools.logs.settings import LogsToolSettings
from tools.logs.tool import QueryLogsTool
from tools.mysql.projector import MysqlResultProjector

MESSAGES = (
    "HikariPool-1 - Connection is not available, request timed out after {n}ms. order={order}",
    "HikariPool-1 - Pool stats (total=50, active=50, idle=0, waiting={n})",
    "POST /api/v1/pay order={order} failed: ERR_TIMEOUT after {n}ms Authorization: Bearer eyJ{n}abc.def.ghi",
    "GET /api/v1/orders/{order} 200 {n}ms",
    "refund {order} rejected: ERR_REFUND_DUPLICATE password={n}secret",
)


DEMO_LOG_QUERY = {"topic": "APPLICATION", "query": "order-service order-123 timeout timed", "lookback_minutes": 30}
"""The offline model's first query_logs call when it diagnoses ``订单 order-123 支付超时，帮我排查``."""


def demo_log_raw() -> dict[str, Any]:
    return QueryLogsTool(LogsToolSettings(), LogsBudget(), ManualClock()).run("call_1", DEMO_LOG_QUERY)


def log_raw(target_bytes: int) -> dict[str, Any]:
    now = datetime(2026, 7, 21, 2, 30, tzinfo=UTC)
    events: list[dict[str, Any]] = []
    size = 0
    i = 0
    while size < target_bytes:
        message = MESSAGES[i % len(MESSAGES)].format(n=1000 + i * 7, order=f"order-{4000 + i % 300}")
        event = {
            "timestamp": isoformat(now - timedelta(seconds=1800 - (i % 1800))),
            "level": ("ERROR", "WARN", "INFO")[i % 3],
            "service": ("order-service", "payment-service", "api-gateway")[i % 3],
            "message": message,
        }
        size += len(json.dumps(event))
        events.append(event)
        i += 1
    events.sort(key=lambda event: event["timestamp"])
    scope = {
        "topic": "APPLICATION",
        "query": "order-service HikariPool timeout",
        "start_time": isoformat(now - timedelta(minutes=30)),
        "end_time": isoformat(now),
        "lookback_minutes": 30,
    }
    return {"source_kind": "MOCK", "scope": scope, "match_count": len(events), "events": events}


def mysql_raw(rows: int) -> dict[str, Any]:
    return {
        "data_source": "order_readonly",
        "sql": "SELECT o.order_id, o.user_id, o.payment_status, p.channel, p.status, o.updated_at "
        "FROM order_db.biz_order AS o JOIN order_db.payment_record AS p ON p.order_id = o.order_id LIMIT 10000",
        "params": [],
        "limit": rows,
        "limit_is_cap": True,
        "columns": ["order_id", "user_id", "payment_status", "channel", "status", "updated_at"],
        "rows": [
            [
                f"order-{i}",
                f"u-{i % 977}",
                "TIMEOUT" if i % 9 == 0 else "PAID",
                "ALIPAY",
                "SUCCESS",
                "2026-07-21 02:00:00",
            ]
            for i in range(rows)
        ],
        "row_count": rows,
        "server": "mariadb",
        "duration_ms": 12,
    }


def timed(work: Callable[[], object], repeat: int) -> float:
    started = time.process_time()
    for _ in range(repeat):
        work()
    return (time.process_time() - started) / repeat


def main(rounds: int) -> None:
    demo = demo_log_raw()
    logs = log_raw(1024 * 1024)
    mysql = mysql_raw(10_000)
    cases: list[tuple[str, dict[str, Any], ToolResultProjector, int]] = [
        (f"query_logs demo ({len(demo['events'])} events)", demo, QueryLogsResultProjector(LogsBudget()), 200),
        (
            f"query_logs 1MB ({len(logs['events'])} events)",
            logs,
            QueryLogsResultProjector(LogsBudget()),
            5,
        ),
        ("query_mysql 10,000 rows", mysql, MysqlResultProjector(MysqlBudget()), 20),
    ]
    print(f"{'case':<34} | {'project':>10} | {'json copy':>10} | ratio | agent_result")
    print("-" * 82)
    for label, raw, projector, repeat in cases:
        raw_bytes = len(json.dumps(raw).encode())
        projected = projector.project("call_1", {}, raw).agent_result
        project_times, copy_times = [], []
        project = functools.partial(projector.project, "call_1", {}, raw)
        copy = functools.partial(lambda payload: json.loads(json.dumps(payload)), raw)
        for _ in range(rounds):
            project_times.append(timed(project, repeat))
            copy_times.append(timed(copy, repeat))
        project_s, copy_s = statistics.median(project_times), statistics.median(copy_times)
        out_bytes = len(json.dumps(projected, ensure_ascii=False).encode())
        print(
            f"{label:<34} | {project_s * 1e3:>7.1f} ms | {copy_s * 1e3:>7.1f} ms | {project_s / copy_s:>4.1f}x | "
            f"{out_bytes:,} B from {raw_bytes:,} B"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=7)
    main(parser.parse_args().rounds)
