"""Awaiting under a run's limits.

``bounded`` is the one way the Harness awaits work of a run: it returns the result, or stops the work when
the run is cancelled or its deadline passes. Stopping cancels the local task *and* calls ``on_abort`` so
remote work (a Ray task, an HTTP request, a MySQL query) is stopped too; cancelling a local await alone
does not stop remote work.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from harness.budget import DEADLINE
from harness.deadline import Deadline
from harness.errors import BudgetExhausted, OperationFailed, RunCancelled
from harness.retry import FailureKind
from harness.run_context import RunContext

T = TypeVar("T")

_ABORT_GRACE_S = 1.0
"""How long an aborted local task may take to unwind before the Harness stops waiting for it."""


async def bounded(
    ctx: RunContext,
    work: Awaitable[T],
    *,
    deadline: Deadline | None = None,
    timeout_s: float | None = None,
    on_abort: Callable[[], None] | None = None,
) -> T:
    """``work``'s result, or: ``RunCancelled`` when the run is cancelled, ``BudgetExhausted(DEADLINE)`` when
    ``deadline`` (default: the run's) passes, ``OperationFailed(TIMEOUT)`` when the operation's own
    ``timeout_s`` passes first. Each way out but the result stops the work, here and remotely."""
    deadline = deadline or ctx.deadline
    task = asyncio.ensure_future(work)
    if ctx.cancellation.cancelled or deadline.expired:
        await _abort(task, on_abort)
        ctx.cancellation.raise_if_cancelled()
        raise _deadline_passed(ctx)
    loop = asyncio.get_running_loop()
    cancelled: asyncio.Future[str] = loop.create_future()

    def signal(reason: str) -> None:
        loop.call_soon_threadsafe(_resolve, cancelled, reason)

    unregister = ctx.cancellation.on_cancel(signal)
    try:
        waiters: set[asyncio.Future[Any]] = {task, cancelled}
        remaining = deadline.remaining_s()
        wait_s = remaining if timeout_s is None else min(remaining, timeout_s)
        done, _ = await asyncio.wait(waiters, timeout=wait_s, return_when=asyncio.FIRST_COMPLETED)
    except asyncio.CancelledError:
        await _abort(task, on_abort)
        raise
    finally:
        unregister()
        cancelled.cancel()
    if task in done:
        return task.result()
    await _abort(task, on_abort)
    if ctx.cancellation.cancelled:
        raise RunCancelled(ctx.cancellation.reason or "cancelled")
    if timeout_s is not None and timeout_s < remaining:
        raise OperationFailed(FailureKind.TIMEOUT, f"no answer within {timeout_s:g}s")
    raise _deadline_passed(ctx)


def ensure_open(ctx: RunContext, deadline: Deadline | None = None) -> None:
    """Raise if the run is cancelled or past its deadline; checked before any work is started."""
    ctx.cancellation.raise_if_cancelled()
    if (deadline or ctx.deadline).expired:
        raise _deadline_passed(ctx)


def _resolve(future: asyncio.Future[str], reason: str) -> None:
    if not future.done():
        future.set_result(reason)


def _deadline_passed(ctx: RunContext) -> BudgetExhausted:
    ctx.budget.note_exhausted(DEADLINE)
    return BudgetExhausted(DEADLINE)


async def _abort(task: asyncio.Future[T], on_abort: Callable[[], None] | None) -> None:
    if on_abort is not None:
        on_abort()
    if task.done():
        if not task.cancelled():
            task.exception()
        return
    task.cancel()
    await asyncio.wait({task}, timeout=_ABORT_GRACE_S)
