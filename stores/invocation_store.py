"""The canonical invocation store (§4.2) on Redis: one hash per tool call, written only by the Harness.

``InvocationStore`` implements ``harness.invocation.InvocationStorePort``. Key
``{prefix}:{run_id}:{tool_call_id}``; ``status`` PROJECTING -> READY | ERROR; ``evidence_status`` EVIDENCE_FOUND |
NO_EVIDENCE only when READY, ERROR when the call failed. The TTL is set when the record is created and never
renewed: updates are ``HSET`` on the existing hash, which keeps the TTL, and reads never touch it. Byte caps per
record, per agent_result and per run are enforced atomically in Lua, so concurrent writers of one run cannot pass
the run cap; an oversize raw response is recorded as ERROR/RESULT_TOO_LARGE, never truncated. The run's byte
meter lives at ``{prefix}:{run_id}`` (no tool call id), with the same TTL.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Awaitable
from datetime import datetime
from typing import Any, TypeVar

import redis.asyncio as redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from config.harness import EvidenceStoreSettings
from contract.clock import Clock, SystemClock, isoformat
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
from harness.ids import is_run_id, is_tool_call_id, is_tool_name
from harness.invocation import InvocationRecord, ToolCallStatus

T = TypeVar("T")
METADATA_BYTES = 512
"""Fixed allowance per record for every field but request/raw_response/agent_result (ids are length-capped)."""


_FIELDS = (
    "run_id",
    "tool_call_id",
    "tool_name",
    "status",
    "evidence_status",
    "request",
    "agent_result",
    "started_at",
    "finished_at",
    "error_code",
)

_JSON_FIELDS = frozenset({"request", "agent_result", "raw_response"})
_FINISH_RETURNS = tuple(name for name in _FIELDS if name != "agent_result")
"""A finished record comes back without the agent_result: the caller just wrote it."""

# Metadata travels as one JSON array of field/value strings and payloads as their own arguments: packing a
# command costs the client per argument, so this keeps a record write to a handful of arguments.
_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return -1 end
if tonumber(redis.call('GET', KEYS[2]) or '0') + tonumber(ARGV[3]) > tonumber(ARGV[2]) then return -2 end
local fields = cjson.decode(ARGV[4])
for i = 5, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', KEYS[1], 'record_bytes', ARGV[3], unpack(fields))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], 0, 'NX', 'PX', ARGV[1])
return redis.call('INCRBY', KEYS[2], ARGV[3])
"""

_FINISH = (
    "local FIELDS = {"
    + ", ".join(f"'{name}'" for name in _FINISH_RETURNS)
    + "}\n"
    + """
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return {-3, ''} end
if status ~= 'PROJECTING' then return {-4, status} end
local added = tonumber(ARGV[3])
local size = tonumber(redis.call('HGET', KEYS[1], 'record_bytes')) + added
local code = ''
if size > tonumber(ARGV[1]) then
  code = 'RESULT_TOO_LARGE'
elseif added > 0 and tonumber(redis.call('GET', KEYS[2]) or '0') + added > tonumber(ARGV[2]) then
  code = 'RUN_CAPACITY_EXCEEDED'
end
local outcome = 1
if code ~= '' then
  redis.call('HSET', KEYS[1], 'status', 'ERROR', 'evidence_status', 'ERROR', 'error_code', code,
             'finished_at', ARGV[4])
  outcome = -2
else
  local fields = cjson.decode(ARGV[5])
  for i = 6, #ARGV do fields[#fields + 1] = ARGV[i] end
  redis.call('HSET', KEYS[1], 'record_bytes', size, 'finished_at', ARGV[4], unpack(fields))
  if added > 0 then redis.call('INCRBY', KEYS[2], added) end
end
return {outcome, code, unpack(redis.call('HMGET', KEYS[1], unpack(FIELDS)))}
"""
)


class InvocationStore:
    """Harness-only access to tool call records. Agents never get this object, a key or a connection."""

    def __init__(self, client: redis.Redis, settings: EvidenceStoreSettings, clock: Clock | None = None) -> None:
        self._client = client
        self._settings = settings
        self._clock = clock or SystemClock()
        self._create = client.register_script(_CREATE)
        self._finish = client.register_script(_FINISH)

    @property
    def settings(self) -> EvidenceStoreSettings:
        return self._settings

    def key(self, run_id: str, tool_call_id: str) -> str:
        _check_ids(run_id, tool_call_id)
        return f"{self._settings.key_prefix}:{run_id}:{tool_call_id}"

    def run_key(self, run_id: str) -> str:
        _check_run_id(run_id)
        return f"{self._settings.key_prefix}:{run_id}"

    async def record_raw(
        self,
        run_id: str,
        tool_call_id: str,
        tool_name: str,
        request: dict[str, Any],
        raw_response: Any,
        started_at: datetime,
    ) -> InvocationRecord:
        """Store the tool's raw response as a new record in PROJECTING (the returned record omits the raw).

        Raises DuplicateToolCallId with nothing written, or records the call as ERROR and raises
        PayloadNotSerializable / ResultTooLarge / RunCapacityExceeded.
        """
        base = self._base_fields(run_id, tool_call_id, tool_name, request, started_at)
        try:
            raw = _encode(raw_response)
        except PayloadNotSerializable:
            await self._create_error(base, PayloadNotSerializable.code)
            raise
        size = METADATA_BYTES + len(base["request"]) + len(raw)
        if size > self._settings.max_record_bytes:
            await self._create_error(base, ResultTooLarge.code)
            raise ResultTooLarge("raw response exceeds max-record-bytes")
        fields = {**base, "status": ToolCallStatus.PROJECTING.value, "raw_response": raw}
        if await self._run_create(fields, size) == _OVER_RUN_CAP:
            await self._create_error(base, RunCapacityExceeded.code)
            raise RunCapacityExceeded("run reached max-run-bytes")
        return InvocationRecord(
            run_id=run_id,
            tool_call_id=tool_call_id,
            tool_name=tool_name,
            status=ToolCallStatus.PROJECTING,
            evidence_status=None,
            request=request,
            agent_result=None,
            started_at=str(base["started_at"]),
            finished_at=None,
            error_code=None,
        )

    async def record_failure(
        self,
        run_id: str,
        tool_call_id: str,
        tool_name: str,
        request: dict[str, Any],
        error_code: str,
        started_at: datetime,
        agent_result: dict[str, Any] | None = None,
    ) -> InvocationRecord:
        """Record a call that failed before it produced a raw response (timeout, cancelled, busy, tool error)."""
        base = self._base_fields(run_id, tool_call_id, tool_name, request, started_at)
        return await self._create_error(base, error_code, agent_result)

    async def record_projection(
        self,
        run_id: str,
        tool_call_id: str,
        agent_result: dict[str, Any],
        evidence_status: EvidenceStatus,
        error_code: str | None = None,
    ) -> InvocationRecord:
        """Store the projector's agent_result: PROJECTING -> READY, or -> ERROR for an ERROR envelope."""
        if not isinstance(evidence_status, EvidenceStatus):
            raise InvalidArgument("evidence_status must be an EvidenceStatus")
        if not isinstance(agent_result, dict):
            raise InvalidArgument("agent_result must be a JSON object")
        if (evidence_status is EvidenceStatus.ERROR) != bool(error_code):
            raise InvalidArgument("error_code is required for an ERROR projection and only for it")
        try:
            encoded = _encode(agent_result)
        except PayloadNotSerializable:
            await self.record_projection_failure(run_id, tool_call_id, PayloadNotSerializable.code)
            raise
        if len(encoded) > self._settings.max_agent_result_bytes:
            await self.record_projection_failure(run_id, tool_call_id, ResultTooLarge.code)
            raise ResultTooLarge("agent_result exceeds max-agent-result-bytes")
        status = ToolCallStatus.ERROR if error_code else ToolCallStatus.READY
        update = {"status": status.value, "evidence_status": evidence_status.value, "agent_result": encoded}
        if error_code:
            update["error_code"] = error_code
        record = await self._run_finish(run_id, tool_call_id, update, len(encoded))
        return dataclasses.replace(record, agent_result=agent_result)

    async def record_projection_failure(self, run_id: str, tool_call_id: str, error_code: str) -> InvocationRecord:
        """The projector failed: PROJECTING -> ERROR; the raw stays for audit and nothing reaches the agent."""
        update: dict[str, str | bytes] = {
            "status": ToolCallStatus.ERROR.value,
            "evidence_status": EvidenceStatus.ERROR.value,
            "error_code": error_code,
        }
        return await self._run_finish(run_id, tool_call_id, update, 0)

    async def get(self, run_id: str, tool_call_id: str, include_raw: bool = False) -> InvocationRecord:
        """The record of ``tool_call_id`` in ``run_id``; another run's id is simply not found here."""
        names = (*_FIELDS, "raw_response") if include_raw else _FIELDS
        values = await _unavailable_on_error(self._client.hmget(self.key(run_id, tool_call_id), names))
        if values[0] is None:
            if not await _unavailable_on_error(self._client.exists(self.run_key(run_id))):
                raise UnknownRun("no record of this run (never created or expired)")
            raise InvocationNotFound("no such tool call in this run")
        record = _record_from(dict(zip(names, values, strict=True)))
        if record.run_id != run_id or record.tool_call_id != tool_call_id:
            raise InvocationNotFound("record does not belong to this run")
        return record

    async def run_bytes(self, run_id: str) -> int:
        return int(await _unavailable_on_error(self._client.get(self.run_key(run_id))) or 0)

    async def ping(self) -> bool:
        try:
            return bool(await self._client.ping())
        except (RedisConnectionError, RedisTimeoutError, OSError):
            return False

    def _base_fields(
        self, run_id: str, tool_call_id: str, tool_name: str, request: dict[str, Any], started_at: datetime
    ) -> dict[str, str | bytes]:
        _check_ids(run_id, tool_call_id)
        if not is_tool_name(tool_name):
            raise InvalidArgument("tool_name must be 1-64 characters of [a-z0-9_]")
        if not isinstance(request, dict):
            raise InvalidArgument("request must be a JSON object")
        if not isinstance(started_at, datetime) or started_at.tzinfo is None:
            raise InvalidArgument("started_at must be a timezone-aware datetime")
        encoded_request = _encode(request)
        if METADATA_BYTES + len(encoded_request) > self._settings.max_record_bytes:
            raise ResultTooLarge("request exceeds max-record-bytes")
        return {
            "run_id": run_id,
            "tool_call_id": tool_call_id,
            "tool_name": tool_name,
            "request": encoded_request,
            "started_at": isoformat(started_at),
        }

    async def _create_error(
        self, base: dict[str, str | bytes], error_code: str, agent_result: dict[str, Any] | None = None
    ) -> InvocationRecord:
        fields = {
            **base,
            "status": ToolCallStatus.ERROR.value,
            "evidence_status": EvidenceStatus.ERROR.value,
            "error_code": error_code,
            "finished_at": isoformat(self._clock.now()),
        }
        if agent_result is not None:
            encoded = _encode(agent_result)
            if len(encoded) > self._settings.max_agent_result_bytes:
                raise ResultTooLarge("agent_result exceeds max-agent-result-bytes")
            fields["agent_result"] = encoded
        size = METADATA_BYTES + len(fields["request"]) + len(fields.get("agent_result", b""))
        if await self._run_create(fields, size) == _OVER_RUN_CAP:
            raise RunCapacityExceeded("run reached max-run-bytes")
        return _record_from(fields)

    async def _run_create(self, fields: dict[str, str | bytes], size: int) -> int:
        run_id, tool_call_id = str(fields["run_id"]), str(fields["tool_call_id"])
        metadata = [item for name, value in fields.items() if name not in _JSON_FIELDS for item in (name, value)]
        payloads = [item for name, value in fields.items() if name in _JSON_FIELDS for item in (name, value)]
        args = [int(self._settings.ttl * 1000), self._settings.max_run_bytes, size, json.dumps(metadata), *payloads]
        keys = [self.key(run_id, tool_call_id), self.run_key(run_id)]
        outcome = int(await _unavailable_on_error(self._create(keys=keys, args=args)))
        if outcome == _DUPLICATE:
            raise DuplicateToolCallId("tool_call_id already recorded in this run")
        return outcome

    async def _run_finish(
        self, run_id: str, tool_call_id: str, update: dict[str, str | bytes], added: int
    ) -> InvocationRecord:
        metadata = [item for name, value in update.items() if name not in _JSON_FIELDS for item in (name, value)]
        payloads = [item for name, value in update.items() if name in _JSON_FIELDS for item in (name, value)]
        args = [
            self._settings.max_record_bytes,
            self._settings.max_run_bytes,
            added,
            isoformat(self._clock.now()),
            json.dumps(metadata),
            *payloads,
        ]
        keys = [self.key(run_id, tool_call_id), self.run_key(run_id)]
        outcome, detail, *values = await _unavailable_on_error(self._finish(keys=keys, args=args))
        if outcome == _MISSING:
            raise InvocationNotFound("no such tool call in this run")
        if outcome == _NOT_PROJECTING:
            raise InvalidRecordState(f"record is {detail.decode()}, not PROJECTING")
        if outcome == _OVER_RUN_CAP:
            error = ResultTooLarge if detail == b"RESULT_TOO_LARGE" else RunCapacityExceeded
            raise error("record or run byte cap reached; the call is recorded as ERROR")
        return _record_from(dict(zip(_FINISH_RETURNS, values, strict=True)))


_DUPLICATE, _OVER_RUN_CAP, _MISSING, _NOT_PROJECTING = -1, -2, -3, -4


async def _unavailable_on_error(pending: Awaitable[T]) -> T:
    try:
        return await pending
    except (RedisConnectionError, RedisTimeoutError, OSError) as exc:
        raise StoreUnavailable("redis is unreachable") from exc


def _check_run_id(run_id: str) -> None:
    if not is_run_id(run_id):
        raise InvalidRunId("run_id must be 1-64 characters of [A-Za-z0-9_-]")


def _check_ids(run_id: str, tool_call_id: str) -> None:
    _check_run_id(run_id)
    if not is_tool_call_id(tool_call_id):
        raise InvalidToolCallId("tool_call_id must be 1-128 characters of [A-Za-z0-9_.-]")


def _encode(value: Any) -> bytes:
    """UTF-8 JSON, the only stored form; sizes are counted in these bytes."""
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()
    except (TypeError, ValueError, RecursionError) as exc:
        raise PayloadNotSerializable("payload is not JSON-serialisable") from exc


def _record_from(fields: dict[str, Any]) -> InvocationRecord:
    """Build a record from stored values (bytes from Redis, or the str/bytes just written)."""
    text = {
        name: value.decode() if isinstance(value, bytes) else value
        for name, value in fields.items()
        if value is not None and name not in _JSON_FIELDS
    }
    payload = {name: json.loads(fields[name]) for name in _JSON_FIELDS if fields.get(name) is not None}
    evidence_status = text.get("evidence_status")
    return InvocationRecord(
        run_id=text["run_id"],
        tool_call_id=text["tool_call_id"],
        tool_name=text["tool_name"],
        status=ToolCallStatus(text["status"]),
        evidence_status=EvidenceStatus(evidence_status) if evidence_status else None,
        request=payload["request"],
        agent_result=payload.get("agent_result"),
        started_at=text["started_at"],
        finished_at=text.get("finished_at"),
        error_code=text.get("error_code"),
        raw_response=payload.get("raw_response"),
    )
