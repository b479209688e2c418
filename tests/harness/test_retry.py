"""The retry matrix and the one executor that applies it (seed §4.2)."""

from __future__ import annotations

import asyncio

import pytest

from config.harness import RetrySettings
from contract.clock import ManualClock
from harness.cancellation import CancellationToken
from harness.deadline import Deadline
from harness.errors import BudgetExhausted, OperationFailed, RetriesExhausted, RunCancelled
from harness.retry import AttemptLog, FailureKind, HarnessRetryExecutor, HarnessRetryPolicies

POLICIES = HarnessRetryPolicies.from_settings(RetrySettings())


def executor(clock: ManualClock | None = None) -> tuple[HarnessRetryExecutor, AttemptLog, CancellationToken]:
    clock = clock or ManualClock()
    log, token = AttemptLog(), CancellationToken()
    return HarnessRetryExecutor(log, clock, token, Deadline.after(clock, 60)), log, token


def test_fixed_matrix() -> None:
    attempts = {
        name: getattr(POLICIES, name).max_attempts
        for name in ("intent_router", "diagnosis_agent", "tool_call", "semantic_guard", "evidence_repair")
    }
    assert attempts == {
        "intent_router": 2,
        "diagnosis_agent": 1,
        "tool_call": 1,
        "semantic_guard": 2,
        "evidence_repair": 1,
    }
    assert POLICIES.intent_router.retryable_failures == set(FailureKind)
    assert POLICIES.semantic_guard.retryable_failures == set(FailureKind)
    assert POLICIES.tool_call.retryable_failures == frozenset()
    assert POLICIES.diagnosis_agent.retryable_failures == frozenset()


def test_config_may_lower_attempts() -> None:
    lowered = HarnessRetryPolicies.from_settings(RetrySettings.model_validate({"semantic-guard": {"max-attempts": 1}}))
    assert lowered.semantic_guard.max_attempts == 1


@pytest.mark.parametrize("kind", list(FailureKind))
async def test_technical_failure_is_retried_once(kind: FailureKind) -> None:
    run, log, _ = executor()
    calls: list[int] = []

    async def operation(attempt: int) -> str:
        calls.append(attempt)
        if attempt == 1:
            raise OperationFailed(kind)
        return "SUPPORTED"

    assert await run.run("semantic_guard", POLICIES.semantic_guard, operation) == "SUPPORTED"
    assert calls == [1, 2]
    assert [(a.number, a.outcome) for a in log.entries("semantic_guard")] == [(1, kind.value), (2, "OK")]


async def test_second_failure_exhausts() -> None:
    run, log, _ = executor()

    async def operation(attempt: int) -> str:
        raise OperationFailed(FailureKind.TIMEOUT)

    with pytest.raises(RetriesExhausted) as raised:
        await run.run("intent_router", POLICIES.intent_router, operation)
    assert (raised.value.attempts, raised.value.last_kind) == (2, "TIMEOUT")
    assert len(log.entries()) == 2


async def test_policy_without_retries_tries_once() -> None:
    run, _, _ = executor()
    calls = 0

    async def operation(attempt: int) -> str:
        nonlocal calls
        calls += 1
        raise OperationFailed(FailureKind.TRANSPORT)

    with pytest.raises(RetriesExhausted):
        await run.run("tool_call", POLICIES.tool_call, operation)
    assert calls == 1


async def test_unlisted_failure_kind_is_not_retried() -> None:
    run, _, _ = executor()
    calls = 0

    async def operation(attempt: int) -> str:
        nonlocal calls
        calls += 1
        raise OperationFailed("NO_EVIDENCE")

    with pytest.raises(RetriesExhausted):
        await run.run("semantic_guard", POLICIES.semantic_guard, operation)
    assert calls == 1


@pytest.mark.parametrize(
    "error", [BudgetExhausted("TOKENS"), RunCancelled("client"), asyncio.CancelledError(), KeyError("bug")]
)
async def test_cancellation_budget_and_bugs_are_never_retried(error: BaseException) -> None:
    run, log, _ = executor()
    calls = 0

    async def operation(attempt: int) -> str:
        nonlocal calls
        calls += 1
        raise error

    with pytest.raises(type(error)):
        await run.run("semantic_guard", POLICIES.semantic_guard, operation)
    assert calls == 1
    assert len(log.entries()) == 1


async def test_no_retry_after_cancellation() -> None:
    run, _, token = executor()
    calls = 0

    async def operation(attempt: int) -> str:
        nonlocal calls
        calls += 1
        token.cancel("client disconnected")
        raise OperationFailed(FailureKind.TIMEOUT)

    with pytest.raises(RunCancelled):
        await run.run("semantic_guard", POLICIES.semantic_guard, operation)
    assert calls == 1


async def test_no_retry_past_the_deadline() -> None:
    clock = ManualClock()
    run, _, _ = executor(clock)
    calls = 0

    async def operation(attempt: int) -> str:
        nonlocal calls
        calls += 1
        clock.advance(61)
        raise OperationFailed(FailureKind.TIMEOUT)

    with pytest.raises(BudgetExhausted) as raised:
        await run.run("semantic_guard", POLICIES.semantic_guard, operation)
    assert raised.value.reason == "DEADLINE"
    assert calls == 1
