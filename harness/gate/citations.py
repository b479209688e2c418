"""EvidenceGuard (ISS-014 §4.3): deterministic pre-release checks of a Draft against the run's tool calls.

No LLM, no semantics: it checks the Draft's shape, its internal references (analysis ids), that every cited
tool_call_id is a READY call of *this* run with an agent_result whose evidence status the analysis kind may
cite, and then the claim rules of :mod:`harness.claim_check` (values grounded in the cited evidence, no secret,
side effects confirmed, a report that says something). Every broken rule is collected, in draft order, so one
repair turn can fix them all. Failure messages name analysis ids, tool_call_ids and the draft's own tokens,
never record contents or a secret.

Whether an analysis correctly reads its evidence is the SemanticGuard's question, not this one's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from contract.vocabulary import EvidenceStatus
from harness.claim_check import ClaimPolicy, check_claims
from harness.draft import Draft, DraftRejected, parse_draft
from harness.draft_failures import EvidenceFailure, EvidenceFailureCode
from harness.errors import InvalidToolCallId, InvocationNotFound, UnknownRun
from harness.invocation_store import InvocationRecord, ToolCallStatus
from harness.snapshot import Kinds

Code = EvidenceFailureCode


@dataclass(frozen=True)
class EvidenceCheck:
    """The EvidenceGuard's result; the supervisor decides what happens next (repair, fallback or release)."""

    ok: bool
    failures: tuple[EvidenceFailure, ...]
    draft: Draft | None
    """The parsed draft, also when other rules failed; None when the text is not a Draft."""
    verified: Mapping[str, InvocationRecord] = field(default_factory=dict)
    """Cited records none of whose citations broke a rule, by tool_call_id, in first-citation order."""


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


def check_evidence(
    text: str | None,
    records: Mapping[str, InvocationRecord | None],
    *,
    kinds: Kinds,
    query: str,
    policy: ClaimPolicy,
    run_id: str | None = None,
) -> EvidenceCheck:
    """Every §4.3 rule and every claim rule (:mod:`harness.claim_check`) on ``text``; ``records`` come from
    :func:`fetch_cited` (a missing key counts as unknown); ``kinds`` are the run's evidence kinds, which read each
    result. ``query`` is the user's question (its tokens are grounded). ``run_id``, when given, is checked against
    each record as a second line of defence.
    """
    try:
        draft = parse_draft(text)
    except DraftRejected as exc:
        schema = tuple(EvidenceFailure(Code.DRAFT_SCHEMA, problem) for problem in exc.problems)
        return EvidenceCheck(ok=False, failures=schema, draft=None, verified={})
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
    evidence = {
        item.analysis_id: [
            verified[call].agent_result for call in dict.fromkeys(item.tool_call_ids) if call in verified
        ]
        for item in draft.analysis
    }
    failures.extend(check_claims(draft, evidence, query, policy, skip=failed_items | duplicated))
    return EvidenceCheck(ok=not failures, failures=tuple(failures), draft=draft, verified=verified)


def failure_texts(check: EvidenceCheck) -> list[str]:
    """One ``CODE: message`` line per failure, for the repair instruction."""
    return [f"{failure.code}: {failure.message}" for failure in check.failures]


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
