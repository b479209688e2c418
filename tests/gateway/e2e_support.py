"""Shared pieces of the end-to-end and fault tests: a gateway over real HTTP with the Ray runtime."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import yaml

from actors.runtime import shutdown_runtime
from cli.serve import Gateway, GatewayThread, build_gateway
from cli.sse_client import Event, chat_events
from config.app import AppConfig
from config.loader import parse_config
from tests.actors.runtime_support import FAKE_KEY, arguments
from tests.fake_openai import FakeOpenAI, reply
from tests.harness.run_support import KNOWLEDGE, LOGS, MYSQL, PLAN

SUPPORTED = json.dumps({"verdict": "SUPPORTED", "reason": "ok"})
UNSUPPORTED = json.dumps({"verdict": "UNSUPPORTED", "reason": "结论超出证据（审计）"})
SQL_SECRET = "password=Hunter2-SQL-Param-Secret"
PROMPT_MARKER = "你是 SuperBiz 的故障诊断 Agent"
SLOW_SQL = (
    "SELECT COUNT(*) FROM biz_order o JOIN payment_record p "
    "ON p.order_id <> o.order_id AND p.channel <> o.payment_status"
)
"""A query that runs for minutes on ``slow_db``: the statement a tool timeout or a disconnect stops."""
KEYS = {"E2E_KEY_OPS": "ops-e2e-key-000001", "E2E_KEY_DEV": "dev-e2e-key-000002"}


@dataclass
class Running:
    url: str
    parts: Gateway
    config: AppConfig

    def stop(self, thread: GatewayThread) -> None:
        thread.stop()
        self.parts.audit.close()
        shutdown_runtime(self.config)


@contextmanager
def started(config: AppConfig) -> Iterator[Running]:
    """The gateway of ``config`` on a free port; its actors are killed afterwards."""
    parts = build_gateway(config)
    thread = GatewayThread(parts.app).start()
    running = Running(thread.url, parts, config)
    try:
        yield running
    finally:
        running.stop(thread)


def with_sections(config: AppConfig, tmp: Path, **sections: Any) -> AppConfig:
    data = yaml.safe_load(yaml.safe_dump(config.model_dump(mode="json")))
    data["model"]["api-key"] = "${FAKE_OPENAI_KEY}"
    data["audit"] = {"url": f"sqlite:///{tmp / 'audit.db'}"}
    for name, values in sections.items():
        data.setdefault(name, {}).update(values)
    return parse_config(yaml.safe_dump(data), {"FAKE_OPENAI_KEY": FAKE_KEY, **KEYS})


async def ask(url: str, query: str, session_id: str | None = None, key: str | None = None) -> list[Event]:
    async with httpx.AsyncClient(timeout=httpx.Timeout(10, read=60)) as client:
        return [event async for event in chat_events(client, url, query, session_id, key)]


def names(events: list[Event]) -> list[str]:
    return [event.event for event in events]


def assert_well_formed(events: list[Event]) -> None:
    order = names(events)
    assert order[0] == "metadata" and order.count("metadata") == 1
    assert order[-1] == "done" and order.count("done") == 1
    assert order.count("content") + order.count("failure") <= 1
    final = [i for i, name in enumerate(order) if name in ("content", "failure")]
    assert all(name == "status" for name in order[1 : (final[0] if final else -1)])


def script_agent(fake: FakeOpenAI, final: dict[str, Any]) -> None:
    fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"})))
    fake.script(
        "agent",
        reply(json.dumps(PLAN, ensure_ascii=False)),
        reply(None, [(KNOWLEDGE[0], KNOWLEDGE[1], arguments(KNOWLEDGE[2])), (LOGS[0], LOGS[1], arguments(LOGS[2]))]),
        reply(None, [(MYSQL[0], MYSQL[1], arguments(MYSQL[2]))]),
        reply(json.dumps(final, ensure_ascii=False), usage=(100, 50)),
    )
