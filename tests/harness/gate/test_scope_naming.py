"""What a call asked with is its scope, in any words: a sentence may name the window, filter or set it queried; a
finding about those values is still grounded only by what came back."""

from __future__ import annotations

import pytest

from harness.gate import ClaimPolicy
from harness.gate.evidence import ASKED_KEY, SCOPE_KEY, evidence_of
from harness.gate.grounding import ungrounded

NON_FACTS = ClaimPolicy.default().non_facts

COUNT = {
    "source_type": "MYSQL",
    SCOPE_KEY: "SELECT channel, status, COUNT(payment_id) FROM payment_record WHERE created_at >= ? AND created_at < ? "
    'GROUP BY channel, status params=["2026-12-06 20:30:00", "2026-12-06 21:11:00"]',
    ASKED_KEY: ["2026-12-06 20:30:00", "2026-12-06 21:11:00"],
    "rows": [{"channel": "ALIPAY", "status": "TIMEOUT", "COUNT(payment_id)": 8}],
}


def _missing(claim: str) -> list[str]:
    return ungrounded(claim, evidence_of([COUNT]), non_facts=NON_FACTS)


@pytest.mark.parametrize(
    "claim",
    [
        "按 2026-12-06 20:30:00 至 21:11:00 创建时间统计 payment_record，共 8 笔",
        "以 created_at 在 2026-12-06 20:30:00 到 2026-12-06 21:11:00 之间为条件统计 payment_record，"
        "ALIPAY TIMEOUT 8 笔",
        "Among payment_record rows with created_at in [2026-12-06 20:30:00, 2026-12-06 21:11:00) (a query condition), "
        "8 are ALIPAY TIMEOUT",
        "From 2026-12-06 20:30:00 to 21:11:00 (the params of the query), payment_record holds 8 ALIPAY TIMEOUT rows",
        "查询窗口：2026-12-06 20:30:00 ~ 2026-12-06 21:11:00；ALIPAY TIMEOUT 共 8 笔",
        "For payments created between 2026-12-06 20:30:00 and 21:11:00, ALIPAY TIMEOUT: 8",
    ],
)
def test_the_window_of_a_count_named_as_its_window(claim: str) -> None:
    assert _missing(claim) == []


@pytest.mark.parametrize(
    "claim",
    [
        "支付在 2026-12-06 21:11:00 全部超时",
        "The first timeout was at 2026-12-06 20:30:00",
        "ALIPAY 自 2026-12-06 20:30:00 起故障，持续到 21:11:00 才恢复",
    ],
)
def test_a_queried_time_stated_as_a_finding_is_refused(claim: str) -> None:
    assert _missing(claim) != []


def test_a_negation_governs_the_list_after_it() -> None:
    claim = "其中没有 timeout、timed out 或 ERROR 级别的日志"
    assert ungrounded(claim, evidence_of([{"level": "INFO"}]), non_facts=NON_FACTS) == []
    english = "there were no TIMEOUT or ERR_POOL_EXHAUSTED events"
    assert ungrounded(english, evidence_of([{"level": "INFO"}]), non_facts=NON_FACTS) == []
    assert ungrounded("没有恢复，order-service 报 ERROR", evidence_of([{"level": "INFO"}]), non_facts=NON_FACTS) != []


def test_the_items_of_an_in_list_are_named_as_its_first() -> None:
    rows = {
        SCOPE_KEY: "SELECT * FROM biz_order WHERE order_id IN (?, ?, ?)",
        ASKED_KEY: ["order-8821", "order-6034", "order-123"],
        "rows": [{"order_id": "order-123", "payment_status": "TIMEOUT"}],
    }
    claim = (
        "biz_order was queried with order_id IN (order-8821, order-6034, order-123). Only order-123 came back: TIMEOUT"
    )
    assert ungrounded(claim, evidence_of([rows]), non_facts=NON_FACTS) == []
    assert ungrounded("order-6034 is TIMEOUT", evidence_of([rows]), non_facts=NON_FACTS) == ["order-6034"]


def test_a_ratio_in_times_is_a_ratio() -> None:
    series = {"series": [{"last": 4.969, "first": 0.2}]}
    claim = "about 24.8 times the 0.2 s level: 4.969 / 0.2"
    assert ungrounded(claim, evidence_of([series]), non_facts=NON_FACTS) == []


def test_the_length_of_the_queried_window_in_any_words() -> None:
    logs = {
        "source_type": "LOG",
        SCOPE_KEY: "inventory-service timeout，2026-12-06T15:15:57.412+00:00 至 2026-12-07T15:15:57.412+00:00",
        ASKED_KEY: ["inventory-service timeout"],
        "match_count": 0,
    }
    claims = ("查询同一 24 小时的应用日志，返回 0 条", "over the same 24 hours nothing matched", "a 24-hour window")
    for claim in claims:
        assert ungrounded(claim, evidence_of([logs]), non_facts=NON_FACTS) == []
    assert ungrounded("查询同一 25 小时的应用日志", evidence_of([logs]), non_facts=NON_FACTS) == ["25 小时"]
