"""The Harness's Redis client on a real server: no hidden retries, yet a restarted server costs no command."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from config.runtime import RedisSettings
from stores.redis_client import connect_redis
from tests.services import RedisServer


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


async def test_pooled_connections_survive_a_server_restart(own_redis: RedisServer) -> None:
    client = connect_redis(RedisSettings(url=own_redis.url))
    try:
        assert await asyncio.gather(*(client.set(f"k{i}", i) for i in range(4))) == [True] * 4
        own_redis.stop()
        with pytest.raises(RedisConnectionError):
            await client.get("k0")
        own_redis.start()
        assert await asyncio.gather(*(client.set(f"k{i}", i) for i in range(4))) == [True] * 4
    finally:
        await client.aclose()


async def test_a_command_to_a_stopped_server_fails_once_without_retrying(own_redis: RedisServer) -> None:
    client = connect_redis(RedisSettings(url=own_redis.url))
    try:
        await client.ping()
        own_redis.stop()
        started = asyncio.get_running_loop().time()
        with pytest.raises(RedisConnectionError):
            await client.ping()
        assert asyncio.get_running_loop().time() - started < 1.0
    finally:
        await client.aclose()


async def test_more_commands_than_connections_wait_for_one_instead_of_failing(own_redis: RedisServer) -> None:
    client = connect_redis(RedisSettings(url=own_redis.url, max_connections=4))
    try:
        results = await asyncio.gather(*(client.blpop([f"empty-{i}"], timeout=0.2) for i in range(12)))
        assert results == [None] * 12
        with own_redis.client() as admin:
            assert len(admin.client_list()) - 1 <= 4
    finally:
        await client.aclose()
