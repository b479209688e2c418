"""Injected time: the Harness never reads the system clock directly, so tests can move it."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def monotonic(self) -> float: ...

    def now(self) -> datetime: ...


class SystemClock:
    def monotonic(self) -> float:
        return time.monotonic()

    def now(self) -> datetime:
        return datetime.now(UTC)


class ManualClock:
    """A clock that only moves when told to."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 7, 21, 2, 30, tzinfo=UTC)
        self._monotonic = 1000.0

    def monotonic(self) -> float:
        return self._monotonic

    def now(self) -> datetime:
        return self._now

    def advance(self, seconds: float) -> None:
        self._monotonic += seconds
        self._now += timedelta(seconds=seconds)


def isoformat(moment: datetime) -> str:
    """UTC timestamp with milliseconds, the one format records and events use."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")
