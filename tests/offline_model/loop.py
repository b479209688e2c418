"""An in-process Diagnosis loop for the offline model: the real ``DiagnosisAgent``, the real tools on the bundled
demo data, the real EvidenceGuard and snapshot, and a tiny gateway in between (no Ray, no Redis)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from config import load_config
from config.app import AppConfig
from contract.clock import ManualClock
from contract.vocabulary import EvidenceStatus
from harness.gate import ClaimPolicy, EvidenceCheck, Report, check, cited_tool_call_ids
from harness.invocation import InvocationRecord, ToolCallStatus
from harness.messages import AgentTask, GuardVerdict, ModelReply, ModelRequest, PreviousTurn, ToolCall, Turn
from harness.react_loop import DiagnosisAgent
from harness.semantic_guard import guard_messages, guard_request, parse_verdict
from offline_model.model import OfflineChatModel
from tools.registry import configured_kinds

RUN_ID = "run-offline"


@dataclass
class DemoGateway:
    """Executes the agent's tool calls on the real tools and keeps what the Harness would keep."""

    config: AppConfig
    chat_model: OfflineChatModel
    offered: tuple[str, ...]
    query: str
    clock: ManualClock = field(default_factory=ManualClock)
    requests: list[ModelRequest] = field(default_factory=list)
    replies: list[ModelReply] = field(default_factory=list)
    records: dict[str, InvocationRecord] = field(default_factory=dict)
    calls: list[ToolCall] = field(default_factory=list)
    plan_steps: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._kinds = configured_kinds(self.config)
        self._tools = {name: self._kinds[name].build(self.config, self.clock) for name in self.offered}

    async def model(self, request: ModelRequest) -> ModelReply:
        reply = await self.chat_model.complete(request, timeout_s=5.0)
        self.requests.append(request)
        self.replies.append(reply)
        return reply

    async def turn(self, request: ModelRequest) -> Turn:
        reply = await self.model(request)
        return Turn(reply=reply, results=tuple(self._tool(call) for call in reply.tool_calls))

    def _tool(self, call: ToolCall) -> dict[str, Any]:
        assert call.id not in self.records, f"tool_call_id {call.id} reused"
        self.calls.append(call)
        args = json.loads(call.arguments)
        raw = self._tools[call.name].run(call.id, args)
        projection = self._kinds[call.name].projector(self.config).project(call.id, args, raw)
        self.records[call.id] = InvocationRecord(
            run_id=RUN_ID,
            tool_call_id=call.id,
            tool_name=call.name,
            status=ToolCallStatus.ERROR if projection.evidence_status is EvidenceStatus.ERROR else ToolCallStatus.READY,
            evidence_status=projection.evidence_status,
            request=args,
            agent_result=projection.agent_result,
            started_at="2026-07-21T02:30:00.000+00:00",
            finished_at="2026-07-21T02:30:00.100+00:00",
            error_code=projection.error_code,
        )
        return projection.agent_result

    def close(self) -> None:
        for tool in self._tools.values():
            close = getattr(tool, "close", None)
            if close is not None:
                close()

    async def plan(self, steps: list[str]) -> None:
        self.plan_steps = list(steps)

    def check(self, draft_text: str | None) -> EvidenceCheck:
        records = {call: self.records.get(call) for call in cited_tool_call_ids(draft_text)}
        policy = ClaimPolicy.from_settings(self.config.harness)
        return check(Report(draft_text, records, self._kinds, self.query, RUN_ID), policy)

    def status_of(self, call_id: str) -> EvidenceStatus | None:
        record = self.records.get(call_id)
        return record.evidence_status if record else None


@dataclass
class Run:
    query: str
    draft_text: str | None
    gateway: DemoGateway
    agent: DiagnosisAgent


def offered_tools(config: AppConfig, without: tuple[str, ...] = ()) -> tuple[str, ...]:
    return tuple(name for name in configured_kinds(config) if name not in without)


async def diagnose(
    query: str,
    previous_turn: PreviousTurn | None = None,
    without: tuple[str, ...] = (),
    model: OfflineChatModel | None = None,
) -> Run:
    config = load_config()
    offered = offered_tools(config, without)
    gateway = DemoGateway(config, model or OfflineChatModel(), offered, query)
    task = AgentTask(
        run_id=RUN_ID,
        query=query,
        previous_turn=previous_turn,
        tools=tuple(configured_kinds(config)[name].spec(config).openai_tool() for name in offered),
    )
    agent = DiagnosisAgent()
    try:
        draft_text = await agent.investigate(task, gateway)
    finally:
        gateway.close()
    return Run(query, draft_text, gateway, agent)


async def guard_verdict(run: Run, draft_text: str | None = None) -> GuardVerdict:
    """The SemanticGuard's verdict on ``draft_text`` (default: the run's Draft), as the Harness would ask it."""
    check = run.gateway.check(draft_text if draft_text is not None else run.draft_text)
    assert check.ok and check.draft is not None, check.failures
    request = guard_request(run.query, check.draft, check.verified, configured_kinds(run.gateway.config))
    reply = await run.gateway.chat_model.complete(
        ModelRequest(role="guard", messages=guard_messages(request), json_output=True), timeout_s=5.0
    )
    return parse_verdict(reply.content)
