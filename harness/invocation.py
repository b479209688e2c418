"""A tool call as the Harness records it (§4.2), and the port of the store that keeps the records.

``InvocationRecord`` is one call's record: ``status`` PROJECTING -> READY | ERROR, ``evidence_status``
EVIDENCE_FOUND | NO_EVIDENCE only when READY, ERROR when the call failed. ``InvocationStorePort`` is what the
Harness asks of the store; the Redis store in ``stores/invocation_store.py`` implements it. Agents never get
the store, a key or a connection.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, Protocol

from config.harness import EvidenceStoreSettings
from contract.vocabulary import EvidenceStatus


class ToolCallStatus(StrEnum):
    PROJECTING = "PROJECTING"
    READY = "READY"
    ERROR = "ERROR"


@dataclass(frozen=True)
class InvocationRecord:
    run_id: str
    tool_call_id: str
    tool_name: str
    status: ToolCallStatus
    evidence_status: EvidenceStatus | None
    request: dict[str, Any]
    agent_result: dict[str, Any] | None
    started_at: str
    finished_at: str | None
    error_code: str | None
    raw_response: Any = None
    """Only filled by ``get(..., include_raw=True)``; the Harness's own audit path, never an agent's."""


class InvocationStorePort(Protocol):
    """Harness-only access to tool call records; every failure is an ``InvocationStoreError``."""

    @property
    def settings(self) -> EvidenceStoreSettings: ...

    async def record_raw(
        self,
        run_id: str,
        tool_call_id: str,
        tool_name: str,
        request: dict[str, Any],
        raw_response: Any,
        started_at: datetime,
    ) -> InvocationRecord:
        """Store the tool's raw response as a new record in PROJECTING (the returned record omits the raw)."""

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

    async def record_projection(
        self,
        run_id: str,
        tool_call_id: str,
        agent_result: dict[str, Any],
        evidence_status: EvidenceStatus,
        error_code: str | None = None,
    ) -> InvocationRecord:
        """Store the projector's agent_result: PROJECTING -> READY, or -> ERROR for an ERROR envelope."""

    async def record_projection_failure(self, run_id: str, tool_call_id: str, error_code: str) -> InvocationRecord:
        """The projector failed: PROJECTING -> ERROR; the raw stays for audit and nothing reaches the agent."""

    async def get(self, run_id: str, tool_call_id: str, include_raw: bool = False) -> InvocationRecord:
        """The record of ``tool_call_id`` in ``run_id``; another run's id is simply not found here."""

    async def ping(self) -> bool:
        """Whether the store answers; never raises."""
