"""Helpers of the Ray runtime tests: a configuration per test (own namespace), and event collection."""

from __future__ import annotations

import json
import tempfile
import uuid
from pathlib import Path
from typing import Any

import yaml

from actors.runtime import HarnessClient
from config.app import AppConfig
from config.loader import BUNDLED_DEFAULT, parse_config
from harness.messages import RunEvent
from tests.fake_openai import FakeOpenAI, Step, reply
from tests.harness.run_support import GOOD_DRAFT, KNOWLEDGE, LOGS, MYSQL, PLAN

FAKE_KEY = "sk-fake-test-key-0123456789"
SUPPORTED = json.dumps({"verdict": "SUPPORTED", "reason": "ok"})


def ray_config(*, redis_url: str, base_url: str | None = None, **sections: Any) -> AppConfig:
    data = yaml.safe_load(BUNDLED_DEFAULT.read_text())
    data["redis"] = {"url": redis_url}
    data["audit"] = {
        "url": f"sqlite:///{Path(tempfile.gettempdir()) / f'superbiz-test-{uuid.uuid4().hex}' / 'audit.db'}"
    }
    data["ray"] = {"namespace": f"test-{uuid.uuid4().hex[:10]}", "supervisor-pool": 1, "agent-pool": 1, "guard-pool": 2}
    if base_url is not None:
        data["model"] = {"provider": "openai", "base-url": base_url, "api-key": "${FAKE_OPENAI_KEY}", "timeout-s": 10}
    for key, value in sections.items():
        section = data.setdefault(key, {})
        for name, inner in value.items():
            if isinstance(inner, dict):
                section.setdefault(name, {}).update(inner)
            else:
                section[name] = inner
    return parse_config(yaml.safe_dump(data), {"FAKE_OPENAI_KEY": FAKE_KEY})


async def collect(client: HarnessClient, query: str, session_id: str = "s-1") -> list[RunEvent]:
    return [event async for event in client.chat(session_id, query)]


def payload(events: list[RunEvent]) -> dict[str, Any]:
    return next(event.data for event in events if event.event == "content")


def names(events: list[RunEvent]) -> list[str]:
    return [event.event for event in events]


def arguments(value: dict[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False)


def script_diagnosis(fake: FakeOpenAI) -> None:
    """The router and agent replies of one diagnosis of the 4-step script (the guard's is the caller's)."""
    fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"})))
    fake.script(
        "agent",
        reply(json.dumps(PLAN, ensure_ascii=False)),
        reply(None, [_call(KNOWLEDGE), _call(LOGS)]),
        reply(None, [_call(MYSQL)]),
        reply(json.dumps(GOOD_DRAFT, ensure_ascii=False), usage=(120, 80)),
    )


def diagnosis_turn(body: dict[str, Any]) -> Step:
    """The agent's reply in the 4-step script, chosen by the turns its conversation holds (any number of runs
    at once): the plan, knowledge + logs, mysql, the Draft."""
    turns = sum(1 for message in body["messages"] if message["role"] == "assistant")
    if turns == 0:
        return reply(json.dumps(PLAN, ensure_ascii=False), usage=(900, 60))
    if turns == 1:
        return reply(None, [_call(KNOWLEDGE), _call(LOGS)], usage=(1200, 80))
    if turns == 2:
        return reply(None, [_call(MYSQL)], usage=(3000, 90))
    return reply(json.dumps(GOOD_DRAFT, ensure_ascii=False), usage=(4000, 400))


def _call(call: tuple[str, str, dict[str, Any]]) -> tuple[str, str, str]:
    return call[0], call[1], arguments(call[2])
