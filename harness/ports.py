"""What a run needs from the outside, as small protocols: the Ray actors implement them in production, plain
objects in unit tests. Everything that runs elsewhere comes back as a ``Remote``: an awaitable result plus the
way to stop the work *there* (cancelling a local await alone never stops a Ray task or an HTTP request)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from harness.messages import AgentTask, GuardAttempt, GuardRequest, ModelReply, ModelRequest, Turn

T = TypeVar("T")


@dataclass(frozen=True)
class Remote(Generic[T]):
    result: Awaitable[T]
    cancel: Callable[[], None]


class ChatModel(Protocol):
    """The one model boundary used by the router, the agent, the repair and the guard.

    Messages follow the OpenAI chat format (roles system / user / assistant / tool; assistant tool calls with an
    ``id`` that becomes the ``tool_call_id``). A call either returns a ``ModelReply`` or raises
    ``OperationFailed(kind)`` with a ``FailureKind``: TIMEOUT, TRANSPORT (connection, HTTP status) or
    INVALID_OUTPUT (malformed tool-call JSON, no choices). The Harness decides whether to retry; a model never
    retries by itself.
    """

    @property
    def label(self) -> str:
        """How the model is named to users, e.g. ``gpt-4o-mini`` or the offline model's label."""

    async def complete(self, request: ModelRequest, timeout_s: float) -> ModelReply: ...

    async def aclose(self) -> None: ...


class AgentGateway(Protocol):
    """Everything the agent may do, each through the Harness boundary of its run."""

    async def model(self, request: ModelRequest) -> ModelReply:
        """A tool-less model call (the plan, a repair)."""

    async def turn(self, request: ModelRequest) -> Turn:
        """A model call with the tools the Harness offers this turn, and every tool call its reply makes, run by
        the Harness; a final turn offers none and runs none."""

    async def plan(self, steps: Sequence[str]) -> None: ...


class ToolPort(Protocol):
    def start(
        self, tool_name: str, call_id: str, arguments: dict[str, Any], traceparent: str | None = None
    ) -> Remote[dict[str, Any]]:
        """Start one call; ``traceparent`` names the span the tool's own span is a child of."""
        ...


class AgentPort(Protocol):
    def investigate(self, task: AgentTask, gateway: AgentGateway) -> Remote[str | None]: ...

    def repair(self, run_id: str, failures: Sequence[str], gateway: AgentGateway) -> Remote[str | None]: ...

    def forget(self, run_id: str) -> None: ...


class GuardPort(Protocol):
    def evaluate(self, request: GuardRequest, attempt: int, timeout_s: float) -> Remote[GuardAttempt]: ...
