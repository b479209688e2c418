"""``QueryMetricsResultProjector``: the raw ``query_metrics`` response -> the bounded agent_result.

Deterministic, no LLM. Per series:

- ``labels``: every label, name and value through ``contract.secrets.redact``, then clipped;
- ``points`` (how many the query returned), ``min``, ``max``, ``last``, ``mean``, ``first_time`` and
  ``last_time`` over its finite values (a ``NaN`` or ``±Inf`` point — a percentile without requests — is counted
  in ``non_finite_points`` and left out);
- ``largest_change``: the largest absolute move between consecutive finite points, with both times and values
  (the earliest on a tie; null with fewer than two points);
- ``sample``: at most ``max-sample-points`` points, evenly spaced over the finite ones, first and last included.

Numbers keep four significant digits, or their whole part when it is longer (``0.30000000000000004`` -> ``0.3``,
``0.0853267`` -> ``0.08533``, ``123456.7`` -> ``123457``), and whole values are integers; times are
ISO UTC (``contract.clock.isoformat``). Series are ordered by their maximum, highest first, then by labels; at
most ``max-series`` are shown and ``series_count`` counts them all. ``max-total-chars`` bounds the serialised
agent_result: the samples shrink first (all series alike), then series are left out from the end; the scope is
never cut. ``truncated`` is true when a series was left out, a sample shrank below ``max-sample-points`` (or below
the series' points) to fit, or a label or scope value was clipped.

No series gives a NO_EVIDENCE envelope with the same keys, the full scope and ``series_count: 0``. A failure raw
becomes the ERROR envelope with its code and its fixed message (the source's detail never leaves the raw
record); a malformed raw becomes PROJECTION_FAILED.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, PositiveInt, ValidationError

from config.tool_budgets import MetricsBudget
from contract.clock import isoformat
from contract.secrets import redact
from contract.tool import PROJECTION_FAILED, SAFE_MESSAGES, Projection, clip, error_projection, failure_of
from contract.vocabulary import EvidenceStatus
from tools.metrics.query import Aggregation, MetricType
from tools.metrics.source import QueryRangeBody

MAX_LABEL_NAME_CHARS = 64
MAX_LABEL_VALUE_CHARS = 120
MAX_PROMQL_CHARS = 1000
MAX_MESSAGE_CHARS = 400
SIGNIFICANT_DIGITS = 4


class _Raw(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class _RawScope(_Raw):
    metric: str
    type: MetricType
    aggregation: Aggregation
    by: str | None = None
    matchers: dict[str, str] = {}
    promql: str
    start_time: AwareDatetime
    end_time: AwareDatetime
    step_seconds: PositiveInt
    lookback_minutes: PositiveInt
    lookback_clamped: bool = False
    requested_lookback_minutes: PositiveInt | None = None


class _Context(_Raw):
    source_kind: str = Field(pattern=r"^[A-Z][A-Z0-9_]{0,31}$")
    source: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$")
    scope: _RawScope


class _RawResult(_Context):
    response: QueryRangeBody


@dataclass
class _Series:
    labels: dict[str, str]
    points: int
    finite: list[tuple[float, float]]
    """(timestamp, value) of its finite points, in time order."""

    def sort_key(self) -> tuple[int, float, str]:
        peak = max((value for _, value in self.finite), default=0.0)
        return (0 if self.finite else 1, -peak, json.dumps(self.labels, sort_keys=True, ensure_ascii=False))


class QueryMetricsResultProjector:
    """Raw ``query_metrics`` response -> bounded agent_result (see the module docstring for the rules)."""

    def __init__(self, budget: MetricsBudget) -> None:
        self._budget = budget

    def project(self, tool_call_id: str, arguments: dict[str, Any], raw: dict[str, Any]) -> Projection:
        if not isinstance(raw, dict):
            return error_projection(tool_call_id, PROJECTION_FAILED, SAFE_MESSAGES[PROJECTION_FAILED])
        failure = failure_of(raw)
        if failure is not None:
            return self._failure(tool_call_id, raw, *failure)
        try:
            parsed = _RawResult.model_validate(raw)
            return self._project(tool_call_id, parsed)
        except (ValidationError, ValueError, OverflowError, OSError):  # a malformed raw, a time beyond UTC's range
            return error_projection(tool_call_id, PROJECTION_FAILED, SAFE_MESSAGES[PROJECTION_FAILED])

    def _failure(self, tool_call_id: str, raw: dict[str, Any], code: str, message: str) -> Projection:
        safe_message, _ = clip(redact(message)[0], MAX_MESSAGE_CHARS)
        try:
            context = _Context.model_validate(raw)
        except ValidationError:
            return error_projection(tool_call_id, code, safe_message)
        scope, _ = _scope(context.scope)
        return error_projection(
            tool_call_id, code, safe_message, source_kind=context.source_kind, source=context.source, scope=scope
        )

    def _project(self, tool_call_id: str, raw: _RawResult) -> Projection:
        scope, clipped = _scope(raw.scope)
        series: list[_Series] = []
        for item in raw.response.data.result:
            labels, labels_clipped = _labels(item.metric)
            clipped = clipped or labels_clipped
            points = [(timestamp, float(value)) for timestamp, value in item.values]
            finite = sorted((timestamp, value) for timestamp, value in points if math.isfinite(value))
            series.append(_Series(labels, len(points), finite))
        series.sort(key=_Series.sort_key)
        shown = series[: self._budget.max_series]
        status = EvidenceStatus.EVIDENCE_FOUND if series else EvidenceStatus.NO_EVIDENCE
        full_sample = self._budget.max_sample_points

        def envelope(count: int, sample_size: int) -> dict[str, Any]:
            cut = clipped or count < len(series) or any(sample_size < min(full_sample, len(s.finite)) for s in shown)
            return {
                "evidence_status": status.value,
                "tool_call_id": tool_call_id,
                "source_kind": raw.source_kind,
                "source": raw.source,
                "scope": scope,
                "series_count": len(series),
                "returned_count": count,
                "series": [_series_json(item, sample_size) for item in shown[:count]],
                "truncated": cut,
            }

        result = envelope(len(shown), full_sample)
        if self._fits(result):
            return Projection(result, status)
        sample_size = _largest(full_sample - 1, lambda size: self._fits(envelope(len(shown), size)))
        count = len(shown)
        if sample_size == 0:
            count = _largest(len(shown), lambda kept: self._fits(envelope(kept, 0)))
        return Projection(envelope(count, sample_size), status)

    def _fits(self, result: dict[str, Any]) -> bool:
        return len(json.dumps(result, ensure_ascii=False)) <= self._budget.max_total_chars


def _scope(raw: _RawScope) -> tuple[dict[str, Any], bool]:
    matchers: dict[str, str] = {}
    clipped = False
    for label, value in raw.matchers.items():
        safe_label, label_clipped = clip(redact(label)[0], MAX_LABEL_NAME_CHARS)
        matchers[safe_label], value_clipped = clip(redact(value)[0], MAX_LABEL_VALUE_CHARS)
        clipped = clipped or label_clipped or value_clipped
    promql, promql_clipped = clip(redact(raw.promql)[0], MAX_PROMQL_CHARS)
    scope: dict[str, Any] = {
        "metric": raw.metric,
        "type": raw.type,
        "aggregation": raw.aggregation,
        "by": raw.by,
        "matchers": matchers,
        "promql": promql,
        "start_time": isoformat(raw.start_time),
        "end_time": isoformat(raw.end_time),
        "step_seconds": raw.step_seconds,
        "lookback_minutes": raw.lookback_minutes,
    }
    if raw.lookback_clamped:
        scope.update(lookback_clamped=True, requested_lookback_minutes=raw.requested_lookback_minutes)
    return scope, clipped or promql_clipped


def _labels(metric: dict[str, str]) -> tuple[dict[str, str], bool]:
    labels: dict[str, str] = {}
    clipped = False
    for name, value in sorted(metric.items()):
        safe_name, name_clipped = clip(redact(name)[0], MAX_LABEL_NAME_CHARS)
        labels[safe_name], value_clipped = clip(redact(value)[0], MAX_LABEL_VALUE_CHARS)
        clipped = clipped or name_clipped or value_clipped
    return labels, clipped


def _series_json(series: _Series, sample_size: int) -> dict[str, Any]:
    finite = series.finite
    shown: dict[str, Any] = {"labels": series.labels, "points": series.points}
    if series.points > len(finite):
        shown["non_finite_points"] = series.points - len(finite)
    values = [value for _, value in finite]
    shown.update(
        min=_number(min(values)) if values else None,
        max=_number(max(values)) if values else None,
        last=_number(values[-1]) if values else None,
        mean=_number(math.fsum(values) / len(values)) if values else None,
        first_time=_time(finite[0][0]) if finite else None,
        last_time=_time(finite[-1][0]) if finite else None,
        largest_change=_largest_change(finite),
        sample=[{"time": _time(moment), "value": _number(value)} for moment, value in _sample(finite, sample_size)],
    )
    return shown


def _largest_change(points: list[tuple[float, float]]) -> dict[str, Any] | None:
    if len(points) < 2:
        return None
    index = max(range(1, len(points)), key=lambda i: (abs(points[i][1] - points[i - 1][1]), -i))
    (before_time, before), (after_time, after) = points[index - 1], points[index]
    return {
        "from_time": _time(before_time),
        "to_time": _time(after_time),
        "from": _number(before),
        "to": _number(after),
        "change": _number(after - before),
    }


def _sample(points: list[tuple[float, float]], size: int) -> list[tuple[float, float]]:
    """At most ``size`` of ``points``, evenly spaced, the first and the last among them (the last alone for 1)."""
    if size <= 0 or not points:
        return []
    if size == 1:
        return [points[-1]]
    if size >= len(points):
        return list(points)
    indices = dict.fromkeys(round(i * (len(points) - 1) / (size - 1)) for i in range(size))
    return [points[index] for index in indices]


def _largest(upper: int, fits: Callable[[int], bool]) -> int:
    """The largest ``n`` in ``[1, upper]`` for which ``fits(n)`` (binary search; fitting shrinks with ``n``), or 0."""
    low, high = 0, upper
    while low < high:
        middle = (low + high + 1) // 2
        if fits(middle):
            low = middle
        else:
            high = middle - 1
    return low


def _number(value: float) -> int | float:
    """``value`` with four significant digits, or none after the point when its whole part has more; a whole
    number as an int."""
    if value == 0:
        return 0
    decimals = max(0, SIGNIFICANT_DIGITS - 1 - math.floor(math.log10(abs(value))))
    rounded = round(value, decimals)
    return int(rounded) if rounded.is_integer() and abs(rounded) < 2**53 else rounded


def _time(timestamp: float) -> str:
    return isoformat(datetime.fromtimestamp(timestamp, UTC))
