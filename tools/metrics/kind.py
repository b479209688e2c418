"""``query_metrics`` as an evidence kind: series figures as evidence, the metric and its window as scope."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from contract.kind import EvidenceKind, Scope
from tools.metrics.arguments import TOOL_NAME, query_metrics_spec
from tools.metrics.projector import QueryMetricsResultProjector
from tools.metrics.query import QUANTILES
from tools.metrics.settings import MetricsToolSettings
from tools.metrics.tool import QueryMetricsTool

SOURCE_TYPE = "METRIC"
BASE_UNITS = ("seconds", "bytes")
"""Prometheus names a metric's base unit as its last word (``http_server_requests_seconds``)."""

Number = int | float


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class MetricScope(_Model):
    """What a call queried: the validated metric, aggregation and matchers, the PromQL run and the window."""

    metric: str
    type: str
    aggregation: str
    by: str | None = None
    matchers: dict[str, str] = {}
    promql: str
    start_time: str
    end_time: str
    step_seconds: int


class MetricPoint(_Model):
    """One point of a series' sample."""

    time: str
    value: Number


class MetricChange(_Model):
    """The largest move between two consecutive points of a series."""

    from_time: str
    to_time: str
    from_: Number = Field(alias="from")
    to: Number
    change: Number


class MetricSeries(_Model):
    """One series as the projector shows it: its labels and figures."""

    labels: dict[str, str]
    points: int
    min: Number | None = None
    max: Number | None = None
    last: Number | None = None
    mean: Number | None = None
    first_time: str | None = None
    last_time: str | None = None
    largest_change: MetricChange | None = None
    sample: list[MetricPoint] = []

    def figures(self) -> dict[str, Any]:
        """Its labels and figures as a reference and the snapshot show them."""
        return {
            "labels": dict(self.labels),
            "points": self.points,
            "min": self.min,
            "max": self.max,
            "last": self.last,
            "mean": self.mean,
            "first_time": self.first_time,
            "last_time": self.last_time,
            "largest_change": self.largest_change.model_dump(by_alias=True) if self.largest_change else None,
            "sample": [point.model_dump() for point in self.sample],
        }


class MetricsResult(_Model):
    """A READY ``query_metrics`` agent_result."""

    source_kind: str
    source: str
    scope: MetricScope
    series_count: int
    returned_count: int
    series: list[MetricSeries] = []
    truncated: bool = False


def scope(result: MetricsResult) -> Scope:
    where = result.scope
    window = f"{where.start_time} 至 {where.end_time}"
    grouping = f" by ({where.by})" if where.by else ""
    matchers = ", ".join(f'{label}="{value}"' for label, value in sorted(where.matchers.items()))
    selection = f" where {matchers}" if matchers else ""
    return Scope(
        source=f"{result.source} (MOCK)" if result.source_kind == "MOCK" else result.source,
        queried=f"{where.metric} {where.aggregation}{grouping}{selection}，{window}，step_seconds={where.step_seconds}"
        f"，promql={where.promql}",
        verified=f"{where.metric} {where.aggregation} 指标，{window}",
        complete=all((where.metric, where.aggregation, where.start_time, where.end_time)) and result.series_count == 0,
    )


def evidence(result: MetricsResult, found: bool) -> list[dict[str, Any]]:
    """One entry per series shown, each with the call's source and scope and the exact label values every series
    was selected by (``selection``: a PromQL equality matcher holds for each series it returns, even when the
    aggregation drops the label); the scope alone when none matched."""
    where = scope(result)
    header = {
        "source_type": SOURCE_TYPE,
        "source": where.source,
        "scope": where.queried,
        "asked": [],
        "series_count": result.series_count,
    }
    unit = figure_unit(result.scope)
    if unit is not None:
        header["unit"] = unit
    selection = {"selection": dict(result.scope.matchers)}
    return [{**header, **selection, **series.figures()} for series in result.series] or [header]


def figure_unit(scope: MetricScope) -> str | None:
    """The unit of a series' figures: the metric's base unit where the figures are in it (a gauge's values, a
    histogram's quantiles), None where they are per-second rates."""
    unit = next((unit for unit in BASE_UNITS if scope.metric.endswith("_" + unit)), None)
    in_unit = scope.type == "gauge" or (scope.type == "histogram" and scope.aggregation in QUANTILES)
    return unit if in_unit else None


def cite(result: MetricsResult, found: bool) -> list[dict[str, Any]]:
    if not found or not result.series:
        return [{"series_count": result.series_count}]
    return [series.figures() for series in result.series]


KIND = EvidenceKind(
    name=TOOL_NAME,
    source_type=SOURCE_TYPE,
    spec=lambda config: query_metrics_spec(config.tools.query_metrics.metrics, config.harness.metrics),
    projector=lambda config: QueryMetricsResultProjector(config.harness.metrics),
    build=lambda config, clock: QueryMetricsTool(config.tools.query_metrics, config.harness.metrics, clock),
    result=MetricsResult,
    evidence=evidence,
    scope=scope,
    cite=cite,
    settings=MetricsToolSettings,
    default_settings={"concurrency": 4, "max-pending": 16},
    # metrics are asked one metric name at a time (pool active/pending, requests by status, per service; the
    # offline model asks 4) -> 10.
    max_calls=10,
)
