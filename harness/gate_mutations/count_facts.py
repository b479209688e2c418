"""Facts about counts: what was counted among the returned records, sums of several cells, shares built on
them, two-step derivations, ratios with and without their work, and Chinese approximate numerals."""

from __future__ import annotations

from decimal import Decimal

from harness.gate_mutations.facts import Cell, Fact, code, facts, order, service, status
from harness.gate_mutations.marks import mark
from harness.gate_mutations.notation import chinese_tens, exact, rounded
from harness.gate_mutations.results import Results

ORDER_LOGS, RETRY_LOGS, HEALTH_LOGS = "call_logs_order", "call_logs_retry", "call_logs_health"
SLOW_LOGS, GATEWAY_LOGS = "call_logs_slow", "call_logs_gateway"
STATUS_ROWS, CHANNEL_ROWS = "call_sql_status", "call_sql_channels"
STATUS_METRIC, CALLBACK_METRIC, PENDING_METRIC = "call_metric_status", "call_metric_callbacks", "call_metric_pending"


def count_facts(results: Results) -> list[Fact]:
    found: list[Fact] = []
    for build in (_counted, _sums_and_shares, _two_step, _ratios, _approximate):
        found += build(results)
    return found


def _counted(results: Results) -> list[Fact]:
    """UPDATE 共 6 条: records of the returned sample counted by a word they hold."""
    made: list[Fact] = []
    for call, word, zh_what, en_what in (
        (SLOW_LOGS, "sql=UPDATE", "条慢 SQL", "slow statements"),
        (RETRY_LOGS, "order-123", "条事件", "events"),
        (GATEWAY_LOGS, "upstream=order-service", "条 504", "504s"),
    ):
        if not results.has(call):
            continue
        shown = results.events(call)
        hits = sum(word in event["message"] for event in shown)
        if not 0 < hits < len(shown) or len(shown) < 3:
            continue
        total_zh = exact(len(shown), zh_what[0], counted="returned")
        total_en = exact(len(shown), en_what, counted="returned")
        what = mark("id", word, shape="order") if word.startswith("order-") else word.removeprefix("sql=")
        made.append(
            facts(
                "count_shown",
                (call,),
                f"返回的 {total_zh}{zh_what[1:]}中，含 {what} 的共 {exact(hits, '条', counted=word)}",
                f"of the {total_en} returned, {exact(hits, '', counted=word)} mention {what}",
                f"返回的 {total_zh}{zh_what[1:]}里 {what} 共 {exact(hits, '条', counted=word)}",
                cells=(Cell(f"含 {what} 的记录", f"records with {what}", exact(hits, "条", counted=word)),),
            )
        )
    if results.has(HEALTH_LOGS):
        downs = sum("DOWN" in event["message"] for event in results.events(HEALTH_LOGS))
        who = service(results.events(HEALTH_LOGS)[0]["service"])
        made.append(
            facts(
                "count_shown",
                (HEALTH_LOGS,),
                f"{who} 在窗口内报了 {exact(downs, '次', counted='DOWN')} {status('DOWN', 'health')}",
                f"{who} reported {status('DOWN', 'health')} {exact(downs, 'times', counted='DOWN')} in the window",
                f"{who} 报了 {exact(downs, '次', counted='DOWN')} health check {status('DOWN', 'health')}",
            )
        )
    return made


def _sums_and_shares(results: Results) -> list[Fact]:
    """共 19 笔 (12 + 6 + 1) and 占比约 31.6% (6 / 19)."""
    if not results.has(STATUS_ROWS):
        return []
    rows = results.rows(STATUS_ROWS)
    total = sum(int(row["n"]) for row in rows)
    parts_zh = "、".join(f"{status(row['status'])} {exact(row['n'], '笔')}" for row in rows)
    parts_en = ", ".join(f"{status(row['status'])} {exact(row['n'])}" for row in rows)
    zh_total, en_total = exact(total, "笔", derived="sum"), exact(total, "payments", derived="sum")
    made = [
        facts(
            "sum_cells",
            (STATUS_ROWS,),
            (f"payment_record 共 {zh_total}", f"支付单合计 {zh_total}"),
            f"payment_record holds {en_total} in all",
            f"payment_record 一共 {zh_total}",
            worked={
                "zh": (f"payment_record 共 {zh_total}（{parts_zh}）",),
                "en": (f"payment_record holds {en_total} ({parts_en})",),
                "mix": (f"payment_record total {zh_total}（{parts_zh}）",),
            },
            cells=(Cell("支付单合计", "payments in all", zh_total),),
        )
    ]
    for row in rows[:2]:
        share = Decimal(row["n"]) * 100 / total
        zh, en = rounded(share, 1, "%", derived="share"), rounded(share, 1, "%", derived="share")
        state = status(row["status"])
        made.append(
            facts(
                "share",
                (STATUS_ROWS,),
                f"{state} 支付单 {exact(row['n'], '笔')}，占比约 {zh}",
                f"{state} payments are {exact(row['n'])}, about {en} of all",
                f"{state} 的 payment 有 {exact(row['n'], '笔')}，share 约 {zh}",
                worked={
                    "zh": (f"{state} 占比 = {exact(row['n'])} / {exact(total)}，约 {zh}",),
                    "en": (f"{state} share = {exact(row['n'])} / {exact(total)}, about {en}",),
                },
                cells=(Cell(f"{state} 占比", f"{state} share", zh),),
            )
        )
    return made


def _two_step(results: Results) -> list[Fact]:
    """WECHAT 2 笔、CARD 1 笔 … 共 6 笔，约占 50%: a sum, then a share of it."""
    if not results.has(CHANNEL_ROWS):
        return []
    rows = results.rows(CHANNEL_ROWS)
    total = sum(int(row["n"]) for row in rows)
    rest = rows[1:]
    part = sum(int(row["n"]) for row in rest)
    share = Decimal(part) * 100 / total
    timeout = status("TIMEOUT")
    listed_zh = "、".join(f"{status(row['channel'], 'channel')} {exact(row['n'], '笔')}" for row in rest)
    listed_en = " and ".join(f"{status(row['channel'], 'channel')} {exact(row['n'])}" for row in rest)
    first = rows[0]
    return [
        facts(
            "two_step",
            (CHANNEL_ROWS,),
            f"{timeout} 支付单中 {listed_zh}，合计 {exact(part, '笔', derived='sum')}，约占全部 {timeout} 的 "
            f"{rounded(share, 0, '%', derived='share')}",
            f"among {timeout} payments, {listed_en} make {exact(part, '', derived='sum')}, about "
            f"{rounded(share, 0, '%', derived='share')} of all {timeout}",
            f"{timeout} 里 {listed_zh}，一共 {exact(part, '笔', derived='sum')}，"
            f"约占 {rounded(share, 0, '%', derived='share')}",
        ),
        facts(
            "two_step",
            (CHANNEL_ROWS,),
            f"{timeout} 共 {exact(total, '笔', derived='sum')}，其中 {status(first['channel'], 'channel')} "
            f"{exact(first['n'], '笔')}，约占 {rounded(Decimal(first['n']) * 100 / total, 0, '%', derived='share')}",
            f"{exact(total, '', derived='sum')} {timeout} payments, {exact(first['n'])} of them "
            f"{status(first['channel'], 'channel')}: "
            f"about {rounded(Decimal(first['n']) * 100 / total, 0, '%', derived='share')}",
            f"{timeout} 一共 {exact(total, '笔', derived='sum')}，{status(first['channel'], 'channel')} 占 "
            f"{exact(first['n'], '笔')}，约 {rounded(Decimal(first['n']) * 100 / total, 0, '%', derived='share')}",
        ),
    ]


def _ratios(results: Results) -> list[Fact]:
    """失败占比 = 1.868 / (1.868 + 0.2515)，约 88% (worked) and 约 88% (bare), on the last value of each series."""
    made: list[Fact] = []
    for call, label, bad, good, zh_what, en_what in (
        (STATUS_METRIC, "status", "500", "200", "order-service 的请求", "order-service requests"),
        (CALLBACK_METRIC, "outcome", "ERR_TIMEOUT", "SUCCESS", "支付回调", "payment callbacks"),
    ):
        if not results.has(call):
            continue
        last = {s["labels"].get(label): s["last"] for s in results.series(call)}
        if bad not in last or good not in last:
            continue
        share = Decimal(str(last[bad])) * 100 / (Decimal(str(last[bad])) + Decimal(str(last[good])))
        failed = code(bad) if bad.startswith("ERR_") else mark("number", bad, number=bad, unit="", status_code=True)
        zh, en = rounded(share, 0, "%", derived="share"), rounded(share, 0, "%", derived="share")
        ops = f"{exact(last[bad])} / ({exact(last[bad])} + {exact(last[good])})"
        made.append(
            facts(
                "ratio_worked",
                (call,),
                f"{zh_what}失败占比 = {ops}，约 {zh}",
                f"the failed share of {en_what} = {ops}, about {en}",
                f"{zh_what} fail ratio = {ops}，约 {zh}",
            )
        )
        made.append(
            facts(
                "ratio_bare",
                (call,),
                (f"最新一个点上 {failed} 约占{zh_what}的 {zh}", f"{zh_what}里 {failed} 已占约 {zh}"),
                f"at the latest point {failed} is about {en} of {en_what}",
                f"最新的点 {failed} 占 {zh_what} 约 {zh}",
            )
        )
    return made


def _approximate_order_logs(results: Results) -> list[Fact]:
    """The order-service timeout lines and payment-service's pattern of them, as 四十多条 / 二十多次."""
    made: list[Fact] = []
    if not results.has(ORDER_LOGS):
        return made
    result = results.result(ORDER_LOGS)
    words = chinese_tens(result["match_count"])
    if words:
        token = mark("number", f"{words}条", zh_numeral=result["match_count"], unit="条")
        made.append(
            facts(
                "zh_approx_numeral",
                (ORDER_LOGS,),
                f"匹配 {service('order-service')}、{order('order-123')} 与 timeout 的日志有{token}",
                f"some {exact(result['match_count'], 'log lines')} matched {service('order-service')}, "
                f"{order('order-123')} and timeout",
                f"match 到的日志有{token}",
            )
        )
    for pattern in results.patterns(ORDER_LOGS):
        words = chinese_tens(pattern["count"])
        if words and pattern["service"] == "payment-service":
            token = mark("number", f"{words}次", zh_numeral=pattern["count"], unit="次")
            made.append(
                facts(
                    "zh_approx_numeral",
                    (ORDER_LOGS,),
                    f"{service('payment-service')} 调用 {service('order-service')} 超时{token}",
                    f"{service('payment-service')} timed out calling {service('order-service')} "
                    f"{exact(pattern['count'], 'times')}",
                    f"{service('payment-service')} call {service('order-service')} timeout 了{token}",
                )
            )
            break
    return made


def _approximate(results: Results) -> list[Fact]:
    """四十多条 for 43, 二十多次 for 26, 近五十 for 48."""
    made = _approximate_order_logs(results)
    if results.has(PENDING_METRIC):
        top = results.series(PENDING_METRIC)[0]["max"]
        words = chinese_tens(int(top))
        if words:
            token = mark("number", f"{words}个", zh_numeral=int(top), unit="个")
            made.append(
                facts(
                    "zh_approx_numeral",
                    (PENDING_METRIC,),
                    f"{service('order-service')} 等待连接的线程最多时有{token}",
                    f"waiting threads in {service('order-service')} peaked at {exact(top, 'threads')}",
                    f"{service('order-service')} 的 pending threads 最多{token}",
                )
            )
    if results.has(GATEWAY_LOGS):
        count = results.result(GATEWAY_LOGS)["match_count"]
        words = chinese_tens(count)
        if words:
            token = mark("number", f"{words}条", zh_numeral=count, unit="条")
            made.append(
                facts(
                    "zh_approx_numeral",
                    (GATEWAY_LOGS,),
                    f"{service('api-gateway')} 的相关访问日志共{token}",
                    f"{service('api-gateway')} had {exact(count, 'matching access log lines')}",
                    f"{service('api-gateway')} 的 access log 有{token}",
                )
            )
    return made
