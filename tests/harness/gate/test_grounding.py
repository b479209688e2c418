"""Value grounding: the table in the module's docstring holds, and the rules behind it hold for their variants."""

from __future__ import annotations

import json

import pytest

from harness.gate import ClaimPolicy
from harness.gate import grounding as value_grounding
from harness.gate.evidence import Grounds as Evidence
from harness.gate.evidence import evidence_of
from harness.gate.grounding import ungrounded
from harness.gate.text import value_text as normalise
from harness.gate.tokens import tokenize

NON_FACTS = ClaimPolicy.default().non_facts


def _table() -> list[tuple[str, str, list[str]]]:
    rows = []
    for line in (value_grounding.__doc__ or "").split("::", 1)[1].splitlines():
        if "|" not in line:
            continue
        claim, evidence, verdict = (part.strip() for part in line.split("|"))
        rows.append((claim, evidence, [] if verdict == "yes" else [verdict.split(": ", 1)[1]]))
    return rows


def _evidence(text: str) -> Evidence:
    try:
        return evidence_of([json.loads(text)])
    except ValueError:
        return evidence_of([], [text])


@pytest.mark.parametrize(("claim", "evidence", "missing"), _table())
def test_the_docstring_table(claim: str, evidence: str, missing: list[str]) -> None:
    assert ungrounded(claim, _evidence(evidence), non_facts=NON_FACTS, ignore=frozenset({"a1"})) == missing


def test_the_table_has_both_verdicts() -> None:
    rows = _table()
    assert len(rows) >= 25 and any(not m for _, _, m in rows) and sum(bool(m) for _, _, m in rows) >= 6


LOG_RESULT = {
    "scope": {
        "topic": "APPLICATION",
        "query": "order-service HikariPool",
        "start_time": "2026-07-21T02:00:00.000+00:00",
        "end_time": "2026-07-21T02:30:00.000+00:00",
    },
    "match_count": 130,
    "patterns": [
        {
            "count": 72,
            "first_seen": "2026-07-21T02:05:09.000+00:00",
            "last_seen": "2026-07-21T02:29:34.000+00:00",
            "level": "ERROR",
            "service": "order-service",
            "example": "HikariPool-1 - Connection is not available, request timed out after 30007ms (total=50, "
            "active=50, idle=0, waiting=30)",
        }
    ],
}
ROWS = {"columns": ["order_id", "payment_status"], "rows": [{"order_id": "order-123", "payment_status": "TIMEOUT"}]}


@pytest.mark.parametrize(
    "claim",
    [
        "order-service 在 02:05:09 至 02:29:34（UTC）出现 72 次 ERROR「HikariPool-1 - Connection is not available」",
        "Order-Service logged 72 ERROR lines between 02:05 and 02:29 UTC (HikariPool-1, 30007ms)",
        "2026年7月21日 10:05（北京时间）起，**order-service** 连接池 total=50、active=50、idle=0",
        "最近 30 分钟内共匹配 130 条，其中 72 条为连接池超时，约 55%",
        "七十二次超时，每次等待约 30 秒",
        "在 2026-07-21T02:05:09Z 首次出现，`waiting=30`",
        "约半小时窗口内，连接池等待超时集中出现",
        "一百三十条日志中七十二条是 ERROR",
        "约 24 分钟内（02:05:09 至 02:29:34）持续报错",
        "order-service 的 HikariPool-1 在 30 分钟窗口里满载（50/50）",
    ],
)
def test_faithful_paraphrases_are_grounded(claim: str) -> None:
    assert ungrounded(claim, evidence_of([LOG_RESULT]), non_facts=NON_FACTS) == []


@pytest.mark.parametrize(
    ("claim", "token"),
    [
        ("出现 720 次 ERROR", "720 次"),
        ("最近 24 小时出现 72 次", "24 小时"),
        ("payment-service 出现 72 次", "payment-service"),
        ("2026-07-21 03:05:09（UTC）首次出现", "2026-07-21 03:05:09(UTC)"),
        ("请求 45 秒后超时", "45 秒"),
        ("失败率 87.3%", "87.3%"),
        ("连接池上限 total=60", "60"),
        ("HikariPool-2 耗尽", "HikariPool-2"),
        ("db-master-01 主库宕机", "db-master-01"),
        ("从 2026-07-20 起", "2026-07-20"),
        ("峰值等待 waiting=48", "48"),
    ],
)
def test_fabrications_are_named(claim: str, token: str) -> None:
    assert token in ungrounded(claim, evidence_of([LOG_RESULT]), non_facts=NON_FACTS)


def test_whole_tokens_only() -> None:
    held = evidence_of([], ["order-123 重试 3000 次，耗时 30007ms"])
    assert ungrounded("order-12 重试 300 次", held) == ["order-12", "300 次"]
    assert ungrounded("order-1234", held) == ["order-1234"]
    assert ungrounded("30007 ms 后超时", held) == []


def test_values_of_the_query_are_grounded() -> None:
    held = evidence_of([ROWS], ["订单 order-123 在 2026-07-21 10:05 北京时间 支付超时"])
    assert ungrounded("order-123 的 payment_status 为 TIMEOUT，10:05 北京时间超时", held) == []


def test_rows_ground_their_values_and_column_names() -> None:
    held = evidence_of([ROWS])
    assert ungrounded("订单 order-123 的 payment_status 为 timeout", held) == []
    assert ungrounded("订单 order-123 已退款（REFUNDED）", held) == ["REFUNDED"]
    assert ungrounded("pay_status 为 TIMEOUT", held) == ["pay_status"]


def test_derived_values_need_their_operands_in_the_same_item() -> None:
    held = evidence_of([{"match_count": 130, "count": 72}])
    assert ungrounded("130 条中 72 条，约 55%", held) == []
    assert ungrounded("占比约 55%", held) == ["55%"]
    assert ungrounded("约 55%", held, operand_texts=["130 条中 72 条"]) == []


def test_a_total_may_sum_several_stated_counts() -> None:
    held = evidence_of([{"a": 3, "b": 2, "c": 1}])
    assert (
        ungrounded(
            "ALIPAY 3 笔、WECHAT 2 笔、CARD 1 笔，共 6 笔", held, non_facts=frozenset({"alipay", "wechat", "card"})
        )
        == []
    )
    assert ungrounded(
        "ALIPAY 3 笔、WECHAT 2 笔、CARD 1 笔，另有 6 笔", held, non_facts=frozenset({"alipay", "wechat", "card"})
    ) == ["6 笔"]


def test_rounded_conversions_need_an_approximate_marker() -> None:
    held = evidence_of([], ["rt=30.008s"])
    assert ungrounded("响应约 30 秒", held) == []
    assert ungrounded("响应超过 30 秒", held) == []
    assert ungrounded("响应 30 秒", held) == ["30 秒"]
    assert ungrounded("响应约 30008 毫秒", held) == []
    assert ungrounded("响应约 40 秒", held) == ["40 秒"]


def test_normalisation() -> None:
    assert normalise("七十二次，一百三十条，百分之五十五，３０ 分钟") == "72次,130条,55%,30 分钟"
    assert normalise("同一查询，十一月，三三两两次，一次") == "同一查询,十一月,三三两两次,一次"
    tokens = tokenize("1,234 条，30min，2h，64KB")
    assert [(str(n.value), n.unit) for n in tokens.numbers] == [("1234", "条"), ("30", "min"), ("2", "h"), ("64", "kb")]


def test_times_with_and_without_a_zone() -> None:
    held = evidence_of([], ["2026-07-21T02:05:09.000+00:00"])
    assert ungrounded("02:05:09", held) == []
    assert ungrounded("10:05 北京时间", held) == []
    assert ungrounded("10:05:09+08:00", held) == []
    assert ungrounded("10:05", held) == ["10:05"]
    assert ungrounded("7月21日 02:05", held) == []
    assert ungrounded("7月22日", held) == ["7月22日"]


def test_non_fact_words_are_configurable() -> None:
    held = evidence_of([], [""])
    assert ungrounded("MOCK 数据，SQL 查询，UTC 时间，read-only 账号", held, non_facts=NON_FACTS) == []
    assert ungrounded("MOCK 数据", held) == ["MOCK"]


@pytest.mark.parametrize(
    ("claim", "evidence", "missing"),
    [
        # bounds state a nearby value, in their direction
        ("两类错误合计超过 100 次", {"a": 72, "b": 26, "match_count": 185}, ["100 次"]),
        ("超过 70 次", {"count": 72}, []),
        ("不到 100 ms", {"latency_ms": 80}, []),
        ("至少 50 次", {"count": 40}, ["50 次"]),
        ("30 多次", {"count": 36}, []),
        ("30 多次", {"count": 72}, ["30"]),
        # a bare number in the evidence never grounds a duration, a size or a percentage
        ("等待 30 秒", {"waiting": 30}, ["30 秒"]),
        ("占 30%", {"waiting": 30}, ["30%"]),
        ("100%", {"returned_count": 1}, ["100%"]),
        # derivations need operands of one kind, and a total or a difference must be said
        ("约 17 分钟", {"status": 504, "count": 30}, ["17 分钟"]),
        ("两者合计 98 次（72 次、26 次）", {"a": 72, "b": 26}, []),
        ("72 次与 26 次，另有 98 次", {"a": 72, "b": 26}, ["98 次"]),
        ("前者 72 次，比后者 26 次多 46 次", {"a": 72, "b": 26}, []),
        ("26933ms 与 21268ms 相差约 5.7 秒", {"a": "26933ms", "b": "21268ms"}, []),
        ("72/26 约为 2.8 倍", {"a": 72, "b": 26}, []),
        ("6 个实例 × 100 = 600 个连接", {"instances": 6, "pool": 100}, []),
        ("每 5 分钟一次，共 5 次，从 02:05:07 到 02:25:07", {"t": ["02:05:07", "02:25:07"], "n": 5}, []),
    ],
)
def test_bounds_units_and_derivations(claim: str, evidence: dict, missing: list[str]) -> None:
    assert ungrounded(claim, evidence_of([evidence]), non_facts=NON_FACTS) == missing


@pytest.mark.parametrize(
    ("claim", "missing"),
    [
        ("没有 ERROR 级日志，no TIMEOUT", []),
        ("未支付（UNPAID）", ["UNPAID"]),
        ("refundNo=RF-999 重复", ["RF-999"]),
        ("未能将订单 order-124 标记为 PAID", ["order-124"]),
        ("slow-query and row-lock on the read-only account", []),
        ("the payment-timeout runbook and the on-call lead", []),
        ("inventory-service 与 db-master-02", ["inventory-service", "db-master-02"]),
        ("CannotAcquireLockException from maxPoolSize", ["CannotAcquireLockException", "maxPoolSize"]),
        ("HikariCP 与 MySQL 的 connectionTimeout", []),
        ("POST /internal/orders/order-123/confirm", ["/internal/orders/order-123/confirm"]),
        ("POST /internal/orders/order-123/paid 与 /orders/order-123/paid", []),
    ],
)
def test_identifiers(claim: str, missing: list[str]) -> None:
    held = evidence_of([], ["POST /internal/orders/order-123/paid TIMEOUT ERROR PAID"])
    assert ungrounded(claim, held, non_facts=NON_FACTS) == missing


LOG_ENTRY = {
    "source": "APPLICATION",
    "scope": "order-123 REFUNDED，2026-07-21T02:00:00Z 至 2026-07-21T02:30:00Z",
    "asked": ["order-123 REFUNDED"],
    "pattern": "timeout",
}


def test_a_normal_analysis_may_name_but_not_state_its_own_query() -> None:
    normal = evidence_of([LOG_ENTRY])
    assert ungrounded("以 'order-123 REFUNDED' 查询 APPLICATION 日志", normal, non_facts=NON_FACTS) == []
    assert ungrounded("订单已退款（REFUNDED）", normal, non_facts=NON_FACTS) == ["REFUNDED"]
    assert ungrounded("order-123 REFUNDED", normal, non_facts=NON_FACTS) == ["order-123", "REFUNDED"]
    assert ungrounded("02:00 至 02:30 内出现 timeout", normal, non_facts=NON_FACTS) == []
    negative = evidence_of([LOG_ENTRY], scope_is_fact=True)
    assert ungrounded("REFUNDED 没有匹配", negative, non_facts=NON_FACTS) == []
    assert ungrounded("order-123 REFUNDED 零匹配", negative, non_facts=NON_FACTS) == []


SQL_ENTRY = {
    "source": "order_readonly",
    "scope": 'SELECT COUNT(biz_order.order_id) FROM biz_order WHERE biz_order.payment_status = ? params=["REFUNDED"]',
    "asked": ["REFUNDED"],
    "columns": ["COUNT(biz_order.order_id)"],
    "rows": [{"COUNT(biz_order.order_id)": 0}],
}


@pytest.mark.parametrize(
    "claim",
    [
        "以 payment_status = REFUNDED 为条件查询，共 0 笔",
        "查询 payment_status 为 REFUNDED 的订单，0 笔",
        "REFUNDED 订单 0 笔",
        "0 笔 REFUNDED",
        "按 payment_status=REFUNDED 统计 biz_order，结果为 0",
    ],
)
def test_a_query_value_may_be_named_as_the_scope(claim: str) -> None:
    assert ungrounded(claim, evidence_of([SQL_ENTRY]), non_facts=NON_FACTS) == []


@pytest.mark.parametrize(
    "claim",
    [
        "订单 order-123 的状态为 REFUNDED",
        "订单已 REFUNDED",
        "查询结果显示 REFUNDED",
        "The order is REFUNDED",
        "REFUNDED",
    ],
)
def test_a_query_value_is_no_finding(claim: str) -> None:
    assert "REFUNDED" in ungrounded(claim, evidence_of([SQL_ENTRY]), non_facts=NON_FACTS)


def test_a_window_length_grounds_only_a_window() -> None:
    window = {"start_time": "2026-07-21T02:00:00Z", "end_time": "2026-07-21T02:30:00Z"}
    assert ungrounded("最近 30 分钟内出现 72 次", evidence_of([window, {"count": 72}])) == []
    assert ungrounded("已持续 30 分钟", evidence_of([window])) == ["30 分钟"]
    assert ungrounded("过去两小时", evidence_of([window])) == ["2小时"]
    assert ungrounded("In this 30-minute window", evidence_of([window])) == []
