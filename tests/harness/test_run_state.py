"""A run reaches exactly one terminal state."""

from __future__ import annotations

import pytest

from harness.errors import InvalidTransition
from harness.run_state import RunLifecycle, RunStatus


@pytest.mark.parametrize("status", [RunStatus.SUCCESS, RunStatus.FALLBACK, RunStatus.FAILED, RunStatus.CANCELLED])
def test_terminal_state_is_reached_once(status: RunStatus) -> None:
    lifecycle = RunLifecycle()
    assert lifecycle.status is RunStatus.RUNNING
    lifecycle.finish(status)
    assert lifecycle.status is status and lifecycle.finished
    for second in (RunStatus.SUCCESS, RunStatus.CANCELLED, status):
        with pytest.raises(InvalidTransition):
            lifecycle.finish(second)
    assert lifecycle.status is status


def test_running_is_not_terminal() -> None:
    with pytest.raises(InvalidTransition):
        RunLifecycle().finish(RunStatus.RUNNING)
