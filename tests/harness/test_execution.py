"""Awaiting under a run's limits: the deadline, cancellation and an operation's own timeout stop the work."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from config.harness import HarnessSettings
from harness.errors import BudgetExhausted, OperationFailed, RunCancelled
from harness.execution import bounded, ensure_open
from harness.run_context import RunContext

FAST = HarnessSettings.model_validate(
    {
        "run": {"deadline": "400ms", "router-attempt-timeout": "50ms"},
        "agent": {"max-duration": "200ms", "max-model-calls": 2, "max-tool-calls": 2},
        "semantic-guard": {"attempt-timeout": "50ms", "total-timeout": "100ms"},
    }
)


class FakeModel:
    """Answers after ``delay_s``; records whether it was cancelled mid-call."""

    def __init__(self, delay_s: float = 0.0) -> None:
        self.delay_s = delay_s
        self.calls = 0
        self.cancelled = 0

    async def complete(self) -> dict[str, int]:
        self.calls += 1
        try:
            await asyncio.sleep(self.delay_s)
        except asyncio.CancelledError:
            self.cancelled += 1
            raise
        return {"input_tokens": 40, "output_tokens": 10}


def start() -> RunContext:
    return RunContext.start(FAST, session_id="s-1")


def test_run_context_is_immutable_and_explicit() -> None:
    ctx = RunContext.start(FAST, session_id="s-1", run_id="run-1")
    assert (ctx.session_id, ctx.run_id) == ("s-1", "run-1")
    with pytest.raises(dataclasses.FrozenInstanceError):
        ctx.run_id = "other"  # type: ignore[misc]
    assert ctx.retry_policies.semantic_guard.max_attempts == 2
    assert 0 < ctx.deadline.remaining_s() <= 0.4
    assert start().run_id != start().run_id


@pytest.mark.parametrize("bad", ["", "a:b", "x" * 65, "run id"])
def test_run_id_is_validated(bad: str) -> None:
    with pytest.raises(ValueError):
        RunContext.start(FAST, session_id="s", run_id=bad)


async def test_deadline_stops_a_slow_call_and_aborts_remote_work() -> None:
    ctx, model, aborted = start(), FakeModel(delay_s=5), []
    with pytest.raises(BudgetExhausted) as raised:
        await bounded(ctx, model.complete(), on_abort=lambda: aborted.append(True))
    assert raised.value.reason == "DEADLINE"
    assert model.cancelled == 1 and aborted == [True]
    assert ctx.budget.usage().exhausted_reason == "DEADLINE"
    with pytest.raises(BudgetExhausted):
        ensure_open(ctx)


async def test_cancellation_mid_call_stops_the_call() -> None:
    ctx, model, aborted = start(), FakeModel(delay_s=5), []
    call = asyncio.create_task(bounded(ctx, model.complete(), on_abort=lambda: aborted.append(1)))
    await asyncio.sleep(0.05)
    ctx.cancellation.cancel("CLIENT_DISCONNECTED")
    with pytest.raises(RunCancelled) as raised:
        await call
    assert raised.value.reason == "CLIENT_DISCONNECTED"
    assert model.cancelled == 1 and aborted == [1]
    with pytest.raises(RunCancelled):
        ensure_open(ctx)


async def test_cancelling_the_awaiting_task_stops_the_work() -> None:
    ctx, model, aborted = start(), FakeModel(delay_s=5), []
    call = asyncio.create_task(bounded(ctx, model.complete(), on_abort=lambda: aborted.append(1)))
    await asyncio.sleep(0.05)
    call.cancel()
    with pytest.raises(asyncio.CancelledError):
        await call
    assert model.cancelled == 1 and aborted == [1]


async def test_phase_deadline_is_never_later_than_the_run() -> None:
    ctx = start()
    assert ctx.deadline.within(60).expires_at == ctx.deadline.expires_at
    phase = ctx.deadline.within(0.05)
    with pytest.raises(BudgetExhausted):
        await bounded(ctx, FakeModel(delay_s=5).complete(), deadline=phase)


async def test_an_operation_timeout_is_not_the_run_deadline() -> None:
    ctx, model, aborted = start(), FakeModel(delay_s=5), []
    with pytest.raises(OperationFailed) as raised:
        await bounded(ctx, model.complete(), timeout_s=0.05, on_abort=lambda: aborted.append(1))
    assert raised.value.kind == "TIMEOUT"
    assert model.cancelled == 1 and aborted == [1]
    assert ctx.budget.usage().exhausted_reason is None
