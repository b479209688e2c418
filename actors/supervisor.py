"""RunSupervisor actor: owns its runs (``harness.run.flow.Run``) and hands out their events.

It is the only actor that talks to the model endpoint, the invocation store, the tool actors and the guard
pool for a run; the agent reaches the model and the tools through ``model_call`` / ``turn`` here (one message
per turn: its model call and the tool calls of the reply). A gateway opens a run (``open``) for one of its
readers, which polls the events of all its runs at once (``poll``), and closes a run whose client stopped
reading (``close``); a reader that neither polls nor closes for ``ray.client-lease`` is gone. Either way the
run is cancelled: the agent's task, its in-flight model request, its tool calls (a running MySQL query is
killed) and the guard request.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Mapping, Sequence
from typing import Any

import ray
from ray.actor import ActorHandle

from actors.model_factory import build_model
from actors.names import pick
from actors.ray_metrics import RayRunMetrics, trace_export_failures
from actors.tool_actor import tool_actor
from config.app import AppConfig
from contract.clock import SystemClock
from contract.kind import EvidenceKind
from harness import events
from harness.audit import AuditSink
from harness.messages import AgentTask, GuardAttempt, GuardRequest, ModelReply, ModelRequest, RunEvent, StartRun, Turn
from harness.ports import AgentGateway, Remote
from harness.run.flow import Run
from harness.run.services import RunServices
from harness.run_context import new_run_id
from harness.run_feed import FeedHub, RunFeed
from harness.structured_logging import bound, configure_logging
from harness.tracing import configure_tracing, within
from stores.audit.store import SqlAuditStore
from stores.invocation_store import InvocationStore
from stores.redis_client import connect_redis
from tools.registry import configured_kinds

log = logging.getLogger(__name__)

STOP_GRACE_S = 10.0
"""After a cancel, how long the supervisor waits for the run to record CANCELLED before giving up."""
REAP_INTERVAL_S = 1.0
FORGET_FLUSH_S = 5.0


def _remote(ref: Any) -> Remote[Any]:
    return Remote(result=ref, cancel=functools.partial(ray.cancel, ref))


class RayToolPort:
    def __init__(self, config: AppConfig, kinds: Mapping[str, EvidenceKind]) -> None:
        runtimes = config.tools.entries()
        self._actors = {
            name: tool_actor(
                name,
                functools.partial(kind.build, config, SystemClock()),
                runtimes[name],
                config.ray.namespace,
                config.ray.max_restarts,
                config.telemetry,
            )
            for name, kind in kinds.items()
        }

    def start(
        self, tool_name: str, call_id: str, arguments: dict[str, Any], traceparent: str | None = None
    ) -> Remote[dict[str, Any]]:
        return _remote(self._actors[tool_name].execute.remote(call_id, arguments, traceparent))


class RayAgentPort:
    """Runs go to the agent actors by run id. A finished run's conversation is forgotten on the agent's next
    ``investigate`` (one message fewer per run), or after ``FORGET_FLUSH_S`` when no run follows."""

    def __init__(self, agents: Sequence[ActorHandle], supervisor: ActorHandle) -> None:
        self._agents = list(agents)
        self._supervisor = supervisor
        self._finished: dict[int, list[str]] = {}
        self._flush: asyncio.TimerHandle | None = None

    def _index(self, run_id: str) -> int:
        return pick(run_id, len(self._agents))

    def investigate(self, task: AgentTask, gateway: AgentGateway) -> Remote[str | None]:
        index = self._index(task.run_id)
        forget = self._finished.pop(index, [])
        return _remote(self._agents[index].investigate.remote(task, self._supervisor, forget))

    def repair(self, run_id: str, failures: Sequence[str], gateway: AgentGateway) -> Remote[str | None]:
        return _remote(self._agents[self._index(run_id)].repair.remote(run_id, list(failures), self._supervisor))

    def forget(self, run_id: str) -> None:
        self._finished.setdefault(self._index(run_id), []).append(run_id)
        if self._flush is None:
            self._flush = asyncio.get_running_loop().call_later(FORGET_FLUSH_S, self._forget_now)

    def _forget_now(self) -> None:
        self._flush = None
        finished, self._finished = self._finished, {}
        for index, run_ids in finished.items():
            self._agents[index].forget.remote(run_ids)


class RayGuardPort:
    def __init__(self, guards: Sequence[ActorHandle]) -> None:
        self._guards = list(guards)

    def evaluate(self, request: GuardRequest, attempt: int, timeout_s: float) -> Remote[GuardAttempt]:
        replica = self._guards[pick(request.query, len(self._guards), attempt - 1)]
        return _remote(replica.evaluate.remote(request, timeout_s))


def _audit_store(config: AppConfig) -> SqlAuditStore:
    store = SqlAuditStore(config.audit)
    store.init_schema()
    return store


class RunSupervisor:
    def __init__(
        self,
        name: str,
        config: AppConfig,
        agents: Sequence[ActorHandle],
        guards: Sequence[ActorHandle],
        audit: AuditSink | None = None,
    ) -> None:
        self._name = name
        self._config = config
        self._digest = config.runtime_digest()
        configure_logging()
        configure_tracing(config.telemetry, "supervisor", trace_export_failures("supervisor"))
        self._redis = connect_redis(config.redis)
        me = ray.get_runtime_context().current_actor
        kinds = configured_kinds(config)
        self._services = RunServices(
            config=config,
            kinds=kinds,
            store=InvocationStore(self._redis, config.harness.evidence),
            model=build_model(config.model),
            tools=RayToolPort(config, kinds),
            agent=RayAgentPort(agents, me),
            guard=RayGuardPort(guards),
            audit=audit or _audit_store(config),
            clock=SystemClock(),
            metrics=RayRunMetrics(list(kinds)),
        )
        self._runs: dict[str, Run] = {}
        self._feeds = FeedHub(config.ray.client_lease, config.ray.event_linger)
        self._drivers: dict[str, asyncio.Future[None]] = {}
        self._stopping: dict[str, str] = {}
        """Why a run that is still QUEUED was stopped, for its record."""
        self._reaper: asyncio.Future[None] | None = None
        self._slots = asyncio.Semaphore(config.ray.max_active_runs)

    async def open(self, start: StartRun, reader: str) -> None:
        """Start a run whose events ``reader`` will poll for (its metadata event is the caller's to send).

        The run itself starts when one of ``max-active-runs`` slots is free (its deadline starts then); until
        then its feed holds QUEUED.
        """
        run_id = start.run_id or new_run_id()
        start = start.model_copy(update={"run_id": run_id})
        feed = self._feeds.open(reader, run_id)
        if self._slots.locked():
            feed.append(events.status("QUEUED"))
        self._drivers[run_id] = asyncio.ensure_future(self._drive(start, feed))
        if self._reaper is None:
            self._reaper = asyncio.ensure_future(self._reap())

    async def poll(self, reader: str, following: list[str], wait_s: float) -> dict[str, list[RunEvent] | None]:
        """The new events of every run ``reader`` opened here (``FeedHub.poll``)."""
        return await self._feeds.poll(reader, following, wait_s)

    async def close(self, run_id: str, reason: str = "CLIENT_DISCONNECTED") -> None:
        """The client stopped reading: cancel the run (recorded CANCELLED). A gateway that shuts down passes
        ``SERVICE_STOPPING``: the run is recorded FAILED for it, as its stream ended."""
        self._stop(run_id, events.SERVICE_STOPPING if reason == events.SERVICE_STOPPING else "CLIENT_DISCONNECTED")

    def _stop(self, run_id: str, reason: str) -> None:
        self._feeds.drop(run_id)
        run = self._runs.get(run_id)
        if run is not None:
            run.cancel(reason)
        driver = self._drivers.get(run_id)
        if driver is not None:
            if run is None:
                self._stopping[run_id] = reason
            driver.cancel()

    async def _drive(self, start: StartRun, feed: RunFeed) -> None:
        run_id = str(start.run_id)
        try:
            try:
                await self._slots.acquire()
            except asyncio.CancelledError:  # stopped while QUEUED: its client was shown the run id
                await self._record_unstarted(start, self._stopping.pop(run_id, "CANCELLED_WHILE_QUEUED"))
                return
            try:
                run = Run(self._services, start, announced=True)
                self._runs[run_id] = run
                execution = asyncio.ensure_future(run.execute())
                try:
                    event = await run.events.get()
                    while event.event != "done":
                        feed.append(event)
                        event = await run.events.get()
                    try:
                        await execution  # the run is recorded before its client hears that it is done
                    finally:
                        feed.append(event)
                except asyncio.CancelledError:
                    run.cancel("CLIENT_DISCONNECTED")
                    with contextlib.suppress(Exception, asyncio.CancelledError):
                        await asyncio.wait_for(asyncio.shield(execution), STOP_GRACE_S)
                finally:
                    self._runs.pop(run_id, None)
            finally:
                self._slots.release()
        except asyncio.CancelledError:
            pass
        finally:
            self._drivers.pop(run_id, None)
            self._stopping.pop(run_id, None)

    async def _record_unstarted(self, start: StartRun, reason: str) -> None:
        """A run stopped before it had a slot still ends in its one terminal state (CANCELLED, or FAILED when its
        gateway shut down), with its rows."""
        run = Run(self._services, start, announced=True)
        run.cancel(reason)
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(asyncio.shield(run.execute()), STOP_GRACE_S)

    async def _reap(self) -> None:
        """Cancel the runs whose client is gone and forget their feeds."""
        while True:
            await asyncio.sleep(REAP_INTERVAL_S)
            for run_id in self._feeds.abandoned():
                run = self._runs.get(run_id)
                with bound(run_id=run_id), within(run.span if run is not None else None):
                    log.warning("run abandoned by its client", extra={"code": "CLIENT_LOST"})
                self._stop(run_id, "CLIENT_LOST")

    async def model_call(self, run_id: str, request: ModelRequest, plan: list[str] | None = None) -> ModelReply:
        """The agent's tool-less model call (``plan``: the Diagnosis Plan it made just before)."""
        run = self._runs[run_id]
        with bound(run.ctx.session_id, run_id), within(run.span):
            await self._report(run, plan)
            return await run.agent_gateway.model(request)

    async def turn(self, run_id: str, request: ModelRequest, plan: list[str] | None = None) -> Turn:
        """One investigation turn of the agent: the model call and the tool calls of its reply, one message."""
        run = self._runs[run_id]
        with bound(run.ctx.session_id, run_id), within(run.span):
            await self._report(run, plan)
            return await run.agent_gateway.turn(request)

    @staticmethod
    async def _report(run: Run, plan: list[str] | None) -> None:
        if plan:
            await run.agent_gateway.plan(plan)

    async def readiness(self) -> dict[str, bool]:
        return {"redis": await self._services.store.ping(), "audit": await self._services.audit.ping()}

    async def digest(self) -> str:
        """The configuration this supervisor was created with (``AppConfig.runtime_digest``)."""
        return self._digest

    async def active_runs(self) -> int:
        return len(self._runs)
