"""``Recorder``: what the audit and the metrics keep of one run, and the one place its steps, tokens, tool calls
and guard decisions are counted.

Every row is written in the background (an audit write never changes what the user gets; a failed one is logged
without payloads); the finish record waits for them all, so it counts exactly the rows before it.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Awaitable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from contract.vocabulary import EvidenceStatus
from harness.audit import GuardCheck, ModelStep, RunFinished, RunStarted, ToolInvocation
from harness.messages import StartRun, Usage
from harness.run.outcome import Outcome
from harness.run.services import RunServices
from harness.run_context import RunContext
from harness.run_state import RunStatus
from harness.tracing import current_trace_id

log = logging.getLogger(__name__)

_REQUESTING_STEP: ContextVar[int | None] = ContextVar("requesting_step", default=None)
"""The step whose reply asked for the tool calls running in this context (set per turn, read by the audit)."""


@dataclass
class _RoleUsage:
    input_tokens: int = 0
    output_tokens: int = 0


class Recorder:
    def __init__(self, services: RunServices, ctx: RunContext, start: StartRun) -> None:
        self._services = services
        self._ctx = ctx
        self._session_id = start.session_id
        self._started = ctx.clock.monotonic()
        self._pending: list[asyncio.Task[None]] = []
        self._usage: dict[str, _RoleUsage] = {}
        self.steps = 0
        """Model attempts of any role so far (``agent_step`` rows, numbered from 1)."""
        self._tools = 0
        """Tool calls of any kind recorded for this run (the agent's and the Harness's own knowledge lookup)."""
        self.found: list[str] = []
        """The tool_call_ids of this run's calls that returned evidence, in the order they finished."""
        self._checks = 0
        """Guard decisions recorded for this run (``guard_check`` rows)."""

    @property
    def run_id(self) -> str:
        return self._ctx.run_id

    def started(self, start: StartRun) -> None:
        now = self._ctx.clock.now()
        row = RunStarted(self.run_id, start.session_id, start.principal, start.query, now, current_trace_id())
        self._write(self._services.audit.record(row))

    def next_step(self) -> int:
        self.steps += 1
        return self.steps

    @staticmethod
    @contextlib.contextmanager
    def requested_by(step: int) -> Iterator[None]:
        """The tool calls started in this block were asked for by ``step`` (each call's task copies it)."""
        requesting = _REQUESTING_STEP.set(step)
        try:
            yield
        finally:
            _REQUESTING_STEP.reset(requesting)

    def model_step(
        self,
        step: int,
        role: str,
        started: float,
        outcome: str,
        usage: Usage | None = None,
        has_tool_call: bool = False,
        attempt: int = 1,
    ) -> None:
        """One ``agent_step`` row per model attempt of any role, whatever its outcome (never a prompt); the
        tokens of a reply (``usage``) count for its role."""
        if usage is not None:
            totals = self._usage.setdefault(role, _RoleUsage())
            totals.input_tokens += usage.input_tokens
            totals.output_tokens += usage.output_tokens
        row = ModelStep(
            run_id=self.run_id,
            session_id=self._session_id,
            step_index=step,
            role=role,
            duration_ms=self._ms_since(started),
            input_tokens=usage.input_tokens if usage else 0,
            output_tokens=usage.output_tokens if usage else 0,
            has_tool_call=has_tool_call,
            outcome=outcome,
            attempt=attempt,
        )
        self._write(self._services.audit.record(row))
        self._services.metrics.model_call(role, str(outcome), row.input_tokens, row.output_tokens)

    def tool(self, row: ToolInvocation) -> None:
        """Called exactly once per tool call, however it ended: also the one place tool calls are counted."""
        self._tools += 1
        if row.success and row.evidence_status == EvidenceStatus.EVIDENCE_FOUND.value:
            self.found.append(row.tool_call_id)
        row = dataclasses.replace(row, step_index=_REQUESTING_STEP.get())
        tool = row.tool_name if row.tool_name in self._services.offered else "unknown_tool"
        self._services.metrics.tool_call(tool, "READY" if row.success else "ERROR", row.evidence_status)
        self._write(self._services.audit.record(row))

    def check(self, guard: str, verdict: str, step: int | None, failures: tuple[tuple[str, str], ...]) -> None:
        """One ``guard_check`` row per guard decision on the run's draft."""
        self._checks += 1
        row = GuardCheck(self.run_id, self._session_id, self._checks, guard, verdict, step, failures)
        self._write(self._services.audit.record(row))

    def guard_verdict(self, verdict: str, started: float) -> None:
        self._services.metrics.guard_verdict(verdict, self._ctx.clock.monotonic() - started)

    async def finish(self, outcome: Outcome, intent: str | None, released: dict[str, Any] | None) -> None:
        """The run's metrics and its finish record, once, after every row before it."""
        self._count_finish(outcome, intent)
        if self._pending:
            await asyncio.gather(*self._pending)
        totals = list(self._usage.values())
        record = RunFinished(
            run_id=self.run_id,
            session_id=self._session_id,
            intent=intent,
            status=outcome.status.value,
            fallback_type=outcome.fallback_type,
            fallback_reason=outcome.fallback_reason,
            published_result=outcome.published_result,
            model_calls=self.steps,
            input_tokens=sum(role.input_tokens for role in totals),
            output_tokens=sum(role.output_tokens for role in totals),
            tool_calls=self._tools,
            duration_ms=self._ms_since(self._started),
            finished_at=self._ctx.clock.now(),
            guard_verdict=outcome.guard.verdict if outcome.guard else None,
            guard_reason=outcome.guard.reason if outcome.guard else None,
            released_content=released,
            cited_tool_calls=outcome.cited_tool_calls if released is not None else None,
        )
        await self._audited(self._services.audit.record(record))
        log.info(
            "run finished",
            extra={
                "intent": record.intent,
                "outcome": record.status,
                "code": record.fallback_reason,
                "duration_ms": record.duration_ms,
            },
        )

    def _count_finish(self, outcome: Outcome, intent: str | None) -> None:
        """A budget counts by the first reason it ran out."""
        metrics = self._services.metrics
        if outcome.status is RunStatus.CANCELLED:
            metrics.cancelled()
        if outcome.fallback_type is not None:
            metrics.fallback(outcome.fallback_type)
        exhausted = self._ctx.budget.usage().exhausted_reason
        if exhausted is not None:
            metrics.budget_exhausted(exhausted)
        metrics.run_finished(intent or "UNROUTED", outcome.status.value, self._ctx.clock.monotonic() - self._started)

    def _ms_since(self, started: float) -> int:
        return int((self._ctx.clock.monotonic() - started) * 1000)

    def _write(self, write: Awaitable[None]) -> None:
        self._pending.append(asyncio.ensure_future(self._audited(write)))

    async def _audited(self, write: Awaitable[None]) -> None:
        try:
            await write
        except Exception as exc:
            log.error("audit write failed: %s", type(exc).__name__, extra={"run_id": self.run_id})
