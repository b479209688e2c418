"""Contract of the canonical invocation store (seed §4.2, stage 3A), on fakeredis and on real Redis."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime

import pytest
import redis.asyncio as redis

from config.harness import EvidenceStoreSettings
from contract.vocabulary import EvidenceStatus
from harness.errors import (
    DuplicateToolCallId,
    InvalidArgument,
    InvalidRecordState,
    InvalidRunId,
    InvalidToolCallId,
    InvocationNotFound,
    PayloadNotSerializable,
    ResultTooLarge,
    RunCapacityExceeded,
    StoreUnavailable,
    UnknownRun,
)
from harness.invocation import ToolCallStatus
from stores.invocation_store import METADATA_BYTES, InvocationStore

STARTED = datetime(2026, 7, 21, 2, 30, tzinfo=UTC)
REQUEST = {"topic": "APPLICATION", "query": "order-service HikariCP", "lookback_minutes": 30}
RAW = {"events": [{"message": "HikariPool-1 - Connection is not available, 订单超时"}]}
FOUND = {"evidence_status": "EVIDENCE_FOUND", "tool_call_id": "call_1", "events": []}
CONTRACT_FIELDS = {
    "run_id",
    "tool_call_id",
    "tool_name",
    "status",
    "evidence_status",
    "request",
    "raw_response",
    "agent_result",
    "started_at",
    "finished_at",
    "error_code",
    "record_bytes",
}


def settings(**overrides: object) -> EvidenceStoreSettings:
    return EvidenceStoreSettings.model_validate(overrides)


@pytest.fixture
def store(redis_client: redis.Redis) -> InvocationStore:
    return InvocationStore(redis_client, settings())


async def keys(client: redis.Redis) -> list[str]:
    return sorted(key.decode() for key in await client.keys("*"))


async def test_key_is_prefix_run_and_tool_call_id(redis_client: redis.Redis) -> None:
    store = InvocationStore(redis_client, settings(**{"key-prefix": "acme:tc"}))
    assert store.key("run-1", "call_1") == "acme:tc:run-1:call_1"
    await store.record_raw("run-1", "call_1", "query_logs", REQUEST, RAW, STARTED)
    assert await keys(redis_client) == ["acme:tc:run-1", "acme:tc:run-1:call_1"]


async def test_lifecycle_projecting_then_ready(store: InvocationStore, redis_client: redis.Redis) -> None:
    created = await store.record_raw("run-1", "call_1", "query_logs", REQUEST, RAW, STARTED)
    assert created.status is ToolCallStatus.PROJECTING
    assert created.evidence_status is None
    assert created.agent_result is None
    assert created.raw_response is None

    ready = await store.record_projection("run-1", "call_1", FOUND, EvidenceStatus.EVIDENCE_FOUND)
    assert ready.status is ToolCallStatus.READY
    assert ready.evidence_status is EvidenceStatus.EVIDENCE_FOUND
    assert ready.agent_result == FOUND
    assert ready.finished_at is not None

    full = await store.get("run-1", "call_1", include_raw=True)
    assert (full.request, full.raw_response, full.agent_result) == (REQUEST, RAW, FOUND)
    assert full.started_at == "2026-07-21T02:30:00.000+00:00"
    stored = {name.decode() for name in await redis_client.hkeys(store.key("run-1", "call_1"))}
    assert stored <= CONTRACT_FIELDS
    assert {"request", "raw_response", "agent_result", "status", "evidence_status"} <= stored


async def test_plain_read_never_returns_the_raw_response(store: InvocationStore) -> None:
    await store.record_raw("run-1", "call_1", "query_logs", REQUEST, RAW, STARTED)
    await store.record_projection("run-1", "call_1", FOUND, EvidenceStatus.EVIDENCE_FOUND)
    assert (await store.get("run-1", "call_1")).raw_response is None


async def test_no_evidence_is_ready(store: InvocationStore) -> None:
    await store.record_raw("run-1", "call_1", "query_logs", REQUEST, {"events": []}, STARTED)
    record = await store.record_projection(
        "run-1", "call_1", {"evidence_status": "NO_EVIDENCE"}, EvidenceStatus.NO_EVIDENCE
    )
    assert (record.status, record.evidence_status) == (ToolCallStatus.READY, EvidenceStatus.NO_EVIDENCE)


async def test_error_envelope_makes_an_error_record(store: InvocationStore) -> None:
    await store.record_raw("run-1", "call_1", "query_mysql", REQUEST, {"error": "rejected"}, STARTED)
    envelope = {"evidence_status": "ERROR", "message": "only SELECT is allowed"}
    record = await store.record_projection("run-1", "call_1", envelope, EvidenceStatus.ERROR, "SQL_REJECTED")
    assert (record.status, record.evidence_status, record.error_code) == (
        ToolCallStatus.ERROR,
        EvidenceStatus.ERROR,
        "SQL_REJECTED",
    )
    assert record.agent_result == envelope


async def test_wrong_projection_arguments_are_typed_errors(store: InvocationStore) -> None:
    await store.record_raw("run-1", "call_1", "query_logs", REQUEST, RAW, STARTED)
    for agent_result, status, code in [
        ({}, EvidenceStatus.ERROR, None),
        (FOUND, EvidenceStatus.EVIDENCE_FOUND, "X"),
        (FOUND, "READY", None),
        (["not", "an", "object"], EvidenceStatus.EVIDENCE_FOUND, None),
    ]:
        with pytest.raises(InvalidArgument) as raised:
            await store.record_projection("run-1", "call_1", agent_result, status, code)  # type: ignore[arg-type]
        assert raised.value.code == "INVALID_ARGUMENT"
    assert (await store.get("run-1", "call_1")).status is ToolCallStatus.PROJECTING


@pytest.mark.parametrize(
    ("tool_name", "request_", "started_at"),
    [
        ("Query-Logs", REQUEST, STARTED),
        ("", REQUEST, STARTED),
        ("query_logs", ["x"], STARTED),
        ("query_logs", REQUEST, "2026-07-21"),
        ("query_logs", REQUEST, datetime(2026, 7, 21)),
    ],
)
async def test_wrong_record_arguments_write_nothing(
    store: InvocationStore, redis_client: redis.Redis, tool_name: str, request_: object, started_at: object
) -> None:
    with pytest.raises(InvalidArgument):
        await store.record_raw("run-1", "call_1", tool_name, request_, RAW, started_at)  # type: ignore[arg-type]
    assert await keys(redis_client) == []


async def test_projection_failure_keeps_raw_and_marks_error(store: InvocationStore) -> None:
    await store.record_raw("run-1", "call_1", "query_logs", REQUEST, RAW, STARTED)
    record = await store.record_projection_failure("run-1", "call_1", "PROJECTION_FAILED")
    assert (record.status, record.evidence_status, record.error_code) == (
        ToolCallStatus.ERROR,
        EvidenceStatus.ERROR,
        "PROJECTION_FAILED",
    )
    assert record.agent_result is None
    assert (await store.get("run-1", "call_1", include_raw=True)).raw_response == RAW


async def test_a_finished_record_cannot_move_again(store: InvocationStore) -> None:
    await store.record_raw("run-1", "call_1", "query_logs", REQUEST, RAW, STARTED)
    await store.record_projection("run-1", "call_1", FOUND, EvidenceStatus.EVIDENCE_FOUND)
    with pytest.raises(InvalidRecordState):
        await store.record_projection("run-1", "call_1", {"other": 1}, EvidenceStatus.NO_EVIDENCE)
    with pytest.raises(InvalidRecordState):
        await store.record_projection_failure("run-1", "call_1", "LATE")
    assert (await store.get("run-1", "call_1")).agent_result == FOUND


async def test_failure_before_raw_is_recorded_as_error(store: InvocationStore) -> None:
    envelope = {"evidence_status": "ERROR", "error_code": "TOOL_TIMEOUT"}
    record = await store.record_failure("run-1", "call_1", "query_mysql", REQUEST, "TOOL_TIMEOUT", STARTED, envelope)
    assert (record.status, record.evidence_status, record.error_code) == (
        ToolCallStatus.ERROR,
        EvidenceStatus.ERROR,
        "TOOL_TIMEOUT",
    )
    assert (await store.get("run-1", "call_1")).agent_result == envelope


@pytest.mark.parametrize("bad_id", ["", "x" * 129, "call:1", "call*", "call 1", "调用", "a\nb", None, 7])
async def test_invalid_tool_call_id_writes_nothing(
    store: InvocationStore, redis_client: redis.Redis, bad_id: object
) -> None:
    with pytest.raises(InvalidToolCallId) as raised:
        await store.record_raw("run-1", bad_id, "query_logs", REQUEST, RAW, STARTED)  # type: ignore[arg-type]
    assert raised.value.code == "INVALID_TOOL_CALL_ID"
    with pytest.raises(InvalidToolCallId):
        await store.record_failure("run-1", bad_id, "query_logs", REQUEST, "X", STARTED)  # type: ignore[arg-type]
    with pytest.raises(InvalidToolCallId):
        await store.get("run-1", bad_id)  # type: ignore[arg-type]
    assert await keys(redis_client) == []


@pytest.mark.parametrize("bad_run", ["", "r" * 65, "run:1", "run*", None])
async def test_invalid_run_id_is_rejected(store: InvocationStore, bad_run: object) -> None:
    with pytest.raises(InvalidRunId):
        await store.record_raw(bad_run, "call_1", "query_logs", REQUEST, RAW, STARTED)  # type: ignore[arg-type]


async def test_longest_valid_ids_are_accepted(store: InvocationStore) -> None:
    run_id, call_id = "r" * 64, "c" * 128
    await store.record_raw(run_id, call_id, "query_logs", REQUEST, RAW, STARTED)
    assert (await store.get(run_id, call_id)).tool_call_id == call_id


async def test_duplicate_never_overwrites_the_first_record(store: InvocationStore) -> None:
    await store.record_raw("run-1", "call_1", "query_logs", REQUEST, RAW, STARTED)
    await store.record_projection("run-1", "call_1", FOUND, EvidenceStatus.EVIDENCE_FOUND)
    with pytest.raises(DuplicateToolCallId) as raised:
        await store.record_raw("run-1", "call_1", "query_mysql", {"sql": "x"}, {"rows": []}, STARTED)
    assert raised.value.code == "DUPLICATE_TOOL_CALL_ID"
    with pytest.raises(DuplicateToolCallId):
        await store.record_failure("run-1", "call_1", "query_mysql", {"sql": "x"}, "TOOL_ERROR", STARTED)
    with pytest.raises(DuplicateToolCallId):
        await store.record_raw("run-1", "call_1", "query_logs", REQUEST, {"x": "y" * 2_000_000}, STARTED)
    record = await store.get("run-1", "call_1", include_raw=True)
    assert (record.tool_name, record.request, record.raw_response, record.status) == (
        "query_logs",
        REQUEST,
        RAW,
        ToolCallStatus.READY,
    )


async def test_same_tool_call_id_in_two_runs_are_separate(store: InvocationStore) -> None:
    await store.record_raw("run-1", "call_1", "query_logs", REQUEST, RAW, STARTED)
    await store.record_raw("run-2", "call_1", "query_logs", REQUEST, {"other": True}, STARTED)
    assert (await store.get("run-1", "call_1", include_raw=True)).raw_response == RAW
    assert (await store.get("run-2", "call_1", include_raw=True)).raw_response == {"other": True}


async def test_another_runs_tool_call_id_is_refused(store: InvocationStore) -> None:
    await store.record_raw("run-a", "call_1", "query_logs", REQUEST, RAW, STARTED)
    with pytest.raises(UnknownRun) as unknown:
        await store.get("run-b", "call_1")
    assert unknown.value.code == "UNKNOWN_RUN"
    await store.record_raw("run-b", "call_2", "query_logs", REQUEST, RAW, STARTED)
    with pytest.raises(InvocationNotFound) as missing:
        await store.get("run-b", "call_1")
    assert missing.value.code == "NOT_FOUND"
    with pytest.raises(InvocationNotFound):
        await store.record_projection("run-b", "call_1", FOUND, EvidenceStatus.EVIDENCE_FOUND)


async def test_oversize_raw_is_an_error_record_never_truncated(
    redis_client: redis.Redis,
) -> None:
    store = InvocationStore(redis_client, settings(**{"max-record-bytes": "8KB", "max-agent-result-bytes": "4KB"}))
    with pytest.raises(ResultTooLarge) as raised:
        await store.record_raw("run-1", "call_1", "query_logs", REQUEST, {"blob": "x" * 9000}, STARTED)
    assert raised.value.code == "RESULT_TOO_LARGE"
    record = await store.get("run-1", "call_1", include_raw=True)
    assert (record.status, record.evidence_status, record.error_code) == (
        ToolCallStatus.ERROR,
        EvidenceStatus.ERROR,
        "RESULT_TOO_LARGE",
    )
    assert record.raw_response is None
    assert record.request == REQUEST


async def test_record_cap_counts_utf8_bytes_not_characters(redis_client: redis.Redis) -> None:
    store = InvocationStore(redis_client, settings(**{"max-record-bytes": "8KB", "max-agent-result-bytes": "4KB"}))
    with pytest.raises(ResultTooLarge):
        await store.record_raw("run-1", "call_1", "query_logs", REQUEST, {"text": "超" * 2600}, STARTED)


async def test_raw_just_under_the_cap_is_stored_whole(redis_client: redis.Redis) -> None:
    store = InvocationStore(redis_client, settings(**{"max-record-bytes": "8KB", "max-agent-result-bytes": "4KB"}))
    request_bytes = len(b'{"q":1}')
    payload = "x" * (8192 - METADATA_BYTES - request_bytes - len(b'{"b":""}'))
    await store.record_raw("run-1", "call_1", "query_logs", {"q": 1}, {"b": payload}, STARTED)
    assert (await store.get("run-1", "call_1", include_raw=True)).raw_response == {"b": payload}


async def test_oversize_agent_result_is_an_error(redis_client: redis.Redis) -> None:
    store = InvocationStore(redis_client, settings(**{"max-agent-result-bytes": "1KB"}))
    await store.record_raw("run-1", "call_1", "query_logs", REQUEST, RAW, STARTED)
    with pytest.raises(ResultTooLarge):
        await store.record_projection("run-1", "call_1", {"x": "y" * 2000}, EvidenceStatus.EVIDENCE_FOUND)
    record = await store.get("run-1", "call_1")
    assert (record.status, record.error_code, record.agent_result) == (ToolCallStatus.ERROR, "RESULT_TOO_LARGE", None)


async def test_agent_result_may_not_push_the_record_over_its_cap(redis_client: redis.Redis) -> None:
    store = InvocationStore(redis_client, settings(**{"max-record-bytes": "8KB", "max-agent-result-bytes": "4KB"}))
    await store.record_raw("run-1", "call_1", "query_logs", REQUEST, {"b": "x" * 6000}, STARTED)
    with pytest.raises(ResultTooLarge):
        await store.record_projection("run-1", "call_1", {"x": "y" * 3000}, EvidenceStatus.EVIDENCE_FOUND)
    assert (await store.get("run-1", "call_1")).status is ToolCallStatus.ERROR


async def test_run_cap_is_enforced(redis_client: redis.Redis) -> None:
    store = InvocationStore(
        redis_client,
        settings(**{"max-run-bytes": "20KB", "max-record-bytes": "8KB", "max-agent-result-bytes": "1KB"}),
    )
    for i in range(3):
        await store.record_raw("run-1", f"call_{i}", "query_logs", REQUEST, {"b": "x" * 5000}, STARTED)
    with pytest.raises(RunCapacityExceeded) as raised:
        await store.record_raw("run-1", "call_9", "query_logs", REQUEST, {"b": "x" * 5000}, STARTED)
    assert raised.value.code == "RUN_CAPACITY_EXCEEDED"
    record = await store.get("run-1", "call_9", include_raw=True)
    assert (record.status, record.error_code, record.raw_response) == (
        ToolCallStatus.ERROR,
        "RUN_CAPACITY_EXCEEDED",
        None,
    )
    assert await store.run_bytes("run-1") <= 20 * 1024
    await store.record_raw("run-2", "call_0", "query_logs", REQUEST, {"b": "x" * 5000}, STARTED)


async def test_concurrent_writers_cannot_pass_the_run_cap(redis_client: redis.Redis) -> None:
    cap = 64 * 1024
    store = InvocationStore(
        redis_client,
        settings(**{"max-run-bytes": "64KB", "max-record-bytes": "8KB", "max-agent-result-bytes": "1KB"}),
    )

    async def write(i: int) -> bool:
        try:
            await store.record_raw("run-1", f"call_{i}", "query_logs", REQUEST, {"b": "x" * 6000}, STARTED)
        except RunCapacityExceeded:
            return False
        return True

    outcomes = await asyncio.gather(*(write(i) for i in range(40)))
    used = await store.run_bytes("run-1")
    stored = 0
    for i in range(40):
        key = store.key("run-1", f"call_{i}")
        values = await redis_client.hvals(key)
        stored += sum(len(value) for value in values) if values else 0
    request_bytes = len(json.dumps(REQUEST, separators=(",", ":")).encode())
    record_size = METADATA_BYTES + request_bytes + len(b'{"b":""}') + 6000
    assert 1 <= sum(outcomes) <= cap // record_size
    assert stored <= used <= cap


async def test_non_json_raw_is_recorded_as_error(store: InvocationStore) -> None:
    for i, raw in enumerate([object(), {"x": float("nan")}, {1, 2}, b"bytes"]):
        with pytest.raises(PayloadNotSerializable) as raised:
            await store.record_raw("run-1", f"call_{i}", "query_logs", REQUEST, raw, STARTED)
        assert raised.value.code == "NOT_JSON_SERIALIZABLE"
        record = await store.get("run-1", f"call_{i}", include_raw=True)
        assert (record.status, record.error_code, record.raw_response) == (
            ToolCallStatus.ERROR,
            "NOT_JSON_SERIALIZABLE",
            None,
        )


async def test_records_are_utf8_json(store: InvocationStore, redis_client: redis.Redis) -> None:
    await store.record_raw("run-1", "call_1", "query_logs", REQUEST, RAW, STARTED)
    stored = await redis_client.hget(store.key("run-1", "call_1"), "raw_response")
    assert "订单超时" in stored.decode("utf-8")


async def test_ttl_is_set_at_creation_and_never_renewed(redis_client: redis.Redis) -> None:
    store = InvocationStore(redis_client, settings(ttl="3s"))
    key = store.key("run-1", "call_1")
    await store.record_raw("run-1", "call_1", "query_logs", REQUEST, RAW, STARTED)
    first = await redis_client.pttl(key)
    assert 2000 < first <= 3000
    assert 2000 < await redis_client.pttl(store.run_key("run-1")) <= 3000
    await asyncio.sleep(1.2)
    await store.get("run-1", "call_1", include_raw=True)
    await store.record_projection("run-1", "call_1", FOUND, EvidenceStatus.EVIDENCE_FOUND)
    await store.get("run-1", "call_1")
    after = await redis_client.pttl(key)
    assert 0 < after <= first - 1000
    await asyncio.sleep(after / 1000 + 0.3)
    with pytest.raises(UnknownRun):
        await store.get("run-1", "call_1")


async def test_expired_record_is_not_found_not_error(redis_client: redis.Redis) -> None:
    store = InvocationStore(redis_client, settings(ttl="1s"))
    await store.record_raw("run-1", "call_1", "query_logs", REQUEST, RAW, STARTED)
    await redis_client.persist(store.run_key("run-1"))
    await asyncio.sleep(1.3)
    with pytest.raises(InvocationNotFound) as raised:
        await store.get("run-1", "call_1")
    assert raised.value.code == "NOT_FOUND"


async def test_meter_counts_every_byte_stored(store: InvocationStore, redis_client: redis.Redis) -> None:
    await store.record_raw("run-1", "call_1", "query_logs", REQUEST, RAW, STARTED)
    await store.record_projection("run-1", "call_1", FOUND, EvidenceStatus.EVIDENCE_FOUND)
    await store.record_failure("run-1", "call_2", "query_mysql", REQUEST, "TOOL_TIMEOUT", STARTED)
    stored = 0
    for call in ("call_1", "call_2"):
        stored += sum(len(v) for v in await redis_client.hvals(store.key("run-1", call)))
    assert stored <= await store.run_bytes("run-1")


async def test_unreachable_redis_is_a_typed_error() -> None:
    from tests.services import free_port

    client = redis.Redis(host="127.0.0.1", port=free_port(), socket_connect_timeout=0.5)
    store = InvocationStore(client, settings())
    with pytest.raises(StoreUnavailable) as raised:
        await store.record_raw("run-1", "call_1", "query_logs", REQUEST, RAW, STARTED)
    assert raised.value.code == "STORE_UNAVAILABLE"
    with pytest.raises(StoreUnavailable):
        await store.get("run-1", "call_1")
    assert await store.ping() is False
    await client.aclose()
