"""``superbiz serve`` listens at once: from the first second ``/healthz`` answers 200, ``/readyz`` 503 naming what
it still waits for and ``POST /api/chat`` 503 NOT_READY (with Retry-After), until Ray and the actors are up."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.services import free_port

ROOT = Path(__file__).resolve().parents[2]
LISTEN_WITHIN_S = 5.0
READY_WITHIN_S = 90.0
PROBE_EVERY_S = 0.1


@pytest.fixture
def serving(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], str, float]]:
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key != "SUPERBIZ_CONFIG"}
    log = (tmp_path / "serve.log").open("wb")
    launched = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=tmp_path,  # the embedded defaults keep their audit file under the working directory
        env={**env, "PYTHONPATH": str(ROOT)},
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        yield process, f"http://127.0.0.1:{port}", launched
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
        log.close()


def test_health_answers_at_once_and_readiness_says_what_it_waits_for(
    serving: tuple[subprocess.Popen[bytes], str, float],
) -> None:
    process, url, launched = serving
    listening_after = None
    not_ready: list[httpx.Response] = []
    refused_chats: list[httpx.Response] = []
    with httpx.Client(timeout=5) as client:
        while time.monotonic() - launched < READY_WITHIN_S:
            assert process.poll() is None, "superbiz serve exited"
            try:
                health = client.get(f"{url}/healthz")
            except httpx.TransportError:
                assert time.monotonic() - launched < LISTEN_WITHIN_S, "the gateway is not listening yet"
                time.sleep(PROBE_EVERY_S)
                continue
            assert health.status_code == 200
            listening_after = listening_after or time.monotonic() - launched
            ready = client.get(f"{url}/readyz")
            if ready.status_code == 200:
                break
            not_ready.append(ready)
            if len(refused_chats) < 3:
                refused_chats.append(client.post(f"{url}/api/chat", json={"query": "订单 order-123 支付超时"}))
            time.sleep(PROBE_EVERY_S)
        else:
            pytest.fail(f"not ready within {READY_WITHIN_S:.0f} s")
        assert listening_after is not None and listening_after < LISTEN_WITHIN_S
        assert not_ready, "ready before a single probe saw it starting: nothing was checked"
        for response in not_ready:
            assert response.status_code == 503
            body = response.json()
            assert body["ready"] is False and body["waiting_for"]
            assert set(body["waiting_for"]) <= {"audit", "ray", "supervisors", "redis"}
        for response in refused_chats:
            assert response.status_code == 503
            assert response.headers["retry-after"].isdigit()
            assert response.json()["error"]["code"] == "NOT_READY"
        assert ready.json() == {
            "ready": True,
            "waiting_for": [],
            "checks": {"ray": True, "supervisors": True, "redis": True, "audit": True},
        }
        with client.stream("POST", f"{url}/api/chat", json={"query": "ERR_TIMEOUT 是什么意思？"}) as chat:
            assert chat.status_code == 200
            assert "event: done" in "".join(chat.iter_text())
