"""What the HTTP gateway needs from the runtime, as one small protocol (the Ray runtime in production)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Protocol

from harness.events import RunEvent


class ChatBackend(Protocol):
    def chat(self, session_id: str, query: str, principal: str) -> AsyncIterator[RunEvent]:
        """One run's events; closing the iterator early cancels the run."""

    async def readiness(self) -> dict[str, bool]:
        """Named checks of everything a run needs (Ray, supervisors, Redis, audit store)."""

    @property
    def model_label(self) -> str: ...
