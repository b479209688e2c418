"""The Harness's Redis connection: no hidden retries, bounded socket waits, credentials from config only."""

from __future__ import annotations

import redis.asyncio as redis
from fakeredis import FakeAsyncRedis, FakeServer
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from config.schema import RedisSettings

SOCKET_TIMEOUT_S = 5.0


def connect_redis(settings: RedisSettings, fake_server: FakeServer | None = None) -> redis.Redis:
    """A client for ``settings.url``; ``fakeredis://`` gives an in-process server (embedded demo, unit tests).

    redis-py retries a failed command ten times by default; every attempt here is the Harness's, so the
    client gets ``Retry(NoBackoff(), 0)``.
    """
    no_retry = Retry(NoBackoff(), 0)
    if settings.url.startswith("fakeredis://"):
        return FakeAsyncRedis(server=fake_server or FakeServer(), retry=no_retry)
    return redis.Redis.from_url(
        settings.url,
        username=settings.username,
        password=settings.password.reveal() if settings.password else None,
        retry=no_retry,
        socket_timeout=SOCKET_TIMEOUT_S,
        socket_connect_timeout=SOCKET_TIMEOUT_S,
    )
