"""Harness core with a fake model and tool: deadline, cancellation, budgets and one terminal state."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from config.schema import HarnessSettings
from harness.errors import BudgetExhausted, OperationFailed, RunCancelled
from harness.execution import bounded, guarded_model_call, guarded_tool_call, terminal_status
from harness.run_context import RunContext
from harness.run_state import RunStatus

FAST = HarnessSettings.model_validate(
    {
        "run": {"deadline": "400ms"},
        "agent": {"max-duration": "400ms", "max-model-calls": 2, "max-tool-calls": 2},
        "semantic-guard": {"attempt-timeout": "100ms", "total-timeout": "200ms"},
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


def tokens(reply: dict[str, int]) -> tuple[int, int]:
    return reply["input_tokens"], reply["output_tokens"]


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


async def test_model_boundary_charges_and_records_tokens() -> None:
    ctx, model = start(), FakeModel()
    await guarded_model_call(ctx, model.complete, tokens)
    usage = ctx.budget.usage()
    assert (usage.model_calls, usage.input_tokens, usage.output_tokens) == (1, 40, 10)


async def test_model_budget_stops_before_the_call() -> None:
    ctx, model = start(), FakeModel()
    await guarded_model_call(ctx, model.complete, tokens)
    await guarded_model_call(ctx, model.complete, tokens)
    with pytest.raises(BudgetExhausted) as raised:
        await guarded_model_call(ctx, model.complete, tokens)
    assert raised.value.reason == "MODEL_CALLS"
    assert model.calls == 2


async def test_tool_budget_stops_before_the_call() -> None:
    ctx, tool = start(), FakeModel()
    await guarded_tool_call(ctx, "query_logs", tool.complete)
    await guarded_tool_call(ctx, "query_logs", tool.complete)
    with pytest.raises(BudgetExhausted) as raised:
        await guarded_tool_call(ctx, "query_mysql", tool.complete)
    assert raised.value.reason == "TOOL_CALLS"
    assert tool.calls == 2


async def test_deadline_stops_a_slow_call_and_aborts_remote_work() -> None:
    ctx, model, aborted = start(), FakeModel(delay_s=5), []
    with pytest.raises(BudgetExhausted) as raised:
        await guarded_model_call(ctx, model.complete, tokens, on_abort=lambda: aborted.append(True))
    assert raised.value.reason == "DEADLINE"
    assert model.cancelled == 1 and aborted == [True]
    assert ctx.budget.usage().exhausted_reason == "DEADLINE"
    with pytest.raises(BudgetExhausted):
        await guarded_model_call(ctx, model.complete, tokens)
    assert model.calls == 1


async def test_cancellation_mid_call_stops_the_call() -> None:
    ctx, model, aborted = start(), FakeModel(delay_s=5), []
    call = asyncio.create_task(guarded_model_call(ctx, model.complete, tokens, on_abort=lambda: aborted.append(1)))
    await asyncio.sleep(0.05)
    ctx.cancellation.cancel("CLIENT_DISCONNECTED")
    with pytest.raises(RunCancelled) as raised:
        await call
    assert raised.value.reason == "CLIENT_DISCONNECTED"
    assert model.cancelled == 1 and aborted == [1]
    with pytest.raises(RunCancelled):
        await guarded_tool_call(ctx, "query_logs", model.complete)
    assert model.calls == 1


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


@pytest.mark.parametrize(
    ("error", "fallback", "expected"),
    [
        (None, False, RunStatus.SUCCESS),
        (None, True, RunStatus.FALLBACK),
        (BudgetExhausted("TOKENS"), False, RunStatus.FALLBACK),
        (BudgetExhausted("DEADLINE"), False, RunStatus.FALLBACK),
        (RunCancelled("CLIENT_DISCONNECTED"), False, RunStatus.CANCELLED),
        (asyncio.CancelledError(), False, RunStatus.CANCELLED),
        (RuntimeError("bug"), False, RunStatus.FAILED),
    ],
)
def test_each_ending_has_one_terminal_state(error: BaseException | None, fallback: bool, expected: RunStatus) -> None:
    assert terminal_status(error, fallback) is expected


async def test_run_with_fake_model_and_tool_ends_exactly_once() -> None:
    """A scripted run: model, tool, model, then the model budget; the run ends FALLBACK once."""
    ctx, model, tool = start(), FakeModel(), FakeModel()
    error: BaseException | None = None
    try:
        await guarded_model_call(ctx, model.complete, tokens)
        await guarded_tool_call(ctx, "query_logs", tool.complete)
        await guarded_model_call(ctx, model.complete, tokens)
        await guarded_model_call(ctx, model.complete, tokens)
    except BudgetExhausted as exc:
        error = exc
    ctx.lifecycle.finish(terminal_status(error))
    assert ctx.lifecycle.status is RunStatus.FALLBACK
    usage = ctx.budget.usage()
    assert (usage.model_calls, usage.tool_calls, usage.total_tokens, usage.exhausted_reason) == (
        2,
        1,
        100,
        "MODEL_CALLS",
    )


async def test_an_operation_timeout_is_not_the_run_deadline() -> None:
    ctx, model, aborted = start(), FakeModel(delay_s=5), []
    with pytest.raises(OperationFailed) as raised:
        await bounded(ctx, model.complete(), timeout_s=0.05, on_abort=lambda: aborted.append(1))
    assert raised.value.kind == "TIMEOUT"
    assert model.cancelled == 1 and aborted == [1]
    assert ctx.budget.usage().exhausted_reason is None
