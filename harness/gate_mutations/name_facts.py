"""Facts about names and plain values: compound identifiers built from grounded parts, a unit the evidence
carries in a name, and plain quoting of values, ids, status words, error codes and times as the source wrote them."""

from __future__ import annotations

from harness.gate_mutations.facts import Cell, Fact, code, facts, ident, order, service, status
from harness.gate_mutations.notation import exact, instant, when
from harness.gate_mutations.results import Results

ORDER_LOGS, HEALTH_LOGS, GATEWAY_LOGS = "call_logs_order", "call_logs_health", "call_logs_gateway"
ORDER_ROW, STATUS_ROWS, TIMEOUT_ROWS = "call_sql_order", "call_sql_status", "call_sql_timeouts"
ACTIVE_METRIC, P99_METRIC, RUNBOOK = "call_metric_active", "call_metric_p99", "call_kb_runbook"


def name_facts(results: Results) -> list[Fact]:
    found: list[Fact] = []
    for build in (_compound, _unit_in_name, _quoted_logs, _quoted_rows, _quoted_metric, _quoted_knowledge):
        found += build(results)
    return found


def _compound(results: Results) -> list[Fact]:
    """biz_order.payment_status where the result names table biz_order and column payment_status."""
    if not results.has(ORDER_ROW):
        return []
    result = results.result(ORDER_ROW)
    tables = [table.rsplit(".", 1)[-1] for table in result["scope"]["tables"]]
    row = result["rows"][0]
    made: list[Fact] = []
    for table, column in (("biz_order", "payment_status"), ("payment_record", "channel")):
        if table not in tables or column not in result["columns"]:
            continue
        name = ident(f"{table}.{column}", "compound")
        value = status(row[column], "channel" if column == "channel" else "payment")
        made.append(
            facts(
                "compound_id",
                (ORDER_ROW,),
                f"{order(row['order_id'])} 的 {name} 为 {value}",
                f"{name} of {order(row['order_id'])} is {value}",
                f"{order(row['order_id'])} 的 {name} = {value}",
                cells=(Cell(name, name, value),),
            )
        )
    return made


def _unit_in_name(results: Results) -> list[Fact]:
    """p99 延迟最高 30 秒 from http_server_requests_seconds = 30."""
    if not results.has(P99_METRIC):
        return []
    series = results.series(P99_METRIC)[0]
    made = [
        facts(
            "unit_in_name",
            (P99_METRIC,),
            f"{service('order-service')} 的 p99 延迟最高 {exact(series['max'], '秒')}",
            f"the p99 latency of {service('order-service')} peaked at {exact(series['max'], 's')}",
            f"{service('order-service')} 的 p99 latency 最高 {exact(series['max'], '秒')}",
            cells=(Cell("p99 延迟最大值", "p99 latency max", exact(series["max"], "秒")),),
        )
    ]
    if series["sample"]:
        first = series["sample"][0]
        made.append(
            facts(
                "unit_in_name",
                (P99_METRIC,),
                f"窗口开始时 p99 只有 {exact(first['value'], '秒')}",
                f"at the start of the window the p99 was only {exact(first['value'], 's')}",
                f"窗口开头 p99 latency 只有 {exact(first['value'], 's')}",
            )
        )
    return made


def _quoted_logs(results: Results) -> list[Fact]:
    made: list[Fact] = []
    if results.has(ORDER_LOGS):
        for pattern in results.patterns(ORDER_LOGS)[:2]:
            who, level = service(pattern["service"]), status(pattern["level"], "level")
            first = instant(pattern["first_seen"])
            quoted = " ".join(pattern["example"].split()[:4])
            count_zh, count_en = exact(pattern["count"], "次"), exact(pattern["count"], "times")
            made.append(
                facts(
                    "plain_quote",
                    (ORDER_LOGS,),
                    f"{who} 的「{quoted}」{level} 日志共 {count_zh}，首次出现在 {when(first, 'iso')}",
                    f'{who} logged the {level} "{quoted}" {count_en}, first at {when(first, "iso")}',
                    f"{who} 的 {level} log「{quoted}」共 {count_zh}，first_seen {when(first, 'iso')}",
                    cells=(
                        Cell(f"{who} 的「{quoted}」次数", f'"{quoted}" count', count_zh),
                        Cell("首次出现", "first seen", when(first, "iso")),
                    ),
                )
            )
        made.append(
            facts(
                "plain_quote",
                (ORDER_LOGS,),
                f"{service('payment-service')} 报 {code('ERR_TIMEOUT')}，回调 {service('order-service')} 超时",
                f"{service('payment-service')} reports {code('ERR_TIMEOUT')} on its callback to "
                f"{service('order-service')}",
                f"{service('payment-service')} 报 {code('ERR_TIMEOUT')}，callback {service('order-service')} timeout",
            )
        )
    if results.has(HEALTH_LOGS):
        event = results.events(HEALTH_LOGS)[-1]
        at = instant(event["timestamp"])
        made.append(
            facts(
                "plain_quote",
                (HEALTH_LOGS,),
                f"{when(at, 'iso_ms')} {service(event['service'])} 仍报 {status('DOWN', 'health')}"
                "（HikariPool-1 exhausted）",
                f"at {when(at, 'iso_ms')} {service(event['service'])} still reported {status('DOWN', 'health')} "
                "(HikariPool-1 exhausted)",
                f"{when(at, 'iso_ms')} {service(event['service'])} 还是 {status('DOWN', 'health')}"
                "（HikariPool-1 exhausted）",
            )
        )
    return made


def _quoted_rows(results: Results) -> list[Fact]:
    made: list[Fact] = []
    if results.has(ORDER_ROW):
        row = results.rows(ORDER_ROW)[0]
        pay = ident(row["payment_id"], "payment")
        made.append(
            facts(
                "plain_quote",
                (ORDER_ROW,),
                f"{order(row['order_id'])} 的 payment_status 为 {status(row['payment_status'])}，支付单 {pay} 渠道 "
                f"{status(row['channel'], 'channel')}，状态 {status(row['status'])}",
                f"{order(row['order_id'])} has payment_status {status(row['payment_status'])}; its payment {pay} "
                f"({status(row['channel'], 'channel')}) is {status(row['status'])}",
                f"{order(row['order_id'])} 的 payment_status = {status(row['payment_status'])}，payment {pay} 走 "
                f"{status(row['channel'], 'channel')}，status {status(row['status'])}",
                cells=(
                    Cell("payment_status", "payment_status", status(row["payment_status"])),
                    Cell("支付单", "payment", pay),
                    Cell("渠道", "channel", status(row["channel"], "channel")),
                ),
            )
        )
    if results.has(STATUS_ROWS):
        rows = results.rows(STATUS_ROWS)
        zh = "、".join(f"{status(row['status'])} {exact(row['n'], '笔')}" for row in rows)
        en = ", ".join(f"{status(row['status'])} {exact(row['n'])}" for row in rows)
        made.append(
            facts(
                "plain_quote",
                (STATUS_ROWS,),
                f"支付单按状态分布：{zh}",
                f"payments by status: {en}",
                f"payment_record 按 status：{zh}",
                cells=tuple(Cell(row["status"], row["status"], exact(row["n"], "笔")) for row in rows),
            )
        )
    if results.has(TIMEOUT_ROWS):
        ids = [order(row["order_id"]) for row in results.rows(TIMEOUT_ROWS)[:3]]
        made.append(
            facts(
                "plain_quote",
                (TIMEOUT_ROWS,),
                f"{status('TIMEOUT')} 的订单包括 {'、'.join(ids)}",
                f"the {status('TIMEOUT')} orders include {', '.join(ids)}",
                f"{status('TIMEOUT')} 的 order 有 {'、'.join(ids)}",
            )
        )
    return made


def _quoted_metric(results: Results) -> list[Fact]:
    if not results.has(ACTIVE_METRIC):
        return []
    series = results.series(ACTIVE_METRIC)[0]
    peak = instant(series["largest_change"]["to_time"]) if series.get("largest_change") else None
    made = [
        facts(
            "plain_quote",
            (ACTIVE_METRIC,),
            f"{service('order-service')} 的活跃连接最少 {exact(series['min'], '个')}，"
            f"最多 {exact(series['max'], '个')}",
            f"{service('order-service')} had between {exact(series['min'])} and {exact(series['max'], 'connections')} "
            "active",
            f"{service('order-service')} 的 hikaricp_connections_active min {exact(series['min'], '个')}、"
            f"max {exact(series['max'], '个')}",
            cells=(Cell("活跃连接最大值", "active connections max", exact(series["max"], "个")),),
        )
    ]
    if peak is not None:
        change = series["largest_change"]
        made.append(
            facts(
                "plain_quote",
                (ACTIVE_METRIC,),
                f"活跃连接在 {when(peak, 'iso')} 从 {exact(change['from'], '个')}跳到 {exact(change['to'], '个')}",
                f"active connections jumped from {exact(change['from'])} to {exact(change['to'])} "
                f"at {when(peak, 'iso')}",
                f"active connections 在 {when(peak, 'iso')} 从 {exact(change['from'], '个')}"
                f"涨到 {exact(change['to'], '个')}",
            )
        )
    return made


def _quoted_knowledge(results: Results) -> list[Fact]:
    if not results.has(RUNBOOK):
        return []
    excerpts = " ".join(entry["excerpt"] for entry in results.result(RUNBOOK).get("evidence", []))
    if "order_db" not in excerpts or "order-service" not in excerpts:
        return []
    return [
        facts(
            "plain_quote",
            (RUNBOOK,),
            f"排查手册指出，全部渠道同时超时时优先怀疑 {service('order-service')} 自身或 {ident('order_db', 'table')}",
            f"the runbook says that when every channel times out, {service('order-service')} itself or "
            f"{ident('order_db', 'table')} comes first",
            f"runbook 说全部渠道同时 timeout 时先怀疑 {service('order-service')} 或 {ident('order_db', 'table')}",
        )
    ]
