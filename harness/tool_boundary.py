"""The tool boundary of one run (ISS-014 §4.2 "Tool 边界", §6): the only way any tool is called.

Before: the call is charged to the budget, whatever comes of it (§4.2: every new tool action counts; to the tool
it names when the run offers it, else to the total only), then the tool_call_id is checked (charset, length,
unique in this run), the tool must be one this run offers and the arguments must parse and match the tool's
schema; a call refused by any of these is a Tool ERROR that still cost its call. A call over the budget (in total
or of its tool) is a Tool ERROR ``BUDGET_EXHAUSTED``, recorded like any other, and the run goes on: the caller
decides what the next turn offers.
After: the raw response goes to the invocation store (PROJECTING), the tool's projector makes the bounded
agent_result, which is stored (READY | ERROR) and is all the caller ever gets back. A failure anywhere yields
a Tool ERROR envelope with a fixed, safe message; the raw response never passes through.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from opentelemetry import trace
from pydantic import ValidationError

from contract.secrets import redact
from contract.tool import (
    INVALID_ARGUMENTS,
    PROJECTION_FAILED,
    RAW_RESULT_TOO_LARGE,
    SAFE_MESSAGES,
    TOOL_CANCELLED,
    TOOL_TIMEOUT,
    TOOL_UNAVAILABLE,
    Projection,
    ToolResultProjector,
    ToolSpec,
    clip,
    error_envelope,
)
from contract.vocabulary import EvidenceStatus
from harness.audit import ToolInvocation
from harness.budget import TOOL_CALLS
from harness.errors import (
    BudgetExhausted,
    InvocationStoreError,
    PayloadNotSerializable,
    ResultTooLarge,
    RetriesExhausted,
    RunCancelled,
    RunCapacityExceeded,
)
from harness.execution import bounded, ensure_open
from harness.ids import is_tool_call_id
from harness.invocation import InvocationStorePort
from harness.json_reader import TOOL_ARGUMENTS, JsonRejected, read_json
from harness.messages import ToolCall
from harness.ports import ToolPort
from harness.run_context import RunContext
from harness.tracing import current_traceparent, failed_with, hashed, span

log = logging.getLogger(__name__)

INVALID_TOOL_CALL_ID = "INVALID_TOOL_CALL_ID"
DUPLICATE_TOOL_CALL_ID = "DUPLICATE_TOOL_CALL_ID"
TOOL_NOT_ALLOWED = "TOOL_NOT_ALLOWED"
STORE_UNAVAILABLE = "STORE_UNAVAILABLE"
BUDGET_EXHAUSTED = "BUDGET_EXHAUSTED"
OUTPUT_PREVIEW_CHARS = 500
UNPARSED_ARGUMENTS = "unparsed_arguments"
UNPARSED_ARGUMENTS_CHARS = 1000

MESSAGES = {
    **SAFE_MESSAGES,
    INVALID_TOOL_CALL_ID: "The tool call id is missing or malformed; the call was not executed.",
    DUPLICATE_TOOL_CALL_ID: "This tool call id was already used in this run; the call was not executed.",
    TOOL_NOT_ALLOWED: "This tool is not available here; use only the tools you were given.",
    STORE_UNAVAILABLE: "The result could not be recorded, so it cannot be used as evidence; continue without it.",
    BUDGET_EXHAUSTED: (
        "The tool call budget of this run is used up; the call was not executed. No tool call is left: "
        "write the final draft from the evidence already returned."
    ),
    RAW_RESULT_TOO_LARGE: SAFE_MESSAGES[RAW_RESULT_TOO_LARGE],
}
TOOL_BUDGET_EXHAUSTED = (
    "The call budget of this tool is used up for this run; the call was not executed. "
    "Use the other tools, or write the final draft from the evidence already returned."
)


@dataclass(frozen=True)
class OfferedTool:
    spec: ToolSpec
    projector: ToolResultProjector


class ToolBoundary:
    def __init__(
        self,
        ctx: RunContext,
        store: InvocationStorePort,
        tools: ToolPort,
        offered: Mapping[str, OfferedTool],
        on_event: Callable[[str, dict[str, Any]], None],
        on_audit: Callable[[ToolInvocation], None],
    ) -> None:
        self._ctx = ctx
        self._store = store
        self._tools = tools
        self._offered = offered
        self._on_event = on_event
        self._on_audit = on_audit
        self._seen_ids: set[str] = set()

    async def call(self, call: ToolCall) -> dict[str, Any]:
        """Run one tool call the model asked for; returns only the agent_result (or a Tool ERROR). Its span ends
        with the outcome its audit row records (:meth:`_invocation`)."""
        with span("tool call", {"superbiz.tool": _tool_name(call.name)}):
            return await self._call(call)

    async def _call(self, call: ToolCall) -> dict[str, Any]:
        started, started_at = time.monotonic(), self._ctx.clock.now()
        ensure_open(self._ctx)
        offered = self._offered.get(call.name)
        recordable = is_tool_call_id(call.id) and call.id not in self._seen_ids
        try:  # every tool action is charged, whatever its outcome (§4.2): a refused one too
            self._ctx.budget.charge_tool_call(call.name if offered is not None else None)
        except BudgetExhausted as exhausted:  # refused and recorded like any Tool ERROR; the run goes on
            message = MESSAGES[BUDGET_EXHAUSTED] if exhausted.reason == TOOL_CALLS else TOOL_BUDGET_EXHAUSTED
            if not recordable:
                return self._refuse(call, BUDGET_EXHAUSTED, started, message)
            self._seen_ids.add(call.id)
            parsed = self._arguments(call, offered)[0]
            arguments = parsed if parsed is not None else self._unparsed(call)
            tool_name = call.name if offered is not None else "unknown_tool"
            return await self._fail(call.id, tool_name, arguments, BUDGET_EXHAUSTED, message, started, started_at)
        if not is_tool_call_id(call.id):
            return self._refuse(call, INVALID_TOOL_CALL_ID, started)
        if call.id in self._seen_ids:
            return self._refuse(call, DUPLICATE_TOOL_CALL_ID, started)
        self._seen_ids.add(call.id)
        arguments, problem = self._arguments(call, offered)
        if offered is None or problem is not None:
            code = TOOL_NOT_ALLOWED if offered is None else INVALID_ARGUMENTS
            message = problem if offered is not None and problem is not None else MESSAGES[code]
            tool_name = call.name if offered is not None else "unknown_tool"
            if arguments is None:  # kept for the audit as a bounded excerpt of what the model wrote
                arguments = self._unparsed(call)
            return await self._fail(call.id, tool_name, arguments, code, message, started, started_at)
        return await self._execute(call.id, call.name, arguments, offered.projector, started, started_at)

    @staticmethod
    def _unparsed(call: ToolCall) -> dict[str, Any]:
        """What the audit keeps of arguments that are not one object: a bounded excerpt of what the model wrote."""
        return {UNPARSED_ARGUMENTS: clip(str(call.arguments), UNPARSED_ARGUMENTS_CHARS)[0]}

    async def execute(
        self,
        tool_call_id: str,
        tool_name: str,
        arguments: dict[str, Any],
        projector: ToolResultProjector,
    ) -> dict[str, Any]:
        """Execute a call the Harness itself makes (the knowledge lookup of a KNOWLEDGE_QUERY), in its own span."""
        with span("tool call", {"superbiz.tool": _tool_name(tool_name)}):
            return await self._execute(
                tool_call_id, tool_name, arguments, projector, time.monotonic(), self._ctx.clock.now()
            )

    async def _execute(
        self,
        tool_call_id: str,
        tool_name: str,
        arguments: dict[str, Any],
        projector: ToolResultProjector,
        started: float,
        started_at: datetime,
    ) -> dict[str, Any]:
        """Execute an admitted call: tool actor -> raw (store) -> projection (store) -> agent_result."""
        self._on_event("TOOL_RUNNING", {"tool": tool_name})

        async def invoke(_attempt: int) -> Any:
            call_id = f"{self._ctx.run_id}:{tool_call_id}"
            remote = self._tools.start(tool_name, call_id, arguments, current_traceparent())
            return await bounded(self._ctx, remote.result, on_abort=remote.cancel)

        try:
            raw = await self._ctx.retry_executor().run("tool_call", self._ctx.retry_policies.tool_call, invoke)
        except (RunCancelled, asyncio.CancelledError):
            await asyncio.shield(
                self._record_failure(tool_call_id, tool_name, arguments, TOOL_CANCELLED, started, started_at)
            )
            raise
        except BudgetExhausted:
            await self._record_failure(tool_call_id, tool_name, arguments, TOOL_TIMEOUT, started, started_at)
            raise
        except RetriesExhausted:
            return await self._fail(
                tool_call_id, tool_name, arguments, TOOL_TIMEOUT, MESSAGES[TOOL_TIMEOUT], started, started_at
            )
        except Exception:  # the tool actor died or could not be reached: the call failed, the run goes on
            return await self._fail(
                tool_call_id, tool_name, arguments, TOOL_UNAVAILABLE, MESSAGES[TOOL_UNAVAILABLE], started, started_at
            )
        return await self._record(tool_call_id, tool_name, arguments, raw, projector, started, started_at)

    async def _record(
        self,
        tool_call_id: str,
        tool_name: str,
        arguments: dict[str, Any],
        raw: dict[str, Any],
        projector: ToolResultProjector,
        started: float,
        started_at: datetime,
    ) -> dict[str, Any]:
        store, run_id = self._store, self._ctx.run_id
        try:
            await store.record_raw(run_id, tool_call_id, tool_name, arguments, raw, started_at)
        except (ResultTooLarge, RunCapacityExceeded, PayloadNotSerializable):
            return self._finish(tool_call_id, tool_name, arguments, RAW_RESULT_TOO_LARGE, started, 0)
        except InvocationStoreError:
            return self._finish(tool_call_id, tool_name, arguments, STORE_UNAVAILABLE, started, 0)
        raw_length = len(json.dumps(raw, ensure_ascii=False))
        try:
            projection = projector.project(tool_call_id, arguments, raw)
        except Exception:  # a projector bug must never let the raw response through
            projection = None
        try:
            if projection is None:
                await store.record_projection_failure(run_id, tool_call_id, PROJECTION_FAILED)
                return self._finish(tool_call_id, tool_name, arguments, PROJECTION_FAILED, started, raw_length)
            await store.record_projection(
                run_id, tool_call_id, projection.agent_result, projection.evidence_status, projection.error_code
            )
        except ResultTooLarge:
            return self._finish(tool_call_id, tool_name, arguments, RAW_RESULT_TOO_LARGE, started, raw_length)
        except InvocationStoreError:
            return self._finish(tool_call_id, tool_name, arguments, STORE_UNAVAILABLE, started, raw_length)
        self._audit(tool_call_id, tool_name, arguments, projection, started, raw_length)
        self._on_event("TOOL_FINISHED", {"tool": tool_name, "evidence_status": projection.evidence_status.value})
        return projection.agent_result

    @staticmethod
    def _arguments(call: ToolCall, offered: OfferedTool | None) -> tuple[dict[str, Any] | None, str | None]:
        return parse_arguments(call.arguments, offered.spec if offered is not None else None)

    def _refuse(self, call: ToolCall, code: str, started: float, message: str | None = None) -> dict[str, Any]:
        """A call that cannot even be recorded (bad or reused id): nothing is written, the first record stays."""
        message = message or MESSAGES[code]
        self._on_audit(self._invocation(str(call.id)[:128], call.name, {}, code, message, started, 0, None))
        return error_envelope(str(call.id)[:128], code, message)

    async def _fail(
        self,
        tool_call_id: str,
        tool_name: str,
        arguments: dict[str, Any],
        code: str,
        message: str,
        started: float,
        started_at: datetime,
    ) -> dict[str, Any]:
        envelope = error_envelope(tool_call_id, code, message)
        with contextlib.suppress(InvocationStoreError):
            await self._store.record_failure(
                self._ctx.run_id, tool_call_id, _tool_name(tool_name), arguments, code, started_at, envelope
            )
        self._on_audit(self._invocation(tool_call_id, tool_name, arguments, code, message, started, 0, None))
        self._on_event("TOOL_FINISHED", {"tool": tool_name, "evidence_status": EvidenceStatus.ERROR.value})
        return envelope

    async def _record_failure(
        self,
        tool_call_id: str,
        tool_name: str,
        arguments: dict[str, Any],
        code: str,
        started: float,
        started_at: datetime,
    ) -> None:
        with contextlib.suppress(InvocationStoreError):
            await self._store.record_failure(self._ctx.run_id, tool_call_id, tool_name, arguments, code, started_at)
        self._on_audit(self._invocation(tool_call_id, tool_name, arguments, code, MESSAGES[code], started, 0, None))

    def _finish(
        self, tool_call_id: str, tool_name: str, arguments: dict[str, Any], code: str, started: float, raw_length: int
    ) -> dict[str, Any]:
        self._on_audit(
            self._invocation(tool_call_id, tool_name, arguments, code, MESSAGES[code], started, raw_length, None)
        )
        self._on_event("TOOL_FINISHED", {"tool": tool_name, "evidence_status": EvidenceStatus.ERROR.value})
        return error_envelope(tool_call_id, code, MESSAGES[code])

    def _audit(
        self,
        tool_call_id: str,
        tool_name: str,
        arguments: dict[str, Any],
        projection: Projection,
        started: float,
        raw_length: int,
    ) -> None:
        error = projection.agent_result.get("error") if projection.error_code else None
        message = error.get("message") if isinstance(error, dict) else None
        self._on_audit(
            self._invocation(
                tool_call_id, tool_name, arguments, projection.error_code, message, started, raw_length, projection
            )
        )

    def _log_failure(self, tool_name: str, code: str | None) -> None:
        if code is not None:
            log.warning("tool call failed: %s %s", tool_name, code, extra={"run_id": self._ctx.run_id})

    def _invocation(
        self,
        tool_call_id: str,
        tool_name: str,
        arguments: dict[str, Any],
        error_code: str | None,
        error_message: str | None,
        started: float,
        raw_length: int,
        projection: Projection | None,
    ) -> ToolInvocation:
        self._log_failure(tool_name, error_code)
        preview = json.dumps(projection.agent_result, ensure_ascii=False) if projection else ""
        invocation = ToolInvocation(
            run_id=self._ctx.run_id,
            session_id=self._ctx.session_id,
            tool_call_id=tool_call_id,
            tool_name=_tool_name(tool_name),
            input_params=arguments,
            output_preview=redact(preview[:OUTPUT_PREVIEW_CHARS])[0],
            output_length=raw_length,
            evidence_status=projection.evidence_status.value if projection else EvidenceStatus.ERROR.value,
            is_truncated=bool(projection and projection.agent_result.get("truncated")),
            duration_ms=int((time.monotonic() - started) * 1000),
            success=projection is not None and projection.error_code is None,
            error_code=error_code,
            error_message=error_message,
        )
        self._describe_span(invocation)
        return invocation

    def _describe_span(self, invocation: ToolInvocation) -> None:
        current = trace.get_current_span()
        current.set_attributes(
            {
                "superbiz.evidence_status": invocation.evidence_status,
                "superbiz.duration_ms": invocation.duration_ms,
                "superbiz.record_key_hash": hashed(
                    f"{self._store.settings.key_prefix}:{invocation.run_id}:{invocation.tool_call_id}"
                ),
            }
        )
        if invocation.error_code is not None:
            failed_with(current, invocation.error_code)


def parse_arguments(text: str | None, spec: ToolSpec | None) -> tuple[dict[str, Any] | None, str | None]:
    """(arguments, problem): the validated arguments of a tool call, or a safe message the agent can act on.

    Read by the bounded JSON reader (too large or too deep is a problem, never an exception); ``arguments`` is
    the parsed object when only the schema failed, for the audit, and None when the text is not one object.
    """
    try:
        parsed = read_json(text or "{}", TOOL_ARGUMENTS)
    except JsonRejected as rejected:
        return None, f"The arguments are not one bounded JSON object ({rejected.message}); send one JSON object."
    if not isinstance(parsed, dict):
        return None, "The arguments must be one JSON object."
    if spec is None:
        return parsed, None
    try:
        validated = spec.arguments.model_validate(parsed)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(part) for part in error['loc']) or 'arguments'}: {error['msg']}"
            for error in exc.errors(include_url=False, include_input=False, include_context=False)[:5]
        )
        return parsed, f"Invalid arguments ({problems}). Check the tool's parameter schema."
    return validated.model_dump(mode="json"), None


def _tool_name(name: str) -> str:
    return name if name.replace("_", "").isalnum() and name.islower() and len(name) <= 64 else "unknown_tool"
