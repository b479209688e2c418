"""``Scope``: what an intent path needs of its run, and nothing of how the run is driven."""

from __future__ import annotations

from dataclasses import dataclass

from config.app import AppConfig
from harness.gate import ClaimPolicy
from harness.language import Language
from harness.messages import PreviousTurn
from harness.run.agent_gateway import RunGateway
from harness.run.model_calls import ModelCalls
from harness.run.recorder import Recorder
from harness.run.services import RunServices
from harness.run.stream import RunStream
from harness.run_context import RunContext
from harness.tool_boundary import ToolBoundary


@dataclass(frozen=True)
class Scope:
    query: str
    language: Language
    """The question's language: the model is asked to answer in it, and the fixed texts are its own."""
    previous: PreviousTurn | None
    """The session's last published diagnosis (§4.6), None on a first turn or when it cannot be read."""
    ctx: RunContext
    services: RunServices
    stream: RunStream
    """Where the path sends its statuses and its one final event."""
    recorder: Recorder
    calls: ModelCalls
    """The Harness's own model calls and the SemanticGuard's attempts."""
    tools: ToolBoundary
    """The Harness's own tool calls (the knowledge lookup)."""
    agent_gateway: RunGateway
    """What the agent calls back into."""

    @property
    def run_id(self) -> str:
        return self.ctx.run_id

    @property
    def config(self) -> AppConfig:
        return self.services.config

    @property
    def policy(self) -> ClaimPolicy:
        return self.services.policy

    @property
    def model_timeout_s(self) -> float:
        return self.services.config.model.timeout_s
