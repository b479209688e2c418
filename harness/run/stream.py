"""``RunStream``: the events a run's client gets, checked against the fixed order as they are sent."""

from __future__ import annotations

import asyncio
from typing import Any

from harness import events
from harness.cancellation import CancellationToken
from harness.messages import RunEvent


class RunStream:
    """Sends nothing once its run is cancelled (the gateway ends that stream); keeps what the ``content`` event
    released, for the finish record."""

    def __init__(self, cancellation: CancellationToken, announced: bool) -> None:
        """``announced``: the caller already sent this run's metadata event."""
        self.events: asyncio.Queue[RunEvent] = asyncio.Queue()
        self._cancellation = cancellation
        self._sequence = events.EventSequence(announced)
        self.released: dict[str, Any] | None = None
        """The data of the ``content`` event this run sent, as sent: the audit keeps it with the finish record."""

    def emit(self, event: RunEvent) -> None:
        if self._cancellation.cancelled:
            return
        self.events.put_nowait(self._sequence.accept(event))
        if event.event == "content":
            self.released = event.data

    def status(self, code: str, **details: Any) -> None:
        self.emit(events.status(code, **details))

    def end(self, final: RunEvent, outcome: events.Outcome) -> None:
        """The final content or failure, and the done it releases."""
        self.emit(final)
        self.emit(events.done(outcome))
