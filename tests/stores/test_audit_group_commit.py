"""The audit store's group commit, on SQLite (a temporary file) and on the private MariaDB.

What another process would see is read through an engine of its own (``reader``), never through the store.
To make a batch on purpose, a test holds the database's write lock from a connection of its own (as another
writer would) while the store's writer is busy with a first write (a run ``blocker-N``): every write issued
meanwhile waits in the queue and is committed together once the lock is released.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import sqlite3
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Protocol

import pytest
import sqlalchemy as sa
from sqlalchemy.pool import NullPool

from config.runtime import AuditSettings
from contract.clock import ManualClock
from harness.audit import ModelStep, RunFinished, RunStarted, ToolInvocation
from stores.audit.engine import connect_url
from stores.audit.schema import METADATA, agent_step, chat_session, diagnosis_run, tool_invocation
from stores.audit.store import SqlAuditStore
from stores.audit.writer import AuditWriterClosed
from tests.services import MariaDBServer

AT = datetime(2026, 7, 21, 2, 30, 0, 123456, tzinfo=UTC)
DATABASE = "audit_group_commit_test"
ROWS_PER_RUN = 10
ROOT = Path(__file__).resolve().parents[2]
BLOCKER = "blocker"
BLOCKERS = itertools.count()


# -- records ------------------------------------------------------------------------------------------------------


def started(run_id: str, session_id: str, principal: str = "alice", at: datetime = AT) -> RunStarted:
    return RunStarted(run_id, session_id, principal, f"query of {run_id}", at)


def step(run_id: str, session_id: str, index: int) -> ModelStep:
    return ModelStep(run_id, session_id, index, "agent", 12, 300, 8, index <= 3, "OK", 1)


def tool(run_id: str, session_id: str, index: int) -> ToolInvocation:
    return ToolInvocation(
        run_id=run_id,
        session_id=session_id,
        tool_call_id=f"call_{index}",
        tool_name="query_logs",
        input_params={"query": "支付超时", "lookback_minutes": 30},
        output_preview="证据" * 40,
        output_length=4000,
        evidence_status="EVIDENCE_FOUND",
        is_truncated=False,
        duration_ms=42,
        success=True,
        error_code=None,
        error_message=None,
    )


def finished(run_id: str, session_id: str, status: str = "SUCCESS") -> RunFinished:
    return RunFinished(
        run_id=run_id,
        session_id=session_id,
        intent="DIAGNOSIS",
        status=status,
        fallback_type=None,
        fallback_reason=None,
        published_result=None,
        model_calls=5,
        input_tokens=1500,
        output_tokens=50,
        tool_calls=3,
        duration_ms=1500,
        finished_at=AT,
    )


async def one_run(store: SqlAuditStore, run_id: str, session_id: str, principal: str = "alice") -> None:
    """A run's ten writes, each awaited before the next: started, five model steps, three tools, finished."""
    await store.record(started(run_id, session_id, principal))
    for index in range(1, 6):
        await store.record(step(run_id, session_id, index))
        if index <= 3:
            await store.record(tool(run_id, session_id, index))
    await store.record(finished(run_id, session_id))


def write_runs_in_this_process(url: str, username: str | None, prefix: str, runs: int) -> None:
    """Entry point of the second process in ``test_two_processes_write_the_same_database``."""

    async def main() -> None:
        store = SqlAuditStore(AuditSettings(url=url, username=username))
        try:
            await asyncio.gather(*(one_run(store, f"{prefix}-{n}", f"{prefix}-session-{n % 5}") for n in range(runs)))
        finally:
            store.close()

    asyncio.run(main())


# -- the database -------------------------------------------------------------------------------------------------


class WriteLock(Protocol):
    def hold(self) -> None: ...

    def release(self) -> None: ...


class SqliteWriteLock:
    def __init__(self, path: str) -> None:
        self._connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)

    def hold(self) -> None:
        self._connection.execute("BEGIN IMMEDIATE")

    def release(self) -> None:
        self._connection.execute("ROLLBACK")

    def close(self) -> None:
        self._connection.close()


class MariaDBWriteLock:
    def __init__(self, server: MariaDBServer) -> None:
        self._connection = server.connect(DATABASE)

    def hold(self) -> None:
        with self._connection.cursor() as cursor:
            cursor.execute("LOCK TABLES chat_session WRITE, diagnosis_run WRITE")

    def release(self) -> None:
        with self._connection.cursor() as cursor:
            cursor.execute("UNLOCK TABLES")

    def close(self) -> None:
        self._connection.close()


@dataclass
class Database:
    backend: str
    settings: AuditSettings
    reader: sa.Engine
    """An engine of its own, without a pool: what another process sees."""
    lock: WriteLock

    def store(self) -> SqlAuditStore:
        return SqlAuditStore(self.settings, ManualClock(AT))

    def count(self, table: sa.Table, *where: Any) -> int:
        """Rows of ``table`` (a run table; the blockers' runs left out) where ``where`` holds."""
        where = (*where, table.c.run_id.not_like(f"{BLOCKER}%"))
        with self.reader.connect() as connection:
            return int(connection.execute(sa.select(sa.func.count()).select_from(table).where(*where)).scalar_one())


@pytest.fixture(scope="module")
def mariadb_database(mariadb_server: MariaDBServer) -> str:
    with mariadb_server.connect() as connection, connection.cursor() as cursor:
        cursor.execute(f"DROP DATABASE IF EXISTS {DATABASE}")
        cursor.execute(f"CREATE DATABASE {DATABASE}")
    return f"mysql+pymysql://127.0.0.1:{mariadb_server.port}/{DATABASE}"


@pytest.fixture(params=["sqlite", "mariadb"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    lock: SqliteWriteLock | MariaDBWriteLock
    if request.param == "sqlite":
        path = tmp_path / "audit.db"
        settings = AuditSettings(url=f"sqlite:///{path}")
        reader = sa.create_engine(connect_url(settings), poolclass=NullPool)
        METADATA.create_all(reader)
        with reader.connect() as connection:
            connection.exec_driver_sql("PRAGMA journal_mode=WAL")
        lock = SqliteWriteLock(str(path))
    else:
        settings = AuditSettings(url=request.getfixturevalue("mariadb_database"), username="root")
        reader = sa.create_engine(connect_url(settings), poolclass=NullPool)
        METADATA.drop_all(reader)
        METADATA.create_all(reader)
        lock = MariaDBWriteLock(request.getfixturevalue("mariadb_server"))
    yield Database(request.param, settings, reader, lock)
    lock.close()
    reader.dispose()


@pytest.fixture
def store(database: Database) -> Iterator[SqlAuditStore]:
    store = database.store()
    yield store
    store.close()


async def hold_the_writer(store: SqlAuditStore, lock: WriteLock) -> asyncio.Task[None]:
    """Take the database's write lock and give the store's writer a first write that waits for it."""
    lock.hold()
    run_id = f"{BLOCKER}-{next(BLOCKERS)}"
    blocker = asyncio.create_task(store.record(started(run_id, "blocker-session")))
    await asyncio.sleep(0.3)  # the writer takes the blocker and waits for the lock
    return blocker


@contextlib.asynccontextmanager
async def one_batch(store: SqlAuditStore, lock: WriteLock) -> AsyncIterator[None]:
    """The writes issued inside the block are committed in one batch, after the blocker's own commit."""
    blocker = await hold_the_writer(store, lock)
    try:
        yield
        await asyncio.sleep(0.05)  # the writes issued in the block reach the queue
    finally:
        lock.release()
    await blocker


# -- throughput and durability --------------------------------------------------------------------------------------


async def test_200_concurrent_runs_land_every_row_in_few_commits(database: Database, store: SqlAuditStore) -> None:
    runs, sessions = 200, 20

    await asyncio.gather(
        *(one_run(store, f"run-{n}", f"session-{n % sessions}", f"p-{n % sessions}") for n in range(runs))
    )

    stats = store.write_stats()
    assert (stats.rows, stats.failed, stats.rollbacks) == (runs * ROWS_PER_RUN, 0, 0)
    assert stats.commits < stats.rows / 3, stats
    assert database.count(diagnosis_run, diagnosis_run.c.release_outcome == "SUCCESS") == runs
    assert database.count(agent_step) == runs * 5
    assert database.count(tool_invocation) == runs * 3
    with database.reader.connect() as connection:
        owners = {row.session_id: row.principal for row in connection.execute(sa.select(chat_session))}
        sequences = connection.execute(sa.select(diagnosis_run.c.session_id, diagnosis_run.c.finish_seq)).all()
    assert owners == {f"session-{n}": f"p-{n}" for n in range(sessions)}
    for session in range(sessions):
        assert sorted(seq for sid, seq in sequences if sid == f"session-{session}") == list(range(1, 11))


async def test_an_acknowledged_write_is_already_committed(database: Database, store: SqlAuditStore) -> None:
    async def run(n: int) -> None:
        run_id, session_id = f"run-{n}", f"session-{n}"
        await store.record(started(run_id, session_id))
        assert await asyncio.to_thread(database.count, diagnosis_run, diagnosis_run.c.run_id == run_id) == 1
        for index in range(1, 4):
            await store.record(step(run_id, session_id, index))
            assert await asyncio.to_thread(database.count, agent_step, agent_step.c.run_id == run_id) == index
        await store.record(finished(run_id, session_id))
        done = diagnosis_run.c.release_outcome.is_not(None)
        assert await asyncio.to_thread(database.count, diagnosis_run, diagnosis_run.c.run_id == run_id, done) == 1

    await asyncio.gather(*(run(n) for n in range(20)))


async def test_writes_of_a_failed_commit_raise(database: Database, store: SqlAuditStore) -> None:
    await store.record(started("run-1", "session-1"))
    with database.reader.begin() as connection:
        agent_step.drop(connection)

    async with one_batch(store, database.lock):
        writes = [asyncio.create_task(store.record(step("run-1", "session-1", n))) for n in range(1, 6)]
    results = await asyncio.gather(*writes, return_exceptions=True)

    assert all(isinstance(result, sa.exc.DBAPIError) for result in results), results
    stats = store.write_stats()
    assert (stats.rows, stats.failed, stats.rollbacks) == (2, 5, 6)  # the batch, then each step alone


async def test_one_bad_row_fails_only_its_own_writer(database: Database, store: SqlAuditStore) -> None:
    await store.record(started("run-1", "session-1"))

    async with one_batch(store, database.lock):
        good = [asyncio.create_task(one_step_run(store, n)) for n in range(2, 12)]
        duplicate = asyncio.create_task(store.record(started("run-1", "session-1")))
        good += [asyncio.create_task(store.record(step("run-1", "session-1", n))) for n in range(1, 6)]

    with pytest.raises(sa.exc.IntegrityError):
        await duplicate
    await asyncio.gather(*good)
    assert database.count(diagnosis_run) == 11
    assert database.count(agent_step) == 10 + 5
    stats = store.write_stats()
    assert (stats.failed, stats.rollbacks) == (1, 2)  # the batch, then the duplicate alone
    assert stats.rows == 1 + 1 + 20 + 5


async def one_step_run(store: SqlAuditStore, n: int) -> None:
    await store.record(started(f"run-{n}", f"session-{n}"))
    await store.record(step(f"run-{n}", f"session-{n}", 1))


async def test_close_commits_the_pending_writes(database: Database) -> None:
    store = database.store()
    blocker = await hold_the_writer(store, database.lock)
    pending = [asyncio.create_task(store.record(started(f"run-{n}", f"session-{n}"))) for n in range(30)]
    await asyncio.sleep(0.05)
    assert store.write_stats().rows == 0

    releaser = threading.Timer(0.3, database.lock.release)
    releaser.start()
    store.close()
    releaser.join()

    await asyncio.gather(blocker, *pending)
    assert database.count(diagnosis_run) == 30
    assert store.write_stats().rows == 31
    with pytest.raises(AuditWriterClosed):
        await store.record(step("run-1", "session-1", 1))


# -- the rules of each write hold inside a batch ---------------------------------------------------------------------


async def test_one_batch_keeps_the_session_and_finish_rules(database: Database, store: SqlAuditStore) -> None:
    async with one_batch(store, database.lock):
        writes = [
            asyncio.create_task(store.record(started("run-a", "session-1", "alice"))),
            asyncio.create_task(store.record(started("run-b", "session-1", "bob", AT + timedelta(minutes=5)))),
        ]
    await asyncio.gather(*writes)

    async with one_batch(store, database.lock):
        writes = [
            asyncio.create_task(store.record(finished("run-b", "session-1", "CANCELLED"))),
            asyncio.create_task(store.record(finished("run-b", "session-1", "FAILED"))),
            asyncio.create_task(store.record(finished("run-a", "session-1", "SUCCESS"))),
            asyncio.create_task(store.record(finished("ghost", "session-1", "SUCCESS"))),
        ]
    await asyncio.gather(*writes)

    assert store.write_stats().commits <= 4  # two blockers, two batches (one, if a blocker joined its batch)
    assert await store.session_owner("session-1") == "alice"
    with database.reader.connect() as connection:
        session = connection.execute(sa.select(chat_session).where(chat_session.c.session_id == "session-1")).one()
        runs = connection.execute(
            sa.select(diagnosis_run.c.run_id, diagnosis_run.c.status, diagnosis_run.c.finish_seq)
            .where(diagnosis_run.c.session_id == "session-1")
            .order_by(diagnosis_run.c.run_id)
        ).all()
    assert session.last_active_at - session.created_at == timedelta(minutes=5)
    assert [tuple(run) for run in runs] == [("run-a", "SUCCESS", 2), ("run-b", "CANCELLED", 1)]
    assert await store.last_turn("session-1") == ("DIAGNOSIS", "query of run-a")


async def test_a_run_of_a_session_claimed_meanwhile_keeps_the_owner(database: Database, store: SqlAuditStore) -> None:
    assert await store.claim_session("session-1", "alice") is True
    await store.record(started("run-1", "session-1", "bob"))

    assert await store.session_owner("session-1") == "alice"
    assert await store.claim_session("session-1", "bob") is False


# -- connections, loops and processes -----------------------------------------------------------------------------


async def test_the_writer_reconnects_after_the_server_drops_its_connection(
    mariadb_server: MariaDBServer, mariadb_database: str
) -> None:
    settings = AuditSettings(url=mariadb_database, username="root")
    store = SqlAuditStore(settings, ManualClock(AT))
    METADATA.drop_all(store.engine)
    store.init_schema()
    try:
        await store.record(started("run-1", "session-1"))
        with mariadb_server.connect() as connection, connection.cursor() as cursor:
            cursor.execute("SELECT ID FROM information_schema.PROCESSLIST WHERE DB = %s", (DATABASE,))
            for (thread_id,) in cursor.fetchall():
                cursor.execute(f"KILL {int(thread_id)}")

        await store.record(step("run-1", "session-1", 1))
        await store.record(finished("run-1", "session-1"))

        stats = store.write_stats()
        assert (stats.rows, stats.failed, stats.rollbacks) == (3, 0, 1)
        assert len(await store.steps("run-1")) == 1
        assert await store.last_turn("session-1") == ("DIAGNOSIS", "query of run-1")
    finally:
        store.close()


async def test_writers_on_several_event_loops_share_a_store(database: Database, store: SqlAuditStore) -> None:
    def on_a_loop_of_its_own(prefix: str) -> None:
        asyncio.run(write_runs(store, prefix, 20))

    threads = [threading.Thread(target=on_a_loop_of_its_own, args=(f"loop{n}",)) for n in range(2)]
    for thread in threads:
        thread.start()
    await write_runs(store, "main", 20)
    for thread in threads:
        await asyncio.to_thread(thread.join)

    assert database.count(diagnosis_run, diagnosis_run.c.release_outcome == "SUCCESS") == 60
    assert database.count(agent_step) == 300
    assert store.write_stats().rows == 600


async def write_runs(store: SqlAuditStore, prefix: str, runs: int) -> None:
    await asyncio.gather(*(one_run(store, f"{prefix}-{n}", f"{prefix}-session-{n % 5}") for n in range(runs)))


async def test_two_processes_write_the_same_database(database: Database, store: SqlAuditStore) -> None:
    code = (
        "import sys; from tests.stores.test_audit_group_commit import write_runs_in_this_process as write; "
        "write(sys.argv[1], sys.argv[2] or None, 'other', 40)"
    )
    other = await asyncio.create_subprocess_exec(
        sys.executable, "-c", code, database.settings.url, database.settings.username or "", cwd=ROOT
    )
    await write_runs(store, "this", 40)
    assert await other.wait() == 0

    assert database.count(diagnosis_run, diagnosis_run.c.release_outcome == "SUCCESS") == 80
    assert database.count(agent_step) == 400
    with database.reader.connect() as connection:
        sequences = connection.execute(sa.select(diagnosis_run.c.session_id, diagnosis_run.c.finish_seq)).all()
    for prefix in ("this", "other"):
        for session in range(5):
            assert sorted(seq for sid, seq in sequences if sid == f"{prefix}-session-{session}") == list(range(1, 9))


async def test_a_cancelled_write_is_committed_all_the_same(database: Database, store: SqlAuditStore) -> None:
    async with one_batch(store, database.lock):
        write = asyncio.create_task(store.record(started("run-1", "session-1")))
        await asyncio.sleep(0.05)
        write.cancel()
    with pytest.raises(asyncio.CancelledError):
        await write
    await store.record(step("run-1", "session-1", 1))  # the next batch: after the cancelled one

    assert database.count(diagnosis_run) == 1
    stats = store.write_stats()
    assert (stats.rows, stats.failed) == (3, 0)  # the blocker, the cancelled write, the step


async def test_writes_wait_out_a_database_restart_and_all_land(
    mariadb_server: MariaDBServer, mariadb_database: str
) -> None:
    """The soak found a MariaDB restart losing every row written meanwhile (each write failed at once and was
    only logged): the writer waits out an unreachable database for ``audit.outage-wait``, then commits them."""
    store = SqlAuditStore(AuditSettings(url=mariadb_database, username="root"), ManualClock(AT))
    METADATA.drop_all(store.engine)
    store.init_schema()
    try:
        await store.record(started("run-1", "session-1"))
        mariadb_server.stop()
        try:
            writes = [asyncio.create_task(store.record(step("run-1", "session-1", n))) for n in range(1, 4)]
            writes.append(asyncio.create_task(store.record(finished("run-1", "session-1"))))
            await asyncio.sleep(1.5)
            assert not any(write.done() for write in writes)  # waiting, neither failed nor dropped
        finally:
            mariadb_server.start()
        await asyncio.wait_for(asyncio.gather(*writes), 60)
        assert store.write_stats().failed == 0
        assert len(await store.steps("run-1")) == 3
        assert (await store.run("run-1"))["status"] == "SUCCESS"
    finally:
        store.close()


async def test_an_outage_longer_than_the_wait_fails_the_writes_and_the_writer_goes_on(
    mariadb_server: MariaDBServer, mariadb_database: str
) -> None:
    store = SqlAuditStore(AuditSettings(url=mariadb_database, username="root", outage_wait="1s"), ManualClock(AT))
    METADATA.drop_all(store.engine)
    store.init_schema()
    try:
        mariadb_server.stop()
        try:
            began = asyncio.get_running_loop().time()
            with pytest.raises(sa.exc.DBAPIError):
                await store.record(started("run-1", "session-1"))
            assert 0.5 <= asyncio.get_running_loop().time() - began < 10
        finally:
            mariadb_server.start()
        await store.record(started("run-2", "session-2"))
        assert (await store.run("run-2"))["status"] == "RUNNING"
        assert store.write_stats().failed == 1
    finally:
        store.close()
