"""RunFeed: long-polled events, nothing lost or repeated, and a lease that notices a client that went away."""

from __future__ import annotations

import asyncio

import pytest

from harness.run_feed import RunFeed


def event(name: str, n: int = 0) -> dict[str, object]:
    return {"event": name, "data": {"n": n}}


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


async def test_fetch_returns_the_events_after_the_cursor() -> None:
    feed = RunFeed(lease_s=60)
    feed.append(event("metadata"))
    feed.append(event("status", 1))
    assert await feed.fetch(0, 0) == [event("metadata"), event("status", 1)]
    assert await feed.fetch(1, 0) == [event("status", 1)]
    assert await feed.fetch(2, 0) == []


async def test_a_waiting_fetch_wakes_on_the_next_event() -> None:
    feed = RunFeed(lease_s=60)
    feed.append(event("metadata"))
    waiting = asyncio.create_task(feed.fetch(1, 10))
    await asyncio.sleep(0.01)
    assert not waiting.done()
    feed.append(event("status", 1))
    assert await asyncio.wait_for(waiting, 1) == [event("status", 1)]


async def test_a_waiting_fetch_returns_empty_after_its_wait() -> None:
    feed = RunFeed(lease_s=60)
    started = asyncio.get_running_loop().time()
    assert await feed.fetch(0, 0.05) == []
    assert asyncio.get_running_loop().time() - started >= 0.04


async def test_done_is_final_and_its_delivery_is_noted() -> None:
    feed = RunFeed(lease_s=60)
    feed.append(event("metadata"))
    feed.append(event("done"))
    assert feed.finished and not feed.delivered
    assert await feed.fetch(0, 0) == [event("metadata"), event("done")]
    assert feed.delivered
    with pytest.raises(RuntimeError):
        feed.append(event("status"))


async def test_a_fetch_after_done_does_not_wait() -> None:
    feed = RunFeed(lease_s=60)
    feed.append(event("done"))
    assert await asyncio.wait_for(feed.fetch(1, 10), 1) == []


@pytest.mark.parametrize("cursor", [-1, 2])
async def test_a_cursor_outside_the_feed_is_refused(cursor: int) -> None:
    feed = RunFeed(lease_s=60)
    feed.append(event("metadata"))
    with pytest.raises(ValueError):
        await feed.fetch(cursor, 0)


async def test_a_feed_nobody_fetches_from_is_abandoned_after_its_lease() -> None:
    clock = Clock()
    feed = RunFeed(lease_s=30, clock=clock)
    clock.now += 29
    assert not feed.abandoned
    await feed.fetch(0, 0)
    clock.now += 29
    assert not feed.abandoned
    clock.now += 2
    assert feed.abandoned


async def test_a_client_waiting_in_fetch_is_not_gone() -> None:
    clock = Clock()
    feed = RunFeed(lease_s=30, clock=clock)
    waiting = asyncio.create_task(feed.fetch(0, 10))
    await asyncio.sleep(0)
    clock.now += 60
    assert not feed.abandoned
    feed.append(event("metadata"))
    await waiting
    assert not feed.abandoned
