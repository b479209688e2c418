"""Executing a validated query: MySQL/MariaDB through pymysql, or SQLite for the embedded demo.

Only SQL regenerated from the validated AST reaches a server, with parameters bound by the driver. Every
MySQL connection is set read-only for its session and given a server-side statement timeout
(MariaDB ``max_statement_time`` in seconds, MySQL ``max_execution_time`` in milliseconds) plus a client read
timeout; ``cancel`` kills the running statement with ``KILL QUERY`` from a second connection, because a client
timeout alone leaves the query running on the server. Each data source has its own bounded pool; pymysql
never retries on its own. The account itself should be SELECT-only: that, not the session flag, is the real
boundary (the session flag can be undone by the session).
"""

from __future__ import annotations

import queue
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

import pymysql

from config.tool_budgets import DataSourceSettings, MysqlBudget
from contract.vocabulary import HarnessError
from tools.mysql.demo_db import TABLES, demo_rows

CONNECT_TIMEOUT_S = 5
CLIENT_GRACE_S = 2.0
"""The client read timeout is the statement timeout plus this grace, so the server's timeout fires first."""

_MARIADB_TIMEOUT, _MYSQL_TIMEOUT = 1969, 3024
_CONNECTION_LOST = frozenset({2003, 2006, 2013, 2055})
_PERMISSION = frozenset({1044, 1045, 1142, 1143, 1227, 1792})


class QueryFailed(HarnessError):
    """The statement did not produce rows. ``kind`` is TIMEOUT, CANCELLED, UNAVAILABLE, PERMISSION or ERROR;
    ``detail`` is for the audit record only (server error number and class, never sent to the agent)."""

    code = "QUERY_FAILED"

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


@dataclass(frozen=True)
class QueryResult:
    columns: list[str]
    rows: list[list[Any]]
    """JSON-safe cells: str, int, float, bool or None (datetimes as ``YYYY-MM-DD HH:MM:SS``)."""
    server: str
    duration_ms: int


class QueryExecutor(Protocol):
    def execute(self, call_id: str, sql: str, params: Sequence[Any], max_rows: int) -> QueryResult: ...

    def cancel(self, call_id: str) -> None: ...

    def close(self) -> None: ...


def json_cell(value: Any) -> Any:
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, timedelta):
        return str(value)
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, bytes | bytearray | memoryview):
        return f"<binary {len(bytes(value))} bytes>"
    return str(value)


@dataclass(frozen=True)
class _Target:
    host: str
    port: int
    database: str | None


def parse_jdbc_url(url: str) -> _Target:
    """``jdbc:mysql://host:3306/db?…``, ``jdbc:mariadb://…`` or ``mysql://…`` -> host, port, database."""
    text = url.removeprefix("jdbc:")
    parts = urlsplit(text)
    if parts.scheme not in ("mysql", "mariadb") or not parts.hostname:
        raise ValueError("jdbc-url must look like jdbc:mysql://host:port/database")
    if parts.username or parts.password:
        raise ValueError("jdbc-url must not carry credentials; use username/password")
    return _Target(parts.hostname, parts.port or 3306, parts.path.lstrip("/") or None)


class _Cancellations:
    """Call ids cancelled recently: a cancel may arrive before its call starts. Bounded, oldest forgotten."""

    LIMIT = 1024

    def __init__(self) -> None:
        self._ids: dict[str, None] = {}

    def add(self, call_id: str) -> None:
        self._ids[call_id] = None
        while len(self._ids) > self.LIMIT:
            del self._ids[next(iter(self._ids))]

    def __contains__(self, call_id: object) -> bool:
        return call_id in self._ids


class MysqlExecutor:
    """A bounded pool of read-only pymysql connections to one data source."""

    def __init__(self, source: DataSourceSettings, budget: MysqlBudget) -> None:
        if source.jdbc_url is None:
            raise ValueError("a mysql data source needs jdbc-url")
        self._target = parse_jdbc_url(source.jdbc_url.reveal())
        self._user = source.username.reveal() if source.username else ""
        self._password = source.password.reveal() if source.password else ""
        self._timeout_s = budget.query_timeout
        self._pool: queue.LifoQueue[pymysql.connections.Connection] = queue.LifoQueue()
        self._slots = threading.BoundedSemaphore(source.pool_size)
        self._lock = threading.Lock()
        self._running: dict[str, int] = {}
        self._cancelled = _Cancellations()
        self._flavor: str | None = None

    def execute(self, call_id: str, sql: str, params: Sequence[Any], max_rows: int) -> QueryResult:
        started = time.monotonic()
        with self._connection() as connection:
            with self._lock:
                if call_id in self._cancelled:
                    raise QueryFailed("CANCELLED", "cancelled before start")
                self._running[call_id] = connection.thread_id()
            try:
                with connection.cursor() as cursor:
                    cursor.execute(sql, tuple(params))
                    rows = cursor.fetchmany(max_rows)
                    columns = [d[0] for d in cursor.description or ()]
            except pymysql.MySQLError as exc:
                raise self._classify(call_id, exc) from None
            finally:
                with self._lock:
                    self._running.pop(call_id, None)
        return QueryResult(
            columns=columns,
            rows=[[json_cell(cell) for cell in row] for row in rows],
            server=self._flavor or "mysql",
            duration_ms=int((time.monotonic() - started) * 1000),
        )

    def cancel(self, call_id: str) -> None:
        with self._lock:
            self._cancelled.add(call_id)
            thread_id = self._running.get(call_id)
        if thread_id is None:
            return
        try:
            control = self._connect()
        except pymysql.MySQLError:
            return
        try:
            with control.cursor() as cursor:
                cursor.execute(f"KILL QUERY {int(thread_id)}")
        except pymysql.MySQLError:
            pass
        finally:
            control.close()

    def close(self) -> None:
        while True:
            try:
                self._pool.get_nowait().close()
            except queue.Empty:
                return

    @contextmanager
    def _connection(self) -> Iterator[pymysql.connections.Connection]:
        if not self._slots.acquire(timeout=self._timeout_s):
            raise QueryFailed("UNAVAILABLE", "connection pool exhausted")
        connection = None
        try:
            connection = self._pooled() or self._open_session()
            yield connection
        except QueryFailed as failure:
            if failure.kind in ("UNAVAILABLE", "CANCELLED", "TIMEOUT") and connection is not None:
                connection.close()
                connection = None
            raise
        finally:
            if connection is not None and connection.open:
                self._pool.put(connection)
            self._slots.release()

    def _pooled(self) -> pymysql.connections.Connection | None:
        """An idle pooled connection that still answers (the server may have restarted since), or None."""
        while True:
            try:
                connection = self._pool.get_nowait()
            except queue.Empty:
                return None
            try:
                connection.ping(reconnect=False)
                return connection
            except pymysql.MySQLError:
                connection.close()

    def _connect(self) -> pymysql.connections.Connection:
        return pymysql.connect(
            host=self._target.host,
            port=self._target.port,
            user=self._user,
            password=self._password,
            database=self._target.database,
            charset="utf8mb4",
            autocommit=True,
            connect_timeout=CONNECT_TIMEOUT_S,
            read_timeout=int(self._timeout_s + CLIENT_GRACE_S),
            write_timeout=int(self._timeout_s + CLIENT_GRACE_S),
            local_infile=False,
        )

    def _open_session(self) -> pymysql.connections.Connection:
        try:
            connection = self._connect()
            with connection.cursor() as cursor:
                cursor.execute("SELECT VERSION()")
                (version,) = cursor.fetchone() or ("",)
                self._flavor = "mariadb" if "mariadb" in str(version).lower() else "mysql"
                cursor.execute("SET SESSION TRANSACTION READ ONLY")
                if self._flavor == "mariadb":
                    cursor.execute("SET SESSION max_statement_time = %s", (self._timeout_s,))
                else:
                    cursor.execute("SET SESSION max_execution_time = %s", (int(self._timeout_s * 1000),))
        except pymysql.MySQLError as exc:
            raise QueryFailed("UNAVAILABLE", f"{type(exc).__name__} {exc.args[0] if exc.args else ''}") from None
        return connection

    def _classify(self, call_id: str, exc: pymysql.MySQLError) -> QueryFailed:
        number = exc.args[0] if exc.args and isinstance(exc.args[0], int) else 0
        detail = f"{type(exc).__name__} {number}"
        with self._lock:
            cancelled = call_id in self._cancelled
        if cancelled:
            return QueryFailed("CANCELLED", detail)
        if number in (_MARIADB_TIMEOUT, _MYSQL_TIMEOUT):
            return QueryFailed("TIMEOUT", detail)
        if number in _CONNECTION_LOST or (isinstance(exc, pymysql.OperationalError) and number >= 2000):
            return QueryFailed("UNAVAILABLE", detail)
        if number in _PERMISSION:
            return QueryFailed("PERMISSION", detail)
        return QueryFailed("ERROR", detail)


class SqliteExecutor:
    """The embedded demo's executor: the same validated SQL, transpiled, on SQLite with ``query_only`` on.

    Without ``sqlite-path`` the demo ``order_db`` is built in a private shared-cache in-memory database that
    lives as long as this executor (no files left behind).
    """

    def __init__(self, source: DataSourceSettings, budget: MysqlBudget, now: datetime | None = None) -> None:
        self._timeout_s = budget.query_timeout
        self._keeper: sqlite3.Connection | None = None
        if source.sqlite_path is not None:
            self._uri = f"file:{Path(source.sqlite_path)}?mode=ro"
        else:
            self._uri = f"file:superbiz-demo-{uuid.uuid4().hex}?mode=memory&cache=shared"
            self._keeper = sqlite3.connect(self._uri, uri=True, check_same_thread=False)
            build_demo_sqlite(self._keeper, now or datetime.now(UTC))
        self._lock = threading.Lock()
        self._running: dict[str, sqlite3.Connection] = {}
        self._cancelled = _Cancellations()

    def execute(self, call_id: str, sql: str, params: Sequence[Any], max_rows: int) -> QueryResult:
        started = time.monotonic()
        connection = sqlite3.connect(self._uri, uri=True, check_same_thread=False)
        connection.execute("PRAGMA query_only = ON")
        deadline = started + self._timeout_s
        connection.set_progress_handler(lambda: int(time.monotonic() > deadline), 10_000)
        with self._lock:
            if call_id in self._cancelled:
                connection.close()
                raise QueryFailed("CANCELLED", "cancelled before start")
            self._running[call_id] = connection
        try:
            cursor = connection.execute(sql, tuple(params))
            rows = cursor.fetchmany(max_rows)
            columns = [d[0] for d in cursor.description or ()]
        except sqlite3.Error as exc:
            with self._lock:
                cancelled = call_id in self._cancelled
            kind = "CANCELLED" if cancelled else "TIMEOUT" if time.monotonic() > deadline else "ERROR"
            raise QueryFailed(kind, type(exc).__name__) from None
        finally:
            with self._lock:
                self._running.pop(call_id, None)
            connection.close()
        return QueryResult(
            columns=columns,
            rows=[[json_cell(cell) for cell in row] for row in rows],
            server="sqlite",
            duration_ms=int((time.monotonic() - started) * 1000),
        )

    def cancel(self, call_id: str) -> None:
        with self._lock:
            self._cancelled.add(call_id)
            connection = self._running.get(call_id)
        if connection is not None:
            connection.interrupt()

    def close(self) -> None:
        if self._keeper is not None:
            self._keeper.close()
            self._keeper = None


def build_demo_sqlite(connection: sqlite3.Connection, now: datetime) -> None:
    for statement in TABLES:
        connection.execute(statement)
    for table, rows in demo_rows(now).items():
        marks = ", ".join("?" * len(rows[0]))
        connection.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)
    connection.commit()


def build_executor(source: DataSourceSettings, budget: MysqlBudget, now: datetime | None = None) -> QueryExecutor:
    """The executor of ``source``; the embedded demo copy's rows are relative to ``now`` (the time it is built)."""
    if source.driver == "sqlite":
        return SqliteExecutor(source, budget, now)
    return MysqlExecutor(source, budget)
