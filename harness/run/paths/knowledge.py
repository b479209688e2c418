"""KNOWLEDGE_QUERY (§4.5): one lookup of the knowledge kind with the raw question, then an answer released only
with references the Harness could check against that call's evidence."""

from __future__ import annotations

from typing import Any

from harness import events, gate
from harness.errors import OperationFailed
from harness.fixed_texts import texts
from harness.gate import KnowledgeRelease
from harness.intents import knowledge_messages, parse_knowledge_answer
from harness.reasons import Reason
from harness.release import FallbackType, knowledge_fallback_payload
from harness.run.model_calls import refused_by
from harness.run.outcome import Outcome, failed, model_unavailable
from harness.run.scope import Scope
from harness.run_state import RunStatus

LOOKUP_CALL_ID = "call_knowledge_1"
"""The tool_call_id of the Harness's own lookup (a run makes one)."""


async def answer(scope: Scope) -> Outcome:
    kind = scope.services.knowledge
    if kind is None:
        return failed(scope.stream, "KNOWLEDGE_UNAVAILABLE", Reason.KNOWLEDGE_NOT_CONFIGURED)
    scope.stream.status("KNOWLEDGE_SEARCHING")
    projector = scope.services.offered[kind.name].projector
    result = await scope.tools.execute(LOOKUP_CALL_ID, kind.name, {"query": scope.query}, projector)
    status = result.get("evidence_status")
    if status == "ERROR":
        return failed(scope.stream, "KNOWLEDGE_UNAVAILABLE", Reason.KNOWLEDGE_UNAVAILABLE)
    if status == "NO_EVIDENCE":
        return _nothing_found(scope)
    evidence = list(result.get("evidence", []))
    scope.stream.status("ANSWERING")
    try:
        reply = await scope.calls.ask(
            "knowledge",
            knowledge_messages(scope.query, evidence, scope.language),
            scope.model_timeout_s,
            json_output=True,
            refusal=refused_by(parse_knowledge_answer),
        )
    except OperationFailed:
        return model_unavailable(scope.stream)
    return _release(scope, reply.content, evidence)


def _nothing_found(scope: Scope) -> Outcome:
    fixed = texts(scope.language)
    payload = {
        "answer": fixed.knowledge_nothing_found,
        "references": [],
        "limitations": list(fixed.knowledge_nothing_found_limitations),
    }
    scope.stream.end(events.content("KNOWLEDGE_ANSWER", payload), "SUCCESS")
    return Outcome(RunStatus.SUCCESS)


def _release(scope: Scope, content: str | None, evidence: list[dict[str, Any]]) -> Outcome:
    try:
        answer = parse_knowledge_answer(content)
        release = gate.check(gate.KnowledgeReply(answer, evidence, scope.query, scope.language), scope.policy)
    except OperationFailed:
        release = KnowledgeRelease(None, Reason.KNOWLEDGE_INVALID_OUTPUT)
    if release.payload is None:
        scope.stream.end(events.content("FALLBACK", knowledge_fallback_payload(scope.language)), "FALLBACK")
        return Outcome(RunStatus.FALLBACK, FallbackType.EVIDENCE_VALIDATION_FAILED.value, release.refused)
    scope.stream.end(events.content("KNOWLEDGE_ANSWER", release.payload), "SUCCESS")
    invented = Reason.INVENTED_REFERENCES_REMOVED if release.invented_references else None
    return Outcome(RunStatus.SUCCESS, fallback_reason=invented)
