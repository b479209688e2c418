"""The lifecycle of a run: RUNNING, then exactly one terminal state."""

from __future__ import annotations

import threading
from enum import StrEnum

from harness.errors import InvalidTransition


class RunStatus(StrEnum):
    RUNNING = "RUNNING"
    SUCCESS = "SUCCESS"
    FALLBACK = "FALLBACK"
    FAILED = "FAILED"
    CANCELLED = "CANCELLED"


TERMINAL = frozenset({RunStatus.SUCCESS, RunStatus.FALLBACK, RunStatus.FAILED, RunStatus.CANCELLED})


class RunLifecycle:
    """Moves RUNNING -> one terminal state, once; a second transition raises :class:`InvalidTransition`."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._status = RunStatus.RUNNING

    @property
    def status(self) -> RunStatus:
        return self._status

    @property
    def finished(self) -> bool:
        return self._status in TERMINAL

    def finish(self, status: RunStatus) -> None:
        if status not in TERMINAL:
            raise InvalidTransition(f"{status} is not a terminal state")
        with self._lock:
            if self._status in TERMINAL:
                raise InvalidTransition(f"run already finished as {self._status}, cannot become {status}")
            self._status = status
