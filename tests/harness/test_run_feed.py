"""FeedHub: every run's events reach its reader once and in order, several runs per poll, a linger that batches
without delaying a run's end, and a lease that notices a reader that went away."""

from __future__ import annotations

import asyncio

import pytest

from harness import events
from harness.run_feed import FeedHub


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def status(n: int) -> events.RunEvent:
    return events.status("TOOL_RUNNING", n=n)


def hub(linger_s: float = 0.0, clock: Clock | None = None) -> FeedHub:
    return FeedHub(lease_s=30, linger_s=linger_s, clock=clock or Clock())


async def test_a_poll_returns_the_new_events_of_each_run_of_its_reader_once() -> None:
    feeds = hub()
    first, second = feeds.open("r", "run-1"), feeds.open("r", "run-2")
    feeds.open("other", "run-3").append(status(9))
    first.append(status(1))
    first.append(status(2))
    second.append(status(3))
    assert await feeds.poll("r", ["run-1", "run-2"], 0) == {
        "run-1": [status(1), status(2)],
        "run-2": [status(3)],
    }
    first.append(status(4))
    assert await feeds.poll("r", ["run-1", "run-2"], 0) == {"run-1": [status(4)]}
    assert await feeds.poll("r", ["run-1", "run-2"], 0) == {}


async def test_a_waiting_poll_wakes_on_the_next_event_of_any_of_its_runs() -> None:
    feeds = hub()
    feeds.open("r", "run-1")
    second = feeds.open("r", "run-2")
    waiting = asyncio.create_task(feeds.poll("r", ["run-1", "run-2"], 10))
    await asyncio.sleep(0.01)
    assert not waiting.done()
    second.append(status(1))
    assert await asyncio.wait_for(waiting, 1) == {"run-2": [status(1)]}


async def test_a_run_opened_while_its_reader_waits_is_polled_in_that_wait() -> None:
    feeds = hub()
    feeds.open("r", "run-1")
    waiting = asyncio.create_task(feeds.poll("r", ["run-1"], 10))
    await asyncio.sleep(0.01)
    feeds.open("r", "run-2").append(status(1))
    assert await asyncio.wait_for(waiting, 1) == {"run-2": [status(1)]}


async def test_a_waiting_poll_returns_empty_after_its_wait() -> None:
    feeds = hub(linger_s=5)
    feeds.open("r", "run-1")
    started = asyncio.get_running_loop().time()
    assert await feeds.poll("r", ["run-1"], 0.05) == {}
    assert 0.04 <= asyncio.get_running_loop().time() - started < 1


async def test_the_linger_gathers_the_events_that_follow_the_first() -> None:
    feeds = hub(linger_s=0.2)
    feed = feeds.open("r", "run-1")
    polled = asyncio.create_task(feeds.poll("r", ["run-1"], 10))
    feed.append(status(1))
    await asyncio.sleep(0.05)
    feed.append(status(2))
    assert await asyncio.wait_for(polled, 1) == {"run-1": [status(1), status(2)]}


async def test_a_done_event_ends_the_linger_at_once() -> None:
    feeds = hub(linger_s=10)
    feed = feeds.open("r", "run-1")
    polled = asyncio.create_task(feeds.poll("r", ["run-1"], 10))
    feed.append(status(1))
    await asyncio.sleep(0.05)
    feed.append(events.done("SUCCESS"))
    assert await asyncio.wait_for(polled, 1) == {"run-1": [status(1), events.done("SUCCESS")]}


async def test_a_done_event_already_in_the_feed_is_not_lingered_over() -> None:
    feeds = hub(linger_s=10)
    feed = feeds.open("r", "run-1")
    feed.append(events.done("SUCCESS"))
    assert await asyncio.wait_for(feeds.poll("r", ["run-1"], 10), 1) == {"run-1": [events.done("SUCCESS")]}


async def test_done_is_final_and_its_feed_is_forgotten_once_handed_out() -> None:
    feeds = hub()
    feed = feeds.open("r", "run-1")
    feed.append(events.done("SUCCESS"))
    with pytest.raises(RuntimeError):
        feed.append(status(1))
    assert "run-1" in feeds
    await feeds.poll("r", ["run-1"], 0)
    assert "run-1" not in feeds
    assert await feeds.poll("r", ["run-1"], 0) == {"run-1": None}


async def test_a_run_the_hub_does_not_hold_is_answered_none_at_once() -> None:
    feeds = hub(linger_s=10)
    assert await asyncio.wait_for(feeds.poll("r", ["gone"], 10), 1) == {"gone": None}


async def test_a_dropped_run_is_neither_polled_nor_abandoned() -> None:
    clock = Clock()
    feeds = hub(clock=clock)
    feeds.open("r", "run-1").append(status(1))
    feeds.drop("run-1")
    assert await feeds.poll("r", [], 0) == {}
    clock.now += 31
    assert feeds.abandoned() == []


async def test_the_runs_of_a_reader_that_stops_polling_are_abandoned_after_the_lease() -> None:
    clock = Clock()
    feeds = hub(clock=clock)
    feeds.open("r", "run-1")
    feeds.open("r", "run-2")
    feeds.open("other", "run-3")
    clock.now += 20
    await feeds.poll("other", ["run-3"], 0)
    clock.now += 11
    assert sorted(feeds.abandoned()) == ["run-1", "run-2"]


async def test_a_reader_waiting_in_a_poll_is_not_abandoned() -> None:
    clock = Clock()
    feeds = hub(clock=clock)
    feeds.open("r", "run-1")
    waiting = asyncio.create_task(feeds.poll("r", ["run-1"], 10))
    await asyncio.sleep(0.01)
    clock.now += 31
    assert feeds.abandoned() == []
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert feeds.abandoned() == []  # a poll that ends renews the lease
    clock.now += 31
    assert feeds.abandoned() == ["run-1"]
