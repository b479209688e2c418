"""``ScriptedChatModel``: a ChatModel that plays a script per role — for tests and benchmarks, never wired into
a configuration. Each step is a reply, a failure, a delay or a function of the request."""

from __future__ import annotations

import asyncio
import json
from collections import defaultdict, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from harness.errors import OperationFailed
from harness.messages import ModelReply, ModelRequest, ToolCall, Usage


@dataclass(frozen=True)
class Delay:
    seconds: float
    then: Any


def reply(
    content: str | dict[str, Any] | None = None,
    *calls: tuple[str, str, dict[str, Any]],
    tokens: tuple[int, int] = (10, 5),
) -> ModelReply:
    """A reply with optional JSON content and tool calls ``(id, name, arguments)``."""
    text = json.dumps(content, ensure_ascii=False) if isinstance(content, dict) else content
    tool_calls = tuple(ToolCall(id=i, name=n, arguments=json.dumps(a, ensure_ascii=False)) for i, n, a in calls)
    return ModelReply(content=text, tool_calls=tool_calls, usage=Usage(input_tokens=tokens[0], output_tokens=tokens[1]))


class ScriptedChatModel:
    label = "scripted test model"

    def __init__(self) -> None:
        self._steps: dict[str, deque[Any]] = defaultdict(deque)
        self._defaults: dict[str, Callable[[ModelRequest], Any]] = {}
        self.requests: list[ModelRequest] = []
        self.cancelled = 0

    def script(self, role: str, *steps: Any) -> ScriptedChatModel:
        self._steps[role].extend(steps)
        return self

    def default(self, role: str, step: Callable[[ModelRequest], Any]) -> ScriptedChatModel:
        self._defaults[role] = step
        return self

    def requests_of(self, role: str) -> list[ModelRequest]:
        return [request for request in self.requests if request.role == role]

    async def complete(self, request: ModelRequest, timeout_s: float) -> ModelReply:
        self.requests.append(request)
        queue = self._steps[request.role]
        if queue:
            step = queue.popleft()
        elif request.role in self._defaults:
            step = self._defaults[request.role]
        else:
            raise OperationFailed("TRANSPORT", f"no scripted reply for role {request.role}")
        try:
            return await self._play(step, request)
        except asyncio.CancelledError:
            self.cancelled += 1
            raise

    async def _play(self, step: Any, request: ModelRequest) -> ModelReply:
        while isinstance(step, Delay):
            await asyncio.sleep(step.seconds)
            step = step.then
        if callable(step) and not isinstance(step, ModelReply):
            step = step(request)
        if isinstance(step, BaseException):
            raise step
        return step

    async def aclose(self) -> None:
        return None


def scripts(model: ScriptedChatModel, scripts_by_role: Iterable[tuple[str, list[Any]]]) -> ScriptedChatModel:
    for role, steps in scripts_by_role:
        model.script(role, *steps)
    return model
