"""What the agent may ask ``query_metrics`` for, and how the tool is described to it (the ACI).

The argument model is built from the configured allowlist (``tools.query_metrics.metrics``) and refuses, with a
message the agent can act on and that never repeats what it wrote:

- any argument but ``metric``, ``aggregation``, ``matchers``, ``by`` and ``lookback_minutes``;
- a metric not in the allowlist; a matcher or ``by`` label the metric does not list;
- an aggregation its type does not allow (:data:`tools.metrics.query.AGGREGATIONS`);
- a matcher value that is empty, longer than ``MAX_VALUE_CHARS``, or holds a quote, a backslash or a control,
  format or line-separator character (no value can end its string literal or start another PromQL token;
  the builder quotes it as well); surrounding whitespace is stripped first, as from every tool argument;
- a ``lookback_minutes`` that is not a whole number of at least 1 (a larger one than allowed is clamped, not
  refused).

Matchers are equality only: no ``!=``, no regular expressions, no raw PromQL anywhere.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Annotated, Any, cast

from pydantic import (
    AfterValidator,
    ConfigDict,
    Field,
    ValidationError,
    WithJsonSchema,
    field_validator,
    model_validator,
)

from config.tool_budgets import MetricsBudget
from contract.tool import ToolArguments, ToolSpec
from tools.metrics.query import AGGREGATIONS, Aggregation, step_for
from tools.metrics.settings import MetricDefinition

TOOL_NAME = "query_metrics"
MAX_VALUE_CHARS = 200
MAX_MATCHERS = 8
_FORBIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def _drop_default(schema: dict[str, Any]) -> None:
    schema.pop("default", None)


def _plain_value(value: str) -> str:
    if '"' in value or "\\" in value:
        raise ValueError("a matcher value may not hold quotes or backslashes")
    if any(unicodedata.category(char) in _FORBIDDEN_CATEGORIES for char in value):
        raise ValueError("a matcher value may not hold control or line-break characters")
    return value


class MetricsArguments(ToolArguments):
    """What the agent chooses: a metric, exact label values, an aggregation and how far back to look. The
    allowlist's own rules are added by :func:`arguments_model`."""

    metric: str = Field(max_length=200, description="One of the metrics listed in the tool description.")
    aggregation: Aggregation = Field(
        description="counter: rate, sum, avg, max (of per-second rates); gauge: sum, avg, max; "
        "histogram: rate, sum (requests per second), p50, p90, p99 (latency percentiles)."
    )
    matchers: dict[
        Annotated[str, Field(max_length=64)],
        Annotated[str, Field(min_length=1, max_length=MAX_VALUE_CHARS), AfterValidator(_plain_value)],
    ] = Field(
        default_factory=dict,
        max_length=MAX_MATCHERS,
        description='Optional exact label values, e.g. {"service": "order-service"}.',
        json_schema_extra=_drop_default,
    )
    by: Annotated[str | None, WithJsonSchema({"type": "string"})] = Field(
        default=None,
        max_length=64,
        description="Optional label to group rate, sum, avg, max or a percentile by (one series per value; "
        "rate by a label is the rates summed per value).",
        json_schema_extra=_drop_default,
    )
    lookback_minutes: Annotated[int | None, WithJsonSchema({"type": "integer", "minimum": 1})] = Field(
        default=None,
        ge=1,
        strict=True,
        description="Minutes back from now; optional, the default and maximum are in the tool description.",
        json_schema_extra=_drop_default,
    )


def arguments_model(metrics: Mapping[str, MetricDefinition]) -> type[MetricsArguments]:
    """The argument model of an allowlist: every rule of the module docstring, its names in the JSON schema."""
    names = sorted(metrics)
    labels = sorted({label for definition in metrics.values() for label in definition.labels})

    def enumerate_names(schema: dict[str, Any]) -> None:
        properties = schema["properties"]
        properties["metric"]["enum"] = names
        properties["by"]["enum"] = labels
        properties["matchers"]["propertyNames"] = {"enum": labels}

    class QueryMetricsArguments(MetricsArguments):
        model_config = ConfigDict(json_schema_extra=enumerate_names)

        @field_validator("metric")
        @classmethod
        def _allowed_metric(cls, metric: str) -> str:
            if metric not in metrics:
                raise ValueError("not one of the metrics listed in the tool description")
            return metric

        @model_validator(mode="after")
        def _fits_the_metric(self) -> QueryMetricsArguments:
            definition = metrics[self.metric]
            allowed = ", ".join(definition.labels) or "none"
            if any(label not in definition.labels for label in self.matchers):
                raise ValueError(f"matchers: a label {self.metric} does not have; its labels: {allowed}")
            if self.aggregation not in AGGREGATIONS[definition.type]:
                choices = ", ".join(AGGREGATIONS[definition.type])
                kind = definition.type
                raise ValueError(f"aggregation: {self.aggregation} does not apply to a {kind}; use {choices}")
            if self.by is not None and self.by not in definition.labels:
                raise ValueError(f"by: a label {self.metric} does not have; its labels: {allowed}")
            return self

    return QueryMetricsArguments


def lookback_minutes(budget: MetricsBudget) -> tuple[int, int]:
    """(default, maximum) lookback in whole minutes."""
    default_minutes = max(1, int(budget.default_lookback // 60))
    return default_minutes, max(default_minutes, int(budget.max_lookback // 60))


def query_metrics_spec(metrics: Mapping[str, MetricDefinition], budget: MetricsBudget) -> ToolSpec:
    return ToolSpec(TOOL_NAME, describe(metrics, budget), arguments_model(metrics))


def argument_message(error: ValidationError, model: type[ToolArguments]) -> str:
    """A safe message for refused arguments: the argument and the rule, never a value or a key the agent wrote."""
    problems = []
    for item in error.errors(include_url=False, include_input=False, include_context=False)[:4]:
        message = cast(str, item["msg"]).removeprefix("Value error, ")
        if not item["loc"]:
            problems.append(message)
        elif item["loc"][0] in model.model_fields:
            problems.append(f"{item['loc'][0]}: {message}")
        else:
            problems.append(f"an argument that does not exist: {message}")
    return (
        "Invalid arguments (" + "; ".join(problems) + "). Expected metric, aggregation and optional matchers, by "
        "and lookback_minutes, as the tool description lists them."
    )


def describe(metrics: Mapping[str, MetricDefinition], budget: MetricsBudget) -> str:
    """The ACI description: what the tool is for, the allowlist, the parameters and the result."""
    default_minutes, max_minutes = lookback_minutes(budget)
    listed = "\n".join(
        f"- {name} ({definition.type}; labels: {', '.join(definition.labels) or 'none'})"
        + (f" — {definition.help}" if definition.help else "")
        for name, definition in sorted(metrics.items())
    )
    return (
        "Read a metric's time series to see how a number moved and when: connection-pool usage, request and "
        "error rates, latency percentiles. Use it to time and size what logs show (when a pool filled up, how "
        "far p99 latency rose, how many callbacks failed per second). It is for time series only: not for log "
        "lines (use query_logs), runbooks or known issues (use lookup_knowledge), or database rows (use "
        "query_mysql). There is no PromQL: pick a metric, exact label values and an aggregation; the tool "
        "writes the query.\n"
        f"Metrics (type; labels):\n{listed}\n"
        "Parameters: metric — one of the above. matchers — optional exact label values on the metric's own "
        'labels, e.g. {"service": "order-service"} (equality only; no regex, quotes or backslashes). '
        "aggregation — counter: rate (per-second rate of each series), sum, avg or max (of those rates); gauge: "
        "sum, avg or max; histogram: rate or sum (requests per second) and p50, p90 or p99 (latency in seconds). "
        "by — optional label to group rate, sum, avg, max or a percentile by, one series per value (e.g. status); "
        "rate by a label sums the per-second rates of each value, as sum does. "
        f"lookback_minutes — how far back from now, default {default_minutes}, maximum {max_minutes}; a larger "
        "value is clamped to the maximum and the scope then has lookback_clamped: true. The step is about "
        f"lookback / 60, at least {step_for(60, budget.min_step)} s.\n"
        "Result: the scope (metric, matchers, aggregation, by, the PromQL run, start_time, end_time, "
        "step_seconds), series_count and per series its labels, points, min, max, last, mean, largest_change "
        "(the biggest move between two consecutive points, with both times) and a short sample of points; "
        "times are UTC. truncated: true when series or sample points were left out. NO_EVIDENCE means no series "
        "matched in this window (not that the value was zero). source_kind MOCK marks demo data."
    )
