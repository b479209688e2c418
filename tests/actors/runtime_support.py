"""Helpers of the Ray runtime tests: a configuration per test (own namespace), and event collection."""

from __future__ import annotations

import json
import tempfile
import uuid
from pathlib import Path
from typing import Any

import yaml

from actors.runtime import HarnessClient
from config.loader import BUNDLED_DEFAULT, parse_config
from config.schema import AppConfig
from harness.events import RunEvent

FAKE_KEY = "sk-fake-test-key-0123456789"


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
