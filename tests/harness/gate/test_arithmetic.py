"""Shown arithmetic is checked as arithmetic: each step of a written chain is computed, its leaves must be grounded,
its result must be what the step gives at the precision written (or as 约 / ≈ / about qualifies it), and a wrong
step is refused even where its result happens to be grounded elsewhere."""

from __future__ import annotations

import json

import pytest

from harness.gate import ClaimPolicy
from harness.gate.evidence import evidence_of
from harness.gate.grounding import ungrounded

NON_FACTS = ClaimPolicy.default().non_facts

SERIES = {"series": [{"service": "payment-service", "rate": 0.1968, "points": 61}, {"rate": 0.3996, "points": 47}]}
COUNTS = {"rows": [{"channel": "ALIPAY", "n": 3}, {"channel": "WECHAT", "n": 1}, {"channel": "CARD", "n": 2}]}
WINDOW = {"first_seen": "2026-12-03T02:05:09.000+00:00", "last_seen": "2026-12-03T02:29:34.000+00:00", "count": 72}
PER_SECOND = {"metric": "http_errors", "rate_per_second": 0.45, "match_count": 130}


def _missing(claim: str, evidence: dict) -> list[str]:
    return ungrounded(claim, evidence_of([json.loads(json.dumps(evidence))]), non_facts=NON_FACTS)


@pytest.mark.parametrize(
    "claim",
    [
        "0.1968 × 61 ≈ 12.00，0.3996 × 47 ≈ 18.78，12.00 + 18.78 = 30.78，18.78 / 30.78 ≈ 0.61，即约 61%",
        "0.1968 乘以 61 约等于 12.00；0.3996 乘以 47 约等于 18.78，合计 12.00 + 18.78 = 30.78",
        "0.1968 * 61 = 12.0 and 0.3996 * 47 = 18.8, so the later window carries about 61% of the errors",
        "(0.1968 × 61 + 0.3996 × 47) ≈ 30.78",
    ],
)
def test_a_chain_of_steps_whose_leaves_are_grounded_holds(claim: str) -> None:
    assert _missing(claim, SERIES) == []


@pytest.mark.parametrize(
    ("claim", "wrong"),
    [
        ("0.1968 × 61 ≈ 13.00，0.3996 × 47 ≈ 18.78", "13.00"),
        ("0.1968 × 61 ≈ 12.00，0.3996 × 47 ≈ 18.78，12.00 + 18.78 = 31.78", "31.78"),
        ("18.78 / 30.78 ≈ 0.71", "0.71"),
        ("3 + 1 + 2 = 7 笔", "7 笔"),
    ],
)
def test_a_wrong_step_is_refused(claim: str, wrong: str) -> None:
    evidence = {**SERIES, **COUNTS, "total": 7}  # 7 is in the evidence: a wrong step is refused all the same
    assert wrong in _missing(claim, evidence)


def test_counts_with_their_operands_and_a_conversion_by_a_constant() -> None:
    assert _missing("ALIPAY 3 笔、WECHAT 1 笔、CARD 2 笔，3 + 1 + 2 = 6 笔", COUNTS) == []
    assert _missing("0.45 次/秒 × 60 = 27 次/分钟", PER_SECOND) == []
    assert _missing("约 0.45 次/秒，即每分钟约 27 次", PER_SECOND) == []
    assert "28 次" in _missing("0.45 次/秒，即每分钟约 28 次", PER_SECOND)


def test_a_duration_in_two_units_is_one_quantity() -> None:
    claim = "从 02:05:09 到 02:29:34（UTC），持续 24 分 25 秒"
    assert _missing(claim, WINDOW) == []
    assert _missing("从 02:05:09 到 02:29:34（UTC），持续 24 分 26 秒", WINDOW) != []


def test_a_leaf_that_is_not_grounded_grounds_nothing() -> None:
    assert "0.2968" in _missing("0.2968 × 61 ≈ 18.10", SERIES)
    assert "18.10" in _missing("0.2968 × 61 ≈ 18.10", SERIES)


def test_a_division_written_by_its_numbers_is_not_a_date_or_a_list() -> None:
    assert _missing("HTTP 504 / 502 比例未知", {"codes": [504, 502]}) == []


def test_a_result_inside_brackets_is_the_result_of_the_brackets() -> None:
    rates = {"series": [{"status": "ERR_TIMEOUT", "last": 0.3993}, {"status": "SUCCESS", "last": 0.1008}]}
    assert _missing("0.3993 / (0.3993 + 0.1008 = 0.5001)，约 80% 的回调超时", rates) == []
    assert "0.6001" in _missing("0.3993 / (0.3993 + 0.1008 = 0.6001)", rates)


def test_a_total_followed_by_its_parts() -> None:
    timeouts = {**COUNTS, "status": "TIMEOUT"}
    assert _missing("其中 TIMEOUT 6 笔（ALIPAY 3、CARD 1、WECHAT 2）", timeouts) == []
    assert _missing("TIMEOUT 7 笔（ALIPAY 3、CARD 1、WECHAT 2）", timeouts) == ["7 笔"]


def test_a_computed_value_may_be_said_again_and_a_bare_chain_takes_its_result_after_a_comma() -> None:
    rows = {"rows": [{"status": "TIMEOUT", "n": n} for n in (1, 1, 3, 1, 1, 1, 2)]}
    claim = "返回 7 行，合计 1+1+3+1+1+1+2 = 10 笔，其中 TIMEOUT 合计 3+1+2 = 6 笔，即 10 笔中 6 笔，约 60%"
    assert _missing(claim, rows) == []
    rates = {"series": [{"status": "ERR_TIMEOUT", "last": 0.3993}, {"status": "SUCCESS", "last": 0.1008}]}
    assert _missing("0.3993 / (0.3993 + 0.1008)，约 80% 的回调超时", rates) == []
    assert "70%" in _missing("0.3993 / (0.3993 + 0.1008)，约 70% 的回调超时", rates)


@pytest.mark.parametrize(
    "claim",
    [
        "共 10 笔（1+1+3+1+1+1+2）：TIMEOUT 6 笔（ALIPAY 3、CARD 1、WECHAT 2，10 笔中 6 笔，60%）",
        "6 of 10 are TIMEOUT (60%): ALIPAY 3, CARD 1, WECHAT 2.",
    ],
)
def test_a_count_and_the_list_of_its_parts_later_in_its_sentence(claim: str) -> None:
    grouped = [("ALIPAY", "INIT", 1), ("ALIPAY", "SUCCESS", 1), ("ALIPAY", "TIMEOUT", 3), ("CARD", "SUCCESS", 1)]
    grouped += [("CARD", "TIMEOUT", 1), ("WECHAT", "SUCCESS", 1), ("WECHAT", "TIMEOUT", 2)]
    rows = {"rows": [{"channel": channel, "status": status, "n": n} for channel, status, n in grouped]}
    assert _missing(claim, rows) == []
    assert _missing(claim.replace("6", "8", 1), rows) != []


def test_a_result_that_starts_another_sum_is_checked_term_by_term() -> None:
    errors = {"patterns": [{"count": 72}, {"count": 45}, {"count": 20}, {"count": 11}]}
    assert _missing("(72 − 45) + (20 − 11) = 27 + 9 = 36 errors", errors) == []
    assert "30" in _missing("(72 − 45) + (20 − 11) = 30 + 6 = 36 errors", errors)


def test_a_derived_duration_in_another_unit() -> None:
    claim = "errors only occurred from 02:05:09 to 02:15:00, which is 9 min 51 s, about {} minutes"
    window = {"first_seen": "2026-12-03T02:05:09.000+00:00", "last_seen": "2026-12-03T02:15:00.000+00:00"}
    assert _missing(claim.format("9.85"), window) == []
    assert _missing(claim.format("9.95"), window) == ["9.95 minutes"]


def test_a_zero_count_in_a_sentence_of_absence_is_a_claim_of_absence() -> None:
    rows = {"rows": [{"channel": c, "status": "TIMEOUT", "n": 2} for c in ("ALIPAY", "CARD", "WECHAT")]}
    assert _missing("最近一小时没有 FAILED 的支付单，比例为 0%", rows) == []
    assert _missing("There are no FAILED payment records in any channel (ALIPAY 0, CARD 0, WECHAT 0).", rows) == []
    assert _missing("FAILED 的支付单比例为 0%", rows) != []


def test_the_work_in_brackets_after_the_values_it_computes() -> None:
    series = {"series": [{"status": "500", "min": 0.3881, "max": 0.4137, "last": 0.4087}, {"last": 0.5097}]}
    claim = "约合每分钟 23.3–24.8 个错误请求（0.3881 × 60 至 0.4137 × 60），最后一个点约占 80%（0.4087 / 0.5097）"
    assert _missing(claim, series) == []
    assert "25.8 个" in _missing(claim.replace("24.8", "25.8"), series)
    assert "70%" in _missing(claim.replace("80%", "70%"), series)


def test_a_difference_of_durations_keeps_its_unit() -> None:
    events = {"events": [{"Query_time": "23.290s", "Lock_time": "22.453s"}]}
    assert _missing("除去锁等待只执行了约 0.8 秒（23.290s − 22.453s）", events) == []
    assert _missing("除去锁等待只执行了约 0.8 分钟（23.290s − 22.453s）", events) != []
    assert _missing("23.290s − 22.453s ≈ 0.837 s", events) == []
    assert _missing("23.290s − 22.453s ≈ 837 ms", events) == []
