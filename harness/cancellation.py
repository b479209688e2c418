"""Cancellation of one run: set once, observed at every boundary, and pushed to in-flight work."""

from __future__ import annotations

import threading
from collections.abc import Callable

from harness.errors import RunCancelled

Callback = Callable[[str], None]


class CancellationToken:
    """The first ``cancel`` wins; callbacks registered before or after it run exactly once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._reason: str | None = None
        self._callbacks: dict[int, Callback] = {}
        self._next_id = 0

    @property
    def cancelled(self) -> bool:
        return self._reason is not None

    @property
    def reason(self) -> str | None:
        return self._reason

    def cancel(self, reason: str) -> bool:
        with self._lock:
            if self._reason is not None:
                return False
            self._reason = reason
            callbacks = list(self._callbacks.values())
            self._callbacks.clear()
        for callback in callbacks:
            callback(reason)
        return True

    def on_cancel(self, callback: Callback) -> Callable[[], None]:
        """Run ``callback(reason)`` on cancellation (at once if already cancelled); returns an unregister."""
        with self._lock:
            if self._reason is None:
                key = self._next_id
                self._next_id += 1
                self._callbacks[key] = callback
                return lambda: self._unregister(key)
            reason = self._reason
        callback(reason)
        return lambda: None

    def _unregister(self, key: int) -> None:
        with self._lock:
            self._callbacks.pop(key, None)

    def raise_if_cancelled(self) -> None:
        if self._reason is not None:
            raise RunCancelled(self._reason)
