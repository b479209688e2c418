"""The only PromQL ``query_metrics`` sends: built here from validated arguments, never from the model's text.

``<sel>`` is the series selector: the metric's name with the matchers, sorted by label, each value a quoted
string literal (``name{pool="HikariPool-1",service="order-service"}``), or the bare name without matchers.
``[w]`` is the rate window. Counters are always read as per-second rates; a histogram's ``rate`` and ``sum``
count its requests (``_count``), its percentiles interpolate its buckets (``_bucket``, summed by ``le``)::

    counter    rate       rate(<sel>[w]);  by l: sum by (l) (rate(<sel>[w]))
               sum        sum by (l) (rate(<sel>[w]))              (avg, max alike)
    gauge      sum        sum by (l) (<sel>)                       (avg, max alike; rate refused)
    histogram  rate       rate(<name>_count{…}[w]);  by l: sum by (l) (rate(<name>_count{…}[w]))
               sum        sum by (l) (rate(<name>_count{…}[w]))    (avg, max refused)
               p99        histogram_quantile(0.99, sum by (le, l) (rate(<name>_bucket{…}[w])))   (p50, p90 alike)

Without ``by`` an aggregation has no grouping (``sum(rate(<sel>[w]))``) and ``rate`` returns each series; ``rate``
by a label is the rates summed per value of it, the same query as ``sum`` by it. The window ends at the clock's
current second and spans the lookback. The step is the first of ``STEP_LADDER_S`` not below
``lookback / TARGET_POINTS`` and ``min-step`` (whole hours beyond the ladder), so a call returns about 61 points per
series; the rate window is ``max(4 × scrape interval, 2 × step)``, enough samples for ``rate`` and no gap between
steps.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

MetricType = Literal["counter", "gauge", "histogram"]
Aggregation = Literal["rate", "sum", "avg", "max", "p50", "p90", "p99"]

AGGREGATIONS: dict[str, tuple[Aggregation, ...]] = {
    "counter": ("rate", "sum", "avg", "max"),
    "gauge": ("sum", "avg", "max"),
    "histogram": ("rate", "sum", "p50", "p90", "p99"),
}
"""The aggregations each metric type allows, in the order the tool description lists them."""
QUANTILES: dict[str, float] = {"p50": 0.5, "p90": 0.9, "p99": 0.99}
_OPERATOR = {"rate": "sum"}
"""The PromQL aggregation operator of an aggregation that is not its own name: ``rate`` by a label sums."""
STEP_LADDER_S = (15, 30, 60, 120, 300, 600, 900, 1800, 3600)
TARGET_POINTS = 60


@dataclass(frozen=True)
class RangeQuery:
    """One validated ``query_range`` call: what to select, how to aggregate it and over which window."""

    metric: str
    type: MetricType
    aggregation: Aggregation
    by: str | None
    matchers: tuple[tuple[str, str], ...]
    """(label, value) equality matchers, sorted by label."""
    start_s: int
    end_s: int
    step_s: int
    rate_window_s: int

    @property
    def series_name(self) -> str:
        """The name of the series the query reads (a histogram's ``_bucket`` or ``_count``)."""
        if self.type != "histogram":
            return self.metric
        return f"{self.metric}_bucket" if self.aggregation in QUANTILES else f"{self.metric}_count"

    def promql(self) -> str:
        selector = self.series_name
        if self.matchers:
            selector += "{" + ",".join(f"{label}={_string(value)}" for label, value in self.matchers) + "}"
        inner = selector if self.type == "gauge" else f"rate({selector}[{_duration(self.rate_window_s)}])"
        if self.aggregation == "rate" and self.by is None:
            return inner
        if self.aggregation in QUANTILES:
            grouping = ", ".join(("le", self.by) if self.by else ("le",))
            return f"histogram_quantile({QUANTILES[self.aggregation]}, sum by ({grouping}) ({inner}))"
        grouping = f" by ({self.by}) " if self.by else ""
        return f"{_OPERATOR.get(self.aggregation, self.aggregation)}{grouping}({inner})"


def plan(
    metric: str,
    metric_type: MetricType,
    aggregation: Aggregation,
    by: str | None,
    matchers: dict[str, str],
    now: datetime,
    lookback_s: int,
    min_step_s: float,
    scrape_interval_s: float,
) -> RangeQuery:
    """The query for validated arguments, its window ending at ``now`` (whole seconds)."""
    end_s = math.floor(now.timestamp())
    step_s = step_for(lookback_s, min_step_s)
    return RangeQuery(
        metric=metric,
        type=metric_type,
        aggregation=aggregation,
        by=by,
        matchers=tuple(sorted(matchers.items())),
        start_s=end_s - lookback_s,
        end_s=end_s,
        step_s=step_s,
        rate_window_s=max(math.ceil(4 * scrape_interval_s), 2 * step_s),
    )


def step_for(lookback_s: int, min_step_s: float) -> int:
    wanted = max(math.ceil(min_step_s), math.ceil(lookback_s / TARGET_POINTS))
    for step in STEP_LADDER_S:
        if step >= wanted:
            return step
    return math.ceil(wanted / 3600) * 3600


def _duration(seconds: int) -> str:
    for unit, factor in (("h", 3600), ("m", 60)):
        if seconds % factor == 0:
            return f"{seconds // factor}{unit}"
    return f"{seconds}s"


def _string(value: str) -> str:
    # A PromQL string literal takes Go's escapes, a superset of JSON's: the dump is a literal whatever the value
    # holds (the argument rules already refuse quotes, backslashes and control characters).
    return json.dumps(value, ensure_ascii=False)
