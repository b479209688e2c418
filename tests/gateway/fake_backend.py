"""A ChatBackend for gateway tests: a short scripted stream, or one that waits until cancelled."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from harness import events
from harness.events import RunEvent


class FakeBackend:
    model_label = "fake backend"

    def __init__(self, hang: bool = False) -> None:
        self.hang = hang
        self.calls: list[tuple[str, str, str]] = []
        self.closed = asyncio.Event()
        self.ready = {"ray": True, "supervisors": True, "redis": True}

    async def chat(self, session_id: str, query: str, principal: str) -> AsyncIterator[RunEvent]:
        self.calls.append((session_id, query, principal))
        try:
            yield events.metadata(session_id, "run-fake-1", model=self.model_label)
            yield events.status("ROUTING")
            if self.hang:
                await asyncio.Event().wait()
            yield events.content("SYSTEM_ANSWER", {"answer": f"echo: {query}"})
            yield events.done("SUCCESS")
        finally:
            self.closed.set()

    async def readiness(self) -> dict[str, bool]:
        return dict(self.ready)
