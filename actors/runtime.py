"""Finding or creating the actors of the runtime, and the client the gateway (and tests) use.

Every actor is named in one namespace and created with ``get_if_exists``, so several driver processes share
one pool of supervisors, one agent pool, one guard pool and one actor per tool.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import ray
from ray.actor import ActorHandle
from ray.exceptions import RayError

from actors.agent import DiagnosisAgentActor
from actors.guard import SemanticGuardActor
from actors.names import agent_name, guard_name, pick, supervisor_name
from actors.supervisor import RunSupervisor
from config.schema import AppConfig
from harness import events
from harness.events import EventSequence, RunEvent
from harness.model_factory import model_label
from harness.run import StartRun

READY_TIMEOUT_S = 5.0


def _named(cls: type, namespace: str, name: str, *args: Any, concurrency: int = 1000) -> ActorHandle:
    return (
        ray.remote(cls)
        .options(name=name, namespace=namespace, get_if_exists=True, num_cpus=0, max_concurrency=concurrency)
        .remote(*args)
    )


def ensure_runtime(config: AppConfig) -> list[ActorHandle]:
    """Agents and guards first (supervisors are given their handles), then the supervisor pool."""
    namespace = config.ray.namespace
    agents = [_named(DiagnosisAgentActor, namespace, agent_name(index)) for index in range(config.ray.agent_pool)]
    guards = [
        _named(
            SemanticGuardActor,
            namespace,
            guard_name(index),
            guard_name(index),
            config.model,
            concurrency=config.harness.semantic_guard.replica_concurrency,
        )
        for index in range(config.ray.guard_pool)
    ]
    return [
        _named(RunSupervisor, namespace, supervisor_name(index), supervisor_name(index), config, agents, guards)
        for index in range(config.ray.supervisor_pool)
    ]


class HarnessClient:
    """``async for event in client.chat(session_id, query)``: one run's events, always well-formed.

    Stopping the iteration early (a client disconnect) cancels the run. If the supervisor dies mid-run the
    client still ends the stream with ``failure`` + ``done(FAILED)`` instead of hanging.
    """

    def __init__(self, config: AppConfig) -> None:
        self._supervisors = ensure_runtime(config)
        self.model_label = model_label(config.model)

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

    async def chat(self, session_id: str, query: str, principal: str = "anonymous") -> AsyncIterator[RunEvent]:
        supervisor = self._supervisors[pick(session_id, len(self._supervisors))]
        stream = supervisor.run.remote(StartRun(session_id=session_id, query=query, principal=principal))
        sequence = EventSequence()
        try:
            async for ref in stream:
                event = sequence.accept(RunEvent.model_validate(await ref))
                yield event
        except RayError:
            if not sequence.finished:
                for event in self._broken(sequence, session_id):
                    yield event
        finally:
            if not sequence.finished:
                ray.cancel(stream)

    @staticmethod
    def _broken(sequence: EventSequence, session_id: str) -> list[RunEvent]:
        closing = []
        if not sequence.started:
            closing.append(sequence.accept(events.metadata(session_id, "unavailable")))
        if not sequence.final_sent:
            closing.append(sequence.accept(events.failure("RUN_UNAVAILABLE")))
        closing.append(sequence.accept(events.done("FAILED")))
        return closing
