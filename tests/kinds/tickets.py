"""``query_tickets``: an evidence kind that lives only under ``tests/``, proving that an operator adds a tool with
one package and one configuration entry (``tools.query_tickets.kind: "tests.kinds.tickets:KIND"``)."""

from __future__ import annotations

import threading
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt

from contract.clock import Clock
from contract.kind import EvidenceKind, Scope
from contract.tool import Projection, ToolArguments, ToolSpec, error_projection, failure_of
from contract.vocabulary import EvidenceStatus

TICKETS = {
    "order-service": [
        {"ticket_id": "INC-4711", "title": "order-service HikariPool exhausted", "status": "OPEN", "severity": "P1"},
        {"ticket_id": "INC-4702", "title": "order-service slow callbacks", "status": "RESOLVED", "severity": "P3"},
    ],
}


class TicketArguments(ToolArguments):
    service: str = Field(min_length=1, max_length=64, description="The service whose incident tickets to list.")


SPEC = ToolSpec("query_tickets", "List the incident tickets of a service (test tool).", TicketArguments)


class TicketTool:
    spec = SPEC

    def __init__(self, options: dict[str, Any]) -> None:
        self._tickets = options.get("tickets", TICKETS)
        self._lock = threading.Lock()

    def run(self, call_id: str, arguments: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            return {"service": arguments["service"], "tickets": list(self._tickets.get(arguments["service"], []))}

    def cancel(self, call_id: str) -> None:
        return None


class TicketProjector:
    def project(self, tool_call_id: str, arguments: dict[str, Any], raw: dict[str, Any]) -> Projection:
        failure = failure_of(raw)
        if failure is not None:
            return error_projection(tool_call_id, *failure)
        tickets = raw["tickets"]
        status = EvidenceStatus.EVIDENCE_FOUND if tickets else EvidenceStatus.NO_EVIDENCE
        result = {
            "evidence_status": status.value,
            "tool_call_id": tool_call_id,
            "service": raw["service"],
            "tickets": tickets,
            "returned_count": len(tickets),
        }
        return Projection(result, status)


class Ticket(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    ticket_id: str
    title: str
    status: str
    severity: str


class TicketsResult(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    service: str
    tickets: list[Ticket]
    returned_count: StrictInt


def _scope(result: TicketsResult) -> Scope:
    return Scope(
        source="incident tickets",
        queried=f"service={result.service}",
        verified="incident tickets",
        complete=result.returned_count == 0,
    )


def _evidence(result: TicketsResult, found: bool) -> list[dict[str, Any]]:
    header = {"source_type": "TICKET", "source": "incident tickets", "scope": f"service={result.service}"}
    return [{**header, **ticket.model_dump()} for ticket in result.tickets] or [{**header, "returned_count": 0}]


def _cite(result: TicketsResult, found: bool) -> list[dict[str, Any]]:
    return [ticket.model_dump() for ticket in result.tickets]


def _build(config: Any, clock: Clock) -> TicketTool:
    return TicketTool(config.tools.entries()["query_tickets"].options)


KIND = EvidenceKind(
    name="query_tickets",
    source_type="TICKET",
    spec=lambda config: SPEC,
    projector=lambda config: TicketProjector(),
    build=_build,
    result=TicketsResult,
    evidence=_evidence,
    scope=_scope,
    cite=_cite,
)
