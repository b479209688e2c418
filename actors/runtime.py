"""Finding or creating the actors of the runtime, and the client the gateway (and tests) use.

Every actor is named in one namespace, created with ``get_if_exists`` and detached, so several driver
processes share one pool of supervisors, one agent pool, one guard pool and one actor per tool, and none of
them dies with the gateway (or supervisor) that created it. They live until the Ray cluster stops or
``shutdown_runtime`` kills them.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import ray
from ray.actor import ActorHandle
from ray.exceptions import ActorDiedError, ActorUnavailableError, RayError

from actors.agent import DiagnosisAgentActor
from actors.guard import SemanticGuardActor
from actors.model_factory import model_label
from actors.names import agent_name, guard_name, pick, supervisor_name, tool_actor_name
from actors.supervisor import RunSupervisor
from config.app import AppConfig
from contract.vocabulary import HarnessError
from harness import events
from harness.events import EventSequence, LostRun
from harness.messages import RunEvent, StartRun
from harness.run_context import new_run_id
from harness.tracing import trace_id_in
from tools.registry import configured_kinds

READY_TIMEOUT_S = 5.0
STARTUP_TIMEOUT_S = 60.0
RESTART_WAIT_S = 15.0
RESTART_POLL_S = 0.1
FETCH_WAIT_S = 10.0
"""How long one poll waits for the next event of the runs it follows (long polling)."""


def _named(cls: type, namespace: str, name: str, *args: Any, concurrency: int = 1000, **options: Any) -> ActorHandle:
    """A named actor of the runtime, found or created. Restarted when it dies (``max_restarts``); Ray never
    retries a call on it (``max_task_retries=0``): every retry is the Harness's, by its retry matrix."""
    return (
        ray.remote(cls)
        .options(
            name=name,
            namespace=namespace,
            get_if_exists=True,
            lifetime="detached",
            num_cpus=0,
            max_concurrency=concurrency,
            max_task_retries=0,
            **options,
        )
        .remote(*args)
    )


def ensure_runtime(config: AppConfig) -> list[ActorHandle]:
    """Agents and guards first (supervisors are given their handles), then the supervisor pool."""
    namespace, restarts, resources = config.ray.namespace, config.ray.max_restarts, dict(config.ray.resources)
    agents = [
        _named(DiagnosisAgentActor, namespace, agent_name(index), max_restarts=restarts, resources=resources)
        for index in range(config.ray.agent_pool)
    ]
    guards = [
        _named(
            SemanticGuardActor,
            namespace,
            guard_name(index),
            guard_name(index),
            config.model,
            concurrency=config.harness.semantic_guard.replica_concurrency,
            max_restarts=restarts,
            resources=resources,
            scheduling_strategy="SPREAD" if config.ray.spread_guards else "DEFAULT",
        )
        for index in range(config.ray.guard_pool)
    ]
    return [
        _named(
            RunSupervisor,
            namespace,
            supervisor_name(index),
            supervisor_name(index),
            config,
            agents,
            guards,
            max_restarts=restarts,
            resources=resources,
        )
        for index in range(config.ray.supervisor_pool)
    ]


class RuntimeMismatch(HarnessError):
    """The namespace's actors were created from another configuration than this process's."""

    code = "RUNTIME_MISMATCH"


def check_runtime(config: AppConfig, supervisors: list[ActorHandle]) -> None:
    """Refuse to drive actors that run another configuration: detached actors outlive the gateway that made them,
    so a changed configuration would otherwise be ignored without a word."""
    expected = config.runtime_digest()
    found = ray.get([supervisor.digest.remote() for supervisor in supervisors], timeout=STARTUP_TIMEOUT_S)
    if any(digest != expected for digest in found):
        raise RuntimeMismatch(
            f"the actors in Ray namespace {config.ray.namespace!r} run another configuration than this one: "
            "stop them with `superbiz runtime stop` (runs in flight fail) or set another ray.namespace"
        )


def runtime_actor_names(config: AppConfig) -> list[str]:
    ray_settings = config.ray
    return [
        *(supervisor_name(i) for i in range(ray_settings.supervisor_pool)),
        *(agent_name(i) for i in range(ray_settings.agent_pool)),
        *(guard_name(i) for i in range(ray_settings.guard_pool)),
        *(tool_actor_name(name) for name in configured_kinds(config)),
    ]


def shutdown_runtime(config: AppConfig) -> int:
    """Kill this configuration's named actors (their namespace); returns how many there were."""
    killed = 0
    for name in runtime_actor_names(config):
        try:
            ray.kill(ray.get_actor(name, namespace=config.ray.namespace), no_restart=True)
        except ValueError:
            continue
        killed += 1
    return killed


class RunGone(HarnessError):
    """The supervisor no longer holds the run (it restarted since the run was opened)."""

    code = "RUN_GONE"


class GatewayStopping(HarnessError):
    """The gateway is shutting down and its grace for runs in flight is over."""

    code = "SERVICE_STOPPING"


class EventPump:
    """One reader of one supervisor: a loop that polls the events of every run this client opened there, in
    one call, and hands each run its batch. It runs while it follows a run, and stops when it follows none."""

    def __init__(self, supervisor: ActorHandle) -> None:
        self._supervisor = supervisor
        self.reader = uuid.uuid4().hex
        self._queues: dict[str, asyncio.Queue[list[RunEvent] | BaseException]] = {}
        self._opened: set[str] = set()
        self._task: asyncio.Task[None] | None = None

    def follow(self, run_id: str) -> asyncio.Queue[list[RunEvent] | BaseException]:
        queue: asyncio.Queue[list[RunEvent] | BaseException] = asyncio.Queue()
        self._queues[run_id] = queue
        return queue

    def opened(self, run_id: str) -> None:
        """The supervisor holds the run now: poll for it (a run it does not hold any more is gone)."""
        self._opened.add(run_id)
        if self._task is None or self._task.done():
            self._task = asyncio.ensure_future(self._pump())

    def unfollow(self, run_id: str) -> None:
        self._queues.pop(run_id, None)
        self._opened.discard(run_id)

    @property
    def following(self) -> int:
        return len(self._queues)

    def stop_all(self) -> None:
        """End every run this pump follows: each stream cancels its run and closes (``GatewayStopping``)."""
        for queue in self._queues.values():
            queue.put_nowait(GatewayStopping())

    async def _pump(self) -> None:
        while self._opened:
            try:
                answer = await self._supervisor.poll.remote(self.reader, list(self._opened), FETCH_WAIT_S)
            except RayError as error:
                for run_id in list(self._opened):
                    self._queues[run_id].put_nowait(error)
                    self.unfollow(run_id)
                return
            for run_id, batch in answer.items():
                queue = self._queues.get(run_id)
                if queue is None:
                    continue
                if batch is None:
                    queue.put_nowait(RunGone(run_id))
                    self._opened.discard(run_id)
                else:
                    queue.put_nowait(batch)


class HarnessClient:
    """``async for event in client.chat(session_id, query)``: one run's events, always well-formed.

    The metadata event goes out at once, before the supervisor is reached (this client names the run). The
    rest is long-polled: per supervisor (and event loop) one ``EventPump`` polls the events of all the runs
    this client opened there, so an event costs a fraction of a message; Ray Client (``ray://``) cannot
    stream, and one protocol serves both. Stopping the iteration early (a client disconnect) closes, and so
    cancels, the run. If the supervisor dies mid-run the client still ends the stream instead of hanging: with
    ``failure`` + ``done(FAILED)`` before the run's content or failure, with the ``done`` it released after it.
    A supervisor that Ray is restarting is waited for (up to ``RESTART_WAIT_S``) and the run opened again: Ray
    fails, rather than queues, a call to a restarting actor when ``max_task_retries`` is 0.
    """

    def __init__(self, config: AppConfig) -> None:
        self._supervisors = ensure_runtime(config)
        check_runtime(config, self._supervisors)
        self.model_label = model_label(config.model)
        self._pumps: dict[tuple[int, asyncio.AbstractEventLoop], EventPump] = {}

    async def readiness(self) -> dict[str, bool]:
        """Ray up, every supervisor answering, and each supervisor's Redis and audit store reachable."""
        checks = {"ray": ray.is_initialized(), "supervisors": False, "redis": False}
        try:
            answers = await asyncio.wait_for(
                asyncio.gather(*(supervisor.readiness.remote() for supervisor in self._supervisors)), READY_TIMEOUT_S
            )
        except (RayError, TimeoutError):
            return checks
        checks["supervisors"] = True
        checks["redis"] = all(answer["redis"] for answer in answers)
        return checks

    async def chat(
        self,
        session_id: str,
        query: str,
        principal: str = "anonymous",
        on_lost: Callable[[LostRun], Awaitable[None]] | None = None,
        traceparent: str | None = None,
    ) -> AsyncIterator[RunEvent]:
        """``on_lost`` is awaited, before the stream's closing events go out, when the run's supervisor is lost
        before the run ended: nobody else will record that run's end. ``traceparent`` names the request's span,
        the parent of the run's; its trace id goes out in the metadata event."""
        index = pick(session_id, len(self._supervisors))
        supervisor, pump = self._supervisors[index], self._pump(index)
        run_id = new_run_id()
        start = StartRun(
            session_id=session_id, query=query, principal=principal, run_id=run_id, traceparent=traceparent
        )
        sequence = EventSequence()
        content: dict[str, Any] | None = None
        metadata = events.metadata(session_id, run_id, model=self.model_label, trace_id=trace_id_in(traceparent))
        yield sequence.accept(metadata)
        batches = pump.follow(run_id)
        try:
            try:
                await supervisor.open.remote(start, pump.reader)
            except ActorUnavailableError:  # being restarted: Ray refused the call without running it
                await _answering(supervisor)
                await supervisor.open.remote(start, pump.reader)
            pump.opened(run_id)
            while not sequence.finished:
                batch = await batches.get()
                if isinstance(batch, GatewayStopping) and sequence.final_sent:
                    continue  # its answer is out and its done is on the way
                if isinstance(batch, BaseException):
                    raise batch
                for event in batch:
                    if event.event == "content":
                        content = event.data
                    yield sequence.accept(event)
        except (RayError, RunGone):
            if not sequence.finished:
                closing = self._broken(sequence, "RUN_UNAVAILABLE")
                if on_lost is not None:
                    await on_lost(LostRun(run_id, session_id, closing[-1].data["outcome"], content))
                for event in closing:
                    yield event
        except GatewayStopping:
            supervisor.close.remote(run_id, events.SERVICE_STOPPING)  # its supervisor records it FAILED for it
            for event in self._broken(sequence, events.SERVICE_STOPPING):
                yield event
        finally:
            pump.unfollow(run_id)
            if not sequence.finished:  # the client left: stop the run (a no-op if it never opened)
                supervisor.close.remote(run_id)

    def _pump(self, index: int) -> EventPump:
        key = (index, asyncio.get_running_loop())
        pump = self._pumps.get(key)
        if pump is None:
            pump = self._pumps[key] = EventPump(self._supervisors[index])
        return pump

    @property
    def in_flight(self) -> int:
        """Runs this client is streaming (in the calling event loop)."""
        loop = asyncio.get_running_loop()
        return sum(pump.following for (_, pump_loop), pump in self._pumps.items() if pump_loop is loop)

    async def stop_runs(self) -> None:
        """Cancel every run this client streams in the calling event loop that has not sent its answer yet: its
        stream ends with ``failure(SERVICE_STOPPING)`` and ``done(FAILED)`` (the event contract's outcomes are
        SUCCESS, FALLBACK and FAILED), and it is recorded the same, FAILED for SERVICE_STOPPING."""
        loop = asyncio.get_running_loop()
        for (_, pump_loop), pump in self._pumps.items():
            if pump_loop is loop:
                pump.stop_all()

    @staticmethod
    def _broken(sequence: EventSequence, code: str) -> list[RunEvent]:
        """The end of a stream its run cannot end: ``failure(code)`` + done(FAILED) before the final event, the
        done the final event released after it (``EventSequence.closing``)."""
        return sequence.closing(code)


async def _answering(supervisor: ActorHandle) -> None:
    """Return once ``supervisor`` answers, it is dead for good, or ``RESTART_WAIT_S`` has passed; the run that
    follows reports the failure if it still cannot be reached."""
    deadline = asyncio.get_running_loop().time() + RESTART_WAIT_S
    while True:
        try:
            await supervisor.active_runs.remote()
            return
        except ActorDiedError:
            return
        except RayError:
            if asyncio.get_running_loop().time() >= deadline:
                return
            await asyncio.sleep(RESTART_POLL_S)
