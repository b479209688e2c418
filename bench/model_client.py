"""CPU per model call of ``OpenAIChatModel`` (aiohttp + orjson) next to the official OpenAI SDK, over real HTTP.

The requests are the six a diagnosis run sends (router, the agent's four turns with the diagnosis prompt, tool
definitions and tool results, the guard), captured from one in-process run and sent in turn. The endpoint is the
fake one of the load bench (``bench/fake_llm.py``: zero delay, its own process, so its CPU is not counted).
The baseline is the SDK the way the model client used it before: ``openai.AsyncOpenAI(max_retries=0).post`` of
the same body, the same ``parse_completion``. For each concurrency, rounds alternate client and baseline;
each sends N requests from C tasks on one event loop.

    python bench/model_client.py [--requests 2000] [--concurrency 1,50] [--rounds 3]

Prints, per concurrency, the median over rounds of this process's CPU (``time.process_time``) per request and of
requests/s for both, with the ratios: the SDK's CPU over the new client's, the new client's requests/s over the
SDK's.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Protocol

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import openai
import orjson
from fake_llm import FakeLlmProcess

from clients.openai_model import ROLE_HEADER, OpenAIChatModel, parse_completion
from config.env_refs import Secret
from config.runtime import ModelSettings
from harness.messages import ModelReply, ModelRequest
from tests.harness.run_support import diagnosis_model, run_once, services

TIMEOUT_S = 30.0


class Client(Protocol):
    async def complete(self, request: ModelRequest, timeout_s: float) -> ModelReply: ...

    async def aclose(self) -> None: ...


class SdkBaseline:
    """The SDK path as it was: one ``AsyncOpenAI``, no retries, ``post`` of a ready body, the reply parsed here."""

    def __init__(self, settings: ModelSettings) -> None:
        assert settings.api_key is not None
        self._settings = settings
        self._client = openai.AsyncOpenAI(
            base_url=settings.base_url,
            api_key=settings.api_key.reveal(),
            max_retries=0,
            timeout=openai.Timeout(settings.timeout_s, connect=10.0),
        )

    async def complete(self, request: ModelRequest, timeout_s: float) -> ModelReply:
        body = await self._client.post(
            "/chat/completions",
            cast_to=bytes,
            body=chat_body(self._settings, request),
            options={"headers": {ROLE_HEADER: request.role}},
        )
        return parse_completion(body)

    async def aclose(self) -> None:
        await self._client.close()


def chat_body(settings: ModelSettings, request: ModelRequest) -> dict[str, Any]:
    body: dict[str, Any] = {
        "model": settings.name,
        "messages": [message.openai() for message in request.messages],
        "temperature": settings.temperature,
    }
    if request.tools:
        body["tools"] = list(request.tools)
        if request.tool_choice is not None:
            body["tool_choice"] = request.tool_choice
    if request.json_output:
        body["response_format"] = {"type": "json_object"}
    return body


async def run_requests() -> list[ModelRequest]:
    """The model requests of one diagnosis run, in order."""
    model = diagnosis_model()
    outcome = await run_once(services(model))
    assert outcome.status.value == "SUCCESS", outcome.status
    return list(model.requests)


async def send(client: Client, requests: list[ModelRequest], n: int, concurrency: int) -> tuple[float, float]:
    """(CPU seconds per request, requests per second) for ``n`` requests from ``concurrency`` tasks."""
    numbers = itertools.count()

    async def worker() -> None:
        while (number := next(numbers)) < n:
            reply = await client.complete(requests[number % len(requests)], TIMEOUT_S)
            assert reply.content is not None or reply.tool_calls

    cpu, wall = time.process_time(), time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return cpu / n, n / wall


async def main(n: int, levels: list[int], rounds: int) -> None:
    requests = await run_requests()
    with FakeLlmProcess(delay_ms=0) as fake:
        settings = ModelSettings.model_validate(
            {
                "provider": "openai",
                "base-url": fake.base_url,
                "api-key": Secret("sk-bench", "${OPENAI_API_KEY}"),
                "timeout-s": TIMEOUT_S,
            }
        )
        clients: dict[str, Client] = {"new": OpenAIChatModel(settings), "sdk": SdkBaseline(settings)}
        sizes = [len(orjson.dumps(chat_body(settings, request))) for request in requests]
        print(
            f"{n} requests per cell: the {len(requests)} of one diagnosis run in turn "
            f"(bodies of {min(sizes) / 1024:.1f}-{max(sizes) / 1024:.1f} KB); fake endpoint {fake.base_url}, "
            f"zero delay, own process; median of {rounds} alternating rounds\n"
        )
        print("  C | CPU/req new | CPU/req SDK | ratio | req/s new | req/s SDK | ratio")
        print("-" * 78)
        for concurrency in levels:
            for client in clients.values():
                await send(client, requests, max(60, n // 10), concurrency)  # warm-up: connections, caches
            results: dict[str, list[tuple[float, float]]] = {name: [] for name in clients}
            for _ in range(rounds):
                for name, client in clients.items():
                    results[name].append(await send(client, requests, n, concurrency))
            cpu = {name: statistics.median(cpu_s for cpu_s, _ in runs) for name, runs in results.items()}
            rate = {name: statistics.median(rate_s for _, rate_s in runs) for name, runs in results.items()}
            print(
                f"{concurrency:>3} | {cpu['new'] * 1e3:>8.3f} ms | {cpu['sdk'] * 1e3:>8.3f} ms | "
                f"{cpu['sdk'] / cpu['new']:>4.1f}x | {rate['new']:>9.0f} | {rate['sdk']:>9.0f} | "
                f"{rate['new'] / rate['sdk']:.1f}x"
            )
        for client in clients.values():
            await client.aclose()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--concurrency", default="1,50", help="comma-separated levels")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(main(args.requests, [int(level) for level in args.concurrency.split(",")], args.rounds))
