"""The SemanticGuard replicas ``superbiz eval`` (and ``bench/guards.py``) measure: R named actors on Ray, each
request sent to the one with the fewest calls in flight. Ray and the actors are imported only when used."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from config.app import AppConfig

if TYPE_CHECKING:
    from harness.messages import GuardAttempt, GuardRequest

TIMEOUT_GRACE_S = 5.0
"""How long past the attempt timeout the driver waits for a replica before it gives up on the call."""


class GuardPool:
    """R SemanticGuard replicas; each request goes to the replica with the fewest calls in flight."""

    def __init__(self, actors: list[Any], names: list[str], timeout_s: float) -> None:
        self._actors = actors
        self._names = names
        self._timeout_s = timeout_s
        self._in_flight = [0] * len(actors)

    @classmethod
    def create(cls, config: AppConfig, replicas: int, namespace: str) -> GuardPool:
        """Named replicas (``guard:N``) in ``namespace``, ``max_concurrency`` = semantic-guard replica-concurrency."""
        import ray

        from actors.guard import SemanticGuardActor
        from actors.names import guard_name

        names = [guard_name(index) for index in range(replicas)]
        options = {
            "namespace": namespace,
            "num_cpus": 0,
            "max_concurrency": config.harness.semantic_guard.replica_concurrency,
        }
        actors = [
            ray.remote(SemanticGuardActor).options(name=name, **options).remote(name, config.model) for name in names
        ]
        return cls(actors, names, config.harness.semantic_guard.attempt_timeout)

    @property
    def size(self) -> int:
        return len(self._actors)

    async def ready(self) -> None:
        """Every replica constructed (its process up, its model built), so startup is not measured as latency."""
        await asyncio.gather(*(actor.__ray_ready__.remote() for actor in self._actors))

    async def evaluate(self, request: GuardRequest) -> GuardAttempt:
        import ray

        from harness.messages import GuardAttempt, Usage
        from harness.retry import FailureKind

        index = min(range(len(self._actors)), key=self._in_flight.__getitem__)
        self._in_flight[index] += 1
        ref = self._actors[index].evaluate.remote(request, self._timeout_s)
        try:
            return await asyncio.wait_for(_resolve(ref), self._timeout_s + TIMEOUT_GRACE_S)
        except TimeoutError:
            ray.cancel(ref)
            return GuardAttempt(None, FailureKind.TIMEOUT.value, Usage(), self._names[index])
        finally:
            self._in_flight[index] -= 1

    def kill(self) -> None:
        import ray

        for actor in self._actors:
            ray.kill(actor)


async def _resolve(ref: Any) -> Any:
    return await ref
