"""What a run needs from the outside, as small protocols: the Ray actors implement them in production, plain
objects in unit tests. Everything that runs elsewhere comes back as a ``Remote``: an awaitable result plus the
way to stop the work *there* (cancelling a local await alone never stops a Ray task or an HTTP request)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from harness.agent import AgentGateway, AgentTask
from harness.model import Usage
from harness.semantic_guard import GuardRequest, GuardVerdict

T = TypeVar("T")


@dataclass(frozen=True)
class Remote(Generic[T]):
    result: Awaitable[T]
    cancel: Callable[[], None]


@dataclass(frozen=True)
class GuardAttempt:
    """One SemanticGuard evaluation: a verdict, or the technical failure kind (TIMEOUT / TRANSPORT /
    INVALID_OUTPUT) that the Harness may retry once."""

    verdict: GuardVerdict | None
    failure: str | None
    usage: Usage
    replica: str


class ToolPort(Protocol):
    def start(self, tool_name: str, call_id: str, arguments: dict[str, Any]) -> Remote[dict[str, Any]]: ...


class AgentPort(Protocol):
    def investigate(self, task: AgentTask, gateway: AgentGateway) -> Remote[str | None]: ...

    def repair(self, run_id: str, failures: Sequence[str], gateway: AgentGateway) -> Remote[str | None]: ...

    def forget(self, run_id: str) -> None: ...


class GuardPort(Protocol):
    def evaluate(self, request: GuardRequest, attempt: int, timeout_s: float) -> Remote[GuardAttempt]: ...
