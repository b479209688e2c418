"""``RunServices``: the ports and configuration every run of a process shares, built once."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from config.app import AppConfig
from contract.clock import Clock
from contract.kind import EvidenceKind
from harness.audit import AuditSink
from harness.gate import ClaimPolicy
from harness.invocation import InvocationStorePort
from harness.ports import AgentPort, ChatModel, GuardPort, ToolPort
from harness.run_metrics import NoMetrics, RunMetrics
from harness.snapshot import Kinds
from harness.tool_boundary import OfferedTool


@dataclass
class RunServices:
    config: AppConfig
    kinds: Kinds
    """The evidence kinds this configuration offers, by tool name (``tools.registry.configured_kinds``): the
    Harness asks them about results and never names a tool itself."""
    store: InvocationStorePort
    model: ChatModel
    tools: ToolPort
    agent: AgentPort
    guard: GuardPort
    audit: AuditSink
    clock: Clock
    metrics: RunMetrics = field(default_factory=NoMetrics)
    """Where the run's application metrics go (``actors.ray_metrics.RayRunMetrics`` on Ray)."""
    offered: dict[str, OfferedTool] = field(init=False)
    """The tools every run offers (spec and projector), built once from the kinds."""
    openai_tools: tuple[dict[str, Any], ...] = field(init=False)
    policy: ClaimPolicy = field(init=False)
    """The claim rules' configured vocabulary (non-fact words, side-effect patterns, assertion markers)."""
    knowledge: EvidenceKind | None = field(init=False)
    """The kind a KNOWLEDGE_QUERY is answered from (§4.5), if the configuration offers one."""

    def __post_init__(self) -> None:
        self.policy = ClaimPolicy.from_settings(self.config.harness)
        self.offered = {
            name: OfferedTool(kind.spec(self.config), kind.projector(self.config)) for name, kind in self.kinds.items()
        }
        self.openai_tools = tuple(tool.spec.openai_tool() for tool in self.offered.values())
        self.knowledge = next((kind for kind in self.kinds.values() if kind.answers_knowledge_queries), None)
