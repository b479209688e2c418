"""A value one part of the report derives may be said again in another; a value no part grounds is not laundered by
being said twice (an analysis and the conclusion that restates it)."""

from __future__ import annotations

from harness.draft import Draft
from harness.gate import ClaimPolicy
from harness.gate.values import value_failures

POLICY = ClaimPolicy.default()


def _draft(a1: str, a2: str, conclusion: str) -> Draft:
    return Draft.model_validate(
        {
            "conclusion": {"text": conclusion, "based_on_analysis_ids": ["a1", "a2"]},
            "analysis": [
                {"analysis_id": "a1", "kind": "NORMAL", "text": a1, "tool_call_ids": ["c1"]},
                {"analysis_id": "a2", "kind": "NORMAL", "text": a2, "tool_call_ids": ["c2"]},
            ],
            "action_plan": [],
            "recommendations": [],
            "limitations": {"scope": "日志", "missing_info": []},
        }
    )


EVIDENCE = {"a1": [{"pattern": "HikariPool timeout", "count": 72}, {"pattern": "mark PAID failed", "count": 20}],
            "a2": [{"pattern": "mark PAID failed", "count": 20}]}  # fmt: skip


def test_a_total_derived_in_one_analysis_may_be_said_again_in_another() -> None:
    draft = _draft("两类 ERROR 合计 92 条（72 + 20）", "第二类 20 条，占 92 条中约 22%", "ERROR 合计 92 条")
    assert value_failures(draft, EVIDENCE, "ERROR 有多少", POLICY, set()) == []


def test_a_value_no_part_grounds_is_refused_where_it_is_said() -> None:
    draft = _draft("两类 ERROR 合计 95 条", "第二类 20 条，占 95 条中约 21%", "ERROR 合计 95 条")
    failures = " ".join(failure.message for failure in value_failures(draft, EVIDENCE, "ERROR 有多少", POLICY, set()))
    assert "分析 a1：「95 条」" in failures and "分析 a2：「95 条」" in failures
