"""Hostile model output at every parser and boundary: ids checked as whole text, JSON bounded in depth and size,
audit rows capped. Each fault ends as a Tool ERROR, a repair, a router retry or a fallback, never HARNESS_ERROR."""

from __future__ import annotations

import json
from typing import Any

import pytest

from config.runtime import AuditSettings
from harness.draft import DraftRejected, parse_draft
from harness.errors import InvalidToolCallId
from harness.ids import is_analysis_id, is_run_id, is_tool_call_id
from harness.messages import ModelReply, ToolCall, Usage
from harness.run_state import RunStatus
from harness.scripted_model import ScriptedChatModel, reply
from stores.audit.bounds import MAX_PARAMS_CHARS
from stores.audit.store import SqlAuditStore
from tests.harness.run_support import (
    GOOD_DRAFT,
    KNOWLEDGE,
    LOGS,
    MYSQL,
    PLAN,
    SUPPORTED,
    draft,
    last_tool_message,
    run_once,
    services,
)

BAD_ENDINGS = ["\n", "\r\n", " ", "\u2028", "\t"]
DEEP = "[" * 3000 + "]" * 3000


@pytest.mark.parametrize("ending", BAD_ENDINGS)
def test_every_id_is_checked_as_the_whole_text(ending: str) -> None:
    assert is_tool_call_id("call_1") and not is_tool_call_id("call_1" + ending)
    assert is_run_id("run-1") and not is_run_id("run-1" + ending)
    assert is_analysis_id("a1") and not is_analysis_id("a1" + ending)
    assert not is_tool_call_id(ending + "call_1") and not is_tool_call_id("")


@pytest.mark.parametrize("ending", BAD_ENDINGS)
def test_a_draft_cannot_cite_a_call_by_a_lookalike_id(ending: str) -> None:
    content = {**GOOD_DRAFT, "analysis": [{**GOOD_DRAFT["analysis"][0], "tool_call_ids": ["call_l1" + ending]}]}
    with pytest.raises(DraftRejected) as rejected:
        parse_draft(json.dumps(content))
    assert rejected.value.problems[0].startswith("analysis.0.tool_call_ids.0")


@pytest.mark.parametrize("ending", BAD_ENDINGS)
async def test_the_store_refuses_a_lookalike_id(ending: str) -> None:
    model = ScriptedChatModel()
    store = services(model).store
    with pytest.raises(InvalidToolCallId):
        await store.get("run-1", "call_1" + ending)


def _agent(
    *turns: ModelReply, final: dict[str, Any] | str = GOOD_DRAFT, router: tuple[ModelReply, ...] = ()
) -> ScriptedChatModel:
    model = ScriptedChatModel().script("router", *(router or (reply({"intent": "DIAGNOSIS"}),)))
    model.script("agent", reply(PLAN), reply(None, KNOWLEDGE, LOGS), reply(None, MYSQL), *turns, reply(final))
    model.script("guard", SUPPORTED)
    return model


def _raw_call(tool_call_id: str, name: str, arguments: str) -> ModelReply:
    return ModelReply(tool_calls=(ToolCall(id=tool_call_id, name=name, arguments=arguments),), usage=Usage())


def _tool_result(model: ScriptedChatModel, turn: int) -> dict[str, Any]:
    return json.loads(last_tool_message(model.requests_of("agent")[turn]).content or "")


@pytest.mark.parametrize("ending", BAD_ENDINGS)
async def test_a_trailing_newline_id_is_a_tool_error_and_never_resolves_to_another_call(ending: str) -> None:
    model = _agent(_raw_call("call_k1" + ending, "lookup_knowledge", '{"query": "支付超时"}'))
    outcome = await run_once(services(model))
    result = _tool_result(model, 4)
    assert result["error"]["code"] == "INVALID_TOOL_CALL_ID"
    assert outcome.status is RunStatus.SUCCESS
    assert [record.tool_call_id for record in outcome.audit.tools].count("call_k1") == 1


async def test_a_draft_citing_a_lookalike_id_is_repaired_not_resolved() -> None:
    lookalike = {
        **GOOD_DRAFT,
        "analysis": [{**a, "tool_call_ids": [a["tool_call_ids"][0] + "\n"]} for a in GOOD_DRAFT["analysis"]],
    }
    model = _agent(final=lookalike)
    model.script("repair", reply(lookalike))
    outcome = await run_once(services(model))
    assert outcome.status is RunStatus.FALLBACK
    assert outcome.first("content")["payload"]["type"] == "EVIDENCE_VALIDATION_FAILED"


async def test_an_empty_tool_call_id_is_a_tool_error_the_agent_can_act_on() -> None:
    model = _agent(_raw_call("", "lookup_knowledge", '{"query": "支付超时"}'))
    outcome = await run_once(services(model))
    result = _tool_result(model, 4)
    assert result["error"]["code"] == "INVALID_TOOL_CALL_ID"
    assert outcome.status is RunStatus.SUCCESS


async def test_deeply_nested_tool_arguments_are_a_tool_error_with_an_audit_row() -> None:
    model = _agent(_raw_call("call_deep", "query_logs", '{"topic": "APPLICATION", "query": ' + DEEP + "}"))
    outcome = await run_once(services(model))
    result = _tool_result(model, 4)
    assert result["error"]["code"] == "INVALID_ARGUMENTS" and "deeper" in result["error"]["message"]
    assert outcome.status is RunStatus.SUCCESS
    row = next(record for record in outcome.audit.tools if record.tool_call_id == "call_deep")
    assert row.error_code == "INVALID_ARGUMENTS" and len(json.dumps(row.input_params)) < 2000


async def test_a_deeply_nested_draft_is_repaired_then_falls_back() -> None:
    model = _agent(final='{"conclusion": ' + DEEP + "}")
    model.script("repair", reply('{"analysis": ' + DEEP + "}"))
    outcome = await run_once(services(model))
    assert outcome.status is RunStatus.FALLBACK
    assert outcome.first("content")["payload"]["type"] == "EVIDENCE_VALIDATION_FAILED"
    assert "EVIDENCE_REPAIRING" in outcome.statuses()


async def test_a_deeply_nested_draft_can_be_repaired() -> None:
    model = _agent(final=DEEP)
    model.script("repair", reply(GOOD_DRAFT))
    outcome = await run_once(services(model))
    assert outcome.status is RunStatus.SUCCESS


async def test_a_deeply_nested_router_reply_is_retried() -> None:
    model = _agent(router=(reply('{"intent": ' + DEEP + "}"), reply({"intent": "DIAGNOSIS"})))
    outcome = await run_once(services(model))
    assert outcome.status is RunStatus.SUCCESS
    assert len(model.requests_of("router")) == 2


async def test_a_deeply_nested_router_reply_twice_is_a_routing_failure() -> None:
    model = ScriptedChatModel().script("router", reply(DEEP), reply(DEEP))
    outcome = await run_once(services(model))
    assert outcome.status is RunStatus.FAILED
    assert outcome.first("failure")["code"] == "ROUTING_UNAVAILABLE"


async def test_a_one_megabyte_argument_is_refused_and_its_audit_row_is_capped() -> None:
    huge = json.dumps({"topic": "APPLICATION", "query": "x" * (1024 * 1024)})
    model = _agent(_raw_call("call_huge", "query_logs", huge))
    audit = SqlAuditStore(AuditSettings(url="sqlite://"))
    audit.init_schema()
    try:
        outcome = await run_once(services(model, audit=audit))
        assert _tool_result(model, 4)["error"]["code"] == "INVALID_ARGUMENTS"
        assert outcome.status is RunStatus.SUCCESS
        rows = await audit.tool_invocations(outcome.run.run_id)
        row = next(row for row in rows if row["tool_call_id"] == "call_huge")
        stored = json.dumps(row["input_params"], ensure_ascii=False)
        assert len(stored) <= MAX_PARAMS_CHARS + 200 and "…" in stored
    finally:
        audit.close()


async def test_a_large_valid_argument_is_capped_in_the_audit_after_redaction() -> None:
    query = "order-service password=Welcome2024! " + "timeout " * 800
    model = _agent(_raw_call("call_long", "lookup_knowledge", json.dumps({"query": query})))
    audit = SqlAuditStore(AuditSettings(url="sqlite://"))
    audit.init_schema()
    try:
        outcome = await run_once(services(model, audit=audit))
        rows = await audit.tool_invocations(outcome.run.run_id)
        row = next(row for row in rows if row["tool_call_id"] == "call_long")
        stored = json.dumps(row["input_params"], ensure_ascii=False)
        assert "Welcome2024" not in stored and len(stored) <= MAX_PARAMS_CHARS + 200
    finally:
        audit.close()


def test_draft_tool_call_ids_keep_their_exact_text() -> None:
    parsed = parse_draft(json.dumps(draft(("a1", "NORMAL", ["call.l-1_x"]))))
    assert parsed.analysis[0].tool_call_ids == ["call.l-1_x"]
