"""Shared pytest fixtures.

Services: ``redis_server`` and ``mariadb_server`` are private servers from ``tests/services.py``,
started lazily (only when a test asks for them), at most once per session, on free loopback ports,
and closed at session end. A missing binary or a server that does not start FAILS the requesting
tests; it never skips them. ``redis_url`` gives each test an empty private Redis.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.services import MariaDBServer, RedisServer, ServiceUnavailable


def _start(server: RedisServer | MariaDBServer) -> None:
    """Start ``server`` (no-op if running); if it cannot start, fail the test, never skip it."""
    try:
        server.start()
        return
    except ServiceUnavailable as exc:
        failure = str(exc)
    server.close()
    pytest.fail(failure, pytrace=False)


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    server = RedisServer()
    _start(server)
    yield server
    server.close()


@pytest.fixture(scope="session")
def mariadb_server() -> Iterator[MariaDBServer]:
    server = MariaDBServer()
    _start(server)
    yield server
    server.close()


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    """URL of the private Redis, restarted if a test stopped it, with every key flushed."""
    _start(redis_server)
    with redis_server.client() as client:
        client.flushall()
    return redis_server.url
