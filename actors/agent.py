"""DiagnosisAgent actor: holds each run's conversation; every model and tool call goes back to the run's
supervisor, which is the Harness boundary (the agent never holds a model client, a tool or a store)."""

from __future__ import annotations

from collections.abc import Sequence

from ray.actor import ActorHandle

from harness.messages import AgentTask, ModelReply, ModelRequest, Turn
from harness.react_loop import DiagnosisAgent


class SupervisorGateway:
    """``AgentGateway`` over actor messages to the run's supervisor: one per turn (the model call and its tool
    calls), carrying the plan made just before it."""

    def __init__(self, supervisor: ActorHandle, run_id: str) -> None:
        self._supervisor = supervisor
        self._run_id = run_id
        self._plan: list[str] | None = None

    async def model(self, request: ModelRequest) -> ModelReply:
        reply: ModelReply = await self._supervisor.model_call.remote(self._run_id, request, self._take_plan())
        return reply

    async def turn(self, request: ModelRequest) -> Turn:
        turn: Turn = await self._supervisor.turn.remote(self._run_id, request, self._take_plan())
        return turn

    async def plan(self, steps: Sequence[str]) -> None:
        self._plan = list(steps)

    def _take_plan(self) -> list[str] | None:
        plan, self._plan = self._plan, None
        return plan


class DiagnosisAgentActor:
    def __init__(self) -> None:
        self._agent = DiagnosisAgent()

    async def investigate(self, task: AgentTask, supervisor: ActorHandle, forget: list[str]) -> str | None:
        """``forget``: runs of this supervisor that ended since its last investigate here."""
        self.forget(forget)
        return await self._agent.investigate(task, SupervisorGateway(supervisor, task.run_id))

    async def repair(self, run_id: str, failures: list[str], supervisor: ActorHandle) -> str | None:
        return await self._agent.repair(run_id, failures, SupervisorGateway(supervisor, run_id))

    def forget(self, run_ids: list[str]) -> None:
        for run_id in run_ids:
            self._agent.forget(run_id)
