"""SIGTERM to ``superbiz serve`` mid-run, over real HTTP: no new run is accepted (503 STOPPING), the run in flight
gets its grace, then is cancelled — its stream ends ``failure(SERVICE_STOPPING)`` + ``done(FAILED)`` and its
audit row says the same, FAILED for SERVICE_STOPPING (the chaos soak found it recorded CANCELLED: a stream and its
audit row that disagree) — and the process exits 0 without a stack dump."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import yaml

from cli.sse_client import Event, chat_events
from config.loader import BUNDLED_DEFAULT, parse_config
from stores.audit.store import SqlAuditStore
from tests.fake_openai import FakeOpenAI, hang, reply
from tests.harness.run_support import PLAN, QUERY
from tests.services import free_port

ROOT = Path(__file__).resolve().parents[2]
FAKE_KEY = "sk-shutdown-test-0123456789"
GRACE_S = 1.0
READY_WITHIN_S = 90.0


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server


def write_config(tmp_path: Path, base_url: str) -> Path:
    data = yaml.safe_load(BUNDLED_DEFAULT.read_text())
    data["model"] = {"provider": "openai", "base-url": base_url, "api-key": "${FAKE_OPENAI_KEY}", "timeout-s": 30}
    data["audit"] = {"url": f"sqlite:///{tmp_path / 'audit.db'}"}
    data.setdefault("gateway", {})["shutdown-grace"] = f"{GRACE_S:g}s"
    path = tmp_path / "superbiz.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True))
    parse_config(path.read_text(), {"FAKE_OPENAI_KEY": FAKE_KEY})
    return path


async def test_sigterm_mid_run_drains_cancels_and_exits_cleanly(tmp_path: Path, fake: FakeOpenAI) -> None:
    fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"})))
    fake.script("agent", reply(json.dumps(PLAN, ensure_ascii=False)), hang())
    config_path = write_config(tmp_path, fake.base_url)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {key: value for key, value in os.environ.items() if key != "SUPERBIZ_CONFIG"}
    output = tmp_path / "serve.log"
    with output.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "cli.main", "--config", str(config_path), "serve", "--port", str(port)],
            cwd=tmp_path,
            env={**env, "PYTHONPATH": str(ROOT), "FAKE_OPENAI_KEY": FAKE_KEY},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        async with httpx.AsyncClient(timeout=30) as client:
            await wait_ready(client, url, process)
            events: list[Event] = []
            stream = chat_events(client, url, QUERY)
            async for event in stream:
                events.append(event)
                if event.data.get("code") == "PLANNING":
                    break
            while fake.attempts("agent") < 2:  # the run is in its hanging model call
                await asyncio.sleep(0.02)
            process.send_signal(signal.SIGTERM)
            refused = await refused_while_draining(client, url)
            events += [event async for event in stream]
        exit_code = await asyncio.to_thread(process.wait, 60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)
    log_text = output.read_text(errors="replace")
    assert refused.status_code == 503 and refused.json()["error"]["code"] == "STOPPING", log_text
    assert [event.event for event in events[-2:]] == ["failure", "done"]
    assert events[-2].data["code"] == "SERVICE_STOPPING" and events[-1].data == {"outcome": "FAILED"}
    assert exit_code == 0, log_text
    assert "Traceback" not in log_text and "Fatal Python error" not in log_text, log_text
    said = [line for line in log_text.splitlines() if line.startswith("superbiz gateway")]
    assert "superbiz gateway: 0 runs finished, 1 cancelled" in said, said
    audit = SqlAuditStore(parse_config(config_path.read_text(), {"FAKE_OPENAI_KEY": FAKE_KEY}).audit)
    try:
        row = await audit.run(events[0].data["run_id"])
    finally:
        audit.close()
    assert row is not None
    assert (row["status"], row["release_outcome"], row["fallback_reason"]) == ("FAILED", "FAILED", "SERVICE_STOPPING")


async def wait_ready(client: httpx.AsyncClient, url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + READY_WITHIN_S
    while time.monotonic() < deadline:
        assert process.poll() is None, "superbiz serve exited before it was ready"
        try:
            if (await client.get(f"{url}/readyz")).status_code == 200:
                return
        except httpx.TransportError:
            pass
        await asyncio.sleep(0.1)
    pytest.fail("superbiz serve not ready")


async def refused_while_draining(client: httpx.AsyncClient, url: str) -> httpx.Response:
    """A new chat once the gateway says it is stopping (the signal lands asynchronously)."""
    deadline = time.monotonic() + GRACE_S
    while time.monotonic() < deadline:
        ready = await client.get(f"{url}/readyz")
        if ready.status_code == 503 and ready.json().get("stopping"):
            break
        await asyncio.sleep(0.02)
    return await client.post(f"{url}/api/chat", json={"query": "ERR_TIMEOUT 是什么意思？"})
