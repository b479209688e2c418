"""The system the soak runs against, started the way an operator starts it.

- Ray from its CLI: ``ray start --head`` (it carries ``harness``), and two workers with ``ray start --address``:
  ``tools`` carries the tool actors' resource, ``spare`` carries ``harness`` too, so supervisors, agents and
  guards may live there. A worker node can be killed (its raylet, ``kill -9``) and started again.
- A private Redis and a private MariaDB (the audit database and the demo order_db behind ``query_mysql``), on
  free loopback ports, restartable on the same port and data.
- The scripted model in its own process, each answer after 0.2–2 s.
- Two ``superbiz serve`` gateways on one Ray namespace, with API keys; each can be stopped with SIGTERM and
  started again on its port.

Every credential is a fresh random value handed to the gateways as an environment variable: ``secrets()``
lists them for the log scan.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets as random_secrets
import signal
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import yaml

from bench.fake_llm import FakeLlmProcess
from config.loader import BUNDLED_DEFAULT, parse_config
from tests.cluster.ray_cli import RAY, clean_env, kill_processes_under
from tests.mysql_fixtures import ALLOWED, READONLY_PASSWORD, READONLY_USER, seed_order_db
from tests.services import MariaDBServer, RedisServer, free_port

ROOT = Path(__file__).resolve().parents[2]
HARNESS, TOOL_HOST = "harness", "tool_host"
NODE_MARKER = "soak_node_"
"""Each node carries a resource ``soak_node_<name>``: its raylet is found by it, and no other Ray's is."""
HEAD_MARKER = f"{NODE_MARKER}head"
TOOLS = ("lookup_knowledge", "query_logs", "query_metrics", "query_mysql")
AUDIT_DB, AUDIT_USER = "superbiz_audit", "superbiz_audit"
MODEL_DELAY_MS = (200, 2000)
READY_TIMEOUT_S = 180.0
SHUTDOWN_GRACE_S = 5


def pids_matching(marker: str) -> list[int]:
    found = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        with contextlib.suppress(OSError):
            if marker.encode() in Path(f"/proc/{entry}/cmdline").read_bytes():
                found.append(int(entry))
    return found


def descendants(root: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for entry in filter(str.isdigit, os.listdir("/proc")):
        with contextlib.suppress(OSError, ValueError, IndexError):
            stat = Path(f"/proc/{entry}/stat").read_bytes()
            children.setdefault(int(stat[stat.rindex(b")") + 2 :].split()[1]), []).append(int(entry))
    found, todo = set(), [root]
    while todo:
        pid = todo.pop()
        for child in children.get(pid, []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def kill_now(pids: set[int] | list[int]) -> None:
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


@dataclass
class WorkerNode:
    """A worker started with ``ray start --address``; ``marker`` is a resource only it carries."""

    name: str
    resources: dict[str, float]
    marker: str = field(init=False)

    def __post_init__(self) -> None:
        self.marker = f"{NODE_MARKER}{self.name}"

    def raylet(self) -> int | None:
        return next(iter(pids_matching(f"{self.marker},1")), None)


class RayCluster:
    def __init__(self, base: Path) -> None:
        self.base = base
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        home = base / "home"
        home.mkdir(parents=True, exist_ok=True)
        self.env = clean_env(home)
        self.workers = {
            "tools": WorkerNode("tools", {TOOL_HOST: 1}),
            "spare": WorkerNode("spare", {HARNESS: 1}),
        }

    @property
    def temp_dir(self) -> Path:
        return self.base / "ray"

    def _ray(self, *args: str) -> None:
        done = subprocess.run(
            [str(RAY), "start", *args, "--node-ip-address=127.0.0.1", "--disable-usage-stats"],
            env=self.env, capture_output=True, text=True, timeout=180, check=False,
        )  # fmt: skip
        if done.returncode != 0:
            raise RuntimeError(f"ray start {' '.join(args)} failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")

    def start(self) -> None:
        self._ray(
            "--head", f"--port={self.port}", "--num-cpus=2", f"--resources={json.dumps({HARNESS: 1, HEAD_MARKER: 1})}",
            "--include-dashboard=false", f"--temp-dir={self.temp_dir}",
        )  # fmt: skip
        for name in self.workers:
            self.start_worker(name)

    def start_worker(self, name: str) -> None:
        node = self.workers[name]
        resources = {**node.resources, node.marker: 1}
        self._ray(f"--address={self.address}", "--num-cpus=1", f"--resources={json.dumps(resources)}")

    def kill_worker(self, name: str) -> bool:
        """``kill -9`` of the worker's raylet, then of everything the node ran (the host is gone)."""
        raylet = self.workers[name].raylet()
        if raylet is None:
            return False
        doomed = descendants(raylet) | set(self._log_monitors(raylet))
        kill_now([raylet])
        time.sleep(1.0)
        kill_now(doomed)
        return True

    def _log_monitors(self, raylet: int) -> list[int]:
        """The node's log monitor: ``log_monitor.N.out`` beside the raylet's socket ``raylet.N``."""
        try:
            arguments = Path(f"/proc/{raylet}/cmdline").read_bytes().decode(errors="replace").split("\0")
        except OSError:
            return []
        socket = next((a for a in arguments if a.startswith("--raylet_socket_name=")), "")
        return pids_matching(f"log_monitor{socket.rpartition('/raylet')[2]}.out") if socket else []

    def close(self) -> None:
        kill_processes_under(self.base, self.port)


@dataclass
class Gateway:
    """``superbiz serve`` on a fixed port, joining the cluster; ``restart`` keeps the port."""

    name: str
    config: Path
    address: str
    env: dict[str, str]
    log: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "cli.main", "serve", "--config", str(self.config), "--host", "127.0.0.1",
                 "--port", str(self.port), "--ray-address", self.address],
                cwd=ROOT, env=self.env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
            )  # fmt: skip

    def wait_ready(self) -> None:
        deadline = time.monotonic() + READY_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process is None or self.process.poll() is not None:
                raise RuntimeError(f"gateway {self.name} exited:\n{self.tail()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/readyz", timeout=5).status_code == 200:
                    return
            time.sleep(0.3)
        raise RuntimeError(f"gateway {self.name} not ready within {READY_TIMEOUT_S:.0f} s:\n{self.tail()}")

    def terminate(self, wait_s: float = 60.0) -> int | None:
        """SIGTERM and wait for the exit; the exit status (None if it had to be killed)."""
        if self.process is None or self.process.poll() is not None:
            return None if self.process is None else self.process.returncode
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(wait_s)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)
            return None

    def tail(self, lines: int = 40) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])


def _credentials() -> dict[str, str]:
    return {
        name: random_secrets.token_urlsafe(18)
        for name in ("SOAK_AUDIT_PASSWORD", "SOAK_MODEL_KEY", "SOAK_KEY_A", "SOAK_KEY_B")
    }


def config_data(redis_url: str, mariadb_port: int, model_url: str, namespace: str) -> dict[str, Any]:
    data = yaml.safe_load(BUNDLED_DEFAULT.read_text())
    data["redis"] = {"url": redis_url}
    data["audit"] = {
        "url": f"mysql+pymysql://127.0.0.1:{mariadb_port}/{AUDIT_DB}",
        "username": AUDIT_USER,
        "password": "${SOAK_AUDIT_PASSWORD}",
    }
    data["model"] = {"provider": "openai", "base-url": model_url, "api-key": "${SOAK_MODEL_KEY}", "timeout-s": 30}
    data["ray"] = {"namespace": namespace, "resources": {HARNESS: 0.01}}
    data["tools"] = {name: {"resources": {TOOL_HOST: 0.01}} for name in TOOLS}
    data["gateway"] = {
        "auth": "api-keys",
        "api-keys": {"soak_a": "${SOAK_KEY_A}", "soak_b": "${SOAK_KEY_B}"},
        "shutdown-grace": f"{SHUTDOWN_GRACE_S}s",
    }
    data["harness"]["mysql-tools"]["data-sources"]["order_readonly"] = {
        "driver": "mysql",
        "jdbc-url": "${SOAK_JDBC_URL}",
        "username": "${SOAK_MYSQL_USER}",
        "password": "${SOAK_MYSQL_PASSWORD}",
        "default-schema": "order_db",
        "allowed-schemas": {"order_db": {"tables": {t: {"columns": list(c)} for t, c in ALLOWED.items()}}},
    }
    return data


class Stack:
    """Everything above, started by ``start()`` and torn down by ``close()`` (also after a failed start)."""

    def __init__(self, base: Path, seed: int) -> None:
        self.base = base
        self.seed = seed
        self.credentials = {**_credentials(), "SOAK_MYSQL_PASSWORD": READONLY_PASSWORD}
        self.settings: dict[str, str] = {"SOAK_MYSQL_USER": READONLY_USER}
        self.redis = RedisServer(base_dir=base)
        self.mariadb = MariaDBServer(base_dir=base)
        self.cluster = RayCluster(base)
        self.namespace = f"soak-{uuid.uuid4().hex[:8]}"
        self.model: FakeLlmProcess | None = None
        self.gateways: list[Gateway] = []

    def secrets(self) -> list[str]:
        return list(self.credentials.values())

    def key(self, gateway_index: int) -> str:
        return self.credentials["SOAK_KEY_A" if gateway_index % 2 == 0 else "SOAK_KEY_B"]

    def start(self) -> None:
        self.redis.start()
        self.mariadb.start()
        seed_order_db(self.mariadb)
        with self.mariadb.connect() as connection, connection.cursor() as cursor:
            cursor.execute(f"CREATE DATABASE IF NOT EXISTS {AUDIT_DB}")
            cursor.execute(f"DROP USER IF EXISTS '{AUDIT_USER}'@'127.0.0.1'")
            password = self.credentials["SOAK_AUDIT_PASSWORD"]
            cursor.execute(f"CREATE USER '{AUDIT_USER}'@'127.0.0.1' IDENTIFIED BY '{password}'")
            cursor.execute(f"GRANT ALL ON {AUDIT_DB}.* TO '{AUDIT_USER}'@'127.0.0.1'")
        self.cluster.start()
        self.settings["SOAK_JDBC_URL"] = f"jdbc:mariadb://127.0.0.1:{self.mariadb.port}/order_db"
        self.model = FakeLlmProcess(MODEL_DELAY_MS[0], MODEL_DELAY_MS[1], self.seed)
        data = config_data(self.redis.url, self.mariadb.port, self.model.base_url, self.namespace)
        environ = {**self.credentials, **self.settings}
        parse_config(yaml.safe_dump(data, allow_unicode=True), environ)  # a bad configuration fails here
        path = self.base / "superbiz.yaml"
        path.write_text(yaml.safe_dump(data, allow_unicode=True))
        env = {**self.cluster.env, **environ}
        self.gateways = [
            Gateway(name, path, self.cluster.address, env, self.base / f"gateway-{name}.log") for name in ("a", "b")
        ]
        for gateway in self.gateways:
            gateway.start()
        for gateway in self.gateways:
            gateway.wait_ready()

    def audit_connection(self) -> Any:
        return self.mariadb.connect(AUDIT_DB)

    def log_files(self) -> list[Path]:
        """Every log the product wrote: the gateways' and each Ray process's (actors included)."""
        ray_logs = sorted(p for p in self.cluster.temp_dir.glob("session_*/logs/**/*") if p.is_file())
        return [gateway.log for gateway in self.gateways] + ray_logs

    def close(self) -> None:
        for gateway in self.gateways:
            gateway.terminate(30)
        if self.model is not None:
            self.model.__exit__(None, None, None)
        self.cluster.close()
        self.redis.close()
        self.mariadb.close()
