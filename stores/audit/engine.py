"""The audit store's database: the engine for the configured URL, and the way async code uses it.

SQLite by default, MySQL/MariaDB through pymysql. Work runs in a worker thread (``asyncio.to_thread``) on a small
pool. SQLite serialises its writers anyway; here every use of a SQLite engine is serialised by one lock (an
in-memory ``sqlite://`` database is one shared connection).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import create_engine, event
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.pool import StaticPool

from config.runtime import AuditSettings
from stores.audit.bounds import json_dumps

T = TypeVar("T")


class AuditDatabase:
    """The engine of ``settings.url``; construction connects to nothing."""

    def __init__(self, settings: AuditSettings) -> None:
        url = connect_url(settings)
        self.sqlite = url.get_backend_name() == "sqlite"
        self.engine = _create_engine(url)
        self._lock = threading.Lock()

    async def call(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` in a worker thread, serialised."""
        return await asyncio.to_thread(self._serialised_call, work, *args)

    @contextlib.contextmanager
    def serialised(self) -> Iterator[None]:
        """Held around every use of a SQLite engine; a server database needs no lock."""
        if self.sqlite:
            with self._lock:
                yield
        else:
            yield

    def _serialised_call(self, work: Callable[..., T], *args: Any) -> T:
        with self.serialised():
            return work(*args)


def _is_memory(url: URL) -> bool:
    return url.database in (None, "", ":memory:")


def connect_url(settings: AuditSettings) -> URL:
    """The URL the engine connects with: the configured one plus ``username``/``password`` (never logged)."""
    url = make_url(settings.url)
    if settings.username is not None:
        url = url.set(username=settings.username)
    if settings.password is not None:
        url = url.set(password=settings.password.reveal())
    if url.get_backend_name() != "sqlite" and "charset" not in url.query:
        url = url.update_query_dict({"charset": "utf8mb4"})
    return url


def _create_engine(url: URL) -> Engine:
    common: dict[str, Any] = {"json_serializer": json_dumps, "hide_parameters": True}
    if url.get_backend_name() == "sqlite":
        if _is_memory(url):
            return create_engine(url, poolclass=StaticPool, connect_args={"check_same_thread": False}, **common)
        database = url.database or ""
        if not database.startswith("file:"):
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(
            url, pool_size=2, max_overflow=2, connect_args={"check_same_thread": False, "timeout": 30}, **common
        )
        # Several processes (every supervisor of a local cluster) write the same file: WAL lets readers and one
        # writer work at once instead of failing on "database is locked".
        event.listen(engine, "connect", lambda connection, _: connection.execute("PRAGMA journal_mode=WAL"))
        return engine
    # A server may close an idle connection (a restart, wait_timeout): each checkout checks it first. A SQLite
    # file has no server, so its connections are never checked.
    return create_engine(
        url,
        pool_pre_ping=True,
        pool_size=2,
        max_overflow=4,
        pool_timeout=10,
        pool_recycle=1800,
        connect_args={"connect_timeout": 5, "read_timeout": 30, "write_timeout": 30},
        **common,
    )
