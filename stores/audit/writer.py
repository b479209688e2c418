"""Group commit: many callers' writes share one transaction, and each caller returns only after it committed.

``GroupCommitWriter.write(item)`` queues ``item`` and waits. One thread per writer takes everything queued at
that moment, hands it to ``write_batch`` inside one transaction, commits, and only then resolves each caller's
future on the caller's own event loop (``call_soon_threadsafe``: callers may live on different loops and
threads). There is no timer: a write that finds the thread idle is committed at once; batches form from the
writes that arrive while a commit is in progress.

| what fails                             | what the callers get                                              |
| -------------------------------------- | ----------------------------------------------------------------- |
| nothing                                | ``None``, after the commit (never before it)                      |
| the database cannot be reached         | a wait: connecting is retried with backoff for ``outage_s``, then |
| (no connection opens, or the batch's   | the batch is written again; after ``outage_s`` the exception, for |
| connection was dropped)                | every write of the batch not yet committed                        |
| a batch of several writes, otherwise   | rolled back; each write retried alone: only failing ones raise    |
| a lone write, otherwise                | its exception                                                     |
| ``write`` after ``close()``            | ``AuditWriterClosed``                                             |

Writes that arrive during an outage queue behind the waiting batch and are committed after it. ``close()`` cuts
an outage's wait short: what is still unwritten then fails.

A caller that is cancelled while waiting does not withdraw its write: it is committed all the same.

The thread keeps one connection between batches (no pool pre-ping per commit) and drops it after any failure,
so a connection the server closed (a restart, ``wait_timeout``) is replaced by the next attempt. A retry cannot
tell a COMMIT that failed from one whose answer was lost: in the latter case the write is applied twice (the
audit store then holds a model step or tool invocation twice, raises on the second start of a run, and keeps
the first finish).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Generic, TypeVar

from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import StaticPool

from contract.vocabulary import HarnessError

log = logging.getLogger(__name__)

T = TypeVar("T")

FIRST_PAUSE_S, MAX_PAUSE_S = 0.25, 4.0
"""The backoff between attempts to reach a database that is down."""


class AuditWriterClosed(HarnessError):
    """A write arrived after the writer was closed."""

    code = "AUDIT_WRITER_CLOSED"


@dataclass(frozen=True)
class WriteStats:
    """What a writer has done since it was created."""

    commits: int
    """Transactions committed."""
    rows: int
    """Writes committed (one per ``write`` call)."""
    failed: int
    """Writes whose caller got an exception."""
    rollbacks: int
    """Transactions that failed and were rolled back (a failed batch, then each failed retry)."""


@dataclass(frozen=True)
class _Waiter(Generic[T]):
    item: T
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[None]


def _resolve(future: asyncio.Future[None], error: BaseException | None) -> None:
    if future.done():  # the caller was cancelled
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)


def _dropped(error: BaseException) -> bool:
    return isinstance(error, DBAPIError) and error.connection_invalidated


class GroupCommitWriter(Generic[T]):
    """Commits the writes of many callers together; ``write`` returns once its item is committed.

    ``write_batch(connection, items)`` writes ``items`` (in arrival order) on ``connection`` inside an open
    transaction. ``guard()`` is held around every use of the connection (the SQLite store serialises its
    calls). The thread starts with the first write; ``close()`` commits what is queued, then stops it.
    """

    def __init__(
        self,
        engine: Engine,
        write_batch: Callable[[Connection, Sequence[T]], None],
        guard: Callable[[], AbstractContextManager[None]],
        outage_s: float,
    ) -> None:
        self._engine = engine
        self._outage_s = outage_s
        self._closing = threading.Event()
        self._write_batch = write_batch
        self._guard = guard
        # A StaticPool hands its one connection to every checkout: holding it between batches would overlap the
        # readers' checkouts of the same connection.
        self._keep_connection = not isinstance(engine.pool, StaticPool)
        self._connection: Connection | None = None
        self._wakeup = threading.Condition()
        self._pending: list[_Waiter[T]] = []
        self._thread: threading.Thread | None = None
        self._closed = False
        self._commits = self._rows = self._failed = self._rollbacks = 0

    async def write(self, item: T) -> None:
        """Queue ``item`` and return once the transaction holding it has committed; raise what it raised."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        with self._wakeup:
            if self._closed:
                raise AuditWriterClosed("the audit writer is closed")
            self._pending.append(_Waiter(item, loop, future))
            if self._thread is None:
                self._thread = threading.Thread(target=self._drain, name="audit-group-commit", daemon=True)
                self._thread.start()
            self._wakeup.notify()
        await future

    def stats(self) -> WriteStats:
        with self._wakeup:
            return WriteStats(self._commits, self._rows, self._failed, self._rollbacks)

    def close(self) -> None:
        """Commit every queued write, then stop the thread. Later writes raise ``AuditWriterClosed``."""
        self._closing.set()
        with self._wakeup:
            self._closed = True
            thread = self._thread
            self._wakeup.notify()
        if thread is not None:
            thread.join()

    # -- the writer thread -------------------------------------------------------------------------------------

    def _drain(self) -> None:
        while True:
            with self._wakeup:
                while not self._pending and not self._closed:
                    self._wakeup.wait()
                if not self._pending:
                    break
                batch, self._pending = self._pending, []
            try:
                self._commit(batch)
            except Exception as exc:  # a dead writer would leave every later write waiting forever
                log.exception("audit group commit failed")
                self._settle(batch, exc)
        self._release()

    def _commit(self, batch: list[_Waiter[T]]) -> None:
        connection = self._reach(batch)
        if connection is None:
            return
        error = self._transaction(connection, batch)
        if error is not None and _dropped(error):  # the server went away mid-batch: wait for it, then again
            connection = self._reach(batch)
            if connection is None:
                return
            error = self._transaction(connection, batch)
        if error is None or len(batch) == 1:
            self._settle(batch, error)
            return
        for index, waiter in enumerate(batch):
            connection = self._reach(batch[index:])
            if connection is None:
                return
            self._settle([waiter], self._transaction(connection, [waiter]))

    def _reach(self, batch: list[_Waiter[T]]) -> Connection | None:
        """A connection, once the database answers; None when it stayed away for ``outage_s`` (or the writer
        closes meanwhile): the batch is then settled with the last error."""
        deadline = time.monotonic() + self._outage_s
        pause, waited = FIRST_PAUSE_S, False
        while True:
            try:
                connection = self._connect()
            except DBAPIError as exc:
                if time.monotonic() + pause > deadline or self._closing.is_set():
                    log.error("audit database unreachable for %.0f s: %d write(s) failed", self._outage_s, len(batch))
                    self._settle(batch, exc)
                    return None
                if not waited:
                    log.warning("audit database unreachable: %d write(s) wait for it", len(batch))
                    waited = True
                self._closing.wait(pause)
                pause = min(pause * 2, MAX_PAUSE_S)
                continue
            except Exception as exc:
                self._settle(batch, exc)
                return None
            if waited:
                log.warning("audit database reachable again: writing %d write(s)", len(batch))
            return connection

    def _connect(self) -> Connection:
        with self._guard():
            if self._connection is None:
                self._connection = self._engine.connect()
            return self._connection

    def _transaction(self, connection: Connection, batch: list[_Waiter[T]]) -> Exception | None:
        """Write ``batch`` in one transaction; the error if it did not commit (the connection is then dropped)."""
        error: Exception | None = None
        with self._guard():
            try:
                with connection.begin():
                    self._write_batch(connection, [waiter.item for waiter in batch])
            except Exception as exc:
                error = exc
            if error is not None or not self._keep_connection:
                self._connection = None
                connection.close()
        self._count(commits=int(error is None), rollbacks=int(error is not None))
        return error

    def _release(self) -> None:
        with self._guard():
            if self._connection is not None:
                self._connection.close()
                self._connection = None

    def _settle(self, batch: list[_Waiter[T]], error: Exception | None) -> None:
        if error is None:
            self._count(rows=len(batch))
        else:
            self._count(failed=len(batch))
        for waiter in batch:
            with contextlib.suppress(RuntimeError):  # the caller's event loop is closed: nobody is left to tell
                waiter.loop.call_soon_threadsafe(_resolve, waiter.future, error)

    def _count(self, commits: int = 0, rows: int = 0, failed: int = 0, rollbacks: int = 0) -> None:
        with self._wakeup:
            self._commits += commits
            self._rows += rows
            self._failed += failed
            self._rollbacks += rollbacks
