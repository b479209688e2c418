"""The claim rules of the release gate (harness/gate/): a report says something, its values are grounded in its
own evidence, it holds no secret, and its proposals that do not wait for a human only read."""

from __future__ import annotations

from typing import Any

import pytest

from config.harness import HarnessSettings
from harness.draft import Draft
from harness.gate import ClaimPolicy
from harness.gate import EvidenceFailureCode as Code
from harness.gate.check import VerifiedReport, check
from harness.gate.proposals import side_effect

POLICY = ClaimPolicy.default()
QUERY = "订单 order-123 支付超时，帮我排查"
LOGS = {
    "scope": {"topic": "APPLICATION", "start_time": "2026-07-21T02:00:00Z", "end_time": "2026-07-21T02:30:00Z"},
    "match_count": 93,
    "patterns": [{"count": 72, "level": "ERROR", "service": "order-service", "example": "HikariPool-1 timeout"}],
}
ROWS = {"columns": ["order_id", "payment_status"], "rows": [{"order_id": "order-123", "payment_status": "TIMEOUT"}]}
EVIDENCE = {"a1": [LOGS], "a2": [ROWS]}


def make(**overrides: Any) -> Draft:
    content: dict[str, Any] = {
        "conclusion": {
            "text": "order-123 的超时与 order-service 连接池耗尽有关",
            "based_on_analysis_ids": ["a1", "a2"],
        },
        "analysis": [
            {"analysis_id": "a1", "kind": "NORMAL", "text": "order-service 出现 72 次 ERROR", "tool_call_ids": ["c1"]},
            {"analysis_id": "a2", "kind": "NORMAL", "text": "order-123 为 TIMEOUT", "tool_call_ids": ["c2"]},
        ],
        "action_plan": [
            {"action": "查询长事务", "based_on_analysis_ids": ["a1"], "requires_human_confirmation": False}
        ],
        "recommendations": [
            {"text": "增加连接池等待告警", "based_on_analysis_ids": ["a1"], "requires_human_confirmation": True}
        ],
        "limitations": {"scope": "order-service 最近 30 分钟（模拟日志）", "missing_info": []},
    }
    content.update(overrides)
    return Draft.model_validate(content)


def codes(draft: Draft, evidence: dict[str, list[Any]] = EVIDENCE) -> list[str]:
    return [failure.code for failure in check(VerifiedReport(draft, evidence, QUERY), POLICY).failures]


def messages(draft: Draft, evidence: dict[str, list[Any]] = EVIDENCE) -> list[str]:
    return [failure.message for failure in check(VerifiedReport(draft, evidence, QUERY), POLICY).failures]


def test_a_faithful_draft_breaks_no_claim_rule() -> None:
    assert codes(make()) == []


def test_a_conclusion_may_be_null_when_analyses_cite_evidence() -> None:
    assert codes(make(conclusion=None)) == []


@pytest.mark.parametrize("text", ["", "   ", "\u200b", "（无）", "N/A", "—"])
def test_a_conclusion_without_text_fails(text: str) -> None:
    assert codes(make(conclusion={"text": text, "based_on_analysis_ids": ["a1"]})) == [Code.EMPTY_CONCLUSION]


def test_a_draft_with_no_cited_analysis_fails() -> None:
    assert Code.NO_CITED_ANALYSIS in codes(make(conclusion=None, analysis=[]), {})
    assert Code.NO_CITED_ANALYSIS in codes(make(), {"a1": [], "a2": []})


def test_each_ungrounded_token_is_named_with_its_item() -> None:
    draft = make(
        conclusion={"text": "order-123 已退款（REFUNDED），支付失败率 87.3%", "based_on_analysis_ids": ["a2"]},
    )
    assert messages(draft)[0].startswith("结论：「REFUNDED」")
    assert messages(draft)[1].startswith("结论：「87.3%」")
    draft = make(
        analysis=[
            {"analysis_id": "a1", "kind": "NORMAL", "text": "order-service 出现 720 次 ERROR", "tool_call_ids": ["c"]},
            {"analysis_id": "a2", "kind": "NORMAL", "text": "order-123 为 TIMEOUT", "tool_call_ids": ["c2"]},
        ],
        conclusion=None,
    )
    assert messages(draft) == [messages(draft)[0]] and messages(draft)[0].startswith("分析 a1：「720 次」")


def test_an_analysis_may_not_borrow_another_analysis_evidence() -> None:
    draft = make(
        analysis=[
            {"analysis_id": "a1", "kind": "NORMAL", "text": "payment_status 为 TIMEOUT", "tool_call_ids": ["c1"]},
            {"analysis_id": "a2", "kind": "NORMAL", "text": "order-123 为 TIMEOUT", "tool_call_ids": ["c2"]},
        ]
    )
    # TIMEOUT is held by the log line's "timeout" (identifiers compare case-insensitively); payment_status is not
    assert messages(draft)[0].startswith("分析 a1：「payment_status」") and len(messages(draft)) == 1


def test_the_conclusion_uses_only_its_basis() -> None:
    draft = make(conclusion={"text": "order-service 出现 72 次 ERROR", "based_on_analysis_ids": ["a2"]})
    assert codes(draft) == [Code.UNGROUNDED_VALUE] * 3


def test_the_conclusion_may_repeat_derived_values_of_its_analyses() -> None:
    draft = make(
        analysis=[
            {"analysis_id": "a1", "kind": "NORMAL", "text": "93 条中 72 条为 ERROR，约 77%", "tool_call_ids": ["c1"]},
            {"analysis_id": "a2", "kind": "NORMAL", "text": "order-123 为 TIMEOUT", "tool_call_ids": ["c2"]},
        ],
        conclusion={"text": "约 77% 的匹配日志是连接池错误", "based_on_analysis_ids": ["a1"]},
    )
    assert codes(draft) == []


@pytest.mark.parametrize(
    "where",
    ["conclusion", "analysis", "action", "recommendation", "scope", "missing_info"],
)
def test_a_secret_in_any_visible_text_fails_without_being_repeated(where: str) -> None:
    secret = "password=Welcome2024!"
    draft = make()
    content = draft.model_dump()
    target = {
        "conclusion": lambda: content["conclusion"],
        "analysis": lambda: content["analysis"][0],
        "action": lambda: content["action_plan"][0],
        "recommendation": lambda: content["recommendations"][0],
        "scope": lambda: content["limitations"],
        "missing_info": lambda: content["limitations"],
    }[where]()
    if where == "missing_info":
        target["missing_info"] = [f"登录失败日志 {secret}"]
    else:
        key = {"action": "action", "scope": "scope"}.get(where, "text")
        target[key] = f"{target[key]}（{secret}）"
    failures = check(VerifiedReport(Draft.model_validate(content), EVIDENCE, QUERY), POLICY).failures
    secret_failures = [f for f in failures if f.code == Code.SECRET_IN_TEXT]
    assert len(secret_failures) == 1 and "secret_key_value" in secret_failures[0].message
    assert all("Welcome2024" not in failure.message for failure in failures)


@pytest.mark.parametrize(
    "action",
    [
        "立即重启 order-service 全部实例并清空 biz_order 中的超时订单",
        "执行 UPDATE biz_order SET payment_status='PAID' WHERE order_id='order-123'",
        "对 Redis 执行 FLUSHALL",
        "roll back the last release of order-service",
        "主从切换到备库",
        "把连接池上限调大到 100",
        "inspect the pool and kill the idle sessions",
        "核对完在途回调立即重启 order-service",
        "不论是否恢复，都先重启 order-service",
        "把 order-123 的状态改为 PAID",
        "给 order-service 加两台实例",
        "bounce the order-service pods",
        "replay the failed callbacks",
        "do not wait and restart the pods",
    ],
)
def test_a_side_effect_must_wait_for_a_human(action: str) -> None:
    unconfirmed = make(
        action_plan=[{"action": action, "based_on_analysis_ids": ["a1"], "requires_human_confirmation": False}]
    )
    assert Code.UNCONFIRMED_ACTION in codes(unconfirmed)
    confirmed = make(
        action_plan=[{"action": action, "based_on_analysis_ids": ["a1"], "requires_human_confirmation": True}]
    )
    assert Code.UNCONFIRMED_ACTION not in codes(confirmed)
    recommended = make(recommendations=[{"text": action, "based_on_analysis_ids": ["a1"]}])
    assert Code.UNCONFIRMED_ACTION in codes(recommended)


@pytest.mark.parametrize(
    "action",
    [
        "查询长事务日志",
        "评估是否需要扩容",
        "查看最近的变更记录",
        "check whether to restart the pods",
        "请 DBA 查看锁等待",
    ],
)
def test_read_only_actions_need_no_confirmation(action: str) -> None:
    draft = make(
        action_plan=[{"action": action, "based_on_analysis_ids": ["a1"], "requires_human_confirmation": False}]
    )
    assert codes(draft) == []


def test_the_patterns_are_configuration() -> None:
    settings = HarnessSettings.model_validate({"actions": {"confirmation-patterns": ["巡检"]}})
    policy = ClaimPolicy.from_settings(settings)
    draft = make(
        action_plan=[{"action": "安排巡检", "based_on_analysis_ids": ["a1"], "requires_human_confirmation": False}]
    )
    verdict = check(VerifiedReport(draft, EVIDENCE, QUERY), policy)
    assert [failure.code for failure in verdict.failures] == [Code.UNCONFIRMED_ACTION]
    assert side_effect("安排巡检", ClaimPolicy.default()) is None
    assert side_effect("重启 order-service", policy) == "重启"  # the built-in rule stays; the list only adds
