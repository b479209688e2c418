"""``QueryLogsResultProjector``: the raw ``query_logs`` response -> the bounded §8.2 envelope.

Deterministic, no LLM. Everything that leaves here went through ``contract.secrets.redact`` first (pattern
examples, templates and values, event messages, service names and the scope's query), then was clipped.

- Patterns: events grouped by ``(service, level, template(message))`` (:mod:`tools.logs.fingerprint`); each keeps
  its count, first_seen, last_seen and, as its example, the most recent message. Sorted by severity
  (FATAL > ERROR > WARN > INFO > DEBUG > TRACE > other), then count, then most recent; at most ``max-patterns``.
- A pattern's details say which values it folds, so the example's values are never read as every event's: when
  its events differ in some values, ``template`` is its text with the values they share written out and each
  varying one as ``<KINDn>`` (``<DUR1>``, ``<ID1>`` …); a pattern of at most ``FEW_EVENTS`` events lists its
  ``occurrences`` (each event's timestamp and, by slot, its values), a larger one gives ``slot_values`` (per slot
  the number of distinct values and the ``TOP_VALUES`` most frequent with their counts). A single event has none.
- Events: a time-ordered sample of at most ``max-events``. The matching events, oldest first, are cut into that
  many equal consecutive slices and each slice gives its most severe event (the earliest on a tie, the latest
  in the last slice), so the sample spans the whole window, prefers errors and, when severities tie, holds the
  first and the last event.
- ``max-total-chars`` bounds the whole serialised agent_result: events are given up first (the sample is
  re-drawn one smaller each time), then the patterns' details from the least important pattern, then patterns
  from the least important. The scope is never cut.
- ``truncated`` is true whenever any matching event is not in ``events``, a pattern was left out, or a text was
  clipped or redaction made it longer than the budget.

No matching event gives a NO_EVIDENCE envelope with the same keys, the full scope and ``match_count: 0``.
A failure raw becomes the ERROR envelope with its code; a malformed raw becomes PROJECTION_FAILED.
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, NonNegativeInt, ValidationError, model_validator

from config.tool_budgets import LogsBudget
from contract.clock import isoformat
from contract.secrets import redact
from contract.tool import PROJECTION_FAILED, SAFE_MESSAGES, Projection, clip, error_projection, failure_of
from contract.vocabulary import EvidenceStatus
from tools.logs.fingerprint import Parts, normalise_level, parts, severity
from tools.logs.source import LogTopic

MAX_SERVICE_CHARS = 80
MAX_QUERY_CHARS = 300
MAX_VALUE_CHARS = 80
FEW_EVENTS = 5
"""A pattern of at most this many events lists each of them; a larger one counts the values of each slot."""
TOP_VALUES = 5
"""The most frequent values of a slot that a large pattern shows."""


class _Raw(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class _RawEvent(_Raw):
    timestamp: AwareDatetime
    level: str
    service: str
    message: str


class _RawScope(_Raw):
    topic: LogTopic
    query: str
    start_time: AwareDatetime
    end_time: AwareDatetime
    lookback_minutes: int | None = None
    lookback_clamped: bool = False
    requested_lookback_minutes: int | None = None


class _RawResult(_Raw):
    source_kind: str = Field(pattern=r"^[A-Z][A-Z0-9_]{0,31}$")
    scope: _RawScope
    match_count: NonNegativeInt = Field(strict=True)
    events: list[_RawEvent]

    @model_validator(mode="after")
    def _count_covers_events(self) -> _RawResult:
        if self.match_count < len(self.events):
            raise ValueError("match_count is smaller than the number of events")
        return self


class _Failure(_Raw):
    source_kind: str = Field(pattern=r"^[A-Z][A-Z0-9_]{0,31}$")
    scope: _RawScope


@dataclass
class _Event:
    timestamp: datetime
    level: str
    service: str
    message: str
    rank: int
    parts: Parts


@dataclass
class _Pattern:
    level: str
    service: str
    key: str
    first_seen: datetime
    last_seen: datetime
    example: str
    events: list[_Event]
    detail: dict[str, Any] = field(default_factory=dict)
    """``template`` with ``occurrences`` or ``slot_values`` (see the module docstring), or nothing."""

    @property
    def count(self) -> int:
        return len(self.events)


class QueryLogsResultProjector:
    """Raw ``query_logs`` response -> bounded agent_result (see the module docstring for the rules)."""

    def __init__(self, budget: LogsBudget) -> None:
        self._budget = budget

    def project(self, tool_call_id: str, arguments: dict[str, Any], raw: dict[str, Any]) -> Projection:
        if not isinstance(raw, dict):
            return error_projection(tool_call_id, PROJECTION_FAILED, SAFE_MESSAGES[PROJECTION_FAILED])
        failure = failure_of(raw)
        if failure is not None:
            return self._failure(tool_call_id, raw, *failure)
        try:
            parsed = _RawResult.model_validate(raw)
        except ValidationError:
            return error_projection(tool_call_id, PROJECTION_FAILED, SAFE_MESSAGES[PROJECTION_FAILED])
        try:
            return self._project(tool_call_id, parsed)
        except (ValueError, OverflowError):  # a timestamp that cannot be shown in UTC
            return error_projection(tool_call_id, PROJECTION_FAILED, SAFE_MESSAGES[PROJECTION_FAILED])

    def _failure(self, tool_call_id: str, raw: dict[str, Any], code: str, message: str) -> Projection:
        safe_message, _ = clip(redact(message)[0], self._budget.max_message_chars)
        try:
            context = _Failure.model_validate(raw)
        except ValidationError:
            return error_projection(tool_call_id, code, safe_message)
        scope, _ = self._scope(context.scope)
        return error_projection(tool_call_id, code, safe_message, source_kind=context.source_kind, scope=scope)

    def _project(self, tool_call_id: str, raw: _RawResult) -> Projection:
        scope, truncated = self._scope(raw.scope)
        events, clipped = self._events(raw.events)
        patterns = self._patterns(events)
        truncated = truncated or clipped or len(events) < raw.match_count
        kept = patterns[: self._budget.max_patterns]
        truncated = truncated or len(kept) < len(patterns)
        for pattern in kept:
            pattern.detail, detail_clipped = self._detail(pattern.events)
            truncated = truncated or detail_clipped
        sample_size = min(self._budget.max_events, len(events))
        detailed = len(kept)
        status = EvidenceStatus.EVIDENCE_FOUND if raw.match_count > 0 else EvidenceStatus.NO_EVIDENCE

        def envelope(sample: list[_Event], shown: list[_Pattern], cut: bool) -> dict[str, Any]:
            return {
                "evidence_status": status.value,
                "tool_call_id": tool_call_id,
                "source_kind": raw.source_kind,
                "scope": scope,
                "match_count": raw.match_count,
                "returned_count": len(sample),
                "patterns": [_pattern_json(pattern, index < detailed) for index, pattern in enumerate(shown)],
                "events": [_event_json(event) for event in sample],
                "truncated": cut,
            }

        result = envelope(_sample(events, sample_size), kept, truncated or sample_size < len(events))
        if self._fits(result):
            return Projection(result, status)
        sample_size = _largest(sample_size, lambda size: self._fits(envelope(_sample(events, size), kept, True)))
        if sample_size == 0:

            def fits_detailed(count: int) -> bool:
                nonlocal detailed
                detailed = count
                return self._fits(envelope([], kept, True))

            detailed = _largest(len(kept), fits_detailed)
            if detailed == 0:
                kept = kept[: _largest(len(kept), lambda count: self._fits(envelope([], kept[:count], True)))]
        return Projection(envelope(_sample(events, sample_size), kept, True), status)

    def _fits(self, result: dict[str, Any]) -> bool:
        return len(json.dumps(result, ensure_ascii=False)) <= self._budget.max_total_chars

    def _scope(self, raw: _RawScope) -> tuple[dict[str, Any], bool]:
        query, clipped = clip(redact(raw.query)[0], MAX_QUERY_CHARS)
        scope: dict[str, Any] = {
            "topic": raw.topic.value,
            "query": query,
            "start_time": isoformat(raw.start_time),
            "end_time": isoformat(raw.end_time),
        }
        if raw.lookback_clamped:
            scope.update(
                lookback_clamped=True,
                requested_lookback_minutes=raw.requested_lookback_minutes,
                lookback_minutes=raw.lookback_minutes,
            )
        return scope, clipped

    def _events(self, raw_events: list[_RawEvent]) -> tuple[list[_Event], bool]:
        events: list[_Event] = []
        clipped_any = False
        # services and many messages repeat within a result: each distinct text is redacted and templated once
        redacted = functools.cache(lambda text: redact(text)[0])
        parts_of = functools.cache(parts)
        for raw in sorted(raw_events, key=lambda event: event.timestamp):
            full_message = redacted(raw.message)
            message, clipped = clip(full_message, self._budget.max_message_chars)
            service, service_clipped = clip(redacted(raw.service), MAX_SERVICE_CHARS)
            level = normalise_level(raw.level)
            events.append(_Event(raw.timestamp, level, service, message, severity(level), parts_of(full_message)))
            clipped_any = clipped_any or clipped or service_clipped
        return events, clipped_any

    def _detail(self, events: list[_Event]) -> tuple[dict[str, Any], bool]:
        """A pattern's details (see the module docstring) and whether a text of them was clipped. Its events share
        a template, so they have the same slots; the values come from the redacted messages and are redacted
        again on their own."""
        if len(events) < 2:
            return {}, False
        columns = list(zip(*(event.parts.values for event in events), strict=True))
        kinds = events[0].parts.kinds
        numbered: Counter[str] = Counter()
        names: dict[int, str] = {}
        for index, column in enumerate(columns):
            if len(set(column)) > 1:
                numbered[kinds[index]] += 1
                names[index] = f"{kinds[index]}{numbered[kinds[index]]}"
        if not names:
            if len(events) > FEW_EVENTS:
                return {}, False
            return {"occurrences": [{"timestamp": isoformat(event.timestamp)} for event in events]}, False
        first = events[0].parts
        text = first.render(lambda index: f"<{names[index]}>" if index in names else first.values[index])
        shown_template, clipped = clip(redact(text)[0], self._budget.max_message_chars)
        slots = {index: name for index, name in names.items() if f"<{name}>" in shown_template}
        value = functools.cache(lambda text: clip(redact(text)[0], MAX_VALUE_CHARS))
        clipped = clipped or len(slots) < len(names)
        clipped = clipped or any(value(column_value)[1] for i in slots for column_value in set(columns[i]))
        if len(events) <= FEW_EVENTS:
            occurrences = [
                {
                    "timestamp": isoformat(event.timestamp),
                    "values": {name: value(event.parts.values[index])[0] for index, name in slots.items()},
                }
                for event in events
            ]
            return {"template": shown_template, "occurrences": occurrences}, clipped
        slot_values = {}
        for index, name in slots.items():
            counts = Counter(value(column_value)[0] for column_value in columns[index])
            top = [{"value": text, "count": count} for text, count in counts.most_common(TOP_VALUES)]
            slot_values[name] = {"distinct": len(counts), "top": top}
        return {"template": shown_template, "slot_values": slot_values}, clipped

    @staticmethod
    def _patterns(events: list[_Event]) -> list[_Pattern]:
        groups: dict[tuple[str, str, str], _Pattern] = {}
        for event in events:
            key = (event.service, event.level, event.parts.template)
            group = groups.get(key)
            if group is None:
                group = groups[key] = _Pattern(
                    event.level, event.service, key[2], event.timestamp, event.timestamp, event.message, []
                )
            group.events.append(event)
            group.last_seen = event.timestamp
            group.example = event.message
        return sorted(
            groups.values(),
            key=lambda p: (-severity(p.level), -p.count, -p.last_seen.timestamp(), p.service, p.key),
        )


def _largest(upper: int, fits: Callable[[int], bool]) -> int:
    """The largest ``n`` in ``[1, upper]`` found to fit by binary search, or 0. The sample's size grows with
    ``n`` only roughly (each ``n`` draws other events), so this may miss a larger fitting ``n``, never overshoot."""
    low, high = 0, upper
    while low < high:
        middle = (low + high + 1) // 2
        if fits(middle):
            low = middle
        else:
            high = middle - 1
    return low


def _sample(events: list[_Event], size: int) -> list[_Event]:
    """At most ``size`` of the time-ordered ``events``: the most severe of each of ``size`` equal slices."""
    if size <= 0:
        return []
    if size >= len(events):
        return list(events)
    chosen: list[_Event] = []
    for index in range(size):
        bucket = events[index * len(events) // size : (index + 1) * len(events) // size]
        if index == size - 1:
            chosen.append(max(reversed(bucket), key=lambda event: event.rank))
        else:
            chosen.append(max(bucket, key=lambda event: event.rank))
    return chosen


def _pattern_json(pattern: _Pattern, detailed: bool) -> dict[str, Any]:
    return {
        "count": pattern.count,
        "first_seen": isoformat(pattern.first_seen),
        "last_seen": isoformat(pattern.last_seen),
        "level": pattern.level,
        "service": pattern.service,
        "example": pattern.example,
        **(pattern.detail if detailed else {}),
    }


def _event_json(event: _Event) -> dict[str, Any]:
    return {
        "timestamp": isoformat(event.timestamp),
        "level": event.level,
        "service": event.service,
        "message": event.message,
    }
