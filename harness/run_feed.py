"""A run's events, held until its client has fetched them (long polling).

The supervisor appends each event; the client asks for the events after the ones it has (``fetch(cursor,
wait_s)``), waiting up to ``wait_s`` when there are none yet. Plain calls rather than a stream, so the same
protocol works for a driver on a cluster node and over Ray Client (``ray://``), which cannot stream. A feed
whose client has not asked for ``lease_s`` (and is not waiting) is ``abandoned``: its client is gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any


class RunFeed:
    def __init__(self, lease_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self._events: list[dict[str, Any]] = []
        self._changed = asyncio.Event()
        self._lease_s = lease_s
        self._clock = clock
        self._last_fetch = clock()
        self._waiting = 0
        self.finished = False
        """The ``done`` event is in the feed; nothing follows it."""
        self.delivered = False
        """The client has been handed the ``done`` event."""

    def append(self, event: dict[str, Any]) -> None:
        if self.finished:
            raise RuntimeError("the feed already holds its done event")
        self._events.append(event)
        self.finished = event["event"] == "done"
        self._changed.set()

    async def fetch(self, cursor: int, wait_s: float) -> list[dict[str, Any]]:
        """The events after the first ``cursor`` ones; waits up to ``wait_s`` for one if there are none."""
        if cursor < 0 or cursor > len(self._events):
            raise ValueError(f"cursor {cursor} outside the feed (0..{len(self._events)})")
        self._waiting += 1
        try:
            if cursor == len(self._events) and not self.finished and wait_s > 0:
                self._changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), wait_s)
        finally:
            self._waiting -= 1
            self._last_fetch = self._clock()
        batch = self._events[cursor:]
        if self.finished and cursor + len(batch) == len(self._events):
            self.delivered = True
        return batch

    @property
    def abandoned(self) -> bool:
        return not self._waiting and self._clock() - self._last_fetch > self._lease_s
