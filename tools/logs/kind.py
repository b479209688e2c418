"""``query_logs`` as an evidence kind: how its results read as evidence, scope and references."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, StrictInt

from contract.kind import EvidenceKind, Scope
from tools.logs.projector import QueryLogsResultProjector
from tools.logs.settings import LogsToolSettings
from tools.logs.tool import TOOL_NAME, QueryLogsTool, query_logs_spec

SOURCE_TYPE = "LOG"


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class LogScope(_Model):
    topic: str
    query: str
    start_time: str
    end_time: str


class LogOccurrence(_Model):
    timestamp: str
    values: dict[str, str] | None = None


class LogSlotValue(_Model):
    value: str
    count: StrictInt


class LogSlot(_Model):
    distinct: StrictInt
    top: list[LogSlotValue]


class LogPattern(_Model):
    count: StrictInt
    first_seen: str
    last_seen: str
    level: str
    service: str
    example: str
    template: str | None = None
    occurrences: list[LogOccurrence] = []
    slot_values: dict[str, LogSlot] = {}

    def detail(self) -> dict[str, Any]:
        """Which values the pattern folds (:mod:`tools.logs.projector`), as the agent_result gives them."""
        return self.model_dump(include={"template", "occurrences", "slot_values"}, exclude_defaults=True)


class LogEvent(_Model):
    timestamp: str
    level: str
    service: str
    message: str


class LogsResult(_Model):
    """A READY ``query_logs`` agent_result (§8.2)."""

    source_kind: str
    scope: LogScope
    match_count: StrictInt
    patterns: list[LogPattern] = []
    events: list[LogEvent] = []


def scope(result: LogsResult) -> Scope:
    window = f"{result.scope.start_time} 至 {result.scope.end_time}"
    source = f"{result.scope.topic} (MOCK)" if result.source_kind == "MOCK" else result.scope.topic
    return Scope(
        source=source,
        queried=f"{result.scope.query}，{window}",
        verified=f"{result.scope.topic} 日志，{window}",
        complete=all((result.scope.topic, result.scope.query, result.scope.start_time, result.scope.end_time))
        and result.match_count == 0,
    )


def evidence(result: LogsResult, found: bool) -> list[dict[str, Any]]:
    """One entry per pattern and per sampled event, each with the call's source, scope and match count."""
    where = scope(result)
    header = {
        "source_type": SOURCE_TYPE,
        "source": where.source,
        "scope": where.queried,
        "asked": [result.scope.query],
        "match_count": result.match_count,
    }
    patterns = [
        {
            **header,
            "pattern": item.example,
            "count": item.count,
            "first_seen": item.first_seen,
            "last_seen": item.last_seen,
            "level": item.level,
            "service": item.service,
            # under one key, so every pattern entry of a call has one shape whatever details it has
            "detail": item.detail(),
        }
        for item in result.patterns
    ]
    events = [{**header, **_event(item)} for item in result.events]
    return patterns + events or [header]


def cite(result: LogsResult, found: bool) -> list[dict[str, Any]]:
    if not found:
        return [{"match_count": 0}]
    patterns = [
        {
            "level": item.level,
            "service": item.service,
            "excerpt": item.example,
            "count": item.count,
            "first_seen": item.first_seen,
            "last_seen": item.last_seen,
            **item.detail(),
        }
        for item in result.patterns
    ]
    return patterns + [_event(item) for item in result.events]


def _event(item: LogEvent) -> dict[str, Any]:
    return {"timestamp": item.timestamp, "level": item.level, "service": item.service, "excerpt": item.message}


KIND = EvidenceKind(
    name=TOOL_NAME,
    source_type=SOURCE_TYPE,
    spec=lambda config: query_logs_spec(config.harness.logs),
    projector=lambda config: QueryLogsResultProjector(config.harness.logs),
    build=lambda config, clock: QueryLogsTool(
        config.tools.query_logs, config.harness.logs, clock, run_deadline_s=config.harness.run.deadline
    ),
    result=LogsResult,
    evidence=evidence,
    scope=scope,
    cite=cite,
    settings=LogsToolSettings,
    default_settings={"concurrency": 4, "max-pending": 16},
    # logs are asked per service and per pattern (order-service, payment-service, the gateway; a broad window,
    # then a narrow one): the offline model asks 2, a real model asks several in one turn -> 12.
    max_calls=12,
)
