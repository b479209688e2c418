"""Values a reader computes from the cited evidence without writing the work down, and the bound that keeps each
rule from grounding any number (harness.gate.computed, durations, tallies, ranges, specificity, compounds)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from harness.gate.evidence import evidence_of
from harness.gate.grounding import ungrounded
from harness.gate.specificity import grounded_by
from harness.gate.tokens import Number

CALLBACK_RETRIES = {
    "source": "APPLICATION (MOCK)",
    "scope": "payment-service callback，2026-12-01T10:00:00Z 至 2026-12-01T10:30:00Z",
    "asked": ["callback"],
    "events": [
        {"time": "2026-12-01T10:14:02.310Z", "message": "callback attempt 1 to order-service failed: 504"},
        {"time": "2026-12-01T10:14:13.905Z", "message": "callback attempt 2 to order-service failed: 504"},
        {"time": "2026-12-01T10:14:35.120Z", "message": "callback attempt 3 to order-service failed: 504"},
    ],
}
POOL_PATTERN = {
    "source": "APPLICATION (MOCK)",
    "scope": "order-service pool，2026-12-01T10:00:00Z 至 2026-12-01T10:30:00Z",
    "asked": ["pool"],
    "pattern": "HikariPool-1 - Connection is not available",
    "count": 41,
    "first_seen": "2026-12-01T10:03:11Z",
    "last_seen": "2026-12-01T10:21:47Z",
    "level": "ERROR",
}
HEALTH_PATTERN = {
    "source": "APPLICATION (MOCK)",
    "scope": "order-service health，2026-12-01T10:00:00Z 至 2026-12-01T10:30:00Z",
    "asked": ["health"],
    "pattern": "Health check DOWN: db",
    "count": 4,
    "first_seen": "2026-12-01T10:05:00Z",
    "last_seen": "2026-12-01T10:20:00Z",
}
ORDER_ROW = {
    "source": "order_readonly",
    "scope": "SELECT order_id, status, created_at, updated_at FROM biz_order WHERE order_id = ?",
    "asked": ["order-977"],
    "rows": [
        {
            "order_id": "order-977",
            "status": "TIMEOUT",
            "created_at": "2026-12-01 10:02:40",
            "updated_at": "2026-12-01 10:17:52",
        }
    ],
}
CHANNELS = {
    "source": "order_readonly",
    "scope": "SELECT channel, status, COUNT(*) AS n FROM payment_record GROUP BY channel, status",
    "asked": [],
    "rows": [
        {"channel": "ALIPAY", "status": "FAILED", "n": 7},
        {"channel": "ALIPAY", "status": "SUCCESS", "n": 21},
        {"channel": "CARD", "status": "FAILED", "n": 2},
        {"channel": "WECHAT", "status": "SUCCESS", "n": 14},
    ],
}
STATEMENTS = {
    "source": "APPLICATION (MOCK)",
    "scope": "order_db slow statements",
    "asked": ["order_db"],
    "events": [
        {"statement": "UPDATE biz_order SET status = ? WHERE order_id = ?", "wait_ms": 5012},
        {"statement": "SELECT * FROM biz_order WHERE order_id = ? LOCK IN SHARE MODE", "wait_ms": 4870},
        {"statement": "UPDATE payment_record SET status = ? WHERE payment_id = ?", "wait_ms": 5230},
        {"statement": "UPDATE biz_order SET paid_at = ? WHERE order_id = ?", "wait_ms": 4410},
    ],
}
LATENCY = {
    "source": "prometheus (MOCK)",
    "scope": "http_server_requests_seconds p99，2026-12-01T10:00:00Z 至 2026-12-01T10:30:00Z",
    "asked": [],
    "unit": "seconds",
    "labels": {"service": "order-service"},
    "min": 0.081,
    "max": 30.0,
    "last": 29.77,
}
DICTIONARY = {
    "document_id": "data-dictionary#biz-order",
    "excerpt": "表 biz_order 记录订单；字段 payment_status 取值 PENDING、PAID、TIMEOUT，字段 updated_at 为修改时间。",
}


def missing(text: str, *entries: dict[str, Any]) -> list[str]:
    return ungrounded(text, evidence_of(entries))


@pytest.mark.parametrize(
    "text",
    [
        "第 1 次回调失败后约 12 秒发起了第二次",  # 10:14:02.310 -> 10:14:13.905
        "三次回调在约 33 秒内全部失败",  # first to last event
        "连接池报错从首次出现起持续了约 19 分钟",  # 10:03:11 -> 10:21:47
        "the pool errors went on for about 19 minutes",
        "健康检查每 5 分钟报一次 DOWN",  # 4 occurrences over 15 minutes
        "订单创建约 15 分钟后被置为 TIMEOUT",  # created_at -> updated_at of one row
    ],
)
def test_a_duration_between_instants_of_one_result_is_grounded(text: str) -> None:
    assert missing(text, CALLBACK_RETRIES, POOL_PATTERN, HEALTH_PATTERN, ORDER_ROW) == []


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("连接池报错持续了约 25 分钟", "25 分钟"),
        ("第 1 次回调失败后约 40 秒发起了第二次", "40 秒"),
        ("健康检查每 7 分钟报一次 DOWN", "7 分钟"),
        ("订单创建约 3 分钟后被置为 TIMEOUT", "3 分钟"),
    ],
)
def test_a_changed_duration_is_caught(text: str, token: str) -> None:
    assert missing(text, CALLBACK_RETRIES, POOL_PATTERN, HEALTH_PATTERN, ORDER_ROW) == [token]


def test_the_length_of_the_queried_window_is_no_observed_duration() -> None:
    assert missing("连接池报错已持续 30 分钟", POOL_PATTERN) == ["30 分钟"]


def test_the_work_of_a_difference_may_carry_units() -> None:
    entry = {"asked": [], "scope": "s", "a": "took 41.207s", "b": "took 39.884s"}
    assert missing("慢了约 1.3 秒（41.207s − 39.884s）", entry) == []
    assert missing("慢了约 2.3 秒（41.207s − 39.884s）", entry) == ["2.3 秒"]


@pytest.mark.parametrize(
    "text",
    [
        "UPDATE 语句共 3 条",  # 3 of the 4 returned statements
        "返回的 4 条语句里有 1 条 SELECT",
        "FAILED 的支付共 9 笔",  # 7 + 2 over the FAILED rows
        "支付共 44 笔，其中 FAILED 共 9 笔，占比约 20.5%",
        "ALIPAY 占全部支付的约 64%",  # (7 + 21) / 44
        "FAILED 合计 9 笔、SUCCESS 合计 35 笔，失败约占 20%",  # 9 / (9 + 35), operands stated
        "failure share = 7 / (7 + 21) ≈ 25%",
    ],
)
def test_counts_totals_and_shares_of_what_a_result_shows_are_grounded(text: str) -> None:
    assert missing(text, STATEMENTS, CHANNELS) == []


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("UPDATE 语句共 5 条", "5 条"),
        ("FAILED 的支付共 11 笔", "11 笔"),
        ("ALIPAY 占全部支付的约 71%", "71%"),
        ("FAILED 合计 9 笔、SUCCESS 合计 35 笔，失败约占 30%", "30%"),
    ],
)
def test_a_changed_count_total_or_share_is_caught(text: str, token: str) -> None:
    assert missing(text, STATEMENTS, CHANNELS) == [token]


def test_a_subtotal_of_named_rows_is_written_as_one() -> None:
    # the sum over the FAILED rows is a total; unmarked, "FAILED 9 笔" would let any subtotal of any part ground a
    # count the clause only loosely names (payment-service … 三十多次 as the sum of every payment-service line)
    assert missing("FAILED 的支付共 9 笔", CHANNELS) == []
    assert missing("FAILED 的支付 9 笔", CHANNELS) == ["9 笔"]


def test_a_range_summarising_cited_values_rounds_its_extremes() -> None:
    assert missing("锁等待 4～6 秒", STATEMENTS) == []
    assert missing("lock waits of 4.4-5.3 s", STATEMENTS) == []
    assert missing("锁等待 4～5 秒", STATEMENTS) == []  # rounded down and to the nearest
    assert missing("锁等待 2～6 秒", STATEMENTS) == ["2", "6 秒"]  # the ends are judged together
    assert missing("锁等待 4～9 秒", STATEMENTS) == ["9 秒"]  # 4 alone is the count of statements


def test_an_exact_conversion_between_units_is_grounded() -> None:
    assert missing("最长一次等待 5.23 秒", STATEMENTS) == []
    assert missing("最长一次等待 5.32 秒", STATEMENTS) == ["5.32 秒"]


def test_a_unit_the_evidence_names_for_its_figures_applies_to_them() -> None:
    assert missing("p99 延迟最高 30 秒，最低 81 毫秒", LATENCY) == []
    assert missing("p99 延迟最高 30 分钟", LATENCY) == ["30 分钟"]
    rates = {**LATENCY, "unit": None}
    assert missing("p99 延迟最高 30 秒", rates) == ["30 秒"]


@pytest.mark.parametrize(("text", "grounded"), [("近四十五次", True), ("近五十次", False), ("四十多次", True)])
def test_chinese_approximate_numerals(text: str, grounded: bool) -> None:
    assert (missing(f"连接池报错{text}", POOL_PATTERN) == []) is grounded


def test_nearly_means_just_under() -> None:
    assert missing("nearly 45 errors", POOL_PATTERN) == []
    assert missing("nearly 30 errors", POOL_PATTERN) == ["30 errors"]


def test_an_identifier_joined_from_parts_of_one_source_is_grounded() -> None:
    assert ungrounded("见 biz_order.payment_status 与 biz_order.updated_at", evidence_of([DICTIONARY])) == []
    assert ungrounded("见 biz_order.refund_status", evidence_of([DICTIONARY])) == ["biz_order.refund_status"]
    apart = evidence_of([{"table": "biz_order"}, {"note": "column payment_status"}])
    assert ungrounded("见 biz_order.payment_status", apart) == ["biz_order.payment_status"]


def test_a_date_in_another_notation_or_a_named_zone_is_the_same_moment() -> None:
    assert missing("12 月 1 日北京时间 18:03:11 起连接池报错", POOL_PATTERN) == []
    assert missing("12 月 2 日起连接池报错", POOL_PATTERN) == ["12 月 2 日"]


def test_a_rule_that_would_ground_every_nearby_value_grounds_nothing() -> None:
    number = Number(Decimal(20), "分钟", "20 分钟")
    every_minute = {Decimal(value) for value in range(1, 61)}
    assert not grounded_by(number, every_minute, lambda claim, value: claim.value == value)
    assert grounded_by(number, {Decimal(20), Decimal(45)}, lambda claim, value: claim.value == value)


def test_many_instants_in_a_list_give_their_gaps_not_every_pair() -> None:
    minutes = [f"2026-12-01T10:{minute:02d}:00Z" for minute in (0, 3, 20, 23, 40)]
    log = {"asked": [], "scope": "s", "events": [{"time": time, "message": "DOWN"} for time in minutes]}
    assert missing("两次 DOWN 之间最长相隔 17 分钟", log) == []  # a gap between neighbours
    assert missing("两次 DOWN 之间相隔 6 分钟", log) == ["6 分钟"]  # 0 -> 3 -> 6: 6 is no gap of neighbours


def test_gaps_that_cover_every_nearby_value_ground_none_of_them() -> None:
    minutes = [f"2026-12-01T10:{minute:02d}:00Z" for minute in (0, 2, 5, 9, 14, 20, 27, 35, 44, 54)]
    log = {"asked": [], "scope": "s", "events": [{"time": time, "message": "DOWN"} for time in minutes]}
    assert missing("两次 DOWN 之间相隔 7 分钟", log) == ["7 分钟"]  # gaps 2 … 10: every value near 7 is one


@pytest.mark.parametrize(
    "text",
    [
        "Dec 1 10:03 UTC 起连接池报错",
        "from 1 Dec 2026, 10:03:11 UTC",
        "December 1, 2026 at 6:03 PM Beijing time",
        "UTC+8 18:03:11 首次报错",
        "北京时间下午 6 点 03 分首次报错",
        "10:03:11 AM (UTC) 首次报错",
    ],
)
def test_english_dates_half_day_clocks_and_a_leading_zone_name_the_moment(text: str) -> None:
    assert missing(text, POOL_PATTERN) == []


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("Dec 2 10:03 UTC 起连接池报错", "Dec 2"),
        ("UTC+8 18:13:11 首次报错", "UTC+8 18:13:11"),
        ("10:03:11 PM (UTC) 首次报错", "10:03:11 PM (UTC)"),
    ],
)
def test_a_moved_date_or_time_in_those_notations_is_caught(text: str, token: str) -> None:
    assert missing(text, POOL_PATTERN) == [token]
