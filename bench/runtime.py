"""The actor runtime under concurrency: R concurrent diagnoses of the fixed 4-step script on a local Ray.

The full Harness runs (supervisor, agent, tool actors on the real bundled tools, invocation store on a
private real Redis, EvidenceGuard, a SemanticGuard call), against a fake OpenAI endpoint in its own process
answering every model call after a fixed delay (6 model calls per run). Printed per (delay, R): runs/s,
p50/p99 end to end, the Harness overhead (end to end minus the injected model delay) and the ideal
throughput the delays allow. In the same run, the floor: the same actor messages through echo actors that do
nothing (Ray's own cost), so the Harness's own share is separated from Ray's. The SemanticGuard pool has its
own bench (``bench/guards.py``), and load over HTTP is ``bench/load.py``.

    python bench/runtime.py [--delays 0,100] [--concurrency 1,10,50,200] [--quick]

Also printed: the actor calls per run, counted from Ray's task events (the bench starts the dashboard, which
serves Ray's state API), next to the floor's.

Target (issue 11): R = 1 with a zero-delay model, p50 <= 2x the same Harness in-process (``actors.in_process_ports``
ports, the same SQLite audit store, Redis and endpoint).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import ray
import yaml
from fake_llm import MODEL_CALLS_PER_RUN, FakeLlmProcess
from ray.util.state import summarize_tasks

from actors.in_process_ports import local_services
from actors.model_factory import build_model
from actors.runtime import HarnessClient
from config.app import AppConfig
from config.loader import BUNDLED_DEFAULT, parse_config
from config.runtime import RaySettings
from harness.events import done, status
from harness.messages import StartRun
from harness.run.flow import Run
from harness.run_feed import FeedHub, RunFeed
from stores.audit.store import SqlAuditStore
from tests.services import RedisServer

QUERY = "订单 order-123 支付超时，帮我排查"
EVENTS_PER_RUN = 14
"""Events of one run of the script after its metadata (statuses, content, done), as the floor replays them."""
LINGER_S = RaySettings().event_linger
TARGET_LOCAL_RATIO = 2.0


AUDIT_DIR = tempfile.TemporaryDirectory(prefix="bench-runtime-")
"""The audit store of every system in the bench: one SQLite file, as the default configuration has it."""


def bench_config(redis_url: str, base_url: str, **ray_settings: Any) -> AppConfig:
    data = yaml.safe_load(BUNDLED_DEFAULT.read_text())
    data["redis"] = {"url": redis_url}
    data["audit"] = {"url": f"sqlite:///{AUDIT_DIR.name}/audit.db"}
    data["model"] = {"provider": "openai", "base-url": base_url, "api-key": "${BENCH_KEY}", "timeout-s": 30}
    data["ray"] = {"namespace": f"bench-{uuid.uuid4().hex[:8]}", **ray_settings}
    data["tools"] = {name: {"concurrency": 16, "max-pending": 1000} for name in ("lookup_knowledge", "query_logs")}
    data["tools"]["query_mysql"] = {"concurrency": 8, "max-pending": 1000}
    data["harness"]["agent"] = {"max-tool-calls": 20}
    return parse_config(yaml.safe_dump(data), {"BENCH_KEY": "sk-bench"})


async def one_run(client: HarnessClient, session: str) -> tuple[float, str]:
    """(latency, outcome); a FALLBACK or FAILED outcome carries its fallback type or failure code."""
    started = time.perf_counter()
    outcome, detail = "?", ""
    async for event in client.chat(session, QUERY):
        if event.event == "content" and event.data["content_type"] == "FALLBACK":
            detail = event.data["payload"]["type"]
        elif event.event == "failure":
            detail = event.data["code"]
        elif event.event == "done":
            outcome = event.data["outcome"]
    return time.perf_counter() - started, outcome if outcome == "SUCCESS" else f"{outcome}:{detail}"


async def wave(client: HarnessClient, concurrency: int, runs: int) -> tuple[list[float], float, Counter[str]]:
    semaphore = asyncio.Semaphore(concurrency)
    results: list[tuple[float, str]] = []

    async def bounded(index: int) -> None:
        async with semaphore:
            results.append(await one_run(client, f"bench-{index % 97}"))

    started = time.perf_counter()
    await asyncio.gather(*(bounded(i) for i in range(runs)))
    elapsed = time.perf_counter() - started
    bad = Counter(outcome for _, outcome in results if outcome != "SUCCESS")
    return [latency for latency, _ in results], elapsed, bad


class TaskCounts:
    """Actor calls per method name, from Ray's task events (workers report them to the GCS about once a second)."""

    SETTLE_S = 3.0

    def __init__(self) -> None:
        self._before = self.take()

    @staticmethod
    def take() -> Counter[str]:
        time.sleep(TaskCounts.SETTLE_S)
        address = ray.get_runtime_context().gcs_address
        summary = summarize_tasks(address=address, raise_on_missing_output=False)["cluster"]["summary"]
        return Counter({name: sum(entry["state_counts"].values()) for name, entry in summary.items()})

    def since(self) -> Counter[str]:
        after = self.take()
        counts = after - self._before
        self._before = after
        return Counter({name: count for name, count in counts.items() if not name.endswith("__init__")})


def per_run(counts: Counter[str], runs: int) -> str:
    methods = ", ".join(f"{name.split('.', 1)[1]} {count / runs:.1f}" for name, count in counts.most_common())
    return f"{sum(counts.values()) / runs:.1f} ({methods})"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# -- the floor: the same messages through actors that do nothing -------------------------------------------


@ray.remote(num_cpus=0)
class EchoTool:
    async def execute(self, call_id: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return {"echo": call_id}


@ray.remote(num_cpus=0)
class EchoGuard:
    async def evaluate(self, request: Any, timeout_s: float) -> dict[str, Any]:
        return {"verdict": "SUPPORTED"}


@ray.remote(num_cpus=0)
class EchoAgent:
    """The agent's messages of the 4-step script: the plan's model call, then one ``turn`` per turn (the plan
    rides on the first; the first two run their tool calls)."""

    async def investigate(self, supervisor: Any, forget: list[str]) -> str:
        await supervisor.model_call.remote()
        for tools in (2, 1, 0):
            await supervisor.turn.remote(tools)
        return "draft"


@ray.remote(num_cpus=0)
class EchoSupervisor:
    """The real supervisor's protocol (open, then polls of a reader) around echo actors."""

    def __init__(self, agent: Any, tools: list[Any], guard: Any) -> None:
        self._agent, self._tools, self._guard = agent, tools, guard
        self._feeds = FeedHub(60, LINGER_S)
        self._drivers: set[asyncio.Future[None]] = set()

    async def open(self, events: int) -> str:
        run_id = f"run-{len(self._drivers)}-{uuid.uuid4().hex[:6]}"
        driver = asyncio.ensure_future(self._drive(self._feeds.open("echo", run_id), events))
        self._drivers.add(driver)
        driver.add_done_callback(self._drivers.discard)
        return run_id

    async def poll(self, following: list[str]) -> dict[str, Any]:
        return await self._feeds.poll("echo", following, 10)

    async def _drive(self, feed: RunFeed, events: int) -> None:
        me = ray.get_runtime_context().current_actor
        await self._agent.investigate.remote(me, [])
        await self._guard.evaluate.remote(None, 1.0)
        for _ in range(events - 2):
            feed.append(status("ANSWERING"))
        feed.append(done("SUCCESS"))

    async def model_call(self) -> dict[str, Any]:
        return {"content": "plan"}

    async def turn(self, tools: int) -> list[dict[str, Any]]:
        calls = (tool.execute.remote(f"c{n}", {}) for n, tool in enumerate(self._tools[:tools]))
        return list(await asyncio.gather(*calls))


async def floor(runs: int, events: int) -> list[float]:
    supervisor = EchoSupervisor.remote(EchoAgent.remote(), [EchoTool.remote() for _ in range(3)], EchoGuard.remote())
    latencies = []
    for _ in range(runs + 3):
        started = time.perf_counter()
        run_id = await supervisor.open.remote(events)
        finished = False
        while not finished:
            batch = (await supervisor.poll.remote([run_id])).get(run_id) or []
            finished = any(event.event == "done" for event in batch)
        latencies.append(time.perf_counter() - started)
    return latencies[3:]


async def in_process(redis_url: str, runs: int) -> float:
    """p50 of the same runs with the same Harness code and no Ray (actors.in_process_ports ports, the same SQLite audit
    store), zero model delay."""
    with FakeLlmProcess(0) as fake:
        config = bench_config(redis_url, fake.base_url)
        audit = SqlAuditStore(config.audit)
        audit.init_schema()
        model = build_model(config.model)
        services = local_services(config, model, audit=audit)
        latencies = []
        for _ in range(runs + 3):
            started = time.perf_counter()
            status = await Run(services, StartRun(session_id="bench", query=QUERY)).execute()
            assert status.value == "SUCCESS"
            latencies.append(time.perf_counter() - started)
        await model.aclose()
        audit.close()
        return statistics.median(latencies[3:])


async def main(delays: list[float], levels: list[int], quick: bool) -> None:
    with RedisServer() as redis_server:
        counts = TaskCounts()
        floor_runs = 10 if quick else 50
        floor_latencies = await floor(floor_runs, EVENTS_PER_RUN)
        floor_p50 = statistics.median(floor_latencies)
        floor_messages = counts.since()
        print(f"Ray floor (echo actors, same messages per run): p50 {floor_p50 * 1e3:.1f} ms")
        print(f"  actor calls per run: {per_run(floor_messages, floor_runs + 3)}")
        local_p50 = await in_process(redis_server.url, 10 if quick else 30)
        print(f"Same Harness in-process (no Ray, zero delay): p50 {local_p50 * 1e3:.1f} ms\n")
        print(
            f"{'delay':>6} | {'R':>4} | {'runs/s':>7} | {'p50':>8} | {'p99':>8} | {'overhead p50':>12} | "
            f"{'ideal runs/s':>12} | lost"
        )
        print("-" * 88)
        r1_zero_p50 = None
        for delay_ms in delays:
            with FakeLlmProcess(delay_ms) as fake:
                client = HarnessClient(bench_config(redis_server.url, fake.base_url))
                for _ in range(3):
                    await one_run(client, "warmup")
                for level in levels:
                    runs = max(level, 10 if quick else 20) if level == 1 else level
                    counts = TaskCounts()
                    latencies, elapsed, bad = await wave(client, level, runs)
                    messages = counts.since()
                    p50 = statistics.median(latencies)
                    injected = MODEL_CALLS_PER_RUN * delay_ms / 1000
                    ideal = f"{level / injected:>12.1f}" if injected else f"{'∞':>12}"
                    print(
                        f"{delay_ms:>4.0f}ms | {level:>4} | {runs / elapsed:>7.1f} | {p50 * 1e3:>5.1f} ms | "
                        f"{percentile(latencies, 0.99) * 1e3:>5.1f} ms | {(p50 - injected) * 1e3:>9.1f} ms | {ideal} | "
                        f"{sum(bad.values())} {dict(bad) if bad else ''}"
                    )
                    print(f"{'':>6} | actor calls per run: {per_run(messages, runs)}")
                    if delay_ms == 0 and level == 1:
                        r1_zero_p50 = p50
        if r1_zero_p50 is not None:
            print(
                f"\nR=1, zero delay: p50 {r1_zero_p50 * 1e3:.1f} ms vs the same Harness in-process "
                f"{local_p50 * 1e3:.1f} ms -> {r1_zero_p50 / local_p50:.2f}x (target <= {TARGET_LOCAL_RATIO:.0f}x): "
                f"{'met' if r1_zero_p50 <= TARGET_LOCAL_RATIO * local_p50 else 'MISSED'}; "
                f"{(r1_zero_p50 - floor_p50) * 1e3:.1f} ms above the Ray floor"
            )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--delays", default="0,100")
    parser.add_argument("--concurrency", default="1,10,50,200")
    parser.add_argument("--quick", action="store_true", help="fewer runs (smoke test)")
    args = parser.parse_args()
    os.environ.setdefault("RAY_DEDUP_LOGS", "0")
    # The dashboard serves Ray's state API, which counts the actor calls.
    ray.init(address="local", include_dashboard=True, log_to_driver=False, configure_logging=False)
    try:
        asyncio.run(
            main([float(d) for d in args.delays.split(",")], [int(c) for c in args.concurrency.split(",")], args.quick)
        )
    finally:
        ray.shutdown()
