"""Load over real HTTP: C concurrent SSE clients against ``superbiz serve``, next to an in-process baseline and
a LangGraph peer.

The bench starts a private Redis, a local Ray cluster (``ray.init(address="local")``; the bench stays connected
as a driver to read the tool actors' ``stats()``) and, for each (model delay, C), a fresh ``superbiz serve``
subprocess joining that cluster (``--ray-address``) with its own namespace, temp SQLite audit file and a fake
OpenAI endpoint in its own process (``bench/fake_llm.py``: the fixed 4-step diagnosis, 6 model calls per run,
each answered after the delay). C clients each send one question at a time until N runs are done; every stream
is checked: metadata first, status*, exactly one content|failure, done last with SUCCESS (anything else is
counted as lost or malformed). Printed per (delay, C): runs/s, p50/p95/p99 end to end, time to the first
event (metadata) p50/p99, the Harness overhead (p50 minus the 6 injected model delays), the ideal throughput
the delays allow (C / (6 x delay)), the peak in-flight calls per tool actor against its limit, and the peak
resident memory of the whole local cluster (every Ray process + the gateway, RSS sampled every 0.5 s).

In the same run, per (delay, C): the same Harness code in-process (``actors.in_process_ports``: no Ray, no HTTP,
the same fake endpoint, Redis and SQLite audit), and at zero delay a LangGraph ReAct agent playing the same script
(``bench/langgraph_peer.py``; needs the optional ``bench`` extra, skipped with a message without it).

    python bench/load.py [--levels 10,50,200] [--delays 0,100] [--runs-per-level N] [--tracing ROUNDS] [--quick]

Targets (issue 11), printed with their ratios at the end: at C = 200 with a zero-delay model, the product's CPU
per run (every process but the fake endpoint and the bench's own SSE clients, Ray's daemons included) <= 1.5x
the LangGraph peer's, and runs/s >= 1.2x the peer's; at every level p99 <= 3x p50, time to first event <= 50 ms
at p50, 0 lost or malformed; peak RSS of the cluster <= 4 GB. With the 100 ms model, runs/s is also set against
min(ideal, the zero-delay capacity just measured).

Tracing (issue 22): ``--tracing`` rounds (default 1; none with ``--quick``) of the server at zero delay and the top
level with tracing off and then on, every process exporting its spans over OTLP/HTTP to a receiver in the bench's
process; target: CPU per run with tracing on <= 1.10x off.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import aiohttp
import httpx
import langgraph_peer
import ray
import yaml
from fake_llm import MODEL_CALLS_PER_RUN, FakeLlmProcess

from actors.in_process_ports import local_services
from actors.model_factory import build_model
from actors.names import tool_actor_name
from cli.sse_client import Event
from config.app import AppConfig
from config.loader import BUNDLED_DEFAULT, parse_config
from harness.messages import RunEvent, StartRun
from harness.run.flow import Run
from harness.structured_logging import configure_logging
from stores.audit.store import SqlAuditStore
from stores.invocation_store import InvocationStore
from stores.redis_client import connect_redis
from tests.otlp_receiver import Receiver
from tests.services import RedisServer, free_port

ROOT = Path(__file__).resolve().parents[1]
QUERY = "订单 order-123 支付超时，帮我排查"
TOOLS = ("lookup_knowledge", "query_logs", "query_mysql")
TOOL_CONCURRENCY = 16
TOOL_MAX_PENDING = 1000
BENCH_ENV = {"BENCH_KEY": "sk-bench"}
LOOPBACK_ENV = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"
"""Set to 0: Ray's single-machine mode, every node address on loopback (``get_node_ip_address``)."""
RUN_TIMEOUT_S = 120.0
"""A stream not finished by then is counted as lost (and the request loop stays bounded in time)."""
READY_TIMEOUT_S = 180.0
RSS_INTERVAL_S = 0.5
GB = 1024**3

TARGET_PEER_RATIO = 1.2
TARGET_CPU_RATIO = 1.5
TARGET_DELAYED_SHARE = 0.85
TARGET_TAIL = 3.0
TARGET_TTFE_S = 0.050
TARGET_RSS = 4 * GB
TARGET_TRACING_CPU_RATIO = 1.10


# -- results -------------------------------------------------------------------------------------------------


@dataclass
class Level:
    """One measured (system, delay, C): N runs by C clients."""

    concurrency: int
    delay_ms: float
    runs: int
    elapsed: float
    latencies: list[float]
    first_event: list[float]
    bad: Counter[str]
    cpu: dict[str, float] = field(default_factory=dict)
    """CPU seconds per process group over the measured runs (``CPU_GROUPS``, 'other', 'wall')."""
    tools: dict[str, dict[str, Any] | None] = field(default_factory=dict)
    peak_rss: int = 0
    peak_processes: int = 0
    startup_s: float = 0.0

    @property
    def rate(self) -> float:
        return self.runs / self.elapsed

    def p(self, q: float, values: list[float] | None = None) -> float:
        ordered = sorted(self.latencies if values is None else values)
        if not ordered:
            return float("nan")
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    @property
    def injected(self) -> float:
        return MODEL_CALLS_PER_RUN * self.delay_ms / 1000

    @property
    def ideal(self) -> float:
        return self.concurrency / self.injected if self.injected else float("inf")

    @property
    def lost(self) -> int:
        return sum(self.bad.values())


def stream_verdict(events: list[Event] | list[RunEvent]) -> str:
    """'SUCCESS' for a well-formed successful stream, else a short reason (counted as lost or malformed)."""
    names = [event.event for event in events]
    if not names:
        return "lost:no-event"
    if names[0] != "metadata":
        return f"malformed:first={names[0]}"
    if names[-1] != "done":
        return "lost:no-done"
    finals = [index for index, name in enumerate(names) if name in ("content", "failure")]
    if len(finals) != 1 or finals[0] != len(names) - 2:
        return "malformed:final"
    if any(name != "status" for name in names[1:-2]):
        return "malformed:order"
    outcome = events[-1].data.get("outcome")
    final = events[-2]
    if outcome != "SUCCESS":
        detail = final.data.get("code") or final.data.get("payload", {}).get("type", "")
        return f"{outcome}:{detail}"
    if final.event != "content" or final.data.get("content_type") != "DIAGNOSIS_REPORT":
        return f"malformed:success-with-{final.event}"
    return "SUCCESS"


async def drive(concurrency: int, runs: int, one: Callable[[], Awaitable[tuple[float, float | None, str]]]) -> Level:
    """``concurrency`` clients, one run at a time each, ``runs`` in total."""
    remaining = iter(range(runs))
    results: list[tuple[float, float | None, str]] = []

    async def client() -> None:
        for _ in remaining:
            results.append(await one())

    before = CpuSnapshot.take()
    started = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(concurrency)))
    elapsed = time.perf_counter() - started
    cpu = before.until(CpuSnapshot.take())
    return Level(
        concurrency=concurrency,
        delay_ms=0,
        runs=runs,
        elapsed=elapsed,
        latencies=[latency for latency, _, _ in results],
        first_event=[first for _, first, _ in results if first is not None],
        bad=Counter(verdict for _, _, verdict in results if verdict != "SUCCESS"),
        cpu=cpu,
    )


# -- the configuration, the gateway process, the cluster's memory --------------------------------------------


def config_data(
    redis_url: str,
    base_url: str,
    namespace: str,
    max_active_runs: int,
    audit: Path,
    otlp_endpoint: str | None = None,
) -> dict[str, Any]:
    data = yaml.safe_load(BUNDLED_DEFAULT.read_text())
    if otlp_endpoint is not None:
        data["telemetry"] = {"otlp-endpoint": otlp_endpoint}
    data["redis"] = {"url": redis_url}
    data["model"] = {"provider": "openai", "base-url": base_url, "api-key": "${BENCH_KEY}", "timeout-s": 30}
    data["ray"] = {"namespace": namespace, "max-active-runs": max_active_runs}
    data["tools"] = {name: {"concurrency": TOOL_CONCURRENCY, "max-pending": TOOL_MAX_PENDING} for name in TOOLS}
    data["harness"]["agent"] = {"max-tool-calls": 20}
    data["audit"] = {"url": f"sqlite:///{audit}"}
    return data


def app_config(data: dict[str, Any]) -> AppConfig:
    return parse_config(yaml.safe_dump(data, allow_unicode=True), BENCH_ENV)


class GatewayProcess:
    """``superbiz serve`` in a subprocess joining the bench's Ray cluster; ready once /readyz says so. ``stop``
    also kills the runtime's actors in its namespace."""

    def __init__(self, config_path: Path, ray_address: str, log_path: Path, namespace: str) -> None:
        self.namespace = namespace
        self.url = f"http://127.0.0.1:{free_port()}"
        self.log_path = log_path
        port = self.url.rsplit(":", 1)[1]
        with log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "cli.main",
                    "serve",
                    "--config",
                    str(config_path),
                    "--host",
                    "127.0.0.1",
                    "--port",
                    port,
                    "--ray-address",
                    ray_address,
                ],
                cwd=ROOT,
                env={**os.environ, **BENCH_ENV},
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
            )

    def wait_ready(self) -> float:
        started = time.monotonic()
        while time.monotonic() - started < READY_TIMEOUT_S:
            if self.process.poll() is not None:
                raise RuntimeError(f"superbiz serve exited with {self.process.returncode}:\n{self.tail()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/readyz", timeout=5).status_code == 200:
                    return time.monotonic() - started
            time.sleep(0.2)
        raise RuntimeError(f"superbiz serve not ready after {READY_TIMEOUT_S:.0f} s:\n{self.tail()}")

    def tail(self, lines: int = 30) -> str:
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        # The runtime's actors may be detached (they outlive the gateway): kill every actor of its namespace and
        # wait until their workers are gone, so the next measurement neither shares the CPU with them nor
        # counts their memory.
        for actor in ray.util.list_named_actors(all_namespaces=True):
            if actor["namespace"] == self.namespace:
                with contextlib.suppress(ValueError, ray.exceptions.RayError):
                    ray.kill(ray.get_actor(actor["name"], namespace=self.namespace), no_restart=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and any(group in ACTORS for group in map(safe_group, descendants())):
            time.sleep(0.2)


def read_proc(path: str) -> bytes:
    with open(path, "rb") as file:
        return file.read()


def descendants() -> list[int]:
    """Every process below this one (from /proc; psutil is not a dependency of the project)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        with contextlib.suppress(OSError, ValueError, IndexError):
            stat = read_proc(f"/proc/{entry}/stat")
            parent = int(stat[stat.rindex(b")") + 2 :].split()[1])
            children.setdefault(parent, []).append(int(entry))
    found, todo = [], list(children.get(os.getpid(), []))
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


CPU_GROUPS = ("client", "gateway", "supervisor", "agent", "guard", "tools", "ray", "fake LLM", "redis")
"""client: this process (the SSE clients and the Ray driver; the whole Harness for the in-process baseline and
the LangGraph peer); ray: GCS, raylet, Ray's agents and monitors, idle workers."""
_ACTOR_GROUPS = {
    "RunSupervisor": "supervisor",
    "DiagnosisAgentActor": "agent",
    "SemanticGuardActor": "guard",
    "ToolActor": "tools",
}


def cpu_group(pid: int) -> str:
    if pid == os.getpid():
        return "client"
    command = read_proc(f"/proc/{pid}/cmdline").decode(errors="replace")
    if command.startswith("ray::"):
        return _ACTOR_GROUPS.get(command[5:].split(".")[0].split()[0].strip("\x00"), "ray")
    if "cli.main" in command:
        return "gateway"
    if "fake_llm.py" in command:
        return "fake LLM"
    if "redis-server" in command:
        return "redis"
    return "ray"


ACTORS = frozenset(_ACTOR_GROUPS.values())


def safe_group(pid: int) -> str:
    try:
        return cpu_group(pid)
    except OSError:
        return "gone"


@dataclass
class CpuSnapshot:
    """CPU seconds used so far by each of this bench's processes, and by the whole machine."""

    per_pid: dict[int, float]
    machine_busy: float
    at: float

    TICK: ClassVar[int] = os.sysconf("SC_CLK_TCK")

    @classmethod
    def take(cls) -> CpuSnapshot:
        per_pid: dict[int, float] = {}
        for pid in [os.getpid(), *descendants()]:
            with contextlib.suppress(OSError, ValueError, IndexError):
                stat = read_proc(f"/proc/{pid}/stat")
                fields = stat[stat.rindex(b")") + 2 :].split()
                per_pid[pid] = (int(fields[11]) + int(fields[12])) / cls.TICK
        jiffies = [int(value) for value in read_proc("/proc/stat").split(b"\n", 1)[0].split()[1:]]
        busy = sum(jiffies) - jiffies[3] - jiffies[4]  # minus idle and iowait
        return cls(per_pid, busy / cls.TICK, time.monotonic())

    def until(self, later: CpuSnapshot) -> dict[str, float]:
        """CPU seconds per group between the two snapshots, plus 'other' (the machine's load not ours)."""
        used = dict.fromkeys(CPU_GROUPS, 0.0)
        for pid, seconds in later.per_pid.items():
            with contextlib.suppress(OSError):
                used[cpu_group(pid)] += seconds - self.per_pid.get(pid, 0.0)
        used["other"] = max(0.0, later.machine_busy - self.machine_busy - sum(used.values()))
        used["wall"] = later.at - self.at
        return used


class ClusterMemory(threading.Thread):
    """Every 0.5 s, the summed RSS of this process's descendants except the fake endpoints and Redis: the Ray
    processes this bench started (GCS, raylet, agents, every worker and actor) and the gateway."""

    EXCLUDED = (b"fake_llm.py", b"redis-server")
    PAGE = os.sysconf("SC_PAGE_SIZE")

    def __init__(self) -> None:
        super().__init__(name="cluster-rss", daemon=True)
        self._lock = threading.Lock()
        self._peak = (0, 0)
        self._stop = threading.Event()

    def sample(self) -> tuple[int, int]:
        total = count = 0
        for pid in descendants():
            with contextlib.suppress(OSError, ValueError, IndexError):
                if any(token in read_proc(f"/proc/{pid}/cmdline") for token in self.EXCLUDED):
                    continue
                total += int(read_proc(f"/proc/{pid}/statm").split()[1]) * self.PAGE
                count += 1
        return total, count

    def run(self) -> None:
        while not self._stop.wait(RSS_INTERVAL_S):
            sample = self.sample()
            with self._lock:
                self._peak = max(self._peak, sample)

    def take_peak(self) -> tuple[int, int]:
        """(peak bytes, processes at the peak) since the last call."""
        with self._lock:
            peak, self._peak = self._peak, (0, 0)
        return peak

    def stop(self) -> None:
        self._stop.set()


def tool_stats(namespace: str) -> dict[str, dict[str, Any] | None]:
    stats: dict[str, dict[str, Any] | None] = {}
    for name in TOOLS:
        try:
            actor = ray.get_actor(tool_actor_name(name), namespace=namespace)
            stats[name] = dict(ray.get(actor.stats.remote(), timeout=30))
        except (ValueError, ray.exceptions.RayError):
            stats[name] = None
    return stats


# -- the three systems ----------------------------------------------------------------------------------------


async def sse_events(session: aiohttp.ClientSession, url: str, query: str) -> AsyncIterator[Event]:
    """POST ``/api/chat`` and yield its events: the load generator's SSE reader, on aiohttp because it shares
    the two cores with the system it measures (``cli.sse_client`` on httpx cost 6.3 ms of CPU per run at
    C = 200, this 1.1 ms)."""
    async with session.post(f"{url}/api/chat", json={"query": query}) as response:
        if response.status != 200:
            raise RuntimeError(f"HTTP {response.status}")
        name, data = "message", []
        async for raw in response.content:
            line = raw.decode().rstrip("\r\n")
            if not line:
                if data:
                    yield Event(name, json.loads("\n".join(data)))
                name, data = "message", []
            elif line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].removeprefix(" "))


async def http_run(session: aiohttp.ClientSession, url: str) -> tuple[float, float | None, str]:
    started = time.perf_counter()
    first: float | None = None
    received: list[Event] = []
    try:
        async with asyncio.timeout(RUN_TIMEOUT_S):
            async for event in sse_events(session, url, QUERY):
                if first is None:
                    first = time.perf_counter() - started
                received.append(event)
        verdict = stream_verdict(received)
    except TimeoutError:
        verdict = "lost:timeout"
    except Exception as error:
        verdict = f"lost:{type(error).__name__}"
    return time.perf_counter() - started, first, verdict


async def server_level(url: str, concurrency: int, runs: int) -> Level:
    connector = aiohttp.TCPConnector(limit=concurrency + 8)
    timeout = aiohttp.ClientTimeout(total=None, sock_connect=30, sock_read=60)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        warm = min(concurrency, 10)
        await drive(warm, 2 * warm, lambda: http_run(session, url))
        return await drive(concurrency, runs, lambda: http_run(session, url))


async def baseline_level(config: AppConfig, concurrency: int, runs: int) -> Level:
    """The same runs through ``actors.in_process_ports`` in this event loop: no Ray, no HTTP, same endpoint, Redis,
    audit."""
    audit = SqlAuditStore(config.audit)
    audit.init_schema()
    redis = connect_redis(config.redis)
    store = InvocationStore(redis, config.harness.evidence)
    model = build_model(config.model)
    services = local_services(config, model, audit=audit, store=store)

    async def one() -> tuple[float, float | None, str]:
        started = time.perf_counter()
        run = Run(services, StartRun(session_id=uuid.uuid4().hex, query=QUERY))
        execution = asyncio.ensure_future(run.execute())
        received: list[RunEvent] = []
        first: float | None = None
        try:
            async with asyncio.timeout(RUN_TIMEOUT_S):
                while not received or received[-1].event != "done":
                    received.append(await run.events.get())
                    first = first if first is not None else time.perf_counter() - started
                await execution
            verdict = stream_verdict(received)
        except TimeoutError:
            execution.cancel()
            verdict = "lost:timeout"
        return time.perf_counter() - started, first, verdict

    try:
        warm = min(concurrency, 10)
        await drive(warm, 2 * warm, one)
        return await drive(concurrency, runs, one)
    finally:
        await model.aclose()
        await redis.aclose()
        audit.close()


async def peer_level(base_url: str, concurrency: int, runs: int) -> tuple[str, Level]:
    label, graph = langgraph_peer.build_peer(base_url)

    async def one() -> tuple[float, float | None, str]:
        latency, outcome = await langgraph_peer.one_run(graph)
        return latency, None, outcome

    warm = min(concurrency, 10)
    await drive(warm, 2 * warm, one)
    return label, await drive(concurrency, runs, one)


# -- printing --------------------------------------------------------------------------------------------------


def ms(seconds: float) -> str:
    if seconds != seconds:  # nan
        return "-"
    return f"{seconds * 1e3:.0f} ms" if seconds < 10 else f"{seconds:.1f} s"


def bad_text(level: Level) -> str:
    return f"{level.lost}" + (f" {dict(level.bad)}" if level.bad else "")


def print_server(levels: list[Level]) -> None:
    print("\nsuperbiz serve over HTTP (SSE), fresh gateway per row on one local Ray cluster")
    print(
        f"{'delay':>6} | {'C':>4} | {'runs':>5} | {'runs/s':>7} | {'p50':>7} | {'p95':>7} | {'p99':>7} | "
        f"{'TTFE p50':>8} | {'TTFE p99':>8} | {'overhead p50':>12} | {'ideal/s':>7} | "
        f"{'peak in-flight k/l/m':>20} | {'peak RSS':>9} | lost/malformed"
    )
    print("-" * 160)
    for level in levels:
        peaks = "/".join(str(stats["peak_in_flight"]) if (stats := level.tools.get(name)) else "?" for name in TOOLS)
        limits = {stats["limit"] for stats in level.tools.values() if stats}
        busy = sum(stats["busy_rejections"] for stats in level.tools.values() if stats)
        peaks = f"{peaks} (limit {'/'.join(map(str, sorted(limits))) or '?'})" + (f" busy {busy}" if busy else "")
        ideal = f"{level.ideal:>7.1f}" if level.injected else f"{'∞':>7}"
        print(
            f"{level.delay_ms:>4.0f}ms | {level.concurrency:>4} | {level.runs:>5} | {level.rate:>7.1f} | "
            f"{ms(level.p(0.5)):>7} | {ms(level.p(0.95)):>7} | {ms(level.p(0.99)):>7} | "
            f"{ms(level.p(0.5, level.first_event)):>8} | {ms(level.p(0.99, level.first_event)):>8} | "
            f"{ms(level.p(0.5) - level.injected):>12} | {ideal} | {peaks:>20} | "
            f"{level.peak_rss / GB:>6.2f} GB | {bad_text(level)}"
        )
    print(
        "peak in-flight k/l/m: lookup_knowledge / query_logs / query_mysql, from each tool actor's stats(); "
        "peak RSS: every Ray process of the local cluster + the gateway ("
        + ", ".join(f"{level.peak_processes}" for level in levels)
        + " processes at the peaks); gateway start to /readyz: "
        + ", ".join(f"{level.startup_s:.1f} s" for level in levels)
    )


def print_baseline(levels: list[Level], server: dict[tuple[float, int], Level]) -> None:
    print("\nIn-process baseline (actors.in_process_ports: the same Harness code, no Ray, no HTTP, same services)")
    print(
        f"{'delay':>6} | {'C':>4} | {'runs':>5} | {'runs/s':>7} | {'p50':>7} | {'p95':>7} | {'p99':>7} | "
        f"{'TTFE p50':>8} | {'overhead p50':>12} | {'lost':>4} | server/baseline runs/s | p50"
    )
    print("-" * 118)
    for level in levels:
        ref = server.get((level.delay_ms, level.concurrency))
        ratio = f"{ref.rate / level.rate:>22.2f}x | {ref.p(0.5) / level.p(0.5):.2f}x" if ref else f"{'-':>23} | -"
        print(
            f"{level.delay_ms:>4.0f}ms | {level.concurrency:>4} | {level.runs:>5} | {level.rate:>7.1f} | "
            f"{ms(level.p(0.5)):>7} | {ms(level.p(0.95)):>7} | {ms(level.p(0.99)):>7} | "
            f"{ms(level.p(0.5, level.first_event)):>8} | {ms(level.p(0.5) - level.injected):>12} | "
            f"{bad_text(level):>4} | {ratio}"
        )


def print_peer(label: str, levels: list[Level], server: dict[tuple[float, int], Level]) -> None:
    print(f"\nLangGraph peer, zero-delay model, in-process: {label}")
    print(
        f"{'C':>4} | {'runs':>5} | {'runs/s':>7} | {'p50':>7} | {'p95':>7} | {'p99':>7} | {'failed':>6} | "
        "server/peer runs/s"
    )
    print("-" * 80)
    for level in levels:
        ref = server.get((0.0, level.concurrency))
        print(
            f"{level.concurrency:>4} | {level.runs:>5} | {level.rate:>7.1f} | {ms(level.p(0.5)):>7} | "
            f"{ms(level.p(0.95)):>7} | {ms(level.p(0.99)):>7} | {bad_text(level):>6} | "
            + (f"{ref.rate / level.rate:.2f}x" if ref else "-")
        )


def print_cpu(rows: list[tuple[str, Level]]) -> None:
    cores = os.cpu_count() or 1
    print("\nCPU per run (ms) by process group over the measured runs; 'other': the rest of the machine's load")
    head = " | ".join(f"{group:>10}" for group in CPU_GROUPS)
    print(f"{'system':>8} | {'delay':>6} | {'C':>4} | {head} | {'total':>6} | ours/{cores} cores | other (cores)")
    print("-" * (54 + 13 * len(CPU_GROUPS)))
    for system, level in rows:
        cpu, runs = level.cpu, level.runs
        ours = sum(cpu[group] for group in CPU_GROUPS)
        cells = " | ".join(f"{cpu[group] / runs * 1e3:>10.1f}" for group in CPU_GROUPS)
        print(
            f"{system:>8} | {level.delay_ms:>4.0f}ms | {level.concurrency:>4} | {cells} | {ours / runs * 1e3:>6.1f} | "
            f"{ours / (cpu['wall'] * cores):>12.0%} | {cpu['other'] / cpu['wall']:>6.2f}"
        )


def product_cpu(level: Level, system: str) -> float:
    """CPU seconds per run of the system under test: every process but the fake model endpoint, and for the
    server also without the bench's SSE clients (for the in-process systems the client process is the system)."""
    excluded = {"fake LLM"} | ({"client"} if system == "server" else set())
    return sum(level.cpu[group] for group in CPU_GROUPS if group not in excluded) / level.runs


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def print_targets(server: list[Level], peers: list[Level]) -> None:
    print("\nTargets")
    zero = [level for level in server if level.delay_ms == 0]
    top = max((level.concurrency for level in server), default=0)
    zero_top = next((level for level in zero if level.concurrency == top), None)
    peer_top = next((level for level in peers if level.concurrency == top), None)
    if zero_top and peer_top:
        need = TARGET_PEER_RATIO * peer_top.rate
        print(
            f"  C={top}, zero delay: {zero_top.rate:.1f} runs/s vs LangGraph {peer_top.rate:.1f} -> "
            f"{zero_top.rate / peer_top.rate:.2f}x (target >= {TARGET_PEER_RATIO}x = {need:.1f} runs/s): "
            f"{verdict(zero_top.rate >= need)}"
        )
        server_cpu, peer_cpu = product_cpu(zero_top, "server"), product_cpu(peer_top, "langgraph")
        print(
            f"  C={top}, zero delay: CPU per run {server_cpu * 1e3:.1f} ms (every process of the product, Ray's "
            f"included) vs LangGraph {peer_cpu * 1e3:.1f} ms -> {server_cpu / peer_cpu:.2f}x "
            f"(target <= {TARGET_CPU_RATIO}x): {verdict(server_cpu <= TARGET_CPU_RATIO * peer_cpu)}"
        )
    else:
        print(f"  C={top}, zero delay vs LangGraph: not measured (needs delay 0 and the peer)")
    capacity = max((level.rate for level in zero), default=None)
    for level in server:
        if level.delay_ms == 0:
            continue
        bound = min(level.ideal, capacity) if capacity else level.ideal
        print(
            f"  {level.delay_ms:.0f} ms model, C={level.concurrency}: {level.rate:.1f} runs/s vs "
            f"min(ideal {level.ideal:.1f}, zero-delay capacity "
            f"{f'{capacity:.1f}' if capacity else '-'}) = {bound:.1f} -> {level.rate / bound:.0%} "
            f"(target >= {TARGET_DELAYED_SHARE:.0%}): {verdict(level.rate >= TARGET_DELAYED_SHARE * bound)}"
        )
    for level in server:
        p50, p99, ttfe = level.p(0.5), level.p(0.99), level.p(0.5, level.first_event)
        print(
            f"  {level.delay_ms:.0f} ms, C={level.concurrency}: p99/p50 {p99 / p50:.2f} (<= {TARGET_TAIL:.0f}): "
            f"{verdict(p99 <= TARGET_TAIL * p50)}; TTFE p50 {ms(ttfe)} (<= {TARGET_TTFE_S * 1e3:.0f} ms): "
            f"{verdict(ttfe <= TARGET_TTFE_S)}; lost/malformed {level.lost} (= 0): {verdict(level.lost == 0)}"
        )
    peak = max((level.peak_rss for level in server), default=0)
    print(f"  peak RSS of the cluster {peak / GB:.2f} GB (<= {TARGET_RSS / GB:.0f} GB): {verdict(peak <= TARGET_RSS)}")


# -- main ------------------------------------------------------------------------------------------------------


async def gateway_level(
    delay_ms: float,
    concurrency: int,
    runs: int,
    namespace: str,
    ray_address: str,
    redis_url: str,
    work: Path,
    memory: ClusterMemory,
    max_active: int,
    otlp_endpoint: str | None = None,
) -> Level:
    """One level of the server: a fresh fake model and gateway, with the cluster's memory peak and tool stats;
    with ``otlp_endpoint``, every process of it exports its spans there."""
    with FakeLlmProcess(delay_ms) as fake:
        data = config_data(redis_url, fake.base_url, namespace, max_active, work / f"{namespace}.db", otlp_endpoint)
        app_config(data)  # fail here, not in the subprocess, on a bad configuration
        path = work / f"{namespace}.yaml"
        path.write_text(yaml.safe_dump(data, allow_unicode=True))
        gateway = GatewayProcess(path, ray_address, work / f"{namespace}.log", namespace)
        try:
            startup = gateway.wait_ready()
            memory.take_peak()
            level = await server_level(gateway.url, concurrency, runs)
            level.peak_rss, level.peak_processes = memory.take_peak()
            level.tools = tool_stats(namespace)
            level.startup_s = startup
        finally:
            gateway.stop()
    level.delay_ms = delay_ms
    return level


async def main(args: argparse.Namespace, ray_address: str, redis_url: str, work: Path) -> None:
    delays = [float(d) for d in args.delays.split(",")]
    levels = [int(c) for c in args.levels.split(",")]
    max_active = max(levels)
    peer_missing = langgraph_peer.available()
    print(
        f"{os.cpu_count()} cores; Ray {ray.__version__} local cluster at {ray_address}; private Redis; "
        f"{MODEL_CALLS_PER_RUN} model calls per run; tools {TOOL_CONCURRENCY}/{TOOL_MAX_PENDING} "
        f"(concurrency/max-pending); ray.max-active-runs {max_active} per supervisor"
    )
    if peer_missing:
        print(f"LangGraph peer skipped: {peer_missing}")
    memory = ClusterMemory()
    memory.start()
    server: list[Level] = []
    baseline: list[Level] = []
    peers: list[Level] = []
    peer_label = ""
    try:
        for delay_ms in delays:
            for concurrency in levels:
                runs = args.runs_per_level or max(300, 4 * concurrency)
                namespace = f"load-{uuid.uuid4().hex[:8]}"
                level = await gateway_level(
                    delay_ms, concurrency, runs, namespace, ray_address, redis_url, work, memory, max_active
                )
                server.append(level)
                print(
                    f"  server   delay {delay_ms:.0f} ms C={concurrency}: {level.rate:.1f} runs/s, "
                    f"p50 {ms(level.p(0.5))}, lost {level.lost}",
                    flush=True,
                )
                with FakeLlmProcess(delay_ms) as fake:
                    local = app_config(config_data(redis_url, fake.base_url, namespace, max_active, work / "local.db"))
                    level = await baseline_level(local, concurrency, runs)
                level.delay_ms = delay_ms
                baseline.append(level)
                print(f"  baseline delay {delay_ms:.0f} ms C={concurrency}: {level.rate:.1f} runs/s", flush=True)
                if delay_ms == 0 and not peer_missing:
                    with FakeLlmProcess(0) as fake:
                        peer_label, level = await peer_level(fake.base_url, concurrency, runs)
                    peers.append(level)
                    print(f"  langgraph          C={concurrency}: {level.rate:.1f} runs/s", flush=True)
        if args.tracing:
            traced = await tracing_levels(args, ray_address, redis_url, work, memory, max_active)
    finally:
        memory.stop()
    by_key = {(level.delay_ms, level.concurrency): level for level in server}
    print_server(server)
    print_baseline(baseline, by_key)
    if peers:
        print_peer(peer_label, peers, by_key)
    print_cpu(
        [("server", level) for level in server]
        + [("baseline", level) for level in baseline]
        + [("langgraph", level) for level in peers]
    )
    print_targets(server, peers)
    if args.tracing:
        print_tracing(*traced)


async def tracing_levels(
    args: argparse.Namespace, ray_address: str, redis_url: str, work: Path, memory: ClusterMemory, max_active: int
) -> tuple[list[Level], list[Level], int]:
    """The server at zero delay and the top level, with tracing off and on in turns (``--tracing`` rounds of
    each), exporting to an OTLP/HTTP receiver in the bench's process (its CPU is the bench's, not the product's);
    returns the levels off, on and the spans the receiver decoded."""
    concurrency = max(int(c) for c in args.levels.split(","))
    runs = args.runs_per_level or max(300, 4 * concurrency)
    receiver = Receiver()
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    off: list[Level] = []
    on: list[Level] = []
    try:
        for _ in range(args.tracing):
            for endpoint, levels in ((None, off), (receiver.url, on)):
                namespace = f"trace-{uuid.uuid4().hex[:8]}"
                level = await gateway_level(
                    0, concurrency, runs, namespace, ray_address, redis_url, work, memory, max_active, endpoint
                )
                levels.append(level)
                print(
                    f"  tracing {'on ' if endpoint else 'off'} C={concurrency}: {level.rate:.1f} runs/s, CPU per run "
                    f"{product_cpu(level, 'server') * 1e3:.1f} ms",
                    flush=True,
                )
    finally:
        receiver.shutdown()
        receiver.server_close()
    return off, on, len(receiver.spans())


def print_tracing(off: list[Level], on: list[Level], spans: int) -> None:
    """CPU per run with tracing on against off, each the total over its rounds."""
    runs_off, runs_on = sum(level.runs for level in off), sum(level.runs for level in on)
    cpu_off = sum(product_cpu(level, "server") * level.runs for level in off) / runs_off
    cpu_on = sum(product_cpu(level, "server") * level.runs for level in on) / runs_on
    ratio = cpu_on / cpu_off
    print(
        f"\nTracing (issue 22), zero delay, C={off[0].concurrency}, {len(off)} round(s) of each, {runs_on} runs "
        f"traced, {spans} spans received ({spans / runs_on:.1f} per run)\n"
        f"  CPU per run with tracing on {cpu_on * 1e3:.1f} ms vs off {cpu_off * 1e3:.1f} ms -> {ratio:.3f}x "
        f"(target <= {TARGET_TRACING_CPU_RATIO}x): {verdict(ratio <= TARGET_TRACING_CPU_RATIO)}"
    )


if __name__ == "__main__":
    if os.environ.get(LOOPBACK_ENV) != "0":
        # Ray reads it at import: without it the cluster (and the gateway joining it) uses the host's own
        # interface address; with it, every Ray address is 127.0.0.1. Inherited by the gateway and the workers.
        os.execve(sys.executable, [sys.executable, __file__, *sys.argv[1:]], {**os.environ, LOOPBACK_ENV: "0"})
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--levels", default="10,50,200", help="concurrent clients per level (default: %(default)s)")
    parser.add_argument("--delays", default="0,100", help="model delays in ms (default: %(default)s)")
    parser.add_argument("--runs-per-level", type=int, default=0, help="runs per level (default: max(300, 4 x C))")
    parser.add_argument("--quick", action="store_true", help="one small level, few runs (smoke test)")
    parser.add_argument(
        "--tracing",
        type=int,
        default=1,
        help="rounds of the top level with tracing off and on, exporting to a local receiver (0: none)",
    )
    arguments = parser.parse_args()
    if arguments.quick:
        arguments.levels = "4" if arguments.levels == parser.get_default("levels") else arguments.levels
        arguments.runs_per_level = arguments.runs_per_level or 12
        arguments.tracing = 0 if arguments.tracing == parser.get_default("tracing") else arguments.tracing
    os.environ.setdefault("RAY_DEDUP_LOGS", "0")
    with tempfile.TemporaryDirectory(prefix="superbiz-load-") as tmp, RedisServer() as redis_server:
        work = Path(tmp)
        # The in-process baseline logs like a supervisor does: JSON lines at INFO (to a file, not the table).
        log_file = (work / "in-process.log").open("w")
        configure_logging(stream=log_file)
        ray.init(
            address="local",
            include_dashboard=False,
            log_to_driver=False,
            configure_logging=False,
            namespace="load",
        )
        try:
            gcs_address = str(ray.get_runtime_context().gcs_address)
            asyncio.run(main(arguments, gcs_address, redis_server.url, work))
        finally:
            ray.shutdown()
            log_file.close()
