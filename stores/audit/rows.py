"""Audit records as table rows, and rows back as values: what each record writes, bounded (``bounds``), with
times stored as naive UTC and read back aware.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Table, func, select

from harness.audit import GuardCheck, ModelStep, RunFinished, RunStarted, ToolInvocation
from stores.audit.bounds import (
    MAX_ERROR_MESSAGE_CHARS,
    MAX_GUARD_REASON_CHARS,
    MAX_TEXT_CHARS,
    audit_params,
    audit_text,
    clip,
)
from stores.audit.schema import agent_step, tool_invocation

MAX_CHECK_FAILURES = 50
MAX_FAILURE_MESSAGE_CHARS = 300


def db_time(moment: datetime) -> datetime:
    """Stored as naive UTC (MySQL DATETIME has no zone); a naive input is taken as UTC."""
    return moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment


def from_row(mapping: Mapping[str, Any]) -> dict[str, Any]:
    """A selected row as a dict, its stored times back in UTC."""
    return {
        key: value.replace(tzinfo=UTC) if isinstance(value, datetime) and value.tzinfo is None else value
        for key, value in mapping.items()
    }


def released_text(content: Mapping[str, Any]) -> str:
    """A content event's data as the gateway serialises it on the SSE stream (``json.dumps``, non-ASCII kept)."""
    return json.dumps(dict(content), ensure_ascii=False)


def session_touches(started: Sequence[RunStarted]) -> list[dict[str, Any]]:
    """One row per session: a new session belongs to the principal of its first run and was active at its last;
    sorted by id so that concurrent writers lock sessions in one order."""
    sessions: dict[str, dict[str, Any]] = {}
    for record in started:
        moment = db_time(record.started_at)
        row = sessions.setdefault(
            record.session_id, {"session_id": record.session_id, "principal": record.principal, "created_at": moment}
        )
        row["last_active_at"] = moment
    return [sessions[session_id] for session_id in sorted(sessions)]


def started_row(record: RunStarted) -> dict[str, Any]:
    return {
        "run_id": record.run_id,
        "session_id": record.session_id,
        "principal": record.principal,
        "query": audit_text(record.query, MAX_TEXT_CHARS),
        "status": "RUNNING",
        "started_at": db_time(record.started_at),
        "trace_id": record.trace_id,
    }


def step_row(record: ModelStep, at: datetime) -> dict[str, Any]:
    return {
        "run_id": record.run_id,
        "session_id": record.session_id,
        "step_index": record.step_index,
        "agent_name": clip(record.role, 32),
        "has_tool_call": record.has_tool_call,
        "duration_ms": record.duration_ms,
        "input_tokens": record.input_tokens,
        "output_tokens": record.output_tokens,
        "token_count": record.input_tokens + record.output_tokens,
        "outcome": clip(record.outcome, 64),
        "created_at": db_time(at),
        "attempt": record.attempt,
    }


def check_row(record: GuardCheck, at: datetime) -> dict[str, Any]:
    failures = record.failures[:MAX_CHECK_FAILURES]
    return {
        "run_id": record.run_id,
        "session_id": record.session_id,
        "check_index": record.check_index,
        "guard": clip(record.guard, 16),
        "verdict": clip(record.verdict, 16),
        "step_index": record.step_index,
        "failure_codes": [clip(code, 64) for code, _ in failures],
        "failures": [
            {"code": clip(code, 64), "message": audit_text(message, MAX_FAILURE_MESSAGE_CHARS)}
            for code, message in failures
        ],
        "created_at": db_time(at),
    }


def tool_row(record: ToolInvocation, at: datetime, preview_chars: int) -> dict[str, Any]:
    """``step_run_id`` and ``step_index`` bind the ``step_id`` subquery of the insert."""
    return {
        "session_id": record.session_id,
        "run_id": record.run_id,
        "step_run_id": record.run_id,
        "step_index": record.step_index,
        "tool_name": clip(record.tool_name, 64),
        "input_params": audit_params(record.input_params),
        "output_preview": audit_text(record.output_preview, preview_chars),
        "output_length": record.output_length,
        "is_truncated": record.is_truncated,
        "retrieval_details": {"evidence_status": record.evidence_status, "tool_call_id": record.tool_call_id},
        "duration_ms": record.duration_ms,
        "success": record.success,
        "error_message": audit_text(record.error_message, MAX_ERROR_MESSAGE_CHARS),
        "created_at": db_time(at),
        "tool_call_id": audit_text(record.tool_call_id, 128),
        "evidence_status": clip(record.evidence_status, 32),
        "error_code": clip(record.error_code, 64),
    }


def finished_values(record: RunFinished, seq: int) -> dict[str, Any]:
    """What a finish sets on its ``diagnosis_run`` row; ``seq`` is the session's next ``finish_seq``."""
    return {
        "intent": clip(record.intent, 32),
        "status": record.status,
        "release_outcome": record.status,
        "fallback_type": clip(record.fallback_type, 64),
        "fallback_reason": clip(record.fallback_reason, 128),
        "published_result": dict(record.published_result) if record.published_result else None,
        "guard_verdict": clip(record.guard_verdict, 32),
        "guard_reason": audit_text(record.guard_reason, MAX_GUARD_REASON_CHARS),
        **_run_counts(record),
        "total_duration_ms": record.duration_ms,
        "finished_at": db_time(record.finished_at),
        "finish_seq": seq,
        "released_content": None if record.released_content is None else released_text(record.released_content),
        "cited_tool_calls": None
        if record.cited_tool_calls is None
        else [
            {"ref": clip(cited["ref"], 16), "tool_call_id": audit_text(cited["tool_call_id"], 128)}
            for cited in record.cited_tool_calls
        ],
    }


def _run_counts(record: RunFinished) -> dict[str, Any]:
    """The run's counters as its writer knew them, or, for each it could not know (None), counted from the
    rows the run left (a lost supervisor's run): either way they agree with the child rows."""

    def rows(table: Table, value: Any) -> Any:
        return select(func.coalesce(value, 0)).where(table.c.run_id == record.run_id).scalar_subquery()

    counted = {
        "model_calls": rows(agent_step, func.count()) if record.model_calls is None else record.model_calls,
        "input_tokens": rows(agent_step, func.sum(agent_step.c.input_tokens))
        if record.input_tokens is None
        else record.input_tokens,
        "output_tokens": rows(agent_step, func.sum(agent_step.c.output_tokens))
        if record.output_tokens is None
        else record.output_tokens,
        "tool_call_count": rows(tool_invocation, func.count()) if record.tool_calls is None else record.tool_calls,
    }
    if record.input_tokens is None or record.output_tokens is None:
        counted["total_tokens"] = rows(agent_step, func.sum(agent_step.c.token_count))
    else:
        counted["total_tokens"] = record.input_tokens + record.output_tokens
    return counted
