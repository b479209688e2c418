"""The tool results a corpus is written from: the records a run holds, and plain reading of their agent_results.

The corpus generator reads the demo's real agent_results (``tools.demo_calls``, passed in: the Harness does not
import the tools) and turns each into the :class:`~harness.invocation.InvocationRecord` a run's store would
hold after its projector ran. The writers read fields by name here; the gate never does (it asks the kinds).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from contract.vocabulary import EvidenceStatus
from harness.invocation import InvocationRecord, ToolCallStatus

RUN_ID = "run-mutations"
STARTED_AT = "2026-12-01T11:40:00.000+00:00"


class Projected(Protocol):
    @property
    def agent_result(self) -> dict[str, Any]: ...
    @property
    def evidence_status(self) -> EvidenceStatus: ...


class ToolCall(Protocol):
    """A call and its projection (``tools.demo_calls.DemoCall`` has this shape)."""

    @property
    def tool_call_id(self) -> str: ...
    @property
    def tool_name(self) -> str: ...
    @property
    def arguments(self) -> dict[str, Any]: ...
    @property
    def projection(self) -> Projected: ...


def record_of(call: ToolCall, run_id: str = RUN_ID) -> InvocationRecord:
    """The READY record a run's invocation store holds for ``call``."""
    return InvocationRecord(
        run_id=run_id,
        tool_call_id=call.tool_call_id,
        tool_name=call.tool_name,
        status=ToolCallStatus.READY,
        evidence_status=call.projection.evidence_status,
        request=dict(call.arguments),
        agent_result=dict(call.projection.agent_result),
        started_at=STARTED_AT,
        finished_at=STARTED_AT,
        error_code=None,
    )


def records_of(calls: Iterable[ToolCall]) -> dict[str, InvocationRecord]:
    return {call.tool_call_id: record_of(call) for call in calls}


@dataclass(frozen=True)
class Results:
    """The agent_results of a run's calls by tool_call_id, read by the writers."""

    records: Mapping[str, InvocationRecord]

    def result(self, call: str) -> dict[str, Any]:
        record = self.records.get(call)
        if record is None or record.agent_result is None:
            raise KeyError(call)
        return record.agent_result

    def has(self, *calls: str) -> bool:
        return all(call in self.records for call in calls)

    def events(self, call: str) -> list[dict[str, Any]]:
        return list(self.result(call).get("events", []))

    def patterns(self, call: str) -> list[dict[str, Any]]:
        return list(self.result(call).get("patterns", []))

    def rows(self, call: str) -> list[dict[str, Any]]:
        return list(self.result(call).get("rows", []))

    def series(self, call: str) -> list[dict[str, Any]]:
        return list(self.result(call).get("series", []))


def field_number(text: str, name: str) -> str | None:
    """The number after ``name=`` in a log line (``Query_time=27.932s`` -> ``27.932``), as written."""
    found = re.search(rf"\b{re.escape(name)}=(\d+(?:\.\d+)?)", text)
    return found.group(1) if found else None


def number_before(text: str, unit: str) -> str | None:
    """The first number written right before ``unit`` (``after 30007ms`` -> ``30007``)."""
    found = re.search(rf"(?<![\w.])(\d+(?:\.\d+)?){re.escape(unit)}\b", text)
    return found.group(1) if found else None
