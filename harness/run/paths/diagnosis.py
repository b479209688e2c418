"""DIAGNOSIS (§4.1–§4.4): the agent investigates, the EvidenceGuard checks its draft (with up to the configured
repairs), the reviews of ``REVIEWS`` judge it, and the report is released; at any refusal, the fixed fallback.

When the agent ends without a draft, the run decides from what its boundaries saw (``RunGateway.stop``): a budget
or the deadline that ran out, a model that failed, or neither (a Harness error).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from contract.vocabulary import EvidenceStatus
from harness import events, gate
from harness.errors import BudgetExhausted, InvocationStoreError, RetriesExhausted, RunCancelled, StoreUnavailable
from harness.execution import bounded
from harness.fallbacks import after_budget, after_evidence_check
from harness.gate import EvidenceCheck, failure_texts
from harness.invocation import InvocationRecord, ToolCallStatus
from harness.messages import AgentTask, GuardVerdict, PreviousTurn
from harness.reasons import ReasonFamily
from harness.release import reference_labels, report_payload
from harness.run.outcome import Outcome, fallback, harness_error, model_unavailable
from harness.run.reviews import semantic
from harness.run.scope import Scope
from harness.run_state import RunStatus
from harness.snapshot import Kinds, source_documents, verified_sources
from harness.tracing import span

log = logging.getLogger(__name__)

Review = Callable[[Scope, EvidenceCheck], Awaitable[Outcome]]
"""A review of a draft that passed the EvidenceGuard: a SUCCESS outcome passes it on (its verdict kept for the
record), any other ends the run with it."""

REVIEWS: tuple[Review, ...] = (semantic.review,)
"""What a checked draft goes through before release, in order: a new release step is a module of
:mod:`harness.run.reviews` and one entry here."""


async def answer(scope: Scope) -> Outcome:
    try:
        check = await _investigate(scope)
    except RunCancelled:
        raise
    except Exception as exc:  # the agent ended without a draft: decide from what the boundaries saw
        return await _agent_failed(scope, exc)
    finally:
        scope.services.agent.forget(scope.run_id)
    if not check.ok:
        chosen = after_evidence_check(failure.code for failure in check.failures)
        return fallback(scope.stream, scope.language, chosen, verified_sources(check.verified, scope.services.kinds))
    verdict: GuardVerdict | None = None
    for review in REVIEWS:
        reviewed = await review(scope, check)
        if reviewed.status is not RunStatus.SUCCESS:
            return reviewed
        verdict = reviewed.guard or verdict
    return _release(scope, check, verdict)


async def _investigate(scope: Scope) -> EvidenceCheck:
    """The agent's draft, checked, and repaired while the check fails (``retry.evidence-repair``)."""
    services, gateway = scope.services, scope.agent_gateway
    task = AgentTask(run_id=scope.run_id, query=scope.query, previous_turn=scope.previous, tools=services.openai_tools)
    agent_deadline = gateway.agent_deadline()
    policies = scope.ctx.retry_policies

    async def investigate(_attempt: int) -> str | None:
        remote = services.agent.investigate(task, gateway)
        return await bounded(scope.ctx, remote.result, deadline=agent_deadline, on_abort=remote.cancel)

    text = await scope.ctx.retry_executor().run("diagnosis_agent", policies.diagnosis_agent, investigate)
    scope.stream.status("EVIDENCE_VALIDATING")
    check = await _check(scope, text)
    for attempt in range(1, policies.evidence_repair.max_attempts + 1):
        if check.ok:
            break
        scope.stream.status("EVIDENCE_REPAIRING")
        with span("repair", {"superbiz.attempt": attempt}):
            remote = services.agent.repair(scope.run_id, failure_texts(check), gateway)
            text = await bounded(scope.ctx, remote.result, deadline=agent_deadline, on_abort=remote.cancel)
        check = await _check(scope, text)
    return check


async def _check(scope: Scope, text: str | None) -> EvidenceCheck:
    """The EvidenceGuard on a draft, its ``guard_check`` row and its span (the failure codes, never messages)."""
    with span("evidence guard") as current:
        try:
            records = await gate.fetch_cited(scope.services.store, scope.run_id, gate.cited_tool_call_ids(text))
        except StoreUnavailable:
            records = {}
        check = gate.check(gate.Report(text, records, scope.services.kinds, scope.query), scope.policy)
        failures = tuple((str(failure.code), failure.message) for failure in check.failures)
        scope.recorder.check("evidence", "PASS" if check.ok else "FAIL", scope.recorder.steps, failures)
        current.set_attributes(
            {
                "superbiz.outcome": "PASS" if check.ok else "FAIL",
                "superbiz.failure_codes": sorted({c for c, _ in failures}),
            }
        )
    return check


def _release(scope: Scope, check: EvidenceCheck, verdict: GuardVerdict | None) -> Outcome:
    assert check.draft is not None
    draft, kinds = check.draft, scope.services.kinds
    scope.stream.end(events.content("DIAGNOSIS_REPORT", report_payload(draft, check.verified, kinds)), "SUCCESS")
    published = PreviousTurn(
        user_query=scope.query,
        published_conclusion=draft.conclusion.text if draft.conclusion else None,
        scope=draft.limitations.scope,
        limitations=list(draft.limitations.missing_info),
        source_documents=source_documents(check.verified, kinds),
    )
    cited = [{"ref": label, "tool_call_id": call} for call, label in reference_labels(draft).items()]
    return Outcome(RunStatus.SUCCESS, published_result=published.model_dump(), guard=verdict, cited_tool_calls=cited)


async def _agent_failed(scope: Scope, error: BaseException) -> Outcome:
    stop = scope.agent_gateway.stop
    reason = stop.budget or (error.reason if isinstance(error, BudgetExhausted) else None)
    if reason is None and scope.ctx.deadline.expired:
        reason = "DEADLINE"
    if reason is not None:  # the evidence found is real and supports no report yet: say what ran out
        return fallback(scope.stream, scope.language, after_budget(reason), await _found_sources(scope))
    if stop.model_failure is not None:
        return model_unavailable(scope.stream, stop.model_failure)
    log.warning("agent ended without a draft", extra={"run_id": scope.run_id, "error": type(error).__name__})
    cause = error.last_kind if isinstance(error, RetriesExhausted) else type(error).__name__
    return harness_error(scope.stream, ReasonFamily.AGENT.of(cause))


async def _found_sources(scope: Scope) -> list[dict[str, str]]:
    """The sources of this run's calls that returned evidence, read from their canonical records: what a
    fallback may show when there is no checked draft (none when the store cannot be read)."""
    try:
        records = await gate.fetch_cited(scope.services.store, scope.run_id, scope.recorder.found)
    except InvocationStoreError:
        return []
    kinds = scope.services.kinds
    found = {
        call: record
        for call, record in records.items()
        if record is not None and record.run_id == scope.run_id and _returned_evidence(record, kinds)
    }
    return verified_sources(found, kinds)


def _returned_evidence(record: InvocationRecord, kinds: Kinds) -> bool:
    """Whether ``record`` is a READY call of an evidence kind that found evidence, with an agent_result of its kind."""
    kind = kinds.get(record.tool_name)
    return (
        kind is not None
        and record.status is ToolCallStatus.READY
        and record.evidence_status is EvidenceStatus.EVIDENCE_FOUND
        and isinstance(record.agent_result, dict)
        and kind.read(record.agent_result) is not None
    )
