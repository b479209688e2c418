"""Schemathesis, a third-party API tester, against a live ``superbiz serve`` with every check enabled: the
OpenAPI document (each SSE event and its JSON data included) holds for every answer it provokes."""

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
SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")
READY_WITHIN_S = 90.0
MAX_EXAMPLES = 25
SEED = "20261201"


@pytest.fixture
def gateway_url(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key != "SUPERBIZ_CONFIG"}
    with (tmp_path / "serve.log").open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "cli.main", "serve", "--port", str(port)],
            cwd=tmp_path,
            env={**env, "PYTHONPATH": str(ROOT)},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + READY_WITHIN_S
        while True:
            assert process.poll() is None, (tmp_path / "serve.log").read_text()
            try:
                if httpx.get(f"{url}/readyz", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "superbiz serve not ready"
            time.sleep(0.2)
        yield url
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


def test_schemathesis_finds_no_contract_violation(gateway_url: str, tmp_path: Path) -> None:
    result = subprocess.run(
        [
            str(SCHEMATHESIS),
            "run",
            f"{gateway_url}/openapi.json",
            "--checks",
            "all",
            "--max-examples",
            str(MAX_EXAMPLES),
            "--seed",
            SEED,
            "--no-color",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert "No issues found" in result.stdout
