"""The run's fallback decision and its language, in-process (issue 18 items 3 and 6).

A report whose citations hold but whose words fail a claim rule again after the repair is SEMANTIC_UNSUPPORTED with
the verified sources and the rule as its reason; a broken citation keeps EVIDENCE_VALIDATION_FAILED without
sources. A question asked in English gets the English fixed texts and prompts that name English; a Chinese one
the spec's texts.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from config.wording import DEFAULT_CAPABILITIES, DEFAULT_CAPABILITIES_EN
from harness.fixed_texts import EN, ZH
from harness.run_state import RunStatus
from harness.scripted_model import ScriptedChatModel, reply
from tests.harness.run_support import (
    GOOD_DRAFT,
    KNOWLEDGE,
    LOGS,
    MYSQL,
    PLAN,
    SUPPORTED,
    UNSUPPORTED,
    config,
    diagnosis_model,
    run_once,
    services,
)

ENGLISH_QUERY = "Why does the payment of order-123 keep timing out? Please investigate."


def worded(text: str | None = None, action: str | None = None, cite: str | None = None) -> dict[str, Any]:
    """GOOD_DRAFT with its first analysis saying ``text``, its first action ``action`` (unconfirmed), or its first
    analysis citing ``cite``."""
    changed = copy.deepcopy(GOOD_DRAFT)
    if text is not None:
        changed["analysis"][0]["text"] = text
    if action is not None:
        changed["action_plan"][0]["action"] = action
    if cite is not None:
        changed["analysis"][0]["tool_call_ids"] = [cite]
    return changed


UNGROUNDED = "order-service 日志中出现 987 次连接池超时"
SECRET = "order-service 日志中出现 password=Tr0ub4dor&3x"
RESTART = "立即重启 order-service 全部实例"


@pytest.mark.parametrize(
    ("final", "reason", "limitation"),
    [
        (worded(UNGROUNDED), "CLAIM_UNGROUNDED_VALUE", "诊断报告中有数值或标识无法在已验证的证据中找到"),
        (worded(SECRET), "CLAIM_SECRET", "诊断报告包含不能展示的凭据信息"),
        (worded(action=RESTART), "CLAIM_UNCONFIRMED_ACTION", "诊断报告中有会改变系统的操作没有标明需要人工确认"),
    ],
    ids=["value", "secret", "action"],
)
async def test_a_claim_rule_failing_after_the_repair_shows_the_verified_sources(
    final: dict[str, Any], reason: str, limitation: str
) -> None:
    model = diagnosis_model(final)
    model.script("repair", reply(final))
    outcome = await run_once(services(model))
    assert outcome.status is RunStatus.FALLBACK
    payload = outcome.first("content")["payload"]
    assert (payload["type"], payload["limitations"]) == ("SEMANTIC_UNSUPPORTED", [limitation])
    assert {source["source_type"] for source in payload["verified_sources"]} == {"LOG", "MYSQL", "KNOWLEDGE"}
    finished = outcome.audit.finished[-1]
    assert (finished.fallback_type, finished.fallback_reason) == ("SEMANTIC_UNSUPPORTED", reason)
    assert model.requests_of("guard") == [] and len(model.requests_of("repair")) == 1
    shown = json.dumps(outcome.first("content"), ensure_ascii=False)
    for text in ("987", "Tr0ub4dor", "重启", "连接池耗尽有关"):
        assert text not in shown


async def test_a_broken_citation_beside_a_claim_failure_shows_no_source() -> None:
    final = worded(UNGROUNDED, cite="call_fabricated")
    model = diagnosis_model(final)
    model.script("repair", reply(final))
    outcome = await run_once(services(model))
    payload = outcome.first("content")["payload"]
    assert (payload["type"], payload["verified_sources"]) == ("EVIDENCE_VALIDATION_FAILED", [])
    assert payload["limitations"] == ["诊断报告未通过证据引用校验"]
    assert outcome.audit.finished[-1].fallback_reason == "EVIDENCE_CHECK_FAILED"


async def test_a_claim_failure_repaired_is_released() -> None:
    model = diagnosis_model(worded(UNGROUNDED))
    model.script("repair", reply(GOOD_DRAFT))
    outcome = await run_once(services(model))
    assert outcome.status is RunStatus.SUCCESS


async def test_a_budget_spent_before_any_evidence_shows_no_source() -> None:
    model = ScriptedChatModel().script("router", reply({"intent": "DIAGNOSIS"}))
    model.script("agent", reply(PLAN), reply(GOOD_DRAFT))
    outcome = await run_once(services(model, config(agent={"max-model-calls": 1})))
    payload = outcome.first("content")["payload"]
    assert (payload["type"], payload["verified_sources"]) == ("SEMANTIC_UNSUPPORTED", [])
    assert payload["limitations"] == ["诊断在用完模型调用预算前未能完成报告"]
    assert outcome.audit.finished[-1].fallback_reason == "BUDGET_MODEL_CALLS"


# -- the language of the question -------------------------------------------------------------------------------


async def test_an_english_question_gets_the_english_fallback() -> None:
    model = diagnosis_model(GOOD_DRAFT, UNSUPPORTED)
    outcome = await run_once(services(model), ENGLISH_QUERY)
    assert outcome.run.language == "en"
    payload = outcome.first("content")["payload"]
    assert payload["type"] == "SEMANTIC_UNSUPPORTED" and payload["verified_sources"]
    assert payload["message"] == EN.fallback_message
    assert payload["limitations"] == [EN.limitations["SEMANTIC_UNSUPPORTED"]]
    assert payload["next_steps"] == list(EN.fallback_next_steps)


async def test_an_english_claim_fallback_names_the_rule_in_english() -> None:
    final = worded(UNGROUNDED)
    model = diagnosis_model(final)
    model.script("repair", reply(final))
    payload = (await run_once(services(model), ENGLISH_QUERY)).first("content")["payload"]
    assert payload["limitations"] == [EN.limitations["CLAIM_UNGROUNDED_VALUE"]]


async def test_a_chinese_question_gets_the_spec_fallback_byte_for_byte() -> None:
    outcome = await run_once(services(diagnosis_model(GOOD_DRAFT, UNSUPPORTED)))
    payload = outcome.first("content")["payload"]
    assert payload["message"] == "当前证据不足，无法确认根因"
    assert payload["limitations"] == ["已验证证据不足以支持诊断结论"]
    assert payload["next_steps"] == [
        "补充当前缺失的数据后重新发起诊断",
        "缩小查询范围（服务、时间窗口或数据范围）后重新发起诊断",
        "稍后重试",
    ]


@pytest.mark.parametrize(("query", "fixed"), [(ENGLISH_QUERY, EN), ("订单 order-123 支付超时，帮我排查", ZH)])
async def test_the_generic_plan_is_in_the_language_of_the_question(query: str, fixed: Any) -> None:
    model = ScriptedChatModel().script("router", reply({"intent": "DIAGNOSIS"}))
    bad_plan = {"plan": ["root cause: the pool is exhausted", "结论：主库宕机", "SELECT * FROM biz_order"]}
    model.script("agent", reply(bad_plan), reply(None, KNOWLEDGE, LOGS), reply(None, MYSQL), reply(GOOD_DRAFT))
    model.script("guard", SUPPORTED)
    outcome = await run_once(services(model), query)
    plan = next(e.data for e in outcome.events if e.event == "status" and e.data["code"] == "PLANNING")
    assert plan["steps"] == list(fixed.generic_plan)


@pytest.mark.parametrize(
    ("query", "capabilities", "answer_in"),
    [
        ("Hi, what can you do?", DEFAULT_CAPABILITIES_EN, EN.answer_in),
        ("你好，你能做什么？", DEFAULT_CAPABILITIES, ZH.answer_in),
    ],
)
async def test_system_chat_is_asked_and_checked_in_the_language_of_the_question(
    query: str, capabilities: str, answer_in: str
) -> None:
    model = ScriptedChatModel().script("router", reply({"intent": "SYSTEM_CHAT"}))
    model.script("system_chat", reply("Root cause: your primary database is down."))
    outcome = await run_once(services(model), query)
    assert outcome.status is RunStatus.FALLBACK
    assert outcome.first("content") == {"content_type": "SYSTEM_ANSWER", "payload": {"answer": capabilities}}
    [request] = model.requests_of("system_chat")
    assert capabilities in request.messages[0].content and answer_in in request.messages[0].content
    assert "{answer_language}" not in request.messages[0].content


async def test_an_english_knowledge_question_is_asked_and_falls_back_in_english() -> None:
    model = ScriptedChatModel().script("router", reply({"intent": "KNOWLEDGE_QUERY"}))
    model.script("knowledge", reply({"answer": "It means nothing.", "references": ["nope"], "limitations": []}))
    outcome = await run_once(services(model), "What does ERR_TIMEOUT mean?")
    assert outcome.status is RunStatus.FALLBACK
    payload = outcome.first("content")["payload"]
    assert payload["message"] == EN.knowledge_fallback_message
    assert payload["limitations"] == list(EN.knowledge_fallback_limitations)
    [request] = model.requests_of("knowledge")
    assert EN.answer_in in request.messages[0].content and "中文回答" not in request.messages[0].content


async def test_an_english_knowledge_answer_with_an_invented_reference_says_so_in_english() -> None:
    model = ScriptedChatModel().script("router", reply({"intent": "KNOWLEDGE_QUERY"}))

    def answer(request: Any) -> Any:
        evidence = json.loads(request.messages[1].content)["evidence"]
        refs = [evidence[0]["document_id"], "invented-doc"]
        return reply({"answer": "ERR_TIMEOUT means the request timed out.", "references": refs, "limitations": []})

    model.default("knowledge", answer)
    outcome = await run_once(services(model), "What does ERR_TIMEOUT mean?")
    assert outcome.status is RunStatus.SUCCESS
    assert outcome.first("content")["payload"]["limitations"] == [EN.invented_references_removed]
