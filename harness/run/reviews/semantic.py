"""The SemanticGuard's review (§4.4): an isolated replica judges whether the verified evidence supports the draft.

Its input is bounded (``semantic-guard.max-input-bytes``): the draft in full and the snapshot, or, when that is over
the bound, a view of it cut to what the report cites (:mod:`harness.guard_view`); only a draft over the bound by
itself is not reviewed (GUARD_INPUT_TOO_LARGE). The input may hold no tool_call_id; each attempt gets at most
``attempt-timeout`` of the guard's ``total-timeout``, and a failed attempt is retried on another replica
(``retry.semantic-guard``). No verdict, or UNSUPPORTED, is the fixed fallback with the verified sources.
"""

from __future__ import annotations

import logging

from pydantic import ValidationError

from harness.errors import BudgetExhausted, OperationFailed, RetriesExhausted
from harness.fallbacks import GUARD_UNSUPPORTED, guard_unavailable
from harness.gate import EvidenceCheck
from harness.guard_view import guard_view
from harness.messages import GuardRequest, GuardVerdict
from harness.reasons import Reason, ReasonFamily
from harness.run.outcome import Outcome, fallback
from harness.run.scope import Scope
from harness.run_state import RunStatus
from harness.snapshot import verified_sources

log = logging.getLogger(__name__)


async def review(scope: Scope, check: EvidenceCheck) -> Outcome:
    assert check.draft is not None
    draft, config, kinds = check.draft, scope.config.harness.semantic_guard, scope.services.kinds
    sources = verified_sources(check.verified, kinds)
    view = guard_view(scope.query, draft, check.verified, kinds, config.max_input_bytes)
    if view is None:
        too_large = ((Reason.GUARD_INPUT_TOO_LARGE, "the draft by itself is over the input limit"),)
        return _unavailable(scope, Reason.GUARD_INPUT_TOO_LARGE, too_large, None, sources)
    if view.omitted:
        log.info("guard input bounded: %d of %d evidence items shown", view.shown, view.shown + view.omitted)
    try:
        request = GuardRequest(
            query=scope.query, draft=draft.user_visible(), verified_evidence=view.evidence, language=scope.language
        )
    except ValidationError:
        invalid = ((Reason.GUARD_INPUT_INVALID, "input not valid"),)
        return _unavailable(scope, Reason.GUARD_INPUT_INVALID, invalid, None, sources)
    scope.stream.status("SEMANTIC_VALIDATING")
    started = scope.ctx.clock.monotonic()
    try:
        verdict = await _verdict(scope, request)
    except RetriesExhausted as exhausted:
        scope.recorder.guard_verdict("UNAVAILABLE", started)
        message = f"no valid verdict after {exhausted.attempts} attempt(s)"
        failures = ((str(exhausted.last_kind), message),)
        reason = ReasonFamily.GUARD.of(exhausted.last_kind)
        return _unavailable(scope, reason, failures, scope.calls.guard_step, sources)
    except BudgetExhausted as exhausted:  # the run's deadline clipped the guard: a guard timeout (§4.4, §10.3)
        scope.recorder.guard_verdict("UNAVAILABLE", started)
        failures = ((exhausted.reason, "the run's deadline passed before a verdict"),)
        reason = ReasonFamily.GUARD.of(exhausted.reason)
        return _unavailable(scope, reason, failures, scope.calls.guard_step, sources)
    scope.recorder.guard_verdict(verdict.verdict, started)
    failures = () if verdict.verdict == "SUPPORTED" else (("UNSUPPORTED", verdict.reason),)
    scope.recorder.check("semantic", verdict.verdict, scope.calls.guard_step, failures)
    if verdict.verdict != "SUPPORTED":
        outcome = fallback(scope.stream, scope.language, GUARD_UNSUPPORTED, sources)
        outcome.guard = verdict
        return outcome
    return Outcome(RunStatus.SUCCESS, guard=verdict)


def _unavailable(
    scope: Scope, reason: str, failures: tuple[tuple[str, str], ...], step: int | None, sources: list[dict[str, str]]
) -> Outcome:
    """No verdict: its ``guard_check`` row (``step``: the guard's latest attempt, None before any) and the fixed
    fallback."""
    scope.recorder.check("semantic", "UNAVAILABLE", step, failures)
    return fallback(scope.stream, scope.language, guard_unavailable(reason), sources)


async def _verdict(scope: Scope, request: GuardRequest) -> GuardVerdict:
    """The verdict of the first attempt that gives one; ``RetriesExhausted`` when none did."""
    config = scope.config.harness.semantic_guard
    total = scope.ctx.deadline.within(config.total_timeout)

    async def attempt(number: int) -> GuardVerdict:
        timeout_s = min(config.attempt_timeout, total.remaining_s())
        if timeout_s <= 0:
            raise OperationFailed("TIMEOUT", "guard total time used up")
        remote = scope.services.guard.evaluate(request, number, timeout_s)
        result = await scope.calls.guard(remote, timeout_s, number)
        if result.verdict is None:
            raise OperationFailed(result.failure or "INVALID_OUTPUT", f"replica {result.replica}")
        return result.verdict

    return await scope.ctx.retry_executor().run("semantic_guard", scope.ctx.retry_policies.semantic_guard, attempt)
