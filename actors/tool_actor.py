"""One Ray actor per evidence tool: the tool's concurrency limit holds across every caller in the cluster.

Ray's own ``max_concurrency`` queues excess calls silently, so the limit is a semaphore inside the actor and
the queue is an explicit count of waiters: a call that finds ``concurrency`` calls running and ``max-pending``
waiting gets TOOL_BUSY at once. Ray's ``max_concurrency`` is set to limit + queue + a few control slots so
waiting calls reach the actor (and can be counted and refused) and ``cancel`` is never stuck behind them.
Blocking tool code runs in a thread pool of exactly ``concurrency`` threads.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import ray
from ray.actor import ActorHandle

from actors.names import CONTROL_SLOTS, tool_actor_name
from actors.ray_metrics import RayToolMetrics, trace_export_failures
from config.runtime import TelemetrySettings
from config.tools import ToolRuntime
from contract.tool import SAFE_MESSAGES, TOOL_BUSY, EvidenceTool, failure_of, failure_raw
from harness.tracing import configure_tracing, failed_with, parent_context, span

CANCEL_GRACE_S = 5.0
"""After a cancel, how long the slot stays held while the tool's thread stops (e.g. KILL QUERY lands)."""


class ToolActor:
    """Runs calls of one tool under its concurrency limit; returns raw responses (Harness-only data)."""

    def __init__(
        self,
        tool_name: str,
        factory: Callable[[], EvidenceTool],
        runtime: ToolRuntime,
        telemetry: TelemetrySettings | None = None,
    ) -> None:
        component = f"tool-{tool_name}"
        configure_tracing(telemetry or TelemetrySettings(), component, trace_export_failures(component))
        self._name = tool_name
        self._tool = factory()
        self._limit = runtime.concurrency
        self._max_pending = runtime.max_pending
        self._threads = ThreadPoolExecutor(runtime.concurrency, thread_name_prefix=f"tool-{tool_name}")
        self._slots: asyncio.Semaphore | None = None
        self._in_flight = 0
        self._peak_in_flight = 0
        self._waiting = 0
        self._busy_rejections = 0
        self._completed = 0
        self._metrics = RayToolMetrics(tool_name)
        self._metrics.in_flight(0)

    async def execute(self, call_id: str, arguments: dict[str, Any], traceparent: str | None = None) -> dict[str, Any]:
        """One call; its span (a child of the supervisor's, ``traceparent``) covers the wait for a slot."""
        with span("tool execute", {"superbiz.tool": self._name}, parent=parent_context(traceparent)) as current:
            raw = await self._execute(call_id, arguments)
            failure = failure_of(raw)
            if failure is None:
                current.set_attribute("superbiz.outcome", "OK")
            else:
                failed_with(current, failure[0])
            return raw

    async def _execute(self, call_id: str, arguments: dict[str, Any]) -> dict[str, Any]:
        slots = self._semaphore()
        if slots.locked() and self._waiting >= self._max_pending:
            self._busy_rejections += 1
            self._metrics.busy()
            return failure_raw(TOOL_BUSY, SAFE_MESSAGES[TOOL_BUSY])
        self._waiting += 1
        try:
            await slots.acquire()
        finally:
            self._waiting -= 1
        self._in_flight += 1
        self._metrics.in_flight(self._in_flight)
        self._peak_in_flight = max(self._peak_in_flight, self._in_flight)
        try:
            return await self._run(call_id, arguments)
        finally:
            self._in_flight -= 1
            self._metrics.in_flight(self._in_flight)
            self._completed += 1
            slots.release()

    async def cancel(self, call_id: str) -> None:
        await asyncio.get_running_loop().run_in_executor(None, self._tool.cancel, call_id)

    async def stats(self) -> dict[str, Any]:
        return {
            "tool": self._name,
            "node_id": ray.get_runtime_context().get_node_id(),
            "limit": self._limit,
            "max_pending": self._max_pending,
            "in_flight": self._in_flight,
            "peak_in_flight": self._peak_in_flight,
            "waiting": self._waiting,
            "busy_rejections": self._busy_rejections,
            "completed": self._completed,
        }

    async def _run(self, call_id: str, arguments: dict[str, Any]) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        work = loop.run_in_executor(self._threads, self._tool.run, call_id, arguments)
        try:
            return await asyncio.shield(work)
        except asyncio.CancelledError:
            self._tool.cancel(call_id)
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(work), CANCEL_GRACE_S)
            raise

    def _semaphore(self) -> asyncio.Semaphore:
        if self._slots is None:
            self._slots = asyncio.Semaphore(self._limit)
        return self._slots


def tool_actor(
    tool_name: str,
    factory: Callable[[], EvidenceTool],
    runtime: ToolRuntime,
    namespace: str,
    max_restarts: int = -1,
    telemetry: TelemetrySettings | None = None,
) -> ActorHandle:
    """The cluster's actor for ``tool_name``, created on first use (``get_if_exists``).

    A dead tool actor is restarted, but a call it was running is never retried by Ray (``max_task_retries=0``):
    the Harness records a Tool ERROR and the agent decides whether to make a new call. Detached, so it does
    not die with the supervisor that happened to create it.
    """
    return (
        ray.remote(ToolActor)
        .options(
            name=tool_actor_name(tool_name),
            namespace=namespace,
            get_if_exists=True,
            lifetime="detached",
            max_concurrency=runtime.concurrency + runtime.max_pending + CONTROL_SLOTS,
            num_cpus=0,
            resources=dict(runtime.resources),
            max_restarts=max_restarts,
            max_task_retries=0,
        )
        .remote(tool_name, factory, runtime, telemetry)
    )
