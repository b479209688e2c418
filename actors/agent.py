"""DiagnosisAgent actor: holds each run's conversation; every model and tool call goes back to the run's
supervisor, which is the Harness boundary (the agent never holds a model client, a tool or a store)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ray.actor import ActorHandle

from harness.agent import AgentTask, DiagnosisAgent
from harness.model import ModelReply, ModelRequest, ToolCall


class SupervisorGateway:
    """``AgentGateway`` over actor messages to the run's supervisor."""

    def __init__(self, supervisor: ActorHandle, run_id: str) -> None:
        self._supervisor = supervisor
        self._run_id = run_id

    async def model(self, request: ModelRequest) -> ModelReply:
        reply: ModelReply = await self._supervisor.model_call.remote(self._run_id, request)
        return reply

    async def tool(self, call: ToolCall) -> dict[str, Any]:
        result: dict[str, Any] = await self._supervisor.tool_call.remote(self._run_id, call)
        return result

    async def plan(self, steps: Sequence[str]) -> None:
        await self._supervisor.report_plan.remote(self._run_id, list(steps))


class DiagnosisAgentActor:
    def __init__(self) -> None:
        self._agent = DiagnosisAgent()

    async def investigate(self, task: AgentTask, supervisor: ActorHandle) -> str | None:
        return await self._agent.investigate(task, SupervisorGateway(supervisor, task.run_id))

    async def repair(self, run_id: str, failures: list[str], supervisor: ActorHandle) -> str | None:
        return await self._agent.repair(run_id, failures, SupervisorGateway(supervisor, run_id))

    async def forget(self, run_id: str) -> None:
        self._agent.forget(run_id)
