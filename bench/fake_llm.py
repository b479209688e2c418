"""A fake OpenAI-compatible endpoint that plays the fixed 4-step diagnosis script, for the benchmarks.

Every run: router -> DIAGNOSIS; agent: plan, then lookup_knowledge + query_logs, then query_mysql, then the
Draft; guard -> SUPPORTED. Each answer comes after ``--delay-ms``, or after a delay drawn uniformly from
``--delay-ms`` to ``--max-delay-ms`` (a real model's spread, for the soak). Run in its own process so the
server does not share a GIL with the load it measures:

    python bench/fake_llm.py --delay-ms 100      # prints the base URL, serves until killed
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import subprocess
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.actors.runtime_support import diagnosis_turn
from tests.fake_openai import FakeOpenAI, delay, reply
from tests.harness.run_support import GOOD_DRAFT

MODEL_CALLS_PER_RUN = 6
"""router 1 + agent 4 (plan, two tool turns, draft) + guard 1."""


def serve(delay_ms: float, max_delay_ms: float | None = None, seed: int = 0) -> FakeOpenAI:
    fake = FakeOpenAI()
    draw = random.Random(seed)
    low, high = delay_ms / 1000, (max_delay_ms if max_delay_ms is not None else delay_ms) / 1000
    steps = {
        "router": lambda body: reply(json.dumps({"intent": "DIAGNOSIS"}), usage=(300, 10)),
        "agent": diagnosis_turn,
        "guard": lambda body: reply(json.dumps({"verdict": "SUPPORTED", "reason": "ok"}), usage=(2500, 20)),
        "repair": lambda body: reply(json.dumps(GOOD_DRAFT, ensure_ascii=False), usage=(4000, 400)),
    }
    for role, step in steps.items():
        fake.default(role, lambda body, step=step: delay(draw.uniform(low, high), step(body)) if high else step(body))
    return fake.start()


class FakeLlmProcess:
    """The fake endpoint in a child process; ``base_url`` once it listens."""

    def __init__(self, delay_ms: float, max_delay_ms: float | None = None, seed: int = 0) -> None:
        spread = [] if max_delay_ms is None else ["--max-delay-ms", str(max_delay_ms), "--seed", str(seed)]
        self._process = subprocess.Popen(
            [sys.executable, __file__, "--delay-ms", str(delay_ms), *spread], stdout=subprocess.PIPE, text=True
        )
        assert self._process.stdout is not None
        self.base_url = self._process.stdout.readline().strip()

    def __enter__(self) -> FakeLlmProcess:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._process.terminate()
        self._process.wait(10)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--delay-ms", type=float, default=0.0)
    parser.add_argument("--max-delay-ms", type=float, default=None)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    server = serve(args.delay_ms, args.max_delay_ms, args.seed)
    print(server.base_url, flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    stop.wait()
    server.stop()
