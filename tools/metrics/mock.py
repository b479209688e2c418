"""``MockMetricsSource``: the bundled demo metrics, answered as Prometheus 2.x answers ``/api/v1/query_range``.

It evaluates the query shapes of :mod:`tools.metrics.query` itself, with Prometheus's rules, so the demo's
numbers are the ones a real Prometheus holding the same samples returns (an integration test compares them):

- steps at ``start``, ``start + step`` … ``end`` (milliseconds);
- a gauge at a step: its newest sample at or before it, if at most 5 minutes old (the lookback delta);
- ``rate(x[w])`` at a step: the samples in ``[step - w, step]`` (both ends included), at least two, the increase
  extrapolated to the window's ends as ``extrapolatedRate`` does (no counter resets: the dataset has none);
- ``sum``/``avg``/``max`` over the series grouped by the ``by`` label (or all together), at each step over the
  series that have a value there; ``rate`` with a ``by`` label is ``sum`` by it;
- ``histogram_quantile(q, …)``: the buckets of a group summed by ``le``, then ``bucketQuantile`` (coalesced,
  made monotonic, interpolated linearly inside the bucket; the highest finite bound when the rank falls in
  ``+Inf``; NaN without observations);
- output labels: a series' own for ``rate``, the grouping labels for an aggregation, without ``le`` for a
  quantile; series without any point are left out; values formatted as Go's ``FormatFloat(v, 'f', -1)``.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

from contract.clock import Clock
from tools.metrics.dataset import DatasetUnreadable, Labels, MetricsDataset, Series, load_dataset
from tools.metrics.query import QUANTILES, RangeQuery
from tools.metrics.source import METRICS_UNAVAILABLE, MetricsSourceError

LOOKBACK_DELTA_MS = 5 * 60 * 1000
Points = dict[int, float]


class MockMetricsSource:
    """The bundled (or a configured) definition file, loaded on first use and kept once it loaded cleanly."""

    kind = "MOCK"

    def __init__(self, clock: Clock, path: Path | None = None) -> None:
        self._clock = clock
        self._path = path
        self._dataset: MetricsDataset | None = None
        self._lock = threading.Lock()

    def query_range(self, query: RangeQuery) -> dict[str, Any]:
        dataset = self._load()
        now_ms = math.floor(self._clock.now().timestamp() * 1000)
        return {"status": "success", "data": {"resultType": "matrix", "result": evaluate(dataset, query, now_ms)}}

    def close(self) -> None:
        """Nothing to release: the dataset is in memory."""

    def _load(self) -> MetricsDataset:
        with self._lock:
            if self._dataset is None:
                try:
                    self._dataset = load_dataset(self._path)
                except DatasetUnreadable as exc:
                    raise MetricsSourceError(METRICS_UNAVAILABLE, str(exc)) from None
            return self._dataset


def evaluate(dataset: MetricsDataset, query: RangeQuery, now_ms: int) -> list[dict[str, Any]]:
    """The ``result`` of ``query`` over ``dataset``, its samples ending at ``now_ms``."""
    grid = _Grid(now_ms, dataset.interval_ms, query.rate_window_s * 1000)
    read: Callable[[Series, int], float | None] = grid.instant if query.type == "gauge" else grid.rate
    steps = range(query.start_s * 1000, query.end_s * 1000 + 1, query.step_s * 1000)
    wanted = dict(query.matchers)
    selected: list[tuple[Labels, Points]] = []
    for series in dataset.series(query.series_name):
        labels = dict(series.labels)
        if all(labels.get(label) == value for label, value in wanted.items()):
            points = {step: value for step in steps if (value := read(series, step)) is not None}
            selected.append((series.labels, points))
    if query.aggregation == "rate" and query.by is None:
        output = selected
    elif query.aggregation == "rate":
        output = _aggregate(selected, {query.by}, sum)
    elif query.aggregation in QUANTILES:
        buckets = _aggregate(selected, {"le", *([query.by] if query.by else [])}, sum)
        output = _quantiles(buckets, QUANTILES[query.aggregation])
    else:
        output = _aggregate(selected, {query.by} if query.by else set(), _AGGREGATORS[query.aggregation])
    return [
        {"metric": dict(labels), "values": [[_timestamp(step), _format(value)] for step, value in points.items()]}
        for labels, points in sorted(output)
        if points
    ]


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


_AGGREGATORS: dict[str, Callable[[list[float]], float]] = {"sum": sum, "avg": _mean, "max": max}


class _Grid:
    """Sample ``k`` of every series lies at ``now - k × interval``; which of them a step reads."""

    def __init__(self, now_ms: int, interval_ms: int, window_ms: int) -> None:
        self._now = now_ms
        self._interval = interval_ms
        self._window = window_ms

    def _newest(self, step: int) -> int:
        """The index of the newest sample at or before ``step``."""
        return max(0, -((step - self._now) // self._interval))

    def instant(self, series: Series, step: int) -> float | None:
        k = self._newest(step)
        if k > series.oldest or step - (self._now - k * self._interval) > LOOKBACK_DELTA_MS:
            return None
        return series.value(k)

    def rate(self, series: Series, step: int) -> float | None:
        last = self._newest(step)
        first = min(series.oldest, (self._now - (step - self._window)) // self._interval)
        if first - last < 1:
            return None
        first_value, last_value = series.value(first), series.value(last)
        first_t, last_t = self._now - first * self._interval, self._now - last * self._interval
        # Prometheus 2.x extrapolatedRate, for a counter without resets.
        result = last_value - first_value
        to_start = (first_t - (step - self._window)) / 1000
        to_end = (step - last_t) / 1000
        sampled = (last_t - first_t) / 1000
        average = sampled / (first - last)
        if result > 0 and first_value >= 0:
            to_start = min(to_start, sampled * (first_value / result))
        threshold = average * 1.1
        extrapolated = sampled
        extrapolated += to_start if to_start < threshold else average / 2
        extrapolated += to_end if to_end < threshold else average / 2
        factor = extrapolated / sampled / (self._window / 1000)
        return result * factor


def _aggregate(
    selected: list[tuple[Labels, Points]], keep: set[str], aggregator: Callable[[list[float]], float]
) -> list[tuple[Labels, Points]]:
    groups: dict[Labels, dict[int, list[float]]] = {}
    for labels, points in selected:
        group = groups.setdefault(tuple(pair for pair in labels if pair[0] in keep), {})
        for step, value in points.items():
            group.setdefault(step, []).append(value)
    return [
        (key, {step: aggregator(values) for step, values in sorted(group.items())}) for key, group in groups.items()
    ]


def _quantiles(buckets: list[tuple[Labels, Points]], q: float) -> list[tuple[Labels, Points]]:
    groups: dict[Labels, dict[int, list[tuple[float, float]]]] = {}
    for labels, points in buckets:
        bound = float(dict(labels)["le"])
        group = groups.setdefault(tuple(pair for pair in labels if pair[0] != "le"), {})
        for step, value in points.items():
            group.setdefault(step, []).append((bound, value))
    return [
        (key, {step: bucket_quantile(q, pairs) for step, pairs in sorted(group.items())})
        for key, group in groups.items()
    ]


def bucket_quantile(q: float, buckets: list[tuple[float, float]]) -> float:
    """Prometheus 2.x ``bucketQuantile`` over (upper bound, cumulative count) pairs."""
    ordered = sorted(buckets)
    if not ordered or not math.isinf(ordered[-1][0]):
        return math.nan
    coalesced: list[tuple[float, float]] = []
    for bound, count in ordered:
        if coalesced and coalesced[-1][0] == bound:
            coalesced[-1] = (bound, coalesced[-1][1] + count)
        else:
            coalesced.append((bound, count))
    highest = -math.inf
    monotonic: list[tuple[float, float]] = []
    for bound, count in coalesced:
        highest = max(highest, count)
        monotonic.append((bound, highest))
    if len(monotonic) < 2 or monotonic[-1][1] == 0:
        return math.nan
    rank = q * monotonic[-1][1]
    index = next((i for i, (_, count) in enumerate(monotonic[:-1]) if count >= rank), len(monotonic) - 1)
    if index == len(monotonic) - 1:
        return monotonic[-2][0]
    if index == 0 and monotonic[0][0] <= 0:
        return monotonic[0][0]
    start, (end, count) = 0.0, monotonic[index]
    if index > 0:
        start, below = monotonic[index - 1]
        count -= below
        rank -= below
    return start + (end - start) * (rank / count)


def _timestamp(step_ms: int) -> int | float:
    return step_ms // 1000 if step_ms % 1000 == 0 else step_ms / 1000


def _format(value: float) -> str:
    """``strconv.FormatFloat(value, 'f', -1, 64)``: the shortest exact decimal, never an exponent."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    text = repr(value)
    if "e" in text:
        text = format(Decimal(text), "f")
    return text.removesuffix(".0")
