"""Helpers of the in-process run tests: configuration, a scripted model with real tools, event collection."""

from __future__ import annotations

import asyncio
import copy
from dataclasses import dataclass
from typing import Any

import yaml

from actors.in_process_ports import local_services
from config.app import AppConfig
from config.loader import BUNDLED_DEFAULT, parse_config
from harness.audit import MemoryAudit
from harness.messages import ChatMessage, ModelRequest, RunEvent, StartRun
from harness.run.flow import Run
from harness.run.services import RunServices
from harness.run_state import RunStatus
from harness.scripted_model import ScriptedChatModel, reply

QUERY = "订单 order-123 支付超时，帮我排查"
PLAN = {"plan": ["查阅支付超时排障手册", "查询 order-service 最近 30 分钟应用日志", "核对订单 order-123 的支付记录"]}
KNOWLEDGE = ("call_k1", "lookup_knowledge", {"query": "支付超时 HikariCP 连接池耗尽"})
LOGS = (
    "call_l1",
    "query_logs",
    {"topic": "APPLICATION", "query": "order-service HikariPool Connection", "lookback_minutes": 30},
)
MYSQL = (
    "call_m1",
    "query_mysql",
    {
        "data_source": "order_readonly",
        "sql": "SELECT o.order_id, o.payment_status, p.status, p.channel FROM biz_order o "
        "LEFT JOIN payment_record p ON p.order_id = o.order_id WHERE o.order_id = ?",
        "params": ["order-123"],
    },
)


def last_tool_message(request: ModelRequest) -> ChatMessage:
    """The last tool result an agent request holds (the Harness's budget line comes after it)."""
    return next(message for message in reversed(request.messages) if message.role == "tool")


def config(**harness: Any) -> AppConfig:
    """The bundled default with ``harness`` sections merged in (kebab-case keys)."""
    data = yaml.safe_load(BUNDLED_DEFAULT.read_text())
    merged = copy.deepcopy(data)
    for section, values in harness.items():
        merged["harness"].setdefault(section, {}).update(values)
    return parse_config(yaml.safe_dump(merged), {})


def draft(
    *analysis: tuple[str, str, list[str]],
    conclusion: list[str] | None = None,
    action: list[str] | None = None,
    scope: str = "order-service 最近 30 分钟（模拟日志）、订单 order-123",
) -> dict[str, Any]:
    return {
        "conclusion": {"text": "支付超时与 order-service 连接池耗尽有关", "based_on_analysis_ids": conclusion}
        if conclusion is not None
        else None,
        "analysis": [
            {"analysis_id": aid, "kind": kind, "text": f"分析 {aid}", "tool_call_ids": ids}
            for aid, kind, ids in analysis
        ],
        "action_plan": [
            {"action": "检查长事务和连接泄漏", "based_on_analysis_ids": action, "requires_human_confirmation": False}
        ]
        if action
        else [],
        "recommendations": [],
        "limitations": {"scope": scope, "missing_info": []},
    }


GOOD_DRAFT = draft(
    ("a1", "NORMAL", ["call_l1"]),
    ("a2", "NORMAL", ["call_m1"]),
    ("a3", "NORMAL", ["call_k1"]),
    conclusion=["a1", "a2"],
    action=["a1"],
)
SUPPORTED = reply({"verdict": "SUPPORTED", "reason": "证据支持分析与结论"})
UNSUPPORTED = reply({"verdict": "UNSUPPORTED", "reason": "结论超出证据范围（内部审计原因）"})


def diagnosis_model(final: dict[str, Any] | str = GOOD_DRAFT, *guard: Any) -> ScriptedChatModel:
    """Router says DIAGNOSIS; the agent plans, calls knowledge+logs, then MySQL, then writes ``final``."""
    model = ScriptedChatModel()
    model.script("router", reply({"intent": "DIAGNOSIS"}))
    model.script(
        "agent",
        reply(PLAN),
        reply(None, KNOWLEDGE, LOGS),
        reply(None, MYSQL),
        reply(final),
    )
    model.script("guard", *(guard or (SUPPORTED,)))
    return model


@dataclass
class Outcome:
    status: RunStatus
    events: list[RunEvent]
    services: RunServices
    run: Run

    @property
    def names(self) -> list[str]:
        return [event.event for event in self.events]

    def first(self, name: str) -> dict[str, Any]:
        return next(event.data for event in self.events if event.event == name)

    def statuses(self) -> list[str]:
        return [event.data["code"] for event in self.events if event.event == "status"]

    @property
    def audit(self) -> MemoryAudit:
        assert isinstance(self.services.audit, MemoryAudit)
        return self.services.audit


def services(model: ScriptedChatModel, settings: AppConfig | None = None, **kwargs: Any) -> RunServices:
    return local_services(settings or config(), model, **kwargs)


async def run_once(services: RunServices, query: str = QUERY, session_id: str = "s-1") -> Outcome:
    """One run to its end; whatever happened in it, its recorded counters agree with its recorded rows."""
    run = Run(services, StartRun(session_id=session_id, query=query))
    status = await run.execute()
    collected: list[RunEvent] = []
    while not run.events.empty():
        collected.append(run.events.get_nowait())
    if isinstance(services.audit, MemoryAudit):
        assert_counts_agree(services.audit, run.run_id)
    return Outcome(status, collected, services, run)


def assert_counts_agree(audit: MemoryAudit, run_id: str) -> None:
    """The run's one finish counts exactly its step and tool records, and its tokens are theirs."""
    [finished] = [record for record in audit.finished if record.run_id == run_id]
    steps = [step for step in audit.steps if step.run_id == run_id]
    tools = [tool for tool in audit.tools if tool.run_id == run_id]
    assert (finished.model_calls, finished.tool_calls) == (len(steps), len(tools)), finished.status
    assert finished.input_tokens == sum(step.input_tokens for step in steps)
    assert finished.output_tokens == sum(step.output_tokens for step in steps)
    assert [step.step_index for step in steps] == list(range(1, len(steps) + 1))


async def wait_until(predicate: Any, timeout_s: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout_s
    while not predicate():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("condition not reached")
        await asyncio.sleep(0.01)
