"""``query_logs``: recent application, access and slow-SQL logs of a service (ISS-014 §8).

``run`` returns the raw response (every matching event, unredacted, oldest first) for the canonical record;
``QueryLogsResultProjector`` turns it into the bounded agent_result. A lookback above the configured maximum
is clamped, not rejected, and the scope says so: the agent still gets evidence for the widest window allowed
and cannot mistake it for the window it asked for.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationError, WithJsonSchema, field_validator

from config.tool_budgets import LogsBudget
from contract.clock import Clock, isoformat
from contract.tool import INVALID_ARGUMENTS, ToolArguments, ToolResultProjector, ToolSpec, failure_raw
from tools.logs.matching import query_terms
from tools.logs.projector import QueryLogsResultProjector
from tools.logs.settings import LogsToolSettings
from tools.logs.source import DEFAULT_RUN_DEADLINE_S, LogSource, LogSourceUnavailable, LogTopic, MockLogSource

TOOL_NAME = "query_logs"
LOGS_UNAVAILABLE = "LOGS_UNAVAILABLE"
MAX_QUERY_CHARS = 300
_UNAVAILABLE_MESSAGE = "The log store is unavailable right now; continue with other evidence."


def _drop_default(schema: dict[str, Any]) -> None:
    schema.pop("default", None)


class QueryLogsArguments(ToolArguments):
    """What the agent chooses: a topic, keywords and how far back to look. Region, topic ids and limits are
    the system's."""

    topic: Literal["APPLICATION", "ACCESS", "SLOW_SQL"] = Field(
        description="APPLICATION: a service's own logs; ACCESS: gateway access logs; SLOW_SQL: database slow queries."
    )
    query: str = Field(
        min_length=1,
        max_length=MAX_QUERY_CHARS,
        description="Keywords: service name first, then error terms or ids, e.g. 'order-service HikariPool timeout'.",
    )
    lookback_minutes: Annotated[int | None, WithJsonSchema({"type": "integer", "minimum": 1})] = Field(
        default=None,
        ge=1,
        strict=True,
        description="Minutes back from now to search; optional, the default and maximum are in the tool description.",
        json_schema_extra=_drop_default,
    )

    @field_validator("query")
    @classmethod
    def _has_terms(cls, query: str) -> str:
        if not query_terms(query):
            raise ValueError("query must contain at least one searchable word (letters or digits)")
        return query


def _description(default_minutes: int, max_minutes: int) -> str:
    return (
        "Search the recent logs of a service to see what went wrong and when: errors, warnings and their "
        "timeline. Use it for application logs (exceptions, timeouts, connection-pool exhaustion), gateway "
        "access logs (method, path, status code, latency, upstream service) and database slow-query logs "
        "(slow statements, lock waits). Not for runbooks or known-issue knowledge (use lookup_knowledge) and "
        "not for the current state of database rows (use query_mysql).\n"
        "Parameters: topic — APPLICATION, ACCESS or SLOW_SQL. query — keywords, service name first, then error "
        "terms or ids (e.g. 'order-service HikariPool connection timeout', 'api-gateway 504 /api/v1/orders', "
        "'order_db biz_order UPDATE'); an event matches when at least half of the words (rounded up) occur, "
        "case-insensitively, in its service name or message; there are no operators, quotes or wildcards. "
        f"lookback_minutes — how far back from now to search, default {default_minutes}, maximum {max_minutes}; "
        "a larger value is clamped to the maximum and the result's scope then has lookback_clamped: true.\n"
        "Result: the full scope searched (topic, query, start_time, end_time), match_count (all matching events "
        "in that window), patterns (repeated events grouped, with count, first_seen, last_seen and the most recent "
        "one as example) and a short time-ordered sample of events (returned_count of them); truncated: true when "
        "anything was left out or shortened. A pattern's count is of all its events and the example's values belong "
        "to that event only: where its events differ, template is the pattern's text with each varying value as a "
        "slot (<DUR1>, <ID1> …), and a pattern of up to 5 events lists occurrences (each event's timestamp and its "
        "slot values), a larger one slot_values (per slot the number of distinct values and the most frequent ones "
        "with their counts). Secrets in log lines are redacted. NO_EVIDENCE means nothing matched this query in "
        "this window, not that the service is healthy."
    )


def _lookback_minutes(budget: LogsBudget) -> tuple[int, int]:
    default_minutes = max(1, int(budget.default_lookback // 60))
    return default_minutes, max(default_minutes, int(budget.max_lookback // 60))


def query_logs_spec(budget: LogsBudget) -> ToolSpec:
    return ToolSpec(TOOL_NAME, _description(*_lookback_minutes(budget)), QueryLogsArguments)


def _argument_message(error: ValidationError) -> str:
    problems = []
    for item in error.errors(include_url=False, include_input=False)[:4]:
        field = ".".join(str(part) for part in item["loc"])[:40] or "arguments"
        problems.append(f"{field}: {item['msg']}")
    return "Invalid arguments (" + "; ".join(problems) + "). Expected topic, query and optional lookback_minutes."


class QueryLogsTool:
    """The ``query_logs`` evidence tool over a ``LogSource`` (the mock dataset unless one is given, its clock held
    for ``run_deadline_s``: :class:`tools.logs.source.MockLogSource`)."""

    def __init__(
        self,
        settings: LogsToolSettings,
        budget: LogsBudget,
        clock: Clock,
        source: LogSource | None = None,
        run_deadline_s: float = DEFAULT_RUN_DEADLINE_S,
    ) -> None:
        self._budget = budget
        self._clock = clock
        dataset = Path(settings.dataset) if settings.dataset else None
        self._source: LogSource = source or MockLogSource(clock, dataset, run_deadline_s)
        self._default_minutes, self._max_minutes = _lookback_minutes(budget)
        self.spec = query_logs_spec(budget)
        self.projector: ToolResultProjector = QueryLogsResultProjector(budget)

    def run(self, call_id: str, arguments: dict[str, Any]) -> dict[str, Any]:
        try:
            args = QueryLogsArguments.model_validate(arguments)
        except ValidationError as exc:
            return failure_raw(INVALID_ARGUMENTS, _argument_message(exc))
        requested = args.lookback_minutes if args.lookback_minutes is not None else self._default_minutes
        minutes = min(requested, self._max_minutes)
        end = self._clock.now()
        start = end - timedelta(minutes=minutes)
        scope: dict[str, Any] = {
            "topic": args.topic,
            "query": args.query,
            "start_time": isoformat(start),
            "end_time": isoformat(end),
            "lookback_minutes": minutes,
        }
        if requested > minutes:
            scope.update(lookback_clamped=True, requested_lookback_minutes=requested)
        try:
            events = self._source.search(LogTopic(args.topic), query_terms(args.query), start, end)
        except LogSourceUnavailable as exc:
            failure = failure_raw(LOGS_UNAVAILABLE, _UNAVAILABLE_MESSAGE, detail=str(exc))
            return {**failure, "source_kind": self._source.kind, "scope": scope}
        return {
            "source_kind": self._source.kind,
            "scope": scope,
            "match_count": len(events),
            "events": [event.to_raw() for event in events],
        }

    def cancel(self, call_id: str) -> None:
        """Nothing to stop: a search of the in-memory dataset finishes at once."""
