"""Invocation store cycle cost against plain redis-py SET+GET of the same payload, on a real Redis.

A store cycle is what every tool call costs the Harness: ``record_raw`` (Lua: duplicate check, run cap, HSET,
TTL) + ``record_projection`` (Lua: state check, caps, HSET) + ``get(include_raw=True)`` (HMGET + EXISTS).
The baseline is ``SET`` + ``GET`` of the same JSON payload with plain redis-py; both sides encode and decode
JSON. Rounds alternate store and baseline so machine noise hits both. Target: ratio <= 1.5.

    python bench/store.py [--redis-url redis://127.0.0.1:6380/0] [--rounds 5]

Without ``--redis-url`` a private redis-server is started on a free loopback port.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

import redis.asyncio as redis

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from config.harness import EvidenceStoreSettings
from contract.vocabulary import EvidenceStatus
from stores.invocation_store import InvocationStore
from tests.services import RedisServer

SIZES = {"1KB": 1024, "64KB": 64 * 1024, "1MB": 1024 * 1024}
ITERATIONS = {"1KB": 1000, "64KB": 300, "1MB": 30}
AGENT_RESULT = {"evidence_status": "EVIDENCE_FOUND", "tool_call_id": "call_1", "events": [{"message": "x" * 800}]}
REQUEST = {"topic": "APPLICATION", "query": "order-service HikariCP", "lookback_minutes": 30}


def payload(size: int) -> dict[str, str]:
    return {"body": "日志" * (size // 6) + "x" * (size % 6)}


async def store_cycles(store: InvocationStore, raw: dict[str, str], n: int) -> float:
    started = time.perf_counter()
    for _ in range(n):
        run_id = uuid.uuid4().hex
        await store.record_raw(run_id, "call_1", "query_logs", REQUEST, raw, datetime.now(UTC))
        await store.record_projection(run_id, "call_1", AGENT_RESULT, EvidenceStatus.EVIDENCE_FOUND)
        record = await store.get(run_id, "call_1", include_raw=True)
        assert record.raw_response is not None
    return (time.perf_counter() - started) / n


async def plain_cycles(client: redis.Redis, raw: dict[str, str], n: int) -> float:
    started = time.perf_counter()
    for _ in range(n):
        key = f"bench:plain:{uuid.uuid4().hex}"
        await client.set(key, json.dumps(raw, ensure_ascii=False).encode(), px=7_200_000)
        assert json.loads(await client.get(key)) is not None
    return (time.perf_counter() - started) / n


async def main(url: str, rounds: int) -> None:
    client = redis.Redis.from_url(url)
    settings = EvidenceStoreSettings.model_validate(
        {"max-record-bytes": "4MB", "max-run-bytes": "8MB", "max-agent-result-bytes": "64KB", "ttl": "10m"}
    )
    store = InvocationStore(client, settings)
    print(f"redis {(await client.info('server'))['redis_version']} at {url}; {rounds} alternating rounds per size\n")
    print(f"{'payload':>8} | {'store cycle':>12} | {'SET+GET':>10} | {'store/s':>8} | {'plain/s':>8} | ratio")
    print("-" * 66)
    for label, size in SIZES.items():
        raw, n = payload(size), ITERATIONS[label]
        await store_cycles(store, raw, max(1, n // 10))
        await plain_cycles(client, raw, max(1, n // 10))
        store_times, plain_times = [], []
        for _ in range(rounds):
            store_times.append(await store_cycles(store, raw, n))
            plain_times.append(await plain_cycles(client, raw, n))
            await client.flushdb()
        store_s, plain_s = statistics.median(store_times), statistics.median(plain_times)
        print(
            f"{label:>8} | {store_s * 1e3:>9.3f} ms | {plain_s * 1e3:>7.3f} ms | "
            f"{1 / store_s:>8.0f} | {1 / plain_s:>8.0f} | {store_s / plain_s:.2f}x"
        )
    await client.aclose()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--redis-url")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    if args.redis_url:
        asyncio.run(main(args.redis_url, args.rounds))
    else:
        with RedisServer() as server:
            asyncio.run(main(server.url, args.rounds))
