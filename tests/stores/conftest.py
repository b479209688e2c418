"""Fixtures for the store tests: the invocation store on fakeredis and on a real private Redis."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import redis.asyncio as redis
from fakeredis import FakeAsyncRedis, FakeServer


@pytest.fixture(params=["fakeredis", "real-redis"])
async def redis_client(request: pytest.FixtureRequest) -> AsyncIterator[redis.Redis]:
    """The same contract suite runs against fakeredis and against a real Redis server."""
    if request.param == "fakeredis":
        client: redis.Redis = FakeAsyncRedis(server=FakeServer())
    else:
        server = request.getfixturevalue("redis_server")
        client = redis.Redis.from_url(server.url)
        await client.flushall()
    yield client
    await client.aclose()
