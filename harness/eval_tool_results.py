"""An evaluation case that carries its tool results, judged exactly as a run judges its draft.

A case in this format holds the Draft as the agent sent it (with its ``tool_call_ids``) and ``tool_results``: one
object per call, ``{tool_call_id, tool_name, evidence_status, agent_result}`` (optionally ``request``), the
agent_results a run's invocation store holds. The gate gets what a run gives it (:mod:`harness.run.paths.diagnosis`): a
:class:`~harness.gate.Report` of the draft text and the record of every cited call (None for an id the case does
not hold) with the run's evidence kinds. The SemanticGuard gets the snapshot a run builds
(:func:`harness.snapshot.build_snapshot` on the records); it is asked about every case, so for a draft the gate
refuses the snapshot holds the evidence of every cited call the kinds can read.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from contract.vocabulary import EvidenceStatus
from harness import gate
from harness.draft import Draft
from harness.gate import ClaimPolicy
from harness.guard_view import guard_view
from harness.invocation import InvocationRecord, ToolCallStatus
from harness.messages import GuardRequest
from harness.snapshot import Kinds, build_snapshot, snapshot_evidence

RUN_ID = "eval"
RECORDED_AT = "2026-12-01T00:00:00.000+00:00"


def tool_result_problem(results: Sequence[Mapping[str, Any]]) -> str | None:
    """What is wrong with a case's ``tool_results`` (None when each is a READY call with an agent_result)."""
    seen: set[str] = set()
    for index, result in enumerate(results):
        call = result.get("tool_call_id")
        if not isinstance(call, str) or not call:
            return f"tool_results[{index}] needs a tool_call_id"
        if call in seen:
            return f"tool_results[{index}]: duplicate tool_call_id {call!r}"
        seen.add(call)
        if not isinstance(result.get("tool_name"), str) or not isinstance(result.get("agent_result"), dict):
            return f"tool_results[{index}] needs a tool_name and an agent_result object"
        if result.get("evidence_status") not in {status.value for status in EvidenceStatus}:
            return f"tool_results[{index}]: evidence_status must be one of {', '.join(s.value for s in EvidenceStatus)}"
    return None


def records_of(results: Sequence[Mapping[str, Any]]) -> dict[str, InvocationRecord]:
    """The READY record a run's store holds for each tool result, by tool_call_id."""
    return {
        str(result["tool_call_id"]): InvocationRecord(
            run_id=RUN_ID,
            tool_call_id=str(result["tool_call_id"]),
            tool_name=str(result["tool_name"]),
            status=ToolCallStatus.READY,
            evidence_status=EvidenceStatus(result["evidence_status"]),
            request=dict(result.get("request") or {}),
            agent_result=dict(result["agent_result"]),
            started_at=RECORDED_AT,
            finished_at=RECORDED_AT,
            error_code=None,
        )
        for result in results
    }


def run_gate_codes(
    draft: Mapping[str, Any], results: Sequence[Mapping[str, Any]], query: str, kinds: Kinds, policy: ClaimPolicy
) -> tuple[str, ...]:
    """The codes of the rules the gate finds broken, checked as a run checks a draft."""
    text = json.dumps(draft, ensure_ascii=False)
    held = records_of(results)
    records = {call: held.get(call) for call in gate.cited_tool_call_ids(text)}
    verdict = gate.check(gate.Report(text, records, kinds, query), policy)
    return tuple(dict.fromkeys(str(failure.code) for failure in verdict.failures))


def run_guard_request(
    draft: Mapping[str, Any],
    results: Sequence[Mapping[str, Any]],
    query: str,
    kinds: Kinds,
    max_bytes: int | None = None,
) -> GuardRequest:
    """The SemanticGuard's request for this case: the user-visible draft and the snapshot a run builds, or, with
    ``max_bytes``, what a run sends within that bound (:func:`harness.guard_view.guard_view`; the whole snapshot
    when even the view cannot fit, which the bound then refuses as a run does)."""
    parsed = Draft.model_validate(dict(draft))
    held = records_of(results)
    readable = {call: record for call, record in held.items() if _readable(record, kinds)}
    try:
        view = guard_view(query, parsed, readable, kinds, max_bytes) if max_bytes is not None else None
        if view is not None:
            return GuardRequest(query=query, draft=parsed.user_visible(), verified_evidence=view.evidence)
        snapshot = build_snapshot(parsed, readable, kinds)
    except ValueError:  # a cited call the case does not hold: the evidence of those it does
        snapshot = [
            {
                "analysis_id": item.analysis_id,
                "kind": item.kind,
                "analysis_text": item.text,
                "verified_evidence": [
                    entry
                    for call in dict.fromkeys(item.tool_call_ids)
                    if call in readable
                    for entry in snapshot_evidence(readable[call], kinds)
                ],
            }
            for item in parsed.analysis
        ]
    return GuardRequest(query=query, draft=parsed.user_visible(), verified_evidence=snapshot)


def _readable(record: InvocationRecord, kinds: Kinds) -> bool:
    kind = kinds.get(record.tool_name)
    return kind is not None and kind.read(record.agent_result) is not None
