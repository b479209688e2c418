"""In-process ports: the same run flow with no Ray (unit tests, the in-process benchmark baseline).

Tools run in threads, the agent and the guard are plain objects in this event loop; cancelling a ``Remote``
cancels the task and tells the tool to stop, exactly what the Ray ports do across processes.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Sequence
from typing import Any

from config.app import AppConfig
from contract.clock import Clock, SystemClock
from contract.tool import EvidenceTool
from harness.audit import AuditSink, MemoryAudit
from harness.guard_attempt import evaluate_once
from harness.messages import AgentTask, GuardAttempt, GuardRequest
from harness.ports import AgentGateway, ChatModel, Remote
from harness.react_loop import DiagnosisAgent
from harness.run.services import RunServices
from harness.run_metrics import NoMetrics, RunMetrics
from stores.invocation_store import InvocationStore
from stores.redis_client import connect_redis
from tools.registry import configured_kinds


def _task_remote(coroutine: Any, on_cancel: Any = None) -> Remote[Any]:
    task = asyncio.ensure_future(coroutine)

    def cancel() -> None:
        if on_cancel is not None:
            on_cancel()
        task.cancel()

    return Remote(result=task, cancel=cancel)


class LocalToolPort:
    def __init__(self, tools: dict[str, EvidenceTool]) -> None:
        self.tools = tools

    def start(
        self, tool_name: str, call_id: str, arguments: dict[str, Any], traceparent: str | None = None
    ) -> Remote[dict[str, Any]]:
        tool = self.tools[tool_name]
        work = asyncio.to_thread(tool.run, call_id, arguments)
        return _task_remote(work, functools.partial(tool.cancel, call_id))


class LocalAgentPort:
    def __init__(self, agent: DiagnosisAgent | None = None) -> None:
        self.agent = agent or DiagnosisAgent()

    def investigate(self, task: AgentTask, gateway: AgentGateway) -> Remote[str | None]:
        return _task_remote(self.agent.investigate(task, gateway))

    def repair(self, run_id: str, failures: Sequence[str], gateway: AgentGateway) -> Remote[str | None]:
        return _task_remote(self.agent.repair(run_id, failures, gateway))

    def forget(self, run_id: str) -> None:
        self.agent.forget(run_id)


class LocalGuardPort:
    """Replicas are models; attempt N goes to replica (N-1) mod len, like the Ray pool."""

    def __init__(self, replicas: Sequence[ChatModel]) -> None:
        self.replicas = list(replicas)

    def evaluate(self, request: GuardRequest, attempt: int, timeout_s: float) -> Remote[GuardAttempt]:
        index = (attempt - 1) % len(self.replicas)
        return _task_remote(evaluate_once(self.replicas[index], request, timeout_s, f"local:{index}"))


def local_services(
    config: AppConfig,
    model: ChatModel,
    *,
    guard_models: Sequence[ChatModel] | None = None,
    tools: dict[str, EvidenceTool] | None = None,
    audit: AuditSink | None = None,
    store: InvocationStore | None = None,
    clock: Clock | None = None,
    metrics: RunMetrics | None = None,
) -> RunServices:
    clock = clock or SystemClock()
    kinds = configured_kinds(config)
    built = tools if tools is not None else {name: kind.build(config, clock) for name, kind in kinds.items()}
    return RunServices(
        config=config,
        kinds=kinds,
        store=store or InvocationStore(connect_redis(config.redis), config.harness.evidence, clock),
        model=model,
        tools=LocalToolPort(built),
        agent=LocalAgentPort(),
        guard=LocalGuardPort(guard_models or [model]),
        audit=audit or MemoryAudit(),
        clock=clock,
        metrics=metrics or NoMetrics(),
    )
