"""Claims, not tokens: labels, list and hypothesis numbers, row numbers, units, the tool's own field names and the
result's own scope are not fact claims; a bound (up to, 最多) is a claim about an extreme, judged against it."""

from __future__ import annotations

import pytest

from harness.gate import ClaimPolicy
from harness.gate.evidence import evidence_of
from harness.gate.grounding import ungrounded

NON_FACTS = ClaimPolicy.default().non_facts
RESULT = {
    "returned_count": 2,
    "lookback_clamped": True,
    "requested_lookback_minutes": 2880,
    "events": [
        {"time": "2026-12-03T02:57:19.615+00:00", "status": 504, "Lock_time": "27.372s", "service": "api-gateway"},
        {"time": "2026-12-03T02:58:01.000+00:00", "status": 504, "Lock_time": "10.509s", "service": "api-gateway"},
    ],
}


def _missing(claim: str) -> list[str]:
    return ungrounded(claim, evidence_of([RESULT]), non_facts=NON_FACTS)


@pytest.mark.parametrize(
    "claim",
    [
        "假设 2：api-gateway 的 504 来自上游",
        "③ api-gateway 返回 504",
        "| # | 时间 | 状态 |\n| --- | --- | --- |\n| 1 | 2026-12-03T02:57:19.615+00:00 | 504 |\n"
        "| 2 | 2026-12-03T02:58:01.000+00:00 | 504 |",
        "504 分两类：都来自 api-gateway",
        "the 504s on api-gateway",
        "504s at api-gateway, TL;DR: upstream timeouts",
        "returned_count 为 2，lookback_clamped 为 true",
        "requested_lookback_minutes 是 2880，被截断（lookback_clamped）",
        "Lock_time up to 27.372s",
        "Lock_time 最高 27.372 秒",
    ],
)
def test_not_a_fact_claim_or_a_true_one(claim: str) -> None:
    assert _missing(claim) == []


@pytest.mark.parametrize(
    ("claim", "wrong"),
    [
        ("Lock_time up to 37.372s", "37.372s"),
        ("Lock_time 最高 37.372 秒", "37.372 秒"),
        ("假设 2：api-gateway 返回 503", "503"),
    ],
)
def test_a_bound_past_the_extreme_and_a_value_after_a_label_are_still_claims(claim: str, wrong: str) -> None:
    assert wrong in _missing(claim)


def test_a_unit_written_onto_its_number_with_a_hyphen() -> None:
    pool = evidence_of([{"total": 50, "active": 50}])
    assert ungrounded("the 50-connection pool was full", pool, non_facts=NON_FACTS) == []
    assert ungrounded("the 60-connection pool was full", pool, non_facts=NON_FACTS) == ["60-connection"]
