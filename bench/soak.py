"""The chaos soak: a real multi-node Ray cluster under a steady load while faults are thrown at it.

A head (``ray start --head``) and two worker nodes (``ray start --address``; one carries the tool actors'
resource), a private Redis and MariaDB, two ``superbiz serve`` gateways and the scripted model answering after
0.2–2 s. ``--clients`` concurrent clients ask questions for ``--minutes``; meanwhile, one after another, with
random gaps: ``kill -9`` of a supervisor, agent, tool or guard actor process; a worker node's raylet killed,
then the node restarted; Redis restarted; MariaDB restarted; streams closed by their clients; one gateway
stopped with SIGTERM and started again. Then it checks every stream and every run's audit rows, the logs and
the actors' memory (``bench/chaos/verdict.py``), prints a table per fault kind and exits 1 if a check failed.

    python bench/soak.py                   # 10 minutes
    python bench/soak.py --minutes 1.5     # the version the test suite runs
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import shutil
import signal
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.chaos.clients import Load
from bench.chaos.faults import KINDS, Injector, actor_processes
from bench.chaos.report import fault_rows, print_faults, print_verdict
from bench.chaos.stack import Stack
from bench.chaos.verdict import judge

WARM_UP_S = 120.0
"""The first successful run must end within this (the cluster, actors and model connections start)."""
MEMORY_EVERY_S = 5.0


async def sample_memory(stack: Stack, samples: dict[int, list[tuple[float, str, int]]], stop: asyncio.Event) -> None:
    page = 4096
    while not stop.is_set():
        now = time.monotonic()
        for pid, title in actor_processes(stack).items():
            with contextlib.suppress(OSError, ValueError, IndexError):
                rss = int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * page
                samples.setdefault(pid, []).append((now, title, rss))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), MEMORY_EVERY_S)


async def warmed_up(load: Load) -> float:
    deadline = time.monotonic() + WARM_UP_S
    while time.monotonic() < deadline:
        if any(s.outcome == "SUCCESS" for s in load.streams):
            return time.monotonic()
        await asyncio.sleep(0.25)
    raise RuntimeError(f"no run succeeded within {WARM_UP_S:.0f} s of the start: {[s.events for s in load.streams]}")


async def soak(stack: Stack, args: argparse.Namespace) -> int:
    load = Load([g.url for g in stack.gateways], [stack.key(0), stack.key(1)], args.clients)
    clients = asyncio.create_task(load.run())
    stop_sampling = asyncio.Event()
    samples: dict[int, list[tuple[float, str, int]]] = {}
    sampler = asyncio.create_task(sample_memory(stack, samples, stop_sampling))
    injector = Injector(stack, load, random.Random(args.seed))
    try:
        warm = await warmed_up(load)
        print(f"warmed up; soaking for {args.minutes:g} min with {args.clients} clients", flush=True)
        await injector.run(warm + args.minutes * 60, (args.min_gap, args.max_gap))
    finally:
        load.stop()
        await clients
        stop_sampling.set()
        await sampler
    verdict = judge(
        load.streams, injector.faults, stack.audit_connection, stack.log_files(), stack.secrets(), samples, warm
    )
    rows = fault_rows(injector.faults, load.streams)
    print_faults(rows)
    print_verdict(verdict, load.streams)
    if args.json:
        summary = {"faults": rows, "failures": verdict.failures(), "requests": verdict.streams,
                   "ok": verdict.ok, "memory": verdict.memory, "details": asdict(verdict)}  # fmt: skip
        Path(args.json).write_text(json.dumps(summary, ensure_ascii=False, indent=1, default=str))
    return 0 if verdict.ok else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=10.0, help="how long faults are injected (default 10)")
    parser.add_argument("--clients", type=int, default=8, help="concurrent clients (default 8)")
    parser.add_argument("--seed", type=int, default=0, help="the order and timing of the faults")
    parser.add_argument("--min-gap", type=float, default=5.0, help="least seconds between a recovery and the next")
    parser.add_argument("--max-gap", type=float, default=25.0, help="most seconds between a recovery and the next")
    parser.add_argument("--json", help="also write the figures and every finding to this file")
    parser.add_argument("--keep", action="store_true", help="keep the work folder (logs, data) for a post-mortem")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # a stopped soak still tears its cluster down
    base = Path(tempfile.mkdtemp(prefix="soak", dir="/tmp"))  # Ray's socket paths must stay short
    stack = Stack(base, args.seed)
    print(f"fault kinds: {', '.join(KINDS)}; work folder {base}", flush=True)
    try:
        stack.start()
        return asyncio.run(soak(stack, args))
    finally:
        stack.close()
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
