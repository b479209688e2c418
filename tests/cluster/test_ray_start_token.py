"""Joining a cluster the way users start one: ``ray start --head`` with Ray's token authentication on (a token
exists), two ``superbiz serve --ray-address`` gateways that get the token from ``ray.auth-token: ${ENV}``, a
diagnosis through each, and ``superbiz runtime stop``. A gateway without the token fails once, naming what to
set, instead of retrying."""

from __future__ import annotations

import contextlib
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import yaml

from config.loader import BUNDLED_DEFAULT
from tests.cluster.ray_cli import RAY, clean_env, kill_processes_under
from tests.harness.run_support import QUERY
from tests.services import free_port

TOKEN_ENV = "SUPERBIZ_TEST_RAY_TOKEN"
READY_WITHIN_S = 120.0
EXIT_INVALID = 2


@pytest.fixture
def head() -> Iterator[tuple[str, str, Path]]:
    """(address, token, temp dir) of a head started with ``ray start``; its processes are killed after."""
    base = Path(tempfile.mkdtemp(prefix="rt", dir="/tmp"))  # Ray's socket paths must stay short
    home = base / "home"
    home.mkdir()
    env = clean_env(home)
    subprocess.run([RAY, "get-auth-token", "--generate"], env=env, check=True, capture_output=True, timeout=60)
    token = (home / ".ray" / "auth_token").read_text().strip()
    port = free_port()
    started = subprocess.run(
        [RAY, "start", "--head", f"--port={port}", "--node-ip-address=127.0.0.1", "--num-cpus=2",
         "--include-dashboard=false", "--disable-usage-stats", f"--temp-dir={base / 'ray'}"],
        env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert started.returncode == 0, started.stdout + started.stderr
    assert "Token authentication is enabled" in started.stdout + started.stderr
    try:
        yield f"127.0.0.1:{port}", token, base
    finally:
        kill_processes_under(base, port)
        shutil.rmtree(base, ignore_errors=True)


def write_config(base: Path, namespace: str, with_token: bool) -> Path:
    data = yaml.safe_load(BUNDLED_DEFAULT.read_text())
    data["audit"] = {"url": f"sqlite:///{base / 'audit.db'}"}
    data["ray"] = {"namespace": namespace, "supervisor-pool": 1, "agent-pool": 1, "guard-pool": 1}
    if with_token:
        data["ray"]["auth-token"] = "${" + TOKEN_ENV + "}"
    path = base / f"{namespace}-{'token' if with_token else 'none'}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True))
    return path


def superbiz(config: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "cli.main", "--config", str(config), *args]


def test_two_gateways_join_a_token_cluster_and_runtime_stop_clears_it(head: tuple[str, str, Path]) -> None:
    address, token, base = head
    home = base / "gateway-home"  # no ~/.ray/auth_token: the token comes from the configuration only
    home.mkdir()
    env = {**clean_env(home), TOKEN_ENV: token}
    config = write_config(base, "token-join", with_token=True)
    gateways = []
    try:
        for _ in range(2):
            port = free_port()
            log = (base / f"gateway-{port}.log").open("wb")
            process = subprocess.Popen(
                superbiz(config, "serve", "--port", str(port), "--ray-address", address),
                cwd=base, env=env, stdout=log, stderr=subprocess.STDOUT,
            )  # fmt: skip
            gateways.append((process, f"http://127.0.0.1:{port}", log))
        with httpx.Client(timeout=60) as client:
            for process, url, _ in gateways:
                wait_ready(client, url, process)
            for _, url, _ in gateways:
                with client.stream("POST", f"{url}/api/chat", json={"query": QUERY}) as chat:
                    assert chat.status_code == 200
                    text = "".join(chat.iter_text())
                assert 'event: done\r\ndata: {"outcome": "SUCCESS"}' in text or '"outcome": "SUCCESS"' in text, text
    finally:
        for process, _, log in gateways:
            process.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(60)
            log.close()
    stopped = subprocess.run(
        superbiz(config, "runtime", "stop", "--ray-address", address),
        cwd=base, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert stopped.returncode == 0, stopped.stdout + stopped.stderr
    assert "stopped 0 actor" not in stopped.stdout and "actor(s) in Ray namespace 'token-join'" in stopped.stdout


def test_a_gateway_without_the_token_fails_once_naming_what_to_set(head: tuple[str, str, Path]) -> None:
    address, _, base = head
    home = base / "no-token-home"
    home.mkdir()
    env = clean_env(home)
    config = write_config(base, "no-token", with_token=False)
    started = time.monotonic()
    result = subprocess.run(
        superbiz(config, "serve", "--port", str(free_port()), "--ray-address", address),
        cwd=base, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == EXIT_INVALID, result.stdout + result.stderr
    assert "ray.auth-token" in result.stderr and "authentication token: none found" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    assert time.monotonic() - started < 90


def wait_ready(client: httpx.Client, url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + READY_WITHIN_S
    while time.monotonic() < deadline:
        assert process.poll() is None, f"superbiz serve exited with {process.returncode}"
        with contextlib.suppress(httpx.TransportError):
            if client.get(f"{url}/readyz").status_code == 200:
                return
        time.sleep(0.2)
    pytest.fail(f"{url} not ready within {READY_WITHIN_S:.0f} s")
