"""A ChatBackend for gateway tests: a short scripted stream, or one that waits until cancelled."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

from harness import events
from harness.events import LostRun
from harness.messages import RunEvent
from harness.tracing import trace_id_in


class FakeBackend:
    model_label = "fake backend"

    def __init__(self, hang: bool = False, lost_after_content: bool = False) -> None:
        self.hang = hang
        self.lost_after_content = lost_after_content
        """Play a supervisor lost between its content and its record: ``on_lost`` is told, then done follows."""
        self.calls: list[tuple[str, str, str]] = []
        self.traceparents: list[str | None] = []
        self.closed = asyncio.Event()
        self.ready = {"ray": True, "supervisors": True, "redis": True}

    async def chat(
        self,
        session_id: str,
        query: str,
        principal: str,
        on_lost: Callable[[LostRun], Awaitable[None]] | None = None,
        traceparent: str | None = None,
    ) -> AsyncIterator[RunEvent]:
        self.calls.append((session_id, query, principal))
        self.traceparents.append(traceparent)
        try:
            yield events.metadata(session_id, "run-fake-1", model=self.model_label, trace_id=trace_id_in(traceparent))
            yield events.status("ROUTING")
            if self.hang:
                await asyncio.Event().wait()
            content = events.content("SYSTEM_ANSWER", {"answer": f"echo: {query}"})
            yield content
            if self.lost_after_content and on_lost is not None:
                await on_lost(LostRun("run-fake-1", session_id, "SUCCESS", content.data))
            yield events.done("SUCCESS")
        finally:
            self.closed.set()

    async def readiness(self) -> dict[str, bool]:
        return dict(self.ready)
