"""Facts about when: dates in other notations (12 月 1 日, Dec 1, 12/01) and times converted to a named zone
(北京时间 19:15:07, UTC+8)."""

from __future__ import annotations

from decimal import Decimal

from harness.gate_mutations.facts import Fact, facts, order, service, status
from harness.gate_mutations.notation import exact, instant, when
from harness.gate_mutations.results import Results, field_number
from harness.gate_mutations.time_facts import HEALTH_LOGS, ORDER_LOGS, ORDER_ROW, SLOW_LOGS


def date_facts(results: Results) -> list[Fact]:
    return _dates(results) + _zones(results)


def _dates(results: Results) -> list[Fact]:
    """12 月 1 日 / Dec 1 / 12/01 for 2026-12-01."""
    made: list[Fact] = []
    if results.has(ORDER_LOGS):
        first = instant(results.events(ORDER_LOGS)[0]["timestamp"])
        who = service(results.events(ORDER_LOGS)[0]["service"])
        made.append(
            facts(
                "date_notation",
                (ORDER_LOGS,),
                (
                    f"{when(first, 'date_zh_hm')} 起，{who} 开始出现获取连接超时",
                    f"{who} 自 {when(first, 'date_zh')} {when(first, 'hm_utc')} 起报连接获取超时",
                ),
                f"from {when(first, 'date_en')}, {when(first, 'hm_utc')} on, {who} failed to get connections",
                f"{when(first, 'date_slash')} {when(first, 'hm_utc')} 起 {who} 开始报 connection timeout",
            )
        )
    if results.has(ORDER_ROW):
        row = results.rows(ORDER_ROW)[0]
        created = instant(row["created_at"])
        made.append(
            facts(
                "date_notation",
                (ORDER_ROW,),
                f"{order(row['order_id'])} 创建于 {when(created, 'date_zh')}，当前状态 {status(row['payment_status'])}",
                f"{order(row['order_id'])} was created on {when(created, 'date_en')} "
                f"and is {status(row['payment_status'])}",
                f"{order(row['order_id'])} 是 {when(created, 'date_slash')} 创建的，payment_status 为 "
                f"{status(row['payment_status'])}",
            )
        )
    return made


def _zones(results: Results) -> list[Fact]:
    """北京时间 19:15:07 for 11:15:07Z, UTC+8."""
    made: list[Fact] = []
    if results.has(HEALTH_LOGS):
        event = results.events(HEALTH_LOGS)[0]
        at, who = instant(event["timestamp"]), service(event["service"])
        made.append(
            facts(
                "zone_conversion",
                (HEALTH_LOGS,),
                f"{who} 于 {when(at, 'beijing_zh')} 首次报健康检查 {status('DOWN', 'health')}",
                f"{who} first reported its health check {status('DOWN', 'health')} at {when(at, 'beijing_en')}",
                f"{who} 在 {when(at, 'utc8')} 第一次报 health check {status('DOWN', 'health')}",
            )
        )
    if results.has(SLOW_LOGS):
        slowest = max(results.events(SLOW_LOGS), key=lambda e: Decimal(field_number(e["message"], "Query_time") or 0))
        at = instant(slowest["timestamp"])
        took = field_number(slowest["message"], "Query_time") or "0"
        made.append(
            facts(
                "zone_conversion",
                (SLOW_LOGS,),
                f"最慢的一条出现在{when(at, 'beijing_zh')}，Query_time {exact(took, 's', sep='')}",
                f"the slowest one came at {when(at, 'beijing_en')}, Query_time {exact(took, 's', sep='')}",
                f"最慢的那条在 {when(at, 'utc8')}，Query_time={exact(took, 's', sep='')}",
            )
        )
    if results.has(ORDER_ROW):
        row = results.rows(ORDER_ROW)[0]
        at = instant(row["updated_at"])
        made.append(
            facts(
                "zone_conversion",
                (ORDER_ROW,),
                f"{order(row['order_id'])} 在{when(at, 'beijing_zh')}被更新为 {status(row['payment_status'])}",
                f"{order(row['order_id'])} became {status(row['payment_status'])} at {when(at, 'beijing_en')}",
                f"{order(row['order_id'])} 在 {when(at, 'utc8')} updated 成 {status(row['payment_status'])}",
            )
        )
    return made
