"""``Run``: one run, start to terminal state: route, then the intent's path (``PATHS``), then finish.

It pushes ``RunEvent``s to ``events`` in the fixed order and ends in exactly one terminal state; the agent calls
back into its ``agent_gateway``. It never raises for the run's own failures.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from opentelemetry.trace import Span

from harness import events
from harness.errors import RetriesExhausted, RunCancelled
from harness.intents import Intent
from harness.language import language_of
from harness.messages import RunEvent, StartRun
from harness.reasons import Reason
from harness.run.agent_gateway import RunGateway
from harness.run.model_calls import ModelCalls
from harness.run.outcome import Outcome, failed, harness_error
from harness.run.paths import diagnosis, knowledge, system_chat
from harness.run.recorder import Recorder
from harness.run.routing import History, route, session_history
from harness.run.scope import Scope
from harness.run.services import RunServices
from harness.run.stream import RunStream
from harness.run_context import RunContext
from harness.run_state import RunStatus
from harness.structured_logging import bound
from harness.tool_boundary import ToolBoundary
from harness.tracing import current_trace_id, failed_with, parent_context, span

log = logging.getLogger(__name__)

Path = Callable[[Scope], Awaitable[Outcome]]

PATHS: Mapping[Intent, Path] = {
    "SYSTEM_CHAT": system_chat.answer,
    "KNOWLEDGE_QUERY": knowledge.answer,
    "DIAGNOSIS": diagnosis.answer,
}
"""Each intent's path (:mod:`harness.run.paths`)."""


class Run:
    def __init__(self, services: RunServices, start: StartRun, announced: bool = False) -> None:
        """``announced``: the caller already sent this run's metadata event (with ``start.run_id``)."""
        self._services = services
        self._start = start
        self._announced = announced
        self.ctx = RunContext.start(services.config.harness, start.session_id, start.run_id, services.clock)
        self.language = language_of(start.query)
        """The question's language: the model is asked to answer in it, and the fixed texts are its own."""
        self._stream = RunStream(self.ctx.cancellation, announced)
        self.events: asyncio.Queue[RunEvent] = self._stream.events
        self._recorder = Recorder(services, self.ctx, start)
        self._calls = ModelCalls(self.ctx, services.model, self._recorder, start.session_id)
        self._tools = ToolBoundary(
            self.ctx, services.store, services.tools, services.offered, self._tool_status, self._recorder.tool
        )
        self.agent_gateway = RunGateway(
            services, self.ctx, self._stream, self._recorder, self._calls, self._tools, self.language
        )
        """What this run's agent calls back into (``model``, ``turn``, ``plan``)."""
        self._intent: Intent | None = None
        self.span: Span | None = None
        """The run's span while it executes: the agent's calls back into the run re-enter it (``within``)."""

    @property
    def run_id(self) -> str:
        return self.ctx.run_id

    def cancel(self, reason: str) -> None:
        self.ctx.cancellation.cancel(reason)

    async def execute(self) -> RunStatus:
        """Run to one terminal state; never raises for the run's own failures. Its span is a child of the
        request's (``StartRun.traceparent``), or the root of a new trace."""
        attributes = {"superbiz.run_id": self.run_id, "superbiz.session_id": self._start.session_id}
        with span("run", attributes, parent=parent_context(self._start.traceparent)) as current:
            self.span = current
            with bound(self._start.session_id, self.run_id):
                return await self._execute()

    async def _execute(self) -> RunStatus:
        start = self._start
        if not self._announced:
            trace_id = current_trace_id()
            self._stream.emit(
                events.metadata(start.session_id, self.run_id, model=self._services.model.label, trace_id=trace_id)
            )
        log.info("run started", extra={"principal": start.principal})
        self._recorder.started(start)
        # Both reads of the session's earlier turns start at once, beside the write: none waits for another.
        history = asyncio.ensure_future(session_history(self._services.audit, start.session_id, self.run_id))
        outcome: Outcome
        try:
            outcome = await self._route_and_answer(history)
        except (RunCancelled, asyncio.CancelledError):
            outcome = self._stopped()
        except Exception:
            log.exception("run failed", extra={"run_id": self.run_id, "session_id": start.session_id})
            outcome = harness_error(self._stream)
        finally:
            history.cancel()
        self.ctx.lifecycle.finish(outcome.status)
        released = self._stream.released
        with span("release", _release_attributes(outcome, self._intent, released)):
            await self._recorder.finish(outcome, self._intent, released)
        return outcome.status

    async def _route_and_answer(self, history: asyncio.Future[History]) -> Outcome:
        self.ctx.cancellation.raise_if_cancelled()  # cancelled before it started (while QUEUED): nothing runs
        self._stream.status("ROUTING")
        earlier = await history
        with span("routing") as routing:
            try:
                self._intent = await route(self.ctx, self._services, self._calls, self._start.query, earlier)
            except RetriesExhausted:
                failed_with(routing, Reason.ROUTING_UNAVAILABLE)
                return failed(self._stream, "ROUTING_UNAVAILABLE", Reason.ROUTING_UNAVAILABLE)
            routing.set_attribute("superbiz.intent", self._intent)
        self._stream.status("ROUTED", intent=self._intent)
        return await PATHS[self._intent](self._scope(earlier))

    def _scope(self, earlier: History) -> Scope:
        return Scope(
            query=self._start.query,
            language=self.language,
            previous=earlier.previous,
            ctx=self.ctx,
            services=self._services,
            stream=self._stream,
            recorder=self._recorder,
            calls=self._calls,
            tools=self._tools,
            agent_gateway=self.agent_gateway,
        )

    def _tool_status(self, code: str, details: dict[str, Any]) -> None:
        self._stream.status(code, **details)

    def _stopped(self) -> Outcome:
        """A run its client left is CANCELLED. One stopped by its gateway's shutdown is FAILED for
        SERVICE_STOPPING: the gateway ended its stream with ``failure(SERVICE_STOPPING)`` + ``done(FAILED)``, and
        the record says what the user was told."""
        if self.ctx.cancellation.reason == events.SERVICE_STOPPING:
            return Outcome(RunStatus.FAILED, fallback_reason=events.SERVICE_STOPPING)
        return Outcome(RunStatus.CANCELLED)


def _release_attributes(outcome: Outcome, intent: Intent | None, released: dict[str, Any] | None) -> dict[str, str]:
    """What the release span says: the outcome, the content type released and the fallback type, if any."""
    attributes = {"superbiz.outcome": outcome.status.value, "superbiz.intent": intent or ""}
    if released is not None and isinstance(released.get("content_type"), str):
        attributes["superbiz.content_type"] = released["content_type"]
    if outcome.fallback_type is not None:
        attributes["superbiz.fallback_type"] = outcome.fallback_type
    if outcome.fallback_reason is not None:
        attributes["superbiz.fallback_reason"] = outcome.fallback_reason
    return attributes
