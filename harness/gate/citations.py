"""The citation rules (ISS-014 §4.3): every cited tool_call_id is a READY call of *this* run with an agent_result
whose evidence status the analysis kind may cite, and every part of the report rests on its own analyses.

No LLM, no semantics: whether an analysis correctly reads its evidence is the SemanticGuard's question. Failure
messages name analysis ids and tool_call_ids, never record contents.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

from contract.vocabulary import EvidenceStatus
from harness.draft import Draft, DraftRejected, parse_draft
from harness.errors import InvalidToolCallId, InvocationNotFound, UnknownRun
from harness.gate.failures import EvidenceFailure, EvidenceFailureCode
from harness.invocation import InvocationRecord, ToolCallStatus
from harness.snapshot import Kinds

Code = EvidenceFailureCode


class RecordReader(Protocol):
    async def get(self, run_id: str, tool_call_id: str) -> InvocationRecord: ...


async def fetch_cited(
    store: RecordReader, run_id: str, tool_call_ids: Iterable[str]
) -> dict[str, InvocationRecord | None]:
    """The record of each cited id in ``run_id`` (never the raw response), None when it is not a call of this run.

    ``StoreUnavailable`` (and any other store error) propagates: the caller turns it into a fallback.
    """
    ids = list(dict.fromkeys(tool_call_ids))
    results = await asyncio.gather(*(store.get(run_id, call) for call in ids), return_exceptions=True)
    records: dict[str, InvocationRecord | None] = {}
    for call, result in zip(ids, results, strict=True):
        if isinstance(result, InvocationNotFound | UnknownRun | InvalidToolCallId):
            records[call] = None
        elif isinstance(result, BaseException):
            raise result
        else:
            records[call] = result
    return records


def cited_tool_call_ids(text: str | None) -> list[str]:
    """The tool_call_ids to fetch for ``text``, in first-citation order; empty when it is not a Draft."""
    try:
        return parse_draft(text).cited_tool_call_ids()
    except DraftRejected:
        return []


@dataclass(frozen=True)
class Citations:
    """The citation rules' verdict on a draft: their failures, the records they verified, and the items whose
    citations broke (the claim rules skip those: their failures are already named)."""

    failures: tuple[EvidenceFailure, ...]
    verified: Mapping[str, InvocationRecord]
    broken_items: frozenset[str]


def check_citations(
    draft: Draft,
    records: Mapping[str, InvocationRecord | None],
    kinds: Kinds,
    run_id: str | None = None,
) -> Citations:
    """Every §4.3 rule on ``draft``: unique analysis ids, each citing at least one READY call of this run whose
    evidence status its kind may cite; the conclusion, actions and recommendations resting on its analyses.
    ``records`` come from :func:`fetch_cited` (a missing key counts as unknown); ``run_id``, when given, is
    checked against each record as a second line of defence."""
    failures: list[EvidenceFailure] = []
    broken: set[str] = set()
    seen: set[str] = set()
    duplicated: set[str] = set()
    failed_items: set[str] = set()
    for item in draft.analysis:
        if item.analysis_id in seen and item.analysis_id not in duplicated:
            duplicated.add(item.analysis_id)
            failures.append(
                EvidenceFailure(Code.DUPLICATE_ANALYSIS_ID, f"analysis_id {item.analysis_id} is used more than once")
            )
        seen.add(item.analysis_id)
        if not item.tool_call_ids:
            failures.append(
                EvidenceFailure(Code.EMPTY_TOOL_CALL_IDS, f"analysis {item.analysis_id} cites no tool_call_id")
            )
            failed_items.add(item.analysis_id)
        for call in dict.fromkeys(item.tool_call_ids):
            failure = _citation_failure(item.analysis_id, item.kind, call, records.get(call), run_id, kinds)
            if failure is not None:
                failures.append(failure)
                broken.add(call)
                failed_items.add(item.analysis_id)
    failures.extend(reference_failures(draft))
    verified = {
        call: record
        for call in draft.cited_tool_call_ids()
        if call not in broken and (record := records.get(call)) is not None
    }
    return Citations(tuple(failures), verified, frozenset(failed_items | duplicated))


def _citation_failure(
    analysis_id: str, kind: str, call: str, record: InvocationRecord | None, run_id: str | None, kinds: Kinds
) -> EvidenceFailure | None:
    where = f"analysis {analysis_id} cites tool_call_id {call}"
    evidence_kind = kinds.get(record.tool_name) if record is not None else None
    if (
        record is None
        or evidence_kind is None
        or record.tool_call_id != call
        or (run_id is not None and record.run_id != run_id)
    ):
        return EvidenceFailure(Code.UNKNOWN_TOOL_CALL, f"{where}, which is not an evidence tool call of this run")
    if record.status is ToolCallStatus.PROJECTING:
        return EvidenceFailure(Code.TOOL_CALL_NOT_READY, f"{where}, whose result is not ready")
    if (
        record.status is not ToolCallStatus.READY
        or record.evidence_status is None
        or record.evidence_status is EvidenceStatus.ERROR
    ):
        return EvidenceFailure(Code.TOOL_CALL_FAILED, f"{where}, which failed and cannot be cited")
    if not isinstance(record.agent_result, dict):
        return EvidenceFailure(Code.MISSING_AGENT_RESULT, f"{where}, which has no agent_result")
    result = evidence_kind.read(record.agent_result)
    if record.evidence_status is EvidenceStatus.NO_EVIDENCE:
        if kind != "NEGATIVE_OBSERVATION":
            return EvidenceFailure(
                Code.NORMAL_CITES_NO_EVIDENCE,
                f"{where}, which found no evidence; only a NEGATIVE_OBSERVATION may cite it",
            )
        if result is None or not evidence_kind.scope(result).complete:
            return EvidenceFailure(
                Code.NEGATIVE_OBSERVATION_WITHOUT_SCOPE,
                f"{where}, whose result does not state the query, range and zero matches",
            )
    if result is None:
        return EvidenceFailure(Code.MISSING_AGENT_RESULT, f"{where}, whose agent_result is not one of its tool")
    return None


def reference_failures(draft: Draft) -> list[EvidenceFailure]:
    """The conclusion, actions and recommendations must rest on analyses of this draft (§4.3)."""
    analysis_ids = {item.analysis_id for item in draft.analysis}
    failures: list[EvidenceFailure] = []

    def check(where: str, ids: list[str], empty_code: Code) -> None:
        if not ids:
            failures.append(EvidenceFailure(empty_code, f"{where} has no based_on_analysis_ids"))
        for unknown in dict.fromkeys(ident for ident in ids if ident not in analysis_ids):
            failures.append(
                EvidenceFailure(Code.UNKNOWN_ANALYSIS_ID, f"{where} is based on unknown analysis {unknown}")
            )

    if draft.conclusion is not None:
        check("conclusion", draft.conclusion.based_on_analysis_ids, Code.CONCLUSION_WITHOUT_ANALYSIS)
    for index, action in enumerate(draft.action_plan):
        check(f"action_plan[{index}]", action.based_on_analysis_ids, Code.ACTION_WITHOUT_ANALYSIS)
    for index, recommendation in enumerate(draft.recommendations):
        check(f"recommendations[{index}]", recommendation.based_on_analysis_ids, Code.RECOMMENDATION_WITHOUT_ANALYSIS)
    return failures
