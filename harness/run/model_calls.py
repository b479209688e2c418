"""``ModelCalls``: every model call of a run, of any role, and its ``agent_step`` row.

The Harness's own calls (router, system chat, knowledge), the agent's and the SemanticGuard's attempts all pass
through :meth:`ModelCalls._attempt`, the one place a call's end is mapped to its row:

=================================================  =============================================================
how the call ended                                 the row's ``outcome``
=================================================  =============================================================
a reply (a verdict, for the guard)                 ``OK``, or what the Harness will refuse in it
``OperationFailed``                                its failure kind (TIMEOUT, TRANSPORT, INVALID_OUTPUT)
``BudgetExhausted`` / ``RunCancelled``             the error's code
the task cancelled (run cancelled, out of time)    ``CANCELLED``
=================================================  =============================================================

The error goes on to the caller, who decides what to do with it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from harness.deadline import Deadline
from harness.errors import BudgetExhausted, OperationFailed, RunCancelled
from harness.execution import bounded, ensure_open
from harness.messages import ChatMessage, GuardAttempt, ModelReply, ModelRequest, Role, Usage
from harness.ports import ChatModel, Remote
from harness.run.recorder import Recorder
from harness.run_context import RunContext
from harness.tracing import failed_with, span

log = logging.getLogger(__name__)

T = TypeVar("T")

Refusal = Callable[[ModelReply], str | None]
"""What the Harness will refuse in a reply (the row's outcome then), None when it accepts it."""
Settled = tuple[str, Usage, bool]
"""What a returned call's row keeps: its outcome, its tokens, whether it asked for tools."""


class ModelCalls:
    def __init__(self, ctx: RunContext, model: ChatModel, recorder: Recorder, session_id: str) -> None:
        self._ctx = ctx
        self._model = model
        self._recorder = recorder
        self._session_id = session_id
        self.guard_step: int | None = None
        """The step of the SemanticGuard's latest attempt, None before its first."""

    async def ask(
        self,
        role: Role,
        messages: tuple[ChatMessage, ...],
        timeout_s: float,
        json_output: bool = False,
        attempt: int = 1,
        refusal: Refusal | None = None,
    ) -> ModelReply:
        """One of the Harness's own calls (router, system chat, knowledge), within the run's deadline."""
        ensure_open(self._ctx)
        request = ModelRequest(role=role, messages=messages, json_output=json_output)
        reply, _step = await self.complete(request, timeout_s, self._ctx.deadline, attempt, refusal)
        return reply

    async def complete(
        self,
        request: ModelRequest,
        timeout_s: float,
        deadline: Deadline,
        attempt: int = 1,
        refusal: Refusal | None = None,
    ) -> tuple[ModelReply, int]:
        """The model call and its step; the caller still decides what to do with a refused reply."""
        step = self._recorder.next_step()
        call = bounded(self._ctx, self._model.complete(request, timeout_s), deadline=deadline, timeout_s=timeout_s)

        def settled(reply: ModelReply) -> Settled:
            outcome = (refusal(reply) if refusal is not None else None) or "OK"
            return outcome, reply.usage, bool(reply.tool_calls)

        try:
            reply = await self._attempt(step, request.role, attempt, call, settled)
        except OperationFailed as failed:
            log.warning(
                "model call failed: %s %s",
                failed.kind,
                failed.detail,
                extra={"run_id": self._ctx.run_id, "session_id": self._session_id, "role": request.role},
            )
            raise
        return reply, step

    async def guard(self, remote: Remote[GuardAttempt], timeout_s: float, attempt: int) -> GuardAttempt:
        """One SemanticGuard attempt on a replica; a replica that died or could not be reached is a TRANSPORT
        failure (retried on another one)."""
        step = self._recorder.next_step()
        self.guard_step = step
        return await self._attempt(step, "guard", attempt, self._reached(remote, timeout_s), _settled_guard)

    async def _reached(self, remote: Remote[GuardAttempt], timeout_s: float) -> GuardAttempt:
        try:
            return await bounded(self._ctx, remote.result, timeout_s=timeout_s, on_abort=remote.cancel)
        except (OperationFailed, RunCancelled, BudgetExhausted):
            raise
        except Exception as exc:
            raise OperationFailed("TRANSPORT", type(exc).__name__) from None

    async def _attempt(
        self, step: int, role: str, attempt: int, call: Awaitable[T], settled: Callable[[T], Settled]
    ) -> T:
        """The one failure ladder: every way a call can end becomes its ``agent_step`` row and its span."""
        started = self._ctx.clock.monotonic()
        with span(model_span_name(role), {"superbiz.role": role, "superbiz.attempt": attempt}) as current:
            try:
                result = await call
            except OperationFailed as failed:
                self._recorder.model_step(step, role, started, str(failed.kind), attempt=attempt)
                failed_with(current, str(failed.kind))
                raise
            except (BudgetExhausted, RunCancelled) as stopped:
                self._recorder.model_step(step, role, started, stopped.code, attempt=attempt)
                failed_with(current, stopped.code)
                raise
            except asyncio.CancelledError:
                self._recorder.model_step(step, role, started, RunCancelled.code, attempt=attempt)
                failed_with(current, RunCancelled.code)
                raise
            outcome, usage, has_tool_call = settled(result)
            self._recorder.model_step(step, role, started, outcome, usage, has_tool_call, attempt)
            current.set_attributes(
                {"gen_ai.usage.input_tokens": usage.input_tokens, "gen_ai.usage.output_tokens": usage.output_tokens}
            )
            if isinstance(result, GuardAttempt) and result.verdict is not None:
                current.set_attribute("superbiz.verdict", result.verdict.verdict)
            if outcome == "OK":
                current.set_attribute("superbiz.outcome", outcome)
            else:
                failed_with(current, outcome)
            return result


def model_span_name(role: str) -> str:
    return "semantic guard" if role == "guard" else f"model call {role}"


def refused_by(parse: Callable[[str | None], object]) -> Refusal:
    """The refusal of a reply whose content ``parse`` rejects: the failure kind it raises."""

    def refused(reply: ModelReply) -> str | None:
        try:
            parse(reply.content)
        except OperationFailed as failed:
            return str(failed.kind)
        return None

    return refused


def _settled_guard(result: GuardAttempt) -> Settled:
    return ("OK" if result.verdict is not None else str(result.failure or "INVALID_OUTPUT")), result.usage, False
