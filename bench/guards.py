"""SemanticGuard pool scaling: E evaluations at a fixed model delay through pools of 1, 2, 4, 8 and 16 replicas.

Each replica is a ``SemanticGuardActor`` on a local Ray with ``max_concurrency`` =
``harness.semantic-guard.replica-concurrency`` (C), calling a fake OpenAI endpoint in its own process
(``bench/fake_llm.py``) that answers every guard call after ``--delay-ms``. The driver keeps the pool full:
R × C evaluations in flight, each sent to the replica with the fewest calls in flight (the ``GuardPool`` of
``superbiz eval``). The requests are the bundled eval cases (``tools/eval/guard_cases.jsonl``), so every call
carries a real draft and evidence snapshot (1-15 KB, 8 KB on average), not an empty one.

Printed per pool size R: evaluations/s, p50/p99 latency seen by the driver, the ideal throughput the delay
allows (R × C / delay), throughput as a share of it, and the scaling efficiency against linear,
rate(R) / (R × rate(1)). In the same run, the baseline: the same evaluations, same concurrency, the same model
client called in the driver process with no Ray (``in-proc/s``), so Ray's share is visible; and the machine's
1-minute load average after each row (``load1``), since a busy machine moves every figure.

    python bench/guards.py [--evaluations 160] [--delay-ms 100] [--pools 1,2,4,8,16] [--quick]

Target: scaling efficiency >= 90 % up to 8 replicas.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import math
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import ray
import yaml
from fake_llm import FakeLlmProcess

from actors.model_factory import build_model
from cli.guard_pool import GuardPool
from config.app import AppConfig
from config.loader import BUNDLED_DEFAULT, parse_config
from harness.evaluation.dataset import GuardCase, bundled_dataset, load_cases
from harness.evaluation.results import CaseResult
from harness.evaluation.running import evaluate_cases
from harness.evaluation.scoring import percentile
from harness.guard_attempt import evaluate_once

TARGET_EFFICIENCY = 0.90
TARGET_UP_TO = 8
SETTLE_S = 2.0


def bench_config(base_url: str) -> AppConfig:
    data = yaml.safe_load(BUNDLED_DEFAULT.read_text())
    data["model"] = {"provider": "openai", "base-url": base_url, "api-key": "${BENCH_KEY}", "timeout-s": 30}
    data["ray"] = {"namespace": f"bench-guards-{uuid.uuid4().hex[:8]}"}
    return parse_config(yaml.safe_dump(data), {"BENCH_KEY": "sk-bench"})


def workload(evaluations: int) -> list[GuardCase]:
    """``evaluations`` requests cycling through the bundled cases (their verdicts do not matter here)."""
    return list(itertools.islice(itertools.cycle(load_cases(bundled_dataset())), evaluations))


def summary(results: list[CaseResult], wall_s: float) -> tuple[float, float, float, int]:
    """(evaluations/s, p50 s, p99 s, failed)."""
    latencies = [result.latency_s for result in results]
    failed = sum(result.predicted == "UNAVAILABLE" for result in results)
    return len(results) / wall_s, statistics.median(latencies), percentile(latencies, 0.99) or 0.0, failed


async def through_pool(config: AppConfig, replicas: int, cases: list[GuardCase]) -> tuple[list[CaseResult], float]:
    pool = GuardPool.create(config, replicas, f"{config.ray.namespace}-r{replicas}")
    capacity = replicas * config.harness.semantic_guard.replica_concurrency
    try:
        await pool.ready()
        await asyncio.sleep(SETTLE_S)  # let the new worker processes finish starting before anything is timed
        await evaluate_cases(cases[:capacity], pool.evaluate, capacity)  # warm-up: connections, code paths
        started = time.perf_counter()
        results = await evaluate_cases(cases, pool.evaluate, capacity)
        return results, time.perf_counter() - started
    finally:
        pool.kill()
        await asyncio.sleep(SETTLE_S)  # and the killed ones finish exiting


async def in_process(config: AppConfig, concurrency: int, cases: list[GuardCase]) -> tuple[list[CaseResult], float]:
    model = build_model(config.model)
    timeout_s = config.harness.semantic_guard.attempt_timeout

    async def evaluate(request):  # type: ignore[no-untyped-def]
        return await evaluate_once(model, request, timeout_s, "in-process")

    try:
        await evaluate_cases(cases[:concurrency], evaluate, concurrency)
        started = time.perf_counter()
        results = await evaluate_cases(cases, evaluate, concurrency)
        return results, time.perf_counter() - started
    finally:
        await model.aclose()


async def main(evaluations: int, delay_ms: float, pools: list[int]) -> None:
    cases = workload(evaluations)
    with FakeLlmProcess(delay_ms) as fake:
        config = bench_config(fake.base_url)
        per_replica = config.harness.semantic_guard.replica_concurrency
        delay_s = delay_ms / 1000
        print(
            f"SemanticGuard pool scaling: {evaluations} evaluations per pool size, model delay {delay_ms:.0f} ms, "
            f"replica-concurrency {per_replica}, {os.cpu_count()} CPUs"
        )
        header = (
            f"{'replicas':>8} | {'in flight':>9} | {'evals/s':>8} | {'p50':>8} | {'p99':>8} | {'ideal/s':>8} | "
            f"{'of ideal':>8} | {'efficiency':>10} | {'in-proc/s':>9} | {'load1':>5} | failed"
        )
        print(header)
        print("-" * len(header))
        base_rate = None
        efficiencies: dict[int, float] = {}
        partial: list[int] = []
        for replicas in pools:
            capacity = replicas * per_replica
            local_results, local_wall = await in_process(config, capacity, cases)
            local_rate, _, _, local_failed = summary(local_results, local_wall)
            results, wall_s = await through_pool(config, replicas, cases)
            rate, p50, p99, failed = summary(results, wall_s)
            base_rate = base_rate or rate
            efficiency = rate / (base_rate * replicas)
            efficiencies[replicas] = efficiency
            ideal = capacity / delay_s if delay_s else math.inf
            if evaluations % capacity:
                partial.append(replicas)
            print(
                f"{replicas:>8} | {capacity:>9} | {rate:>8.1f} | {p50 * 1e3:>5.0f} ms | {p99 * 1e3:>5.0f} ms | "
                f"{ideal:>8.1f} | {rate / ideal:>8.0%} | {efficiency:>10.0%} | {local_rate:>9.1f} | "
                f"{os.getloadavg()[0]:>5.1f} | {failed + local_failed}"
            )
        print(
            "in-proc/s: the same calls from the driver with no Ray; when it too falls short of ideal/s, the CPU "
            "(model client + endpoint), not Ray, is the limit. load1: the machine's 1-minute load average."
        )
        within = [efficiencies[r] for r in pools if r <= TARGET_UP_TO]
        if within:
            print(
                f"\nScaling efficiency up to {TARGET_UP_TO} replicas: min {min(within):.0%} "
                f"(target >= {TARGET_EFFICIENCY:.0%})"
            )
        for replicas in partial:
            capacity = replicas * per_replica
            waves = math.ceil(evaluations / capacity)
            print(
                f"R={replicas}: {evaluations} evaluations are {evaluations / capacity:.2f} pool-fulls, so the last "
                f"wave runs a partial pool: at most {evaluations / (waves * delay_s):.1f}/s for this E at this delay"
            )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--evaluations", type=int, default=160, help="evaluations per pool size (default 160)")
    parser.add_argument("--delay-ms", type=float, default=100.0, help="the fake model's answer delay (default 100)")
    parser.add_argument("--pools", default="1,2,4,8,16", help="pool sizes (default 1,2,4,8,16)")
    parser.add_argument("--quick", action="store_true", help="smoke run: 24 evaluations, pools 1 and 2, 50 ms")
    args = parser.parse_args()
    if args.quick:
        args.evaluations, args.delay_ms, args.pools = 24, 50.0, "1,2"
    os.environ.setdefault("RAY_DEDUP_LOGS", "0")
    ray.init(address="local", include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        asyncio.run(main(args.evaluations, args.delay_ms, [int(size) for size in args.pools.split(",")]))
    finally:
        ray.shutdown()
