"""Tool actors on a real Ray: the per-tool concurrency limit holds and excess calls get TOOL_BUSY at once."""

from __future__ import annotations

import functools
import time
import uuid

import ray

from actors.tool_actor import tool_actor
from config.tools import ToolRuntime
from tools.fakes import slow_echo_tool

NAMESPACE = "test-tools"


def unique(name: str) -> str:
    return f"{name}_{uuid.uuid4().hex[:8]}"


def wait_for_in_flight(actor: object, count: int) -> None:
    deadline = time.monotonic() + 30
    while ray.get(actor.stats.remote())["in_flight"] < count:  # type: ignore[attr-defined]
        assert time.monotonic() < deadline, "the call never started"
        time.sleep(0.02)


def test_five_times_the_limit_never_exceeds_it(ray_session: None) -> None:
    limit, pending = 2, 3
    name = unique("slow_echo")
    actor = tool_actor(
        name, functools.partial(slow_echo_tool, 0.6), ToolRuntime(concurrency=limit, max_pending=pending), NAMESPACE
    )
    ray.get(actor.stats.remote())
    refs = [actor.execute.remote(f"run:{i}", {"text": str(i)}) for i in range(5 * limit)]
    seen_in_flight = []
    while len(ray.wait(refs, num_returns=len(refs), timeout=0)[0]) < len(refs):
        seen_in_flight.append(ray.get(actor.stats.remote())["in_flight"])
        time.sleep(0.02)
    results = ray.get(refs)
    busy = [r for r in results if r.get("error", {}).get("code") == "TOOL_BUSY"]
    echoed = [r for r in results if "echo" in r]
    stats = ray.get(actor.stats.remote())
    assert max(seen_in_flight) == limit
    assert stats["peak_in_flight"] == limit
    assert (len(echoed), len(busy)) == (limit + pending, 5 * limit - limit - pending)
    assert stats["busy_rejections"] == len(busy)
    assert busy[0]["error"]["message"] and "Traceback" not in busy[0]["error"]["message"]


def test_busy_is_answered_at_once(ray_session: None) -> None:
    actor = tool_actor(
        unique("slow_echo"),
        functools.partial(slow_echo_tool, 2.0),
        ToolRuntime(concurrency=1, max_pending=0),
        NAMESPACE,
    )
    first = actor.execute.remote("run:a", {"text": "a"})
    wait_for_in_flight(actor, 1)
    started = time.monotonic()
    rejected = ray.get(actor.execute.remote("run:b", {"text": "b"}))
    assert rejected["error"]["code"] == "TOOL_BUSY"
    assert time.monotonic() - started < 1.0
    ray.cancel(first)


def test_the_actor_is_named_and_shared(ray_session: None) -> None:
    name = unique("slow_echo")
    runtime = ToolRuntime(concurrency=1, max_pending=1)
    first = tool_actor(name, functools.partial(slow_echo_tool, 0.01), runtime, NAMESPACE)
    second = tool_actor(name, functools.partial(slow_echo_tool, 0.01), runtime, NAMESPACE)
    assert first._actor_id == second._actor_id
    assert ray.get_actor(f"tool:{name}", namespace=NAMESPACE)._actor_id == first._actor_id


def test_cancelling_a_call_cancels_the_tool_and_frees_the_slot(ray_session: None) -> None:
    actor = tool_actor(
        unique("slow_echo"),
        functools.partial(slow_echo_tool, 30.0),
        ToolRuntime(concurrency=1, max_pending=1),
        NAMESPACE,
    )
    slow = actor.execute.remote("run:slow", {"text": "slow"})
    wait_for_in_flight(actor, 1)
    started = time.monotonic()
    ray.cancel(slow)
    after = ray.get(actor.execute.remote("run:next", {"text": "next", "delay_s": 0.01}), timeout=10)
    assert after["echo"] == "next"
    assert time.monotonic() - started < 10
    assert ray.get(actor.stats.remote())["in_flight"] == 0
