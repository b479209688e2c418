"""``query_metrics``: a metric's time series from Prometheus, or from the bundled demo metrics (labelled MOCK).

``run`` validates the arguments (:mod:`tools.metrics.arguments`), builds the one PromQL query they allow
(:mod:`tools.metrics.query`) and returns the raw response — the source's whole ``query_range`` body with the
call's source and scope — for the canonical record; ``QueryMetricsResultProjector`` turns it into the bounded
agent_result. A lookback above the maximum is clamped, not refused, and the scope says so.

The source is asked in a worker thread, so ``cancel`` (from another thread) makes ``run`` return
TOOL_CANCELLED at once; the abandoned request ends by its own timeout. Failures are raw failures with a fixed
message per code; what the source said stays in the detail, for the audit record only.
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from config.tool_budgets import MetricsBudget
from contract.clock import Clock, isoformat
from contract.tool import INVALID_ARGUMENTS, SAFE_MESSAGES, TOOL_CANCELLED, ToolResultProjector, ToolSpec, failure_raw
from contract.vocabulary import HarnessError
from tools.metrics.arguments import TOOL_NAME, argument_message, arguments_model, describe, lookback_minutes
from tools.metrics.mock import MockMetricsSource
from tools.metrics.projector import QueryMetricsResultProjector
from tools.metrics.prometheus import CLIENT_GRACE_S, PrometheusSource
from tools.metrics.query import RangeQuery, plan
from tools.metrics.settings import MetricsToolSettings
from tools.metrics.source import (
    METRICS_BAD_RESPONSE,
    METRICS_QUERY_REJECTED,
    METRICS_RESULT_TOO_LARGE,
    METRICS_TIMEOUT,
    METRICS_UNAVAILABLE,
    MetricsSource,
    MetricsSourceError,
    read_matrix,
)

MESSAGES = {
    METRICS_UNAVAILABLE: "The metrics store is unavailable right now; continue with other evidence.",
    METRICS_TIMEOUT: "The metrics query did not finish in time; use a shorter lookback or more specific matchers.",
    METRICS_QUERY_REJECTED: "The metrics store rejected the query; check the metric, matchers and aggregation "
    "against the tool description, or continue with other evidence.",
    METRICS_BAD_RESPONSE: "The metrics store gave an answer that could not be read; continue with other evidence.",
    METRICS_RESULT_TOO_LARGE: "The answer held too many series; add matchers or aggregate with sum or max by a label.",
}
"""The only text of a failed call the agent sees, by code."""
BACKSTOP_S = 1.0
"""How long past the source's own timeout ``run`` waits for it before it gives up on the call (METRICS_TIMEOUT)."""


class QueryMetricsTool:
    """The ``query_metrics`` evidence tool over a ``MetricsSource`` (Prometheus when ``url`` is set, the demo
    metrics otherwise)."""

    def __init__(
        self,
        settings: MetricsToolSettings,
        budget: MetricsBudget,
        clock: Clock,
        source: MetricsSource | None = None,
    ) -> None:
        self._settings = settings
        self._budget = budget
        self._clock = clock
        self._source: MetricsSource = source or _source(settings, budget, clock)
        self._default_minutes, self._max_minutes = lookback_minutes(budget)
        self._arguments = arguments_model(settings.metrics)
        self.spec = ToolSpec(TOOL_NAME, describe(settings.metrics, budget), self._arguments)
        self.projector: ToolResultProjector = QueryMetricsResultProjector(budget)
        self._lock = threading.Lock()
        self._calls: dict[str, threading.Event] = {}

    def run(self, call_id: str, arguments: dict[str, Any]) -> dict[str, Any]:
        try:
            args = self._arguments.model_validate(arguments)
        except ValidationError as exc:
            return failure_raw(INVALID_ARGUMENTS, argument_message(exc, self._arguments))
        requested = args.lookback_minutes if args.lookback_minutes is not None else self._default_minutes
        minutes = min(requested, self._max_minutes)
        definition = self._settings.metrics[args.metric]
        query = plan(
            args.metric,
            definition.type,
            args.aggregation,
            args.by,
            dict(args.matchers),
            self._clock.now(),
            minutes * 60,
            self._budget.min_step,
            self._settings.scrape_interval,
        )
        scope = _scope(query, minutes)
        if requested > minutes:
            scope.update(lookback_clamped=True, requested_lookback_minutes=requested)
        context = {"source_kind": self._source.kind, "source": self._settings.name, "scope": scope}
        try:
            body = self._ask(call_id, query)
            read_matrix(body)
        except MetricsSourceError as exc:
            return {**failure_raw(exc.code, MESSAGES[exc.code], detail=exc.detail), **context}
        except _Cancelled:
            return {**failure_raw(TOOL_CANCELLED, SAFE_MESSAGES[TOOL_CANCELLED]), **context}
        return {**context, "response": body}

    def cancel(self, call_id: str) -> None:
        with self._lock:
            finished = self._calls.get(call_id)
        if finished is not None:
            finished.set()

    def close(self) -> None:
        self._source.close()

    def _ask(self, call_id: str, query: RangeQuery) -> Any:
        """The source's answer, asked in a worker thread that ``cancel`` does not wait for."""
        finished = threading.Event()
        outcome: list[Any] = []

        def work() -> None:
            try:
                outcome.append(self._source.query_range(query))
            except Exception as exc:  # handed to the calling thread, which raises it there
                outcome.append(exc)
            finally:
                finished.set()

        with self._lock:
            self._calls[call_id] = finished
        try:
            threading.Thread(target=work, name=f"query_metrics:{call_id}", daemon=True).start()
            answered = finished.wait(self._budget.query_timeout + CLIENT_GRACE_S + BACKSTOP_S)
        finally:
            with self._lock:
                self._calls.pop(call_id, None)
        if not outcome:
            if answered:
                raise _Cancelled
            raise MetricsSourceError(METRICS_TIMEOUT, "no answer from the source thread")
        if isinstance(outcome[0], Exception):
            raise outcome[0]
        return outcome[0]


class _Cancelled(HarnessError):
    """``cancel`` ended the call before the source answered."""

    code = "CANCELLED"


def _source(settings: MetricsToolSettings, budget: MetricsBudget, clock: Clock) -> MetricsSource:
    if settings.url is not None:
        return PrometheusSource(settings, budget)
    return MockMetricsSource(clock, Path(settings.dataset) if settings.dataset else None)


def _scope(query: RangeQuery, minutes: int) -> dict[str, Any]:
    return {
        "metric": query.metric,
        "type": query.type,
        "aggregation": query.aggregation,
        "by": query.by,
        "matchers": dict(query.matchers),
        "promql": query.promql(),
        "start_time": isoformat(datetime.fromtimestamp(query.start_s, UTC)),
        "end_time": isoformat(datetime.fromtimestamp(query.end_s, UTC)),
        "step_seconds": query.step_s,
        "lookback_minutes": minutes,
    }
