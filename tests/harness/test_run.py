"""The whole run in-process (no Ray): route, agent, tool boundary, EvidenceGuard, repair, SemanticGuard, release.

Tools are the real ones on the bundled demo data; the model is scripted per role, so each test states exactly
what the agent, the repair, the router and the guard answer.
"""

from __future__ import annotations

import asyncio
import json
import re
from unittest.mock import ANY

import pytest

from contract.clock import ManualClock
from contract.vocabulary import EvidenceStatus
from harness.audit import MemoryAudit
from harness.errors import OperationFailed
from harness.invocation import ToolCallStatus
from harness.messages import PreviousTurn, StartRun
from harness.run.flow import Run
from harness.run_state import RunStatus
from harness.scripted_model import Delay, ScriptedChatModel, reply
from harness.turn_budget import final_instruction
from offline_model.model import OfflineChatModel
from tests.harness.run_support import (
    GOOD_DRAFT,
    KNOWLEDGE,
    LOGS,
    MYSQL,
    PLAN,
    QUERY,
    SUPPORTED,
    UNSUPPORTED,
    assert_counts_agree,
    config,
    diagnosis_model,
    draft,
    last_tool_message,
    run_once,
    services,
    wait_until,
)


def all_text(model: ScriptedChatModel, role: str) -> str:
    """Everything a model of ``role`` was sent: message contents and tool calls."""
    return json.dumps(
        [[(m.content, [c.model_dump() for c in m.tool_calls]) for m in r.messages] for r in model.requests_of(role)],
        ensure_ascii=False,
    )


async def test_supported_diagnosis_releases_the_report_with_references() -> None:
    model = diagnosis_model()
    outcome = await run_once(services(model))
    assert outcome.status is RunStatus.SUCCESS
    assert outcome.names[0] == "metadata" and outcome.names[-2:] == ["content", "done"]
    metadata = outcome.first("metadata")
    assert metadata == {"session_id": "s-1", "run_id": outcome.run.run_id, "model": model.label, "trace_id": ANY}
    assert re.fullmatch(r"[0-9a-f]{32}", metadata["trace_id"])
    assert outcome.first("done") == {"outcome": "SUCCESS"}
    statuses = outcome.statuses()
    assert statuses[:3] == ["ROUTING", "ROUTED", "PLANNING"]
    assert statuses[-2:] == ["EVIDENCE_VALIDATING", "SEMANTIC_VALIDATING"]
    assert statuses.count("TOOL_RUNNING") == 3 and statuses.count("TOOL_FINISHED") == 3
    plan = next(e.data for e in outcome.events if e.event == "status" and e.data["code"] == "PLANNING")
    assert plan["steps"] == PLAN["plan"]
    content = outcome.first("content")
    assert content["content_type"] == "DIAGNOSIS_REPORT"
    report = content["payload"]
    assert list(report) == ["conclusion", "analysis", "action_plan", "recommendations", "limitations", "references"]
    assert report["conclusion"]["text"] == GOOD_DRAFT["conclusion"]["text"]
    assert [ref["source_type"] for ref in report["references"]] == ["LOG", "MYSQL", "KNOWLEDGE"]
    assert "order-123" in json.dumps(report["references"][1], ensure_ascii=False)
    assert "call_" not in json.dumps(report)
    finished = outcome.audit.finished[-1]
    assert (finished.status, finished.intent, finished.tool_calls) == ("SUCCESS", "DIAGNOSIS", 3)
    assert finished.published_result["published_conclusion"] == GOOD_DRAFT["conclusion"]["text"]
    store = outcome.services.store
    for call in ("call_k1", "call_l1", "call_m1"):
        record = await store.get(outcome.run.run_id, call)
        assert record.status is ToolCallStatus.READY and record.evidence_status is EvidenceStatus.EVIDENCE_FOUND


async def test_each_sse_event_shape_is_fixed() -> None:
    outcome = await run_once(services(diagnosis_model()))
    for event in outcome.events:
        if event.event == "status":
            assert set(event.data) <= {"code", "message", "steps", "tool", "evidence_status", "intent"}
        if event.event == "status" and event.data["code"].startswith("TOOL"):
            assert set(event.data) <= {"code", "message", "tool", "evidence_status"}


async def test_the_agent_never_sees_raw_responses() -> None:
    model = diagnosis_model()
    outcome = await run_once(services(model))
    record = await outcome.services.store.get(outcome.run.run_id, "call_l1", include_raw=True)
    raw_only = [e["message"] for e in record.raw_response["events"] if "Sup3rS3cret" in e["message"]]
    seen_by_agent = all_text(model, "agent") + all_text(model, "repair")
    assert "match_count" in seen_by_agent
    assert "raw_response" not in seen_by_agent
    for message in raw_only:
        assert message not in seen_by_agent
    assert "Sup3rS3cret" not in seen_by_agent


async def test_the_guard_sees_only_the_query_the_draft_and_verified_evidence() -> None:
    model = diagnosis_model()
    outcome = await run_once(services(model))
    [request] = model.requests_of("guard")
    assert request.tools == () and len(request.messages) == 2
    text = all_text(model, "guard")
    assert "call_k1" not in text and "call_l1" not in text and "call_m1" not in text
    assert "tool_call_id" not in text and "raw_response" not in text
    assert "PLANNING" not in text and PLAN["plan"][0] not in text
    guard_input = json.loads(request.messages[1].content)
    assert set(guard_input) == {"query", "draft", "verified_evidence"}
    assert [item["analysis_id"] for item in guard_input["verified_evidence"]] == ["a1", "a2", "a3"]
    assert outcome.status is RunStatus.SUCCESS


@pytest.mark.parametrize(
    ("bad", "label"),
    [
        (draft(("a1", "NORMAL", ["call_fabricated"]), conclusion=["a1"]), "fabricated tool id"),
        (draft(("a1", "NORMAL", []), conclusion=["a1"]), "empty evidence reference"),
        (draft(("a1", "NORMAL", ["call_l1"]), ("a1", "NORMAL", ["call_k1"]), conclusion=["a1"]), "duplicate id"),
        (draft(("a1", "NORMAL", ["call_l1"]), conclusion=["a9"]), "missing analysis id"),
        (draft(("a1", "NORMAL", ["call_l1"]), conclusion=[]), "conclusion without analysis"),
        ("这不是 JSON", "not a draft"),
    ],
)
async def test_one_repair_then_release(bad: dict | str, label: str) -> None:
    model = diagnosis_model(bad)
    model.script("repair", reply(GOOD_DRAFT))
    outcome = await run_once(services(model))
    assert outcome.status is RunStatus.SUCCESS, label
    assert "EVIDENCE_REPAIRING" in outcome.statuses()
    [repair] = model.requests_of("repair")
    assert repair.tools == () and repair.tool_choice is None
    assert "证据校验没有通过" in repair.messages[-1].content


async def test_second_evidence_failure_is_the_fixed_fallback_without_sources() -> None:
    bad = draft(("a1", "NORMAL", ["call_fabricated"]), conclusion=["a1"])
    model = diagnosis_model(bad)
    model.script("repair", reply(bad))
    outcome = await run_once(services(model))
    assert outcome.status is RunStatus.FALLBACK
    content = outcome.first("content")
    assert content["content_type"] == "FALLBACK"
    assert content["payload"]["type"] == "EVIDENCE_VALIDATION_FAILED"
    assert content["payload"]["verified_sources"] == [] and content["payload"]["conclusion"] is None
    assert outcome.first("done") == {"outcome": "FALLBACK"}
    assert model.requests_of("guard") == []
    assert len(model.requests_of("repair")) == 1
    assert "连接池耗尽有关" not in json.dumps(content, ensure_ascii=False)
    # Each check is recorded with the codes that failed it and the step whose draft it judged.
    repair_step = next(step.step_index for step in outcome.audit.steps if step.role == "repair")
    checks = [(c.guard, c.verdict, c.step_index, [code for code, _ in c.failures]) for c in outcome.audit.checks]
    assert checks == [
        ("evidence", "FAIL", repair_step - 1, ["UNKNOWN_TOOL_CALL", "UNGROUNDED_VALUE"]),
        ("evidence", "FAIL", repair_step, ["UNKNOWN_TOOL_CALL", "UNGROUNDED_VALUE"]),
    ]


async def test_the_repair_turn_count_is_the_evidence_repair_policy_and_may_be_zero() -> None:
    bad = draft(("a1", "NORMAL", ["call_fabricated"]), conclusion=["a1"])
    model = diagnosis_model(bad)
    settings = config(retry={"evidence-repair": {"max-attempts": 0}})
    outcome = await run_once(services(model, settings))
    assert outcome.status is RunStatus.FALLBACK
    assert outcome.first("content")["payload"]["type"] == "EVIDENCE_VALIDATION_FAILED"
    assert "EVIDENCE_REPAIRING" not in outcome.statuses()
    assert model.requests_of("repair") == []


async def test_the_agent_and_each_tool_call_run_once_under_their_policies() -> None:
    outcome = await run_once(services(diagnosis_model()))
    assert outcome.status is RunStatus.SUCCESS
    attempts = outcome.run.ctx.attempts
    assert [a.outcome for a in attempts.entries("diagnosis_agent")] == ["OK"]
    assert [a.outcome for a in attempts.entries("tool_call")] == ["OK", "OK", "OK"]


async def test_another_runs_tool_call_id_is_not_evidence() -> None:
    first = await run_once(services(diagnosis_model()))
    other_run = first.run.run_id
    stolen = draft(("a1", "NORMAL", ["call_l1"]), conclusion=["a1"])
    model = ScriptedChatModel()
    model.script("router", reply({"intent": "DIAGNOSIS"}))
    model.script("agent", reply(PLAN), reply(stolen))
    model.script("repair", reply(stolen))
    shared = services(model, store=first.services.store)
    outcome = await run_once(shared)
    assert outcome.status is RunStatus.FALLBACK
    assert outcome.first("content")["payload"]["type"] == "EVIDENCE_VALIDATION_FAILED"
    assert (await first.services.store.get(other_run, "call_l1")).status is ToolCallStatus.READY


async def test_a_failed_call_cannot_be_cited() -> None:
    bad_sql = ("call_m1", "query_mysql", {"data_source": "order_readonly", "sql": "SELECT amount FROM biz_order"})
    cited = draft(("a1", "NORMAL", ["call_m1"]), conclusion=["a1"])
    model = ScriptedChatModel()
    model.script("router", reply({"intent": "DIAGNOSIS"}))
    model.script("agent", reply(PLAN), reply(None, bad_sql), reply(cited))
    model.script("repair", reply(cited))
    outcome = await run_once(services(model))
    assert outcome.first("content")["payload"]["type"] == "EVIDENCE_VALIDATION_FAILED"
    record = await outcome.services.store.get(outcome.run.run_id, "call_m1")
    assert (record.status, record.error_code) == (ToolCallStatus.ERROR, "SQL_COLUMN_NOT_ALLOWED")


NO_LOGS = (
    "call_l2",
    "query_logs",
    {"topic": "APPLICATION", "query": "inventory-service 库存扣减失败", "lookback_minutes": 30},
)


async def test_no_evidence_supports_only_a_negative_observation() -> None:
    negative = draft(("a1", "NEGATIVE_OBSERVATION", ["call_l2"]), scope="inventory-service 最近 30 分钟（模拟日志）")
    model = ScriptedChatModel()
    model.script("router", reply({"intent": "DIAGNOSIS"}))
    model.script("agent", reply(PLAN), reply(None, NO_LOGS), reply(negative))
    model.script("guard", SUPPORTED)
    outcome = await run_once(services(model))
    assert outcome.status is RunStatus.SUCCESS
    report = outcome.first("content")["payload"]
    assert report["conclusion"] is None and report["analysis"][0]["kind"] == "NEGATIVE_OBSERVATION"
    assert report["references"][0]["evidence"] == [{"match_count": 0}]


async def test_no_evidence_cited_by_a_normal_analysis_is_rejected() -> None:
    normal = draft(("a1", "NORMAL", ["call_l2"]), conclusion=["a1"])
    model = ScriptedChatModel()
    model.script("router", reply({"intent": "DIAGNOSIS"}))
    model.script("agent", reply(PLAN), reply(None, NO_LOGS), reply(normal))
    model.script("repair", reply(normal))
    outcome = await run_once(services(model))
    assert outcome.first("content")["payload"]["type"] == "EVIDENCE_VALIDATION_FAILED"
    assert "NORMAL_CITES_NO_EVIDENCE" in model.requests_of("repair")[0].messages[-1].content


async def test_unsupported_report_is_the_fallback_with_verified_sources_only() -> None:
    model = diagnosis_model(GOOD_DRAFT, UNSUPPORTED)
    outcome = await run_once(services(model))
    assert outcome.status is RunStatus.FALLBACK
    payload = outcome.first("content")["payload"]
    assert payload["type"] == "SEMANTIC_UNSUPPORTED"
    assert {source["source_type"] for source in payload["verified_sources"]} == {"LOG", "MYSQL", "KNOWLEDGE"}
    text = json.dumps(payload, ensure_ascii=False)
    assert "连接池耗尽有关" not in text and "内部审计原因" not in text and "检查长事务" not in text
    assert len(model.requests_of("guard")) == 1
    assert outcome.audit.finished[-1].guard_reason == "结论超出证据范围（内部审计原因）"
    [_evidence, semantic] = outcome.audit.checks
    assert (semantic.guard, semantic.verdict) == ("semantic", "UNSUPPORTED")
    assert semantic.failures == (("UNSUPPORTED", "结论超出证据范围（内部审计原因）"),)


async def test_guard_timeout_then_success_retries_once_on_another_replica() -> None:
    model = diagnosis_model()
    first, second = ScriptedChatModel(), ScriptedChatModel()
    first.script("guard", Delay(5, SUPPORTED))
    second.script("guard", SUPPORTED)
    settings = config(**{"semantic-guard": {"attempt-timeout": "300ms", "total-timeout": "2s"}})
    outcome = await run_once(services(model, settings, guard_models=[first, second]))
    assert outcome.status is RunStatus.SUCCESS
    assert (len(first.requests), len(second.requests), first.cancelled) == (1, 1, 1)
    assert first.requests[0].messages == second.requests[0].messages
    assert len(model.requests_of("agent")) == 4
    attempts = [a.outcome for a in outcome.run.ctx.attempts.entries("semantic_guard")]
    assert attempts == ["TIMEOUT", "OK"]


async def test_every_model_attempt_of_every_role_is_one_step_and_the_run_counts_agree_with_its_rows() -> None:
    model = diagnosis_model()
    model._steps["router"].clear()
    model.script("router", reply({"intent": "MAYBE"}), reply({"intent": "DIAGNOSIS"}))
    first, second = ScriptedChatModel(), ScriptedChatModel()
    first.script("guard", Delay(5, SUPPORTED))
    second.script("guard", SUPPORTED)
    settings = config(**{"semantic-guard": {"attempt-timeout": "300ms", "total-timeout": "2s"}})
    outcome = await run_once(services(model, settings, guard_models=[first, second]))
    assert outcome.status is RunStatus.SUCCESS
    steps = [(step.role, step.attempt, step.outcome) for step in outcome.audit.steps]
    assert steps == [
        ("router", 1, "INVALID_OUTPUT"),  # the reply came back, the Harness refused its intent (MAYBE)
        ("router", 2, "OK"),
        *[("agent", 1, "OK")] * 4,
        ("guard", 1, "TIMEOUT"),
        ("guard", 2, "OK"),
    ]
    assert [step.step_index for step in outcome.audit.steps] == list(range(1, len(steps) + 1))
    finished = outcome.audit.finished[-1]
    assert finished.model_calls == len(outcome.audit.steps)
    assert finished.tool_calls == len(outcome.audit.tools) == 3
    assert finished.input_tokens == sum(step.input_tokens for step in outcome.audit.steps)
    # Each tool call names the agent step whose reply asked for it (the plan, step 3, asks for none).
    asking = {step.step_index for step in outcome.audit.steps if step.has_tool_call}
    assert {tool.step_index for tool in outcome.audit.tools} <= asking and None not in asking
    assert [(c.check_index, c.guard, c.verdict, c.step_index) for c in outcome.audit.checks] == [
        (1, "evidence", "PASS", 6),  # the draft of the last agent turn
        (2, "semantic", "SUPPORTED", 8),  # the verdict of the second guard attempt
    ]


async def test_guard_timeout_twice_is_semantic_unavailable_without_rerunning_anything() -> None:
    model = diagnosis_model(GOOD_DRAFT, Delay(5, SUPPORTED), Delay(5, SUPPORTED))
    settings = config(**{"semantic-guard": {"attempt-timeout": "200ms", "total-timeout": "2s"}})
    outcome = await run_once(services(model, settings))
    assert outcome.status is RunStatus.FALLBACK
    payload = outcome.first("content")["payload"]
    assert payload["type"] == "SEMANTIC_UNAVAILABLE" and payload["verified_sources"]
    assert len(model.requests_of("guard")) == 2
    assert len(model.requests_of("agent")) == 4
    assert outcome.run.ctx.budget.usage().tool_calls == 3


@pytest.mark.parametrize("bad", ["not json", '{"verdict": "MAYBE", "reason": "x"}', '{"verdict": "SUPPORTED"}'])
async def test_invalid_guard_output_twice_is_semantic_unavailable(bad: str) -> None:
    model = diagnosis_model(GOOD_DRAFT, reply(bad), reply(bad))
    outcome = await run_once(services(model))
    assert outcome.first("content")["payload"]["type"] == "SEMANTIC_UNAVAILABLE"
    assert len(model.requests_of("guard")) == 2


async def test_router_retries_once_then_routes() -> None:
    model = diagnosis_model()
    model._steps["router"].clear()
    model.script("router", reply({"intent": "MAYBE"}), reply({"intent": "DIAGNOSIS"}))
    outcome = await run_once(services(model))
    assert outcome.status is RunStatus.SUCCESS and len(model.requests_of("router")) == 2


@pytest.mark.parametrize(
    "failures",
    [
        (reply({"intent": "DATABASE_QUERY"}), reply("not json")),
        (OperationFailed("TRANSPORT", "500"), OperationFailed("TIMEOUT", "slow")),
    ],
)
async def test_router_failing_twice_never_defaults_to_diagnosis(failures: tuple) -> None:
    model = ScriptedChatModel().script("router", *failures)
    outcome = await run_once(services(model))
    assert outcome.status is RunStatus.FAILED
    assert outcome.names == ["metadata", "status", "failure", "done"]
    assert outcome.first("failure") == {"code": "ROUTING_UNAVAILABLE", "message": "当前暂时无法处理该请求，请稍后重试"}
    assert outcome.first("done") == {"outcome": "FAILED"}
    assert model.requests_of("agent") == [] and len(model.requests_of("router")) == 2


def router_input(model: ScriptedChatModel) -> dict:
    return json.loads(model.requests_of("router")[-1].messages[1].content)


async def test_router_input_is_exactly_query_last_intent_last_query() -> None:
    shared = services(diagnosis_model())
    await run_once(shared)
    follow_up = ScriptedChatModel().script("router", reply({"intent": "SYSTEM_CHAT"}))
    follow_up.script("system_chat", reply("你好"))
    shared.model = follow_up
    await run_once(shared, "那退款服务呢？")
    assert router_input(follow_up) == {"query": "那退款服务呢？", "last_intent": "DIAGNOSIS", "last_user_query": QUERY}


async def test_model_failure_in_the_agent_is_not_retried() -> None:
    model = ScriptedChatModel()
    model.script("router", reply({"intent": "DIAGNOSIS"}))
    model.script("agent", reply(PLAN), OperationFailed("TRANSPORT", "HTTP 500"))
    outcome = await run_once(services(model))
    assert outcome.status is RunStatus.FAILED
    assert outcome.first("failure")["code"] == "MODEL_UNAVAILABLE"
    assert len(model.requests_of("agent")) == 2
    assert len(outcome.run.ctx.attempts.entries("diagnosis_agent")) == 1


def looping_agent(model: ScriptedChatModel, call: tuple) -> None:
    counter = iter(range(1000))

    def next_call(request: object) -> object:
        name, arguments = call
        return reply(None, (f"call_loop_{next(counter)}", name, arguments))

    model.script("agent", reply(PLAN))
    model.default("agent", next_call)


@pytest.mark.parametrize(
    ("limits", "reason", "limitation"),
    [
        ({"max-model-calls": 3, "max-tool-calls": 50}, "MODEL_CALLS", "诊断在用完模型调用预算前未能完成报告"),
        (
            {"max-model-calls": 50, "max-tool-calls": 50, "max-total-tokens": 60},
            "TOKENS",
            "诊断在用完模型 token 预算前未能完成报告",
        ),
    ],
)
async def test_a_spent_model_call_or_token_budget_ends_the_investigation_without_a_draft(
    limits: dict, reason: str, limitation: str
) -> None:
    model = ScriptedChatModel().script("router", reply({"intent": "DIAGNOSIS"}))
    looping_agent(model, ("lookup_knowledge", {"query": "支付超时"}))
    outcome = await run_once(services(model, config(agent=limits)))
    assert outcome.status is RunStatus.FALLBACK
    payload = outcome.first("content")["payload"]
    assert (payload["type"], payload["limitations"]) == ("SEMANTIC_UNSUPPORTED", [limitation])
    assert [source["source_type"] for source in payload["verified_sources"]] == ["KNOWLEDGE"]  # once, for many calls
    assert outcome.audit.finished[-1].fallback_reason == f"BUDGET_{reason}"
    assert outcome.audit.finished[-1].fallback_type == "SEMANTIC_UNSUPPORTED"
    assert outcome.run.ctx.budget.usage().exhausted_reason == reason
    # No draft: every investigation turn offered tools (none was made the final one), no check, no repair.
    assert all(request.tools for request in model.requests_of("agent")[1:])
    assert not model.requests_of("repair") and "EVIDENCE_VALIDATING" not in outcome.statuses()


EXTRA_LOGS = ("call_l2", "query_logs", {"topic": "APPLICATION", "query": "payment-service timeout"})
EXTRA_KNOWLEDGE = ("call_k2", "lookup_knowledge", {"query": "支付回调超时"})


@pytest.mark.parametrize("extra", [(), (EXTRA_LOGS, EXTRA_KNOWLEDGE)], ids=["spent-exactly", "asked-for-more"])
async def test_a_spent_tool_budget_refuses_the_calls_over_it_and_the_agent_still_writes_its_draft(
    extra: tuple,
) -> None:
    model = ScriptedChatModel().script("router", reply({"intent": "DIAGNOSIS"}))
    model.script("agent", reply(PLAN), reply(None, KNOWLEDGE, LOGS, MYSQL, *extra), reply(GOOD_DRAFT))
    model.script("guard", SUPPORTED)
    outcome = await run_once(services(model, config(agent={"max-tool-calls": 3})))
    assert outcome.status is RunStatus.SUCCESS
    assert outcome.first("content")["content_type"] == "DIAGNOSIS_REPORT"
    _plan, investigating, final = model.requests_of("agent")
    # The turn with tools ends with what is left; the one after the budget offers none and asks for the draft.
    assert investigating.tools and investigating.messages[-1].content.startswith("剩余预算：工具调用 3/3（")
    assert final.tools == () and final.tool_choice is None and final.json_output
    assert final.messages[-1].content == final_instruction("TOOL_CALLS")
    refusals = [json.loads(m.content) for m in final.messages if m.role == "tool" and "BUDGET" in m.content]
    assert [r["error"]["code"] for r in refusals] == ["BUDGET_EXHAUSTED"] * len(extra)
    assert all(r["evidence_status"] == "ERROR" and "No tool call is left" in r["error"]["message"] for r in refusals)
    # Each refused call is recorded as the Tool ERROR it got: audit row and canonical record.
    rows = {row.tool_call_id: row for row in outcome.audit.tools}
    assert len(rows) == 3 + len(extra)
    for call, _name, _args in extra:
        assert (rows[call].error_code, rows[call].success) == ("BUDGET_EXHAUSTED", False)
        record = await outcome.services.store.get(outcome.run.run_id, call)
        assert record.status is ToolCallStatus.ERROR and record.error_code == "BUDGET_EXHAUSTED"
    assert outcome.run.ctx.budget.usage().exhausted_reason == "TOOL_CALLS"
    assert outcome.audit.finished[-1].fallback_reason is None


async def test_a_tool_whose_own_budget_is_spent_is_refused_then_no_longer_offered() -> None:
    second_mysql = ("call_m2", "query_mysql", MYSQL[2])
    model = ScriptedChatModel().script("router", reply({"intent": "DIAGNOSIS"}))
    model.script(
        "agent",
        reply(PLAN),
        reply(None, KNOWLEDGE, LOGS, MYSQL, second_mysql),
        reply(None, LOGS_AGAIN),
        reply(GOOD_DRAFT),
    )
    model.script("guard", SUPPORTED)
    settings = config(agent={"max-tool-calls-per-tool": {"query_mysql": 1}})
    outcome = await run_once(services(model, settings))
    assert outcome.status is RunStatus.SUCCESS
    refused = json.loads(next(m.content for m in model.requests_of("agent")[2].messages if m.tool_call_id == "call_m2"))
    assert refused["error"]["code"] == "BUDGET_EXHAUSTED" and "this tool" in refused["error"]["message"]
    offered = [{tool["function"]["name"] for tool in request.tools} for request in model.requests_of("agent")[1:]]
    assert "query_mysql" in offered[0] and all("query_mysql" not in names and names for names in offered[1:])
    assert "query_mysql 0/1" in model.requests_of("agent")[2].messages[-1].content
    assert outcome.run.ctx.budget.usage().exhausted_reason == "TOOL_CALLS:query_mysql"


LOGS_AGAIN = (
    "call_l3",
    "query_logs",
    {"topic": "APPLICATION", "query": "order-service Timeout", "lookback_minutes": 30},
)


async def test_a_final_reply_that_still_asks_for_tools_runs_none_and_is_the_draft_the_guards_judge() -> None:
    model = ScriptedChatModel().script("router", reply({"intent": "DIAGNOSIS"}))
    looping_agent(model, ("lookup_knowledge", {"query": "支付超时"}))  # asks for a tool in every reply
    model.script("repair", reply("还是没有草稿"))
    outcome = await run_once(services(model, config(agent={"max-tool-calls": 2})))
    assert outcome.status is RunStatus.FALLBACK
    assert outcome.audit.finished[-1].fallback_reason == "EVIDENCE_CHECK_FAILED"
    assert len(outcome.audit.tools) == 2  # the final reply's call was neither run nor recorded
    assert model.requests_of("agent")[-1].tools == ()
    # The repair's conversation is one a model accepts: every assistant tool call is answered by its result.
    [repair] = model.requests_of("repair")
    answered = {m.tool_call_id for m in repair.messages if m.role == "tool"}
    asked = {c.id for m in repair.messages if m.role == "assistant" for c in m.tool_calls}
    assert asked == answered and final_instruction("TOOL_CALLS") in [m.content for m in repair.messages]


async def test_an_agent_down_to_its_final_call_reserve_gets_no_tool_and_writes_its_draft() -> None:
    clock = ManualClock()

    def slow_turn(request: object) -> object:
        clock.advance(1.5)  # the first tool turn takes 1.5 s of the agent's 4 s: 2.5 s left, under the 3 s reserve
        return reply(None, KNOWLEDGE, LOGS, MYSQL)

    model = ScriptedChatModel().script("router", reply({"intent": "DIAGNOSIS"}))
    model.script("agent", reply(PLAN), slow_turn, reply(GOOD_DRAFT))
    model.script("guard", SUPPORTED)
    settings = config(agent={"max-duration": "4s", "final-call-reserve": "3s"})
    outcome = await run_once(services(model, settings, clock=clock))
    assert outcome.status is RunStatus.SUCCESS
    _plan, first, final = model.requests_of("agent")
    assert first.tools and "可调用工具的时间约 1 秒" in first.messages[-1].content  # 4 s - 3 s reserve
    assert final.tools == () and final.messages[-1].content == final_instruction("DEADLINE")
    assert outcome.run.ctx.budget.usage().exhausted_reason is None  # the deadline itself never passed


async def test_the_deadline_ends_a_slow_agent_in_the_fallback() -> None:
    model = ScriptedChatModel().script("router", reply({"intent": "DIAGNOSIS"}))
    model.script("agent", reply(PLAN), reply(None, KNOWLEDGE), Delay(10, reply(GOOD_DRAFT)))
    settings = config(
        run={"deadline": "2s", "router-attempt-timeout": "100ms"},
        agent={"max-duration": "1s"},
        **{"semantic-guard": {"attempt-timeout": "400ms", "total-timeout": "400ms"}},
    )
    outcome = await run_once(services(model, settings))
    assert outcome.status is RunStatus.FALLBACK
    assert outcome.audit.finished[-1].fallback_reason == "BUDGET_DEADLINE"
    assert model.cancelled == 1
    payload = outcome.first("content")["payload"]
    assert (payload["type"], payload["limitations"]) == ("SEMANTIC_UNSUPPORTED", ["诊断超过了运行时限，未能完成报告"])
    assert [source["source_type"] for source in payload["verified_sources"]] == ["KNOWLEDGE"]


async def test_cancel_mid_model_call_aborts_it_and_records_cancelled_once() -> None:
    model = ScriptedChatModel().script("router", reply({"intent": "DIAGNOSIS"}))
    model.script("agent", reply(PLAN), Delay(30, reply(GOOD_DRAFT)))
    shared = services(model)
    run = Run(shared, StartRun(session_id="s-1", query=QUERY))
    execution = asyncio.create_task(run.execute())
    await wait_until(lambda: len(model.requests_of("agent")) == 2)
    run.cancel("CLIENT_DISCONNECTED")
    assert await asyncio.wait_for(execution, 5) is RunStatus.CANCELLED
    assert model.cancelled == 1
    names = []
    while not run.events.empty():
        names.append(run.events.get_nowait().event)
    assert "done" not in names and "content" not in names
    assert [record.status for record in shared.audit.finished] == ["CANCELLED"]
    assert_counts_agree(shared.audit, run.run_id)
    assert shared.audit.steps[-1].outcome == "CANCELLED"  # the agent turn the cancellation cut short


async def test_cancel_mid_tool_call_interrupts_the_query() -> None:
    slow = (
        "call_slow",
        "query_mysql",
        {
            "data_source": "order_readonly",
            "sql": "SELECT COUNT(*) FROM biz_order a JOIN biz_order b ON b.order_id <> a.order_id "
            "JOIN biz_order c ON c.order_id <> b.order_id JOIN biz_order d ON d.order_id <> c.order_id "
            "JOIN biz_order e ON e.order_id <> d.order_id JOIN biz_order f ON f.order_id <> e.order_id",
            "params": [],
        },
    )
    model = ScriptedChatModel().script("router", reply({"intent": "DIAGNOSIS"}))
    model.script("agent", reply(PLAN), reply(None, slow))
    shared = services(model, config(mysql={"query-timeout": "60s"}))
    run = Run(shared, StartRun(session_id="s-1", query=QUERY))
    execution = asyncio.create_task(run.execute())
    await wait_until(lambda: any(e == "TOOL_RUNNING" for e in [ev.data.get("code") for ev in list(run.events._queue)]))
    await asyncio.sleep(0.2)
    run.cancel("CLIENT_DISCONNECTED")
    assert await asyncio.wait_for(execution, 5) is RunStatus.CANCELLED
    record = await shared.store.get(run.run_id, "call_slow")
    assert (record.status, record.error_code) == (ToolCallStatus.ERROR, "TOOL_CANCELLED")
    assert_counts_agree(shared.audit, run.run_id)


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (("bad id!", "lookup_knowledge", {"query": "x"}), "INVALID_TOOL_CALL_ID"),
        (("call_x", "delete_everything", {}), "TOOL_NOT_ALLOWED"),
        (("call_x", "query_logs", {"topic": "NOPE", "query": "x"}), "INVALID_ARGUMENTS"),
        (("call_x", "query_logs", {"topic": "APPLICATION", "query": "x", "region": "ap-east"}), "INVALID_ARGUMENTS"),
    ],
)
async def test_the_tool_boundary_refuses_bad_calls(call: tuple, code: str) -> None:
    model = ScriptedChatModel().script("router", reply({"intent": "DIAGNOSIS"}))
    model.script("agent", reply(PLAN), reply(None, call), reply(draft(("a1", "NORMAL", ["call_x"]))))
    model.script("repair", reply(draft(("a1", "NORMAL", ["call_x"]))))
    outcome = await run_once(services(model))
    tool_message = last_tool_message(model.requests_of("agent")[2])
    result = json.loads(tool_message.content)
    assert result["evidence_status"] == "ERROR" and result["error"]["code"] == code
    assert "Traceback" not in result["error"]["message"]
    assert outcome.status is RunStatus.FALLBACK


async def test_a_duplicate_tool_call_id_never_overwrites_the_first_record() -> None:
    first = ("call_dup", "lookup_knowledge", {"query": "支付超时"})
    second = ("call_dup", "query_logs", {"topic": "APPLICATION", "query": "order-service HikariPool"})
    model = ScriptedChatModel().script("router", reply({"intent": "DIAGNOSIS"}))
    model.script(
        "agent",
        reply(PLAN),
        reply(None, first),
        reply(None, second),
        reply(draft(("a1", "NORMAL", ["call_dup"]), conclusion=["a1"])),
    )
    model.script("guard", SUPPORTED)
    outcome = await run_once(services(model))
    duplicate = json.loads(last_tool_message(model.requests_of("agent")[3]).content or "")
    assert duplicate["error"]["code"] == "DUPLICATE_TOOL_CALL_ID"
    record = await outcome.services.store.get(outcome.run.run_id, "call_dup")
    assert record.tool_name == "lookup_knowledge" and record.status is ToolCallStatus.READY


async def test_system_chat_answers_from_the_capability_statement_without_tools() -> None:
    model = ScriptedChatModel().script("router", reply({"intent": "SYSTEM_CHAT"}))
    model.script("system_chat", reply("你好，我可以帮你排查线上故障。"))
    outcome = await run_once(services(model), "你好，你能做什么？")
    assert outcome.first("content") == {
        "content_type": "SYSTEM_ANSWER",
        "payload": {"answer": "你好，我可以帮你排查线上故障。"},
    }
    [request] = model.requests_of("system_chat")
    assert request.tools == () and "排查线上故障" in request.messages[0].content
    assert outcome.audit.finished[-1].tool_calls == 0


async def test_knowledge_query_makes_one_lookup_and_checks_references() -> None:
    model = ScriptedChatModel().script("router", reply({"intent": "KNOWLEDGE_QUERY"}))

    def answer(request: object) -> object:
        evidence = json.loads(request.messages[1].content)["evidence"]
        return reply(
            {
                "answer": "ERR_TIMEOUT 表示请求超时。",
                "references": [evidence[0]["document_id"], "invented-doc"],
                "limitations": [],
            }
        )

    model.default("knowledge", answer)
    outcome = await run_once(services(model), "ERR_TIMEOUT 是什么意思？")
    assert outcome.status is RunStatus.SUCCESS
    payload = outcome.first("content")["payload"]
    assert outcome.first("content")["content_type"] == "KNOWLEDGE_ANSWER"
    assert [ref["document_id"] for ref in payload["references"]] != ["invented-doc"]
    assert "invented-doc" not in json.dumps(payload) and len(payload["references"]) == 1
    assert payload["references"][0]["excerpt"]
    assert "已移除" in payload["limitations"][-1]
    assert outcome.run.ctx.budget.usage().tool_calls == 0  # the Harness's own lookup is not the agent's budget
    assert [t.tool_name for t in outcome.audit.tools] == ["lookup_knowledge"]
    assert outcome.audit.finished[0].tool_calls == 1  # the run's count agrees with its tool_invocation rows


async def test_a_knowledge_answer_off_its_schema_is_a_refused_step_and_the_fallback() -> None:
    model = ScriptedChatModel().script("router", reply({"intent": "KNOWLEDGE_QUERY"}))
    model.script("knowledge", reply({"answer": "多了一个字段", "references": [], "confidence": "high"}))
    outcome = await run_once(services(model), "ERR_TIMEOUT 是什么意思？")
    assert outcome.status is RunStatus.FALLBACK
    assert outcome.audit.finished[-1].fallback_reason == "KNOWLEDGE_INVALID_OUTPUT"
    assert [(s.role, s.attempt, s.outcome) for s in outcome.audit.steps] == [
        ("router", 1, "OK"),
        ("knowledge", 1, "INVALID_OUTPUT"),
    ]
    assert [tool.step_index for tool in outcome.audit.tools] == [None]  # the Harness's own lookup


async def test_knowledge_answer_with_only_invented_references_is_not_released() -> None:
    model = ScriptedChatModel().script("router", reply({"intent": "KNOWLEDGE_QUERY"}))
    model.script("knowledge", reply({"answer": "编造的答案", "references": ["nope"], "limitations": []}))
    outcome = await run_once(services(model), "ERR_TIMEOUT 是什么意思？")
    assert outcome.status is RunStatus.FALLBACK
    assert "编造的答案" not in json.dumps(outcome.first("content"), ensure_ascii=False)


async def test_cancel_during_the_guard_drops_the_guard_request() -> None:
    model = diagnosis_model(GOOD_DRAFT, Delay(30, SUPPORTED))
    shared = services(model)
    run = Run(shared, StartRun(session_id="s-1", query=QUERY))
    execution = asyncio.create_task(run.execute())
    await wait_until(lambda: len(model.requests_of("guard")) == 1)
    run.cancel("CLIENT_DISCONNECTED")
    assert await asyncio.wait_for(execution, 5) is RunStatus.CANCELLED
    assert model.cancelled == 1
    assert [record.status for record in shared.audit.finished] == ["CANCELLED"]


async def test_the_offline_model_writes_its_draft_when_the_tool_budget_runs_out() -> None:
    model = OfflineChatModel()  # its first tool turn asks for 4 calls; 3 are allowed
    outcome = await run_once(services(model, config(agent={"max-tool-calls": 3})))
    rows = outcome.audit.tools
    assert len(rows) == 4 and [row.error_code for row in rows].count("BUDGET_EXHAUSTED") == 1
    # The three results it has are enough for the demo question: the report is released.
    assert outcome.status is RunStatus.SUCCESS
    assert outcome.first("content")["content_type"] == "DIAGNOSIS_REPORT"
    assert outcome.audit.finished[-1].fallback_reason is None


@pytest.mark.parametrize("first_guard", ["clipped", "timed_out_then_clipped"])
async def test_the_run_deadline_passing_during_the_guard_is_semantic_unavailable(first_guard: str) -> None:
    """Issue 19: a guard attempt clipped by the run's deadline is a guard timeout (§4.4, §4.7, §10.3), released as
    SEMANTIC_UNAVAILABLE with the verified sources, never a technical failure."""
    model = ScriptedChatModel().script("router", reply({"intent": "DIAGNOSIS"}))
    model.script("agent", reply(PLAN), reply(None, KNOWLEDGE, LOGS), reply(None, MYSQL), reply(GOOD_DRAFT))
    attempt = "1s" if first_guard == "timed_out_then_clipped" else "2s"  # the last attempt is clipped either way
    model.script("guard", Delay(5, SUPPORTED), Delay(5, SUPPORTED))
    fitting = config(
        run={"deadline": "60s", "router-attempt-timeout": "100ms"},
        agent={"max-duration": "1s", "final-call-reserve": "300ms"},
        **{"semantic-guard": {"attempt-timeout": attempt, "total-timeout": "2s"}},
    )
    # Budgets that fit the deadline leave no margin for the Harness's own work (the checks, the store, the audit),
    # so the deadline can still pass during the guard; a deadline shorter than the budgets (which `config check`
    # refuses) makes it pass there every time.
    harness = fitting.harness.model_copy(update={"run": fitting.harness.run.model_copy(update={"deadline": 2.0})})
    settings = fitting.model_copy(update={"harness": harness})
    outcome = await run_once(services(model, settings))
    assert outcome.status is RunStatus.FALLBACK
    assert outcome.names[-2:] == ["content", "done"] and "failure" not in outcome.names
    payload = outcome.first("content")["payload"]
    assert payload["type"] == "SEMANTIC_UNAVAILABLE" and payload["verified_sources"]
    assert outcome.events[-1].data == {"outcome": "FALLBACK"}
    finished = outcome.audit.finished[-1]
    assert (finished.status, finished.fallback_type, finished.fallback_reason) == (
        "FALLBACK",
        "SEMANTIC_UNAVAILABLE",
        "GUARD_DEADLINE",
    )
    [_evidence, semantic] = outcome.audit.checks
    assert (semantic.guard, semantic.verdict) == ("semantic", "UNAVAILABLE")
    assert len(model.requests_of("guard")) == (2 if first_guard == "timed_out_then_clipped" else 1)


async def test_every_tool_action_counts_against_the_tool_budget_whatever_its_outcome() -> None:
    """Issue 19, §4.2: a call with a bad or reused id, to a tool not offered or with bad arguments is charged like
    any call (to the tool it names when the run offers it), recorded as a Tool ERROR, and the next budget line
    says so."""
    calls = (
        ("bad id!", "lookup_knowledge", {"query": "x"}),
        ("call_x", "delete_everything", {}),
        ("call_y", "query_logs", {"topic": "NOPE", "query": "x"}),
        KNOWLEDGE,
        (KNOWLEDGE[0], "lookup_knowledge", {"query": "again"}),
    )
    model = ScriptedChatModel().script("router", reply({"intent": "DIAGNOSIS"}))
    model.script("agent", reply(PLAN), reply(None, *calls), reply(draft(("a1", "NORMAL", ["call_k1"]))))
    model.script("guard", SUPPORTED)
    outcome = await run_once(services(model, config(agent={"max-tool-calls": 6})))
    usage = outcome.run.ctx.budget.usage()
    assert (usage.tool_calls, dict(usage.tool_calls_by_tool)) == (5, {"lookup_knowledge": 3, "query_logs": 1})
    line = model.requests_of("agent")[2].messages[-1].content
    assert line.startswith("剩余预算：工具调用 1/6（")
    codes = [tool.error_code for tool in outcome.audit.tools]
    assert sorted(codes, key=str) == sorted(
        ["INVALID_TOOL_CALL_ID", "TOOL_NOT_ALLOWED", "INVALID_ARGUMENTS", None, "DUPLICATE_TOOL_CALL_ID"], key=str
    )
    assert outcome.audit.finished[-1].tool_calls == 5


async def test_invalid_tool_calls_past_the_budget_are_refused_as_budget_exhausted() -> None:
    calls = (("bad id!", "lookup_knowledge", {"query": "x"}), ("call_x", "delete_everything", {}), KNOWLEDGE)
    model = ScriptedChatModel().script("router", reply({"intent": "DIAGNOSIS"}))
    model.script("agent", reply(PLAN), reply(None, *calls), reply(draft(("a1", "NORMAL", ["call_k1"]))))
    model.script("repair", reply(draft(("a1", "NORMAL", ["call_k1"]))))
    outcome = await run_once(services(model, config(agent={"max-tool-calls": 2})))
    codes = {tool.tool_call_id: tool.error_code for tool in outcome.audit.tools}
    assert codes == {"bad id!": "INVALID_TOOL_CALL_ID", "call_x": "TOOL_NOT_ALLOWED", "call_k1": "BUDGET_EXHAUSTED"}
    assert outcome.run.ctx.budget.usage().tool_calls == 2
    final = model.requests_of("agent")[2]
    assert final.tools == () and final.messages[-1].content == final_instruction("TOOL_CALLS")


async def test_a_router_attempt_is_bounded_by_its_own_timeout() -> None:
    """The router's share of the run's time (``harness.run.router-attempt-timeout``, budgeted by config check) is
    what each attempt may take, however long model.timeout-s is."""
    model = ScriptedChatModel().script(
        "router", Delay(5, reply({"intent": "DIAGNOSIS"})), Delay(5, reply({"intent": "DIAGNOSIS"}))
    )
    settings = config(run={"router-attempt-timeout": "200ms"})
    assert settings.model.timeout_s > 5
    outcome = await run_once(services(model, settings))
    assert outcome.status is RunStatus.FAILED and outcome.first("failure")["code"] == "ROUTING_UNAVAILABLE"
    assert [(step.role, step.outcome) for step in outcome.audit.steps] == [("router", "TIMEOUT")] * 2
    assert outcome.audit.finished[-1].duration_ms < 2000


class _UnreadableHistory(MemoryAudit):
    """An audit database that is down for reads (a MariaDB restart): the session's earlier turns cannot be read."""

    async def last_turn(self, session_id: str) -> tuple[str | None, str | None]:
        raise ConnectionError("audit database unreachable")

    async def previous_turn(self, session_id: str) -> PreviousTurn | None:
        raise ConnectionError("audit database unreachable")


async def test_a_session_history_that_cannot_be_read_is_no_history_and_the_run_goes_on() -> None:
    """The soak found a MariaDB restart failing every run that started meanwhile with HARNESS_ERROR: the earlier
    turns are context (§4.6), not a precondition; the run is answered as a session's first turn."""
    model = diagnosis_model()
    outcome = await run_once(services(model, audit=_UnreadableHistory()))
    assert outcome.status is RunStatus.SUCCESS and outcome.first("done") == {"outcome": "SUCCESS"}
    assert router_input(model) == {"query": QUERY, "last_intent": None, "last_user_query": None}
