from __future__ import annotations

import pytest

from harness.cancellation import CancellationToken
from harness.errors import RunCancelled


def test_first_cancel_wins_and_callbacks_run_once() -> None:
    token, seen = CancellationToken(), []
    token.on_cancel(seen.append)
    assert token.cancel("CLIENT_DISCONNECTED") is True
    assert token.cancel("DEADLINE") is False
    assert seen == ["CLIENT_DISCONNECTED"] and token.reason == "CLIENT_DISCONNECTED"
    with pytest.raises(RunCancelled):
        token.raise_if_cancelled()


def test_late_registration_runs_at_once_and_unregister_works() -> None:
    token, seen = CancellationToken(), []
    unregister = token.on_cancel(seen.append)
    unregister()
    token.cancel("x")
    assert seen == []
    token.on_cancel(seen.append)
    assert seen == ["x"]
