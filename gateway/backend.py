"""What the HTTP gateway needs from the runtime, as one small protocol (the Ray runtime in production)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Protocol

from harness.events import LostRun
from harness.messages import RunEvent


class ChatBackend(Protocol):
    def chat(
        self,
        session_id: str,
        query: str,
        principal: str,
        on_lost: Callable[[LostRun], Awaitable[None]] | None = None,
        traceparent: str | None = None,
    ) -> AsyncIterator[RunEvent]:
        """One run's events; closing the iterator early cancels the run. ``on_lost`` is awaited before the
        stream's end when the run's supervisor was lost before it recorded the run's end. ``traceparent`` names
        the request's span; the metadata event carries its trace id."""

    async def readiness(self) -> dict[str, bool]:
        """Named checks of everything a run needs (Ray, supervisors, Redis, audit store)."""

    @property
    def model_label(self) -> str: ...
