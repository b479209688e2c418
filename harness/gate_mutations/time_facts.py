"""Facts about time: durations between instants of a result (with and without the operands), exact unit
conversions and ranges rounded to whole units (dates and zones: :mod:`harness.gate_mutations.date_facts`)."""

from __future__ import annotations

import itertools
import re
from decimal import Decimal

from harness.gate_mutations.facts import Cell, Fact, code, facts, order, service, status
from harness.gate_mutations.notation import exact, instant, rounded, seconds_between, when
from harness.gate_mutations.results import Results, field_number, number_before

ORDER_LOGS, RETRY_LOGS, HEALTH_LOGS = "call_logs_order", "call_logs_retry", "call_logs_health"
SLOW_LOGS, GATEWAY_LOGS, ORDER_ROW = "call_logs_slow", "call_logs_gateway", "call_sql_order"
_ATTEMPT = re.compile(r"attempt=(\d)/3 order=(order-\d+)")


def time_facts(results: Results) -> list[Fact]:
    found: list[Fact] = []
    for build in (_retry_gap, _pattern_span, _created_to_timeout, _health_interval, _lock_free_time):
        found += build(results)
    for build in (_conversions, _ranges):
        found += build(results)
    return found


def _retry_gap(results: Results) -> list[Fact]:
    """约 9 秒后发起第 2 次重试 (implicit) and 相隔 9 秒（11:16:48 → 11:16:57） (operands)."""
    if not results.has(RETRY_LOGS):
        return []
    first: dict[str, str] = {}
    made: list[Fact] = []
    for event in results.events(RETRY_LOGS):
        found = _ATTEMPT.search(event["message"])
        if not found:
            continue
        attempt, order_id = found.groups()
        if attempt == "1":
            first.setdefault(order_id, event["timestamp"])
        elif attempt == "2" and order_id in first and len(made) < 2:
            start, end = instant(first.pop(order_id)), instant(event["timestamp"])
            gap = seconds_between(start, end)
            secs = {lang: rounded(gap, 0, unit, derived="duration") for lang, unit in (("zh", "秒"), ("en", "s"))}
            calls = (RETRY_LOGS,)
            made.append(
                facts(
                    "duration_implicit",
                    calls,
                    f"{order(order_id)} 的回调首次失败后，约 {secs['zh']}后 "
                    f"{service('payment-service')} 发起了第 2 次重试",
                    f"About {secs['en']} after the first failed callback for {order(order_id)}, "
                    f"{service('payment-service')} retried (attempt 2/3)",
                    f"{order(order_id)} 的 callback 首次失败后约 {secs['zh']}就 retry 了（attempt=2/3）",
                )
            )
            made.append(
                facts(
                    "duration_operands",
                    calls,
                    f"{order(order_id)} 的两次回调重试相隔 {exact(gap.normalize(), '秒', derived='duration')}"
                    f"（{when(start, 'hms_utc')} → {when(end, 'hms_utc')}）",
                    f"the two callback retries for {order(order_id)} were {exact(gap.normalize(), 's')} apart "
                    f"({when(start, 'hms_utc')} → {when(end, 'hms_utc')})",
                    f"{order(order_id)} 两次 retry 间隔 {exact(gap.normalize(), 's')}"
                    f"（{when(start, 'hms_utc')} → {when(end, 'hms_utc')}）",
                )
            )
    return made


def _pattern_span(results: Results) -> list[Fact]:
    """持续了约 20 分钟: first_seen to last_seen of a pattern, said without (and with) the two times."""
    if not results.has(ORDER_LOGS):
        return []
    made: list[Fact] = []
    for pattern in results.patterns(ORDER_LOGS):
        start, end = instant(pattern["first_seen"]), instant(pattern["last_seen"])
        minutes = seconds_between(start, end) / 60
        if pattern["count"] < 4 or minutes < 2:
            continue
        who = service(pattern["service"])
        zh_min = rounded(minutes, 0, "分钟", derived="duration")
        en_min = rounded(minutes, 0, "minutes", derived="duration")
        level = status(pattern["level"], "level")
        made.append(
            facts(
                "duration_implicit",
                (ORDER_LOGS,),
                (f"{who} 的这类 {level} 日志持续了约 {zh_min}", f"{who} 的 {level} 前后持续约 {zh_min}"),
                f"the {level} pattern of {who} lasted about {en_min}",
                f"{who} 这个 {level} pattern 持续了约 {zh_min}",
                worked={
                    "zh": (
                        f"{who} 的这类 {level} 日志从 {when(start, 'hms_utc')} 到 {when(end, 'hms_utc')}，"
                        f"持续约 {zh_min}",
                    ),
                    "en": (
                        f"the {level} pattern of {who} ran from {when(start, 'hms_utc')} to "
                        f"{when(end, 'hms_utc')}, about {en_min}",
                    ),
                    "mix": (
                        f"{who} 的 {level} pattern 从 {when(start, 'hms_utc')} 到 {when(end, 'hms_utc')}，约 {zh_min}",
                    ),
                },
            )
        )
    return made[:2]


def _created_to_timeout(results: Results) -> list[Fact]:
    """创建约 15 分钟后即被置为 TIMEOUT: created_at to updated_at of a row."""
    if not results.has(ORDER_ROW):
        return []
    made: list[Fact] = []
    for row in results.rows(ORDER_ROW):
        created, updated = instant(row["created_at"]), instant(row["updated_at"])
        minutes = seconds_between(created, updated) / 60
        state = row["payment_status"]
        zh, en = rounded(minutes, 0, "分钟", derived="duration"), rounded(minutes, 0, "minute", derived="duration")
        made.append(
            facts(
                "duration_implicit",
                (ORDER_ROW,),
                f"{order(row['order_id'])} 创建约 {zh}后即被置为 {status(state)}",
                f"{order(row['order_id'])} was set to {status(state)} about {en} after it was created",
                f"{order(row['order_id'])} 在 created 约 {zh}后就变成了 {status(state)}",
                worked={
                    "zh": (
                        f"{order(row['order_id'])} 创建于 {when(created, 'sql')}，{when(updated, 'sql')} 被置为 "
                        f"{status(state)}，相隔约 {zh}",
                    ),
                },
            )
        )
    return made


def _health_interval(results: Results) -> list[Fact]:
    """每隔 5 分钟报一次 DOWN: the common gap between consecutive events."""
    if not results.has(HEALTH_LOGS):
        return []
    times = [instant(event["timestamp"]) for event in results.events(HEALTH_LOGS)]
    gaps = {seconds_between(a, b) for a, b in itertools.pairwise(times)}
    if len(gaps) != 1 or len(times) < 3:
        return []
    minutes = gaps.pop() / 60
    who = service(results.events(HEALTH_LOGS)[0]["service"])
    down = status("DOWN", "health")
    zh, en = rounded(minutes, 0, "分钟", derived="duration"), rounded(minutes, 0, "minutes", derived="duration")
    return [
        facts(
            "duration_implicit",
            (HEALTH_LOGS,),
            (f"{who} 的健康检查每隔约 {zh}报一次 {down}", f"{who} 大约每 {zh}报一次 {down}"),
            f"{who} reported its health check {down} every {en} or so",
            f"{who} 的 health check 每隔约 {zh}报一次 {down}",
        )
    ]


def _lock_free_time(results: Results) -> list[Fact]:
    """约 1.4 秒（27.932s − 26.506s）: Query_time minus Lock_time of one slow statement, operands stated."""
    if not results.has(SLOW_LOGS):
        return []
    made: list[Fact] = []
    for event in results.events(SLOW_LOGS):
        query, lock = field_number(event["message"], "Query_time"), field_number(event["message"], "Lock_time")
        if query is None or lock is None or "sql=UPDATE" not in event["message"] or len(made) >= 3:
            continue
        rest = Decimal(query) - Decimal(lock)
        at = instant(event["timestamp"])
        zh, en = rounded(rest, 1, "秒", derived="difference"), rounded(rest, 1, "s", derived="difference")
        ops = f"{exact(query, 's', sep='')} − {exact(lock, 's', sep='')}"
        made.append(
            facts(
                "duration_operands",
                (SLOW_LOGS,),
                f"{when(at, 'hms_utc')} 的这条 UPDATE 除去锁等待只执行了约 {zh}（{ops}）",
                f"the UPDATE at {when(at, 'hms_utc')} ran for only about {en} beyond its lock wait ({ops})",
                f"{when(at, 'hms_utc')} 这条 UPDATE 去掉 lock wait 只跑了约 {zh}（{ops}）",
            )
        )
    return made


def _timeout_conversions(results: Results) -> list[Fact]:
    """The order logs' timeouts in milliseconds said in seconds: 3000ms as 3 秒, 30007ms as 约 30 秒."""
    made: list[Fact] = []
    if not results.has(ORDER_LOGS):
        return made
    for pattern in results.patterns(ORDER_LOGS):
        text = pattern["example"]
        ms = number_before(text, "ms")
        if ms is None:
            continue
        who, value = service(pattern["service"]), Decimal(ms)
        if "HikariPool" in text:
            zh, en = rounded(value / 1000, 0, "秒", derived="conversion"), rounded(value / 1000, 0, "s")
            made.append(
                facts(
                    "unit_conversion",
                    (ORDER_LOGS,),
                    f"{who} 获取数据库连接约 {zh}后超时",
                    f"{who} gave up waiting for a database connection after about {en}",
                    f"{who} 拿 DB connection 约 {zh}后 timeout",
                    worked={"zh": (f"{who} 获取数据库连接 {exact(ms, 'ms', sep='')}（约 {zh}）后超时",)},
                )
            )
        elif value % 1000 == 0 and "order-service" in text:
            zh, en = exact((value / 1000).normalize(), "秒"), exact((value / 1000).normalize(), "seconds")
            made.append(
                facts(
                    "unit_conversion",
                    (ORDER_LOGS,),
                    f"{who} 回调 {service('order-service')} 在 {zh}后超时（{code('ERR_TIMEOUT')}）",
                    f"{who}'s callback to {service('order-service')} timed out after {en} ({code('ERR_TIMEOUT')})",
                    f"{who} 调 {service('order-service')} 的 callback {zh}就 timeout 了（{code('ERR_TIMEOUT')}）",
                )
            )
    return made


def _conversions(results: Results) -> list[Fact]:
    """3000ms as 3 秒, 3.020s as 3020 毫秒, 30007ms as 约 30 秒, a 60-minute window as 1 小时."""
    made = _timeout_conversions(results)
    if results.has(GATEWAY_LOGS):
        for pattern in results.patterns(GATEWAY_LOGS)[:2]:
            rt = field_number(pattern["example"], "rt")
            if rt is None:
                continue
            ms = (Decimal(rt) * 1000).normalize()
            at = instant(pattern["last_seen"])
            made.append(
                facts(
                    "unit_conversion",
                    (GATEWAY_LOGS,),
                    f"{service('api-gateway')} 在 {when(at, 'hms_utc')} 记录的这次 504 耗时 {exact(ms, '毫秒')}",
                    f"the 504 that {service('api-gateway')} logged at {when(at, 'hms_utc')} took {exact(ms, 'ms')}",
                    f"{service('api-gateway')} {when(at, 'hms_utc')} 这条 504 的 rt 是 {exact(ms, 'ms')}",
                )
            )
    if results.has(SLOW_LOGS):
        scope = results.result(SLOW_LOGS)["scope"]
        hours = seconds_between(instant(scope["start_time"]), instant(scope["end_time"])) / 3600
        made.append(
            facts(
                "unit_conversion",
                (SLOW_LOGS,),
                f"慢 SQL 日志的查询窗口为最近 {exact(hours.normalize(), '小时')}",
                f"the slow-SQL search covered the last {exact(hours.normalize(), 'hour')}",
                f"slow SQL 查询窗口是最近 {exact(hours.normalize(), '小时')}",
            )
        )
    return made


def _ranges(results: Results) -> list[Fact]:
    """耗时 21～28 秒: several cited values summarised as a range of whole units."""
    if not results.has(SLOW_LOGS):
        return []
    updates = [e["message"] for e in results.events(SLOW_LOGS) if "sql=UPDATE" in e["message"]]
    made: list[Fact] = []
    for name, zh_what, en_what in (("Query_time", "耗时", "took"), ("Lock_time", "锁等待", "waited on locks for")):
        values = [Decimal(v) for text in updates if (v := field_number(text, name)) is not None]
        if len(values) < 3:
            continue
        low = rounded(min(values), 0, floor=True, derived="range")
        zh_high, en_high = rounded(max(values), 0, "秒", derived="range"), rounded(max(values), 0, "s", derived="range")
        made.append(
            facts(
                "range_rounded",
                (SLOW_LOGS,),
                f"这几条 UPDATE biz_order 慢 SQL {zh_what} {low}～{zh_high}",
                f"these slow UPDATE biz_order statements {en_what} {low}–{en_high}",
                f"这些 UPDATE biz_order 的 {name} 在 {low}～{zh_high}",
                cells=(Cell(f"UPDATE {zh_what}", f"UPDATE {name}", f"{low}～{zh_high}"),),
            )
        )
    if results.has(HEALTH_LOGS):
        waiting = [int(v) for e in results.events(HEALTH_LOGS) if (v := field_number(e["message"], "waiting"))]
        if len(set(waiting)) > 1:
            low, high = exact(min(waiting), derived="range"), exact(max(waiting), "个", derived="range")
            made.append(
                facts(
                    "range_rounded",
                    (HEALTH_LOGS,),
                    f"每次报 {status('DOWN', 'health')} 时等待连接的线程在 {low}～{high}",
                    f"each {status('DOWN', 'health')} report had {low}–{exact(max(waiting), derived='range')} "
                    "threads waiting for a connection",
                    f"每次 {status('DOWN', 'health')} 时 waiting 在 {low}～{high}",
                )
            )
    return made
