"""The faults the soak throws, one at a time, at random intervals, each kind in turn (a shuffled cycle).

After each fault the injector waits until the system has recovered (a run that started once the fault's own
repair was done ended SUCCESS) or ``RECOVERY_BOUND_S`` has passed, then waits a random gap. A fault's recovery
time runs from its injection to the end of that first successful run, so it includes the downtime.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bench.chaos.clients import Load
from bench.chaos.stack import NODE_MARKER, Stack, descendants, kill_now, pids_matching

RECOVERY_BOUND_S = 150.0
NODE_DOWN_S = 3.0
SERVICE_DOWN_S = 2.0
CUT_STREAMS = 3
ACTOR_TITLES = {
    "kill_supervisor": "ray::RunSupervisor",
    "kill_agent": "ray::DiagnosisAgentActor",
    "kill_tool": "ray::ToolActor",
    "kill_guard": "ray::SemanticGuardActor",
}
KINDS = (
    *ACTOR_TITLES,
    "node_death",
    "redis_restart",
    "mariadb_restart",
    "client_disconnect",
    "gateway_sigterm",
)


@dataclass
class Fault:
    kind: str
    detail: str
    at: float
    """When it was injected (monotonic)."""
    restored: float
    """When its own repair was done (a node or service started again, a gateway ready); ``at`` for a kill."""
    recovered: float | None = None
    """The end of the first SUCCESS run that started at or after ``restored``; None if none within the bound."""

    @property
    def recovery_s(self) -> float | None:
        return None if self.recovered is None else self.recovered - self.at


def actor_processes(stack: Stack) -> dict[int, str]:
    """pid -> process title of every actor process of the soak's cluster (not another Ray on the machine)."""
    found: dict[int, str] = {}
    for raylet in pids_matching(NODE_MARKER):
        for pid in descendants(raylet):
            title = _title(pid)
            if title.startswith("ray::") and any(title.startswith(t) for t in ACTOR_TITLES.values()):
                found[pid] = title
    return found


def _title(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return handle.read().split(b"\0")[0].decode(errors="replace")
    except OSError:
        return ""


class Injector:
    def __init__(self, stack: Stack, load: Load, rng: random.Random) -> None:
        self._stack = stack
        self._load = load
        self._rng = rng
        self._order: list[str] = []
        self.faults: list[Fault] = []

    async def run(self, until: float, gaps: tuple[float, float]) -> None:
        """Inject until ``until``; the last fault is still waited for."""
        while True:
            await asyncio.sleep(self._rng.uniform(*gaps))
            if time.monotonic() >= until:
                return
            if not self._order:
                self._order = self._rng.sample(KINDS, len(KINDS))
            fault = await self.inject(self._order.pop())
            self.faults.append(fault)
            print(f"  {time.strftime('%H:%M:%S')} {fault.kind} ({fault.detail})", flush=True)
            await self._recovery(fault)

    async def inject(self, kind: str) -> Fault:
        at = time.monotonic()
        detail = await self._actions()[kind](kind)
        return Fault(kind, detail, at, time.monotonic() if kind in _REPAIRED else at)

    def _actions(self) -> dict[str, Callable[[str], Awaitable[str]]]:
        actor_kills = dict.fromkeys(ACTOR_TITLES, self._kill_actor)
        return {
            **actor_kills,
            "node_death": self._node_death,
            "redis_restart": self._redis_restart,
            "mariadb_restart": self._mariadb_restart,
            "client_disconnect": self._client_disconnect,
            "gateway_sigterm": self._gateway_sigterm,
        }

    async def _kill_actor(self, kind: str) -> str:
        title = ACTOR_TITLES[kind]
        victims = sorted(pid for pid, name in actor_processes(self._stack).items() if name.startswith(title))
        if not victims:
            return "no process found"
        pid = self._rng.choice(victims)
        kill_now([pid])
        return f"kill -9 {title} pid {pid}"

    async def _node_death(self, kind: str) -> str:
        name = self._rng.choice(sorted(self._stack.cluster.workers))
        killed = await asyncio.to_thread(self._stack.cluster.kill_worker, name)
        await asyncio.sleep(NODE_DOWN_S)
        await asyncio.to_thread(self._stack.cluster.start_worker, name)
        return f"raylet of worker '{name}' killed{'' if killed else ' (not found)'}, node restarted"

    async def _redis_restart(self, kind: str) -> str:
        await asyncio.to_thread(self._stack.redis.stop)
        await asyncio.sleep(SERVICE_DOWN_S)
        await asyncio.to_thread(self._stack.redis.start)
        return f"down {SERVICE_DOWN_S:.0f} s"

    async def _mariadb_restart(self, kind: str) -> str:
        started = time.monotonic()
        await asyncio.to_thread(self._stack.mariadb.stop)
        await asyncio.sleep(SERVICE_DOWN_S)
        await asyncio.to_thread(self._stack.mariadb.start)
        return f"down {time.monotonic() - started:.1f} s"

    async def _client_disconnect(self, kind: str) -> str:
        self._load.cut(CUT_STREAMS)
        return f"{CUT_STREAMS} streams closed by their clients"

    async def _gateway_sigterm(self, kind: str) -> str:
        gateway = self._rng.choice(self._stack.gateways)
        status = await asyncio.to_thread(gateway.terminate)
        gateway.start()
        await asyncio.to_thread(gateway.wait_ready)
        return f"gateway {gateway.name} exited {status}, restarted"

    async def _recovery(self, fault: Fault) -> None:
        deadline = fault.at + RECOVERY_BOUND_S
        while time.monotonic() < deadline:
            ended = [
                s.ended
                for s in self._load.streams
                if s.started >= fault.restored and s.outcome == "SUCCESS" and s.ended > 0
            ]
            if ended:
                fault.recovered = min(ended)
                return
            await asyncio.sleep(0.25)


_REPAIRED = frozenset({"node_death", "redis_restart", "mariadb_restart", "gateway_sigterm"})
