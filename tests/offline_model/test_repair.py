"""The repair turn: the EvidenceGuard's failures in, a corrected Draft out that passes the EvidenceGuard."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from contract.vocabulary import EvidenceStatus
from harness.draft import parse_draft
from harness.gate import failure_texts
from harness.messages import ChatMessage, ModelRequest
from harness.react_loop import REPAIR_INSTRUCTION
from offline_model.model import OfflineChatModel
from tests.offline_model.loop import Run, diagnose


async def _repair(
    run: Run, change: Callable[[dict[str, Any]], None] | None, text: str | None = None
) -> tuple[list[str], str]:
    """Replace the run's Draft by an altered one and ask for the repair exactly as ``DiagnosisAgent.repair`` does."""
    if text is None:
        draft = json.loads(run.draft_text or "")
        assert change is not None
        change(draft)
        text = json.dumps(draft, ensure_ascii=False)
    check = run.gateway.check(text)
    assert not check.ok
    failures = failure_texts(check)
    conversation = run.agent.conversation("run-offline")
    assert conversation[-1].role == "assistant" and not conversation[-1].tool_calls
    listed = "\n".join(f"- {failure}" for failure in failures)
    messages = (
        *conversation[:-1],
        ChatMessage(role="assistant", content=text),
        ChatMessage(role="user", content=REPAIR_INSTRUCTION.format(failures=listed)),
    )
    reply = await OfflineChatModel().complete(ModelRequest(role="repair", messages=messages, json_output=True), 1.0)
    return failures, reply.content or ""


async def test_a_fabricated_tool_call_id_is_removed_and_the_conclusion_dropped() -> None:
    run = await diagnose("订单 order-123 支付超时，帮我排查")
    original = parse_draft(run.draft_text)

    def fabricate(draft: dict[str, Any]) -> None:
        draft["analysis"].append(
            {
                "analysis_id": "a99",
                "kind": "NORMAL",
                "text": "order-service 出现 999 次 Full GC",
                "tool_call_ids": ["call_77"],
            }
        )
        draft["conclusion"]["based_on_analysis_ids"].append("a99")
        draft["analysis"][0]["tool_call_ids"].append("call_78")

    failures, repaired_text = await _repair(run, fabricate)
    assert any("call_77" in failure for failure in failures)
    repaired = parse_draft(repaired_text)
    assert "call_77" not in repaired.cited_tool_call_ids() and "call_78" not in repaired.cited_tool_call_ids()
    assert [item.analysis_id for item in repaired.analysis] == [item.analysis_id for item in original.analysis]
    assert repaired.analysis[0].tool_call_ids == original.analysis[0].tool_call_ids
    assert repaired.conclusion is None  # its basis (a99) is gone
    assert any("证据不足" in info for info in repaired.limitations.missing_info)
    assert run.gateway.check(repaired_text).ok


async def test_a_normal_analysis_citing_no_evidence_is_dropped_with_what_rested_on_it() -> None:
    run = await diagnose("user-service 接口超时，帮我排查")

    promoted: list[str] = []

    def promote(draft: dict[str, Any]) -> None:
        negative = next(a for a in draft["analysis"] if a["kind"] == "NEGATIVE_OBSERVATION")
        negative["kind"] = "NORMAL"
        promoted.append(negative["analysis_id"])
        draft["action_plan"] = [
            {
                "action": "复查 user-service 日志",
                "based_on_analysis_ids": promoted,
                "requires_human_confirmation": False,
            }
        ]

    failures, repaired_text = await _repair(run, promote)
    assert any(failure.startswith("NORMAL_CITES_NO_EVIDENCE") for failure in failures)
    repaired = parse_draft(repaired_text)
    assert promoted[0] not in {item.analysis_id for item in repaired.analysis}
    for item in repaired.analysis:
        status = run.gateway.status_of(item.tool_call_ids[0])
        assert status is (EvidenceStatus.EVIDENCE_FOUND if item.kind == "NORMAL" else EvidenceStatus.NO_EVIDENCE)
    assert not repaired.action_plan  # the only action rested on the dropped analysis
    assert run.gateway.check(repaired_text).ok


async def test_a_reply_that_is_not_a_draft_is_recomposed_from_the_tool_results() -> None:
    run = await diagnose("订单 order-123 支付超时，帮我排查")
    failures, repaired_text = await _repair(run, None, text="我认为是数据库的问题")
    assert failures and failures[0].startswith("DRAFT_SCHEMA")
    assert run.gateway.check(repaired_text).ok
    assert parse_draft(repaired_text).conclusion is not None


async def test_repeated_analysis_ids_are_kept_once() -> None:
    run = await diagnose("订单 order-123 支付超时，帮我排查")

    def duplicate(draft: dict[str, Any]) -> None:
        draft["analysis"].append({**draft["analysis"][0], "text": "重复的分析"})

    _, repaired_text = await _repair(run, duplicate)
    repaired = parse_draft(repaired_text)
    ids = [item.analysis_id for item in repaired.analysis]
    assert len(ids) == len(set(ids))
    assert run.gateway.check(repaired_text).ok
