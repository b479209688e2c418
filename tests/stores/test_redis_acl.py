"""The Harness-only ACL user, proven on a real Redis: the store works fully, nothing else does."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest
import redis.asyncio as redis
from redis.exceptions import NoPermissionError, ResponseError

from config.env_refs import Interpolated, Secret
from config.harness import EvidenceStoreSettings
from config.runtime import RedisSettings
from contract.vocabulary import EvidenceStatus
from harness.errors import DuplicateToolCallId
from harness.invocation import ToolCallStatus
from stores.invocation_store import InvocationStore
from stores.redis_acl import acl_setuser_args
from stores.redis_client import connect_redis
from tests.services import RedisServer

PREFIX = "superbiz:harness:tool-call"
PASSWORD = "harness-test-password"
STARTED = datetime(2026, 7, 21, 2, 30, tzinfo=UTC)


@pytest.fixture
async def admin(redis_server: RedisServer) -> AsyncIterator[redis.Redis]:
    client = redis.Redis.from_url(redis_server.url)
    try:
        await client.flushall()
        await client.execute_command("ACL", "SETUSER", *acl_setuser_args("superbiz-harness", PASSWORD, PREFIX))
        yield client
        await client.execute_command("ACL", "DELUSER", "superbiz-harness")
    finally:
        await client.aclose()


@pytest.fixture
async def harness_client(admin: redis.Redis, redis_server: RedisServer) -> AsyncIterator[redis.Redis]:
    settings = RedisSettings(
        url=redis_server.url,
        username="superbiz-harness",
        password=Secret._validate(Interpolated(PASSWORD, "${REDIS_PASSWORD}")),
    )
    client = connect_redis(settings)
    yield client
    await client.aclose()


def test_password_is_given_as_a_hash_never_in_clear() -> None:
    args = acl_setuser_args("superbiz-harness", PASSWORD, PREFIX)
    assert PASSWORD not in " ".join(args)
    assert args[:3] == ["superbiz-harness", "reset", "on"]
    assert f"~{PREFIX}:*" in args and "-@all" in args
    with pytest.raises(ValueError):
        acl_setuser_args("superbiz-harness", "", PREFIX)


async def test_store_works_fully_under_the_acl_user(harness_client: redis.Redis, admin: redis.Redis) -> None:
    await admin.script_flush()
    store = InvocationStore(harness_client, EvidenceStoreSettings())
    assert await store.ping()
    await store.record_raw("run-1", "call_1", "query_logs", {"q": "x"}, {"events": [1]}, STARTED)
    ready = await store.record_projection("run-1", "call_1", {"e": 1}, EvidenceStatus.EVIDENCE_FOUND)
    assert ready.status is ToolCallStatus.READY
    await store.record_failure("run-1", "call_2", "query_mysql", {"sql": "x"}, "TOOL_TIMEOUT", STARTED)
    await store.record_raw("run-1", "call_3", "query_logs", {"q": "x"}, {"events": []}, STARTED)
    await store.record_projection_failure("run-1", "call_3", "PROJECTION_FAILED")
    with pytest.raises(DuplicateToolCallId):
        await store.record_raw("run-1", "call_1", "query_logs", {"q": "x"}, {}, STARTED)
    assert (await store.get("run-1", "call_1", include_raw=True)).raw_response == {"events": [1]}
    assert await store.run_bytes("run-1") > 0
    assert await admin.pttl(store.key("run-1", "call_1")) > 0


@pytest.mark.parametrize(
    "command",
    [
        ("GET", "other:key"),
        ("SET", "other:key", "1"),
        ("HGETALL", "other:key"),
        ("GET", "superbiz:harness:other"),
        ("DEL", f"{PREFIX}:run-1:call_1"),
        ("FLUSHALL",),
        ("FLUSHDB",),
        ("CONFIG", "GET", "*"),
        ("KEYS", "*"),
        ("SCAN", "0"),
        ("RANDOMKEY",),
        ("ACL", "LIST"),
        ("EVAL", "return 1", "0"),
        ("SCRIPT", "FLUSH"),
        ("PERSIST", f"{PREFIX}:run-1:call_1"),
        ("SUBSCRIBE", "channel"),
    ],
)
async def test_acl_user_cannot_leave_its_prefix_or_its_commands(
    harness_client: redis.Redis, command: tuple[str, ...]
) -> None:
    with pytest.raises(NoPermissionError):
        await harness_client.execute_command(*command)


async def test_a_loaded_script_still_runs_under_the_users_acl(harness_client: redis.Redis, admin: redis.Redis) -> None:
    await admin.set("other:key", "secret")
    sha = await harness_client.script_load("return redis.call('GET', KEYS[1])")
    with pytest.raises((NoPermissionError, ResponseError)):
        await harness_client.evalsha(sha, 1, "other:key")
    undeclared = await harness_client.script_load("return redis.call('GET', 'other:key')")
    with pytest.raises((NoPermissionError, ResponseError)):
        await harness_client.evalsha(undeclared, 0)
    assert await admin.get("other:key") == b"secret"
