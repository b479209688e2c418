"""The Harness's Redis connection: no hidden retries, bounded socket waits, credentials from config only."""

from __future__ import annotations

import redis.asyncio as redis
from fakeredis import FakeAsyncRedis, FakeServer
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.maint_notifications import MaintNotificationsConfig

from config.runtime import RedisSettings

SOCKET_TIMEOUT_S = 5.0


def connect_redis(settings: RedisSettings, fake_server: FakeServer | None = None) -> redis.Redis:
    """A client for ``settings.url``; ``fakeredis://`` gives an in-process server (embedded demo, unit tests).

    redis-py retries a failed command ten times by default; every attempt here is the Harness's, so the
    client gets ``Retry(NoBackoff(), 0)``. Without those retries a pooled connection left over from before a
    Redis restart must be caught before use: the pool only checks for one when maintenance notifications are
    off (redis-py 8 defaults them to "auto" and then hands out dead connections), so they are turned off.
    The pool blocks: a command beyond ``max-connections`` waits (up to the socket timeout) for a connection,
    where redis-py's default pool fails it at once with ``MaxConnectionsError``.
    """
    no_retry = Retry(NoBackoff(), 0)
    if settings.url.startswith("fakeredis://"):
        return FakeAsyncRedis(server=fake_server or FakeServer(), retry=no_retry)
    pool = redis.BlockingConnectionPool.from_url(
        settings.url,
        max_connections=settings.max_connections,
        timeout=SOCKET_TIMEOUT_S,
        username=settings.username,
        password=settings.password.reveal() if settings.password else None,
        retry=no_retry,
        maint_notifications_config=MaintNotificationsConfig(enabled=False),
        socket_timeout=SOCKET_TIMEOUT_S,
        socket_connect_timeout=SOCKET_TIMEOUT_S,
    )
    return redis.Redis.from_pool(pool)
