"""The events of a supervisor's runs, handed to their readers in batches (long polling).

A reader is one gateway's event pump for one supervisor: it follows every run it opened there. The supervisor
appends each run's events to that run's feed; the reader asks for everything new across all its runs in one
call (``poll``), which waits up to ``wait_s`` when nothing is new, and, once something is, lingers up to
``linger_s`` for more (it returns at once when a run finishes). So a run's events cost a fraction of one call
each: at low load a run's events leave in a few batches, at high load one call carries the events of many runs.
Plain calls rather than a stream, so the same protocol works for a driver on a cluster node and over Ray
Client (``ray://``), which cannot stream.

Each event is handed out once, in order; a feed is forgotten once its ``done`` event has been handed out. A
reader that has not polled for ``lease_s`` (and is not waiting in a poll) is gone: its runs are ``abandoned``.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from harness.messages import RunEvent


class RunFeed:
    """One run's events in order; nothing follows ``done``."""

    def __init__(self, reader: str, on_change: Callable[[bool], None]) -> None:
        self.reader = reader
        self._events: list[RunEvent] = []
        self._sent = 0
        self._on_change = on_change
        self.finished = False
        """The ``done`` event is in the feed."""

    def append(self, event: RunEvent) -> None:
        if self.finished:
            raise RuntimeError("the feed already holds its done event")
        self._events.append(event)
        self.finished = event.event == "done"
        self._on_change(self.finished)

    @property
    def pending(self) -> bool:
        return self._sent < len(self._events)

    def take(self) -> list[RunEvent]:
        """The events not handed out yet."""
        batch = self._events[self._sent :]
        self._sent = len(self._events)
        return batch

    @property
    def delivered(self) -> bool:
        """The reader has been handed the ``done`` event."""
        return self.finished and not self.pending


@dataclass
class _Reader:
    last_poll: float
    waiting: int = 0
    runs: set[str] = field(default_factory=set)


class FeedHub:
    def __init__(self, lease_s: float, linger_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self._lease_s = lease_s
        self._linger_s = linger_s
        self._clock = clock
        self._feeds: dict[str, RunFeed] = {}
        self._readers: dict[str, _Reader] = {}
        self._changed = asyncio.Event()
        self._finished = asyncio.Event()

    def open(self, reader: str, run_id: str) -> RunFeed:
        feed = RunFeed(reader, self._note_change)
        self._feeds[run_id] = feed
        self._readers.setdefault(reader, _Reader(self._clock())).runs.add(run_id)
        return feed

    def drop(self, run_id: str) -> None:
        """Forget the run's feed (its reader closed it, or it was abandoned)."""
        feed = self._feeds.pop(run_id, None)
        if feed is not None:
            self._forget(feed.reader, run_id)

    def __contains__(self, run_id: str) -> bool:
        return run_id in self._feeds

    async def poll(self, reader: str, following: Iterable[str], wait_s: float) -> dict[str, list[RunEvent] | None]:
        """The new events of each of ``reader``'s runs that has some; ``None`` for each run in ``following``
        that this hub does not hold (it ended unseen, or the supervisor restarted since it was opened)."""
        state = self._readers.setdefault(reader, _Reader(self._clock()))
        answer: dict[str, list[RunEvent] | None] = {run_id: None for run_id in following if run_id not in self._feeds}
        state.waiting += 1
        try:
            loop = asyncio.get_running_loop()
            deadline = loop.time() + wait_s
            while not answer and not self._any_pending(state) and loop.time() < deadline:
                self._changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), deadline - loop.time())
            if self._linger_s > 0 and self._any_pending(state) and not self._any_delivers(state):
                self._finished.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._finished.wait(), self._linger_s)
        finally:
            state.waiting -= 1
            state.last_poll = self._clock()
        for run_id in list(state.runs):
            feed = self._feeds[run_id]
            if feed.pending:
                answer[run_id] = feed.take()
            if feed.delivered:
                self.drop(run_id)
        return answer

    def abandoned(self) -> list[str]:
        """The runs whose reader is gone."""
        now = self._clock()
        return [
            run_id
            for state in self._readers.values()
            if not state.waiting and now - state.last_poll > self._lease_s
            for run_id in state.runs
        ]

    def _any_pending(self, state: _Reader) -> bool:
        return any(self._feeds[run_id].pending for run_id in state.runs)

    def _any_delivers(self, state: _Reader) -> bool:
        """Whether some run of the reader has its done event waiting (no reason to linger)."""
        return any(self._feeds[run_id].finished for run_id in state.runs if self._feeds[run_id].pending)

    def _note_change(self, finished: bool) -> None:
        self._changed.set()
        if finished:
            self._finished.set()

    def _forget(self, reader: str, run_id: str) -> None:
        state = self._readers.get(reader)
        if state is None:
            return
        state.runs.discard(run_id)
        if not state.runs and not state.waiting:
            del self._readers[reader]
