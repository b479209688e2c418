"""The demo metrics: a compact definition file (``data/mock_metrics.yaml``) turned into samples relative to now.

A series is sampled every ``interval``: sample ``k`` lies ``k × interval`` before now, from its first segment's
``from`` (sample ``oldest``) to now (sample 0), and its value is a closed form of ``k`` — no sample is stored,
so a query over 24 hours reads only the few samples it needs. The file's own comment states the segment rules.

Deterministic: the value of sample ``k`` depends only on the definition and ``k`` (jitter and noise are hashes
of the series and ``k``), so the same ``now`` gives the same answer. Counters and histogram buckets never
decrease (noise stays below the series' smallest increase per interval) and a histogram's buckets never
decrease with ``le`` (one noise draw per sample for all its buckets), so ``rate`` and ``histogram_quantile``
need no reset or monotonicity handling here.
"""

from __future__ import annotations

import itertools
import math
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

import yaml  # type: ignore[import-untyped]
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, model_validator

from config.units import parse_duration
from contract.vocabulary import HarnessError

BUNDLED_DATASET = Path(__file__).resolve().parent / "data" / "mock_metrics.yaml"

Seconds = Annotated[float, BeforeValidator(parse_duration), Field(gt=0)]
Labels = tuple[tuple[str, str], ...]
_MASK64 = (1 << 64) - 1


class DatasetUnreadable(HarnessError):
    """The definition file cannot be read or breaks a rule. The message is for the audit record only."""

    code = "METRICS_DATASET_UNREADABLE"


class _Definition(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class _Segment(_Definition):
    start: Seconds = Field(alias="from")
    value: float | None = Field(default=None, ge=0)
    jitter: int = Field(default=0, ge=0)
    ramp: tuple[Annotated[float, Field(ge=0)], Annotated[float, Field(ge=0)]] | None = None
    rate: float | None = Field(default=None, ge=0)
    latency: str | None = None


class _Series(_Definition):
    labels: dict[Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")], Annotated[str, Field(min_length=1)]]
    noise: float = Field(default=0.0, ge=0, lt=1)
    segments: Annotated[list[_Segment], Field(min_length=1)]

    @model_validator(mode="after")
    def _segments_in_order(self) -> _Series:
        starts = [segment.start for segment in self.segments]
        if any(later >= earlier for earlier, later in itertools.pairwise(starts)):
            raise ValueError("segments must start ever later (each `from` smaller than the one before)")
        if "le" in self.labels:
            raise ValueError("le is the histogram's own label")
        return self


class _Metric(_Definition):
    type: Literal["counter", "gauge", "histogram"]
    help: str = ""
    series: Annotated[list[_Series], Field(min_length=1)]


class _File(_Definition):
    interval: Seconds
    buckets: Annotated[list[Annotated[float, Field(gt=0)]], Field(min_length=1)]
    latency: dict[str, dict[float, Annotated[float, Field(ge=0, le=1)]]] = {}
    metrics: dict[Annotated[str, Field(pattern=r"^[A-Za-z_:][A-Za-z0-9_:]*$")], _Metric]

    @model_validator(mode="after")
    def _consistent(self) -> _File:
        if self.buckets != sorted(set(self.buckets)):
            raise ValueError("buckets must be increasing")
        for name, profile in self.latency.items():
            shares = [profile[bound] for bound in sorted(profile)]
            if not set(profile) <= set(self.buckets) or shares != sorted(shares):
                raise ValueError(f"latency {name}: bounds must be buckets and shares must not decrease")
        for name, metric in self.metrics.items():
            if metric.type == "counter" and not name.endswith("_total"):
                raise ValueError(f"{name}: a counter's name ends in _total (OpenMetrics)")
            for series in metric.series:
                for segment in series.segments:
                    _check_segment(name, metric.type, segment, self.latency)
        return self


def _check_segment(name: str, kind: str, segment: _Segment, latency: dict[str, dict[float, float]]) -> None:
    gauge = (segment.value is None) != (segment.ramp is None) and segment.rate is None and segment.latency is None
    counter = segment.rate is not None and segment.value is None and segment.ramp is None and not segment.jitter
    ok = {
        "gauge": gauge,
        "counter": counter and segment.latency is None,
        "histogram": counter and segment.latency in latency,
    }[kind]
    if not ok:
        raise ValueError(
            f"{name}: a {kind} segment takes "
            + {"gauge": "value (and jitter) or ramp", "counter": "rate", "histogram": "rate and a known latency"}[kind]
        )


@dataclass(frozen=True)
class Series:
    """One series of the dataset: its sample name, its labels and its value at sample ``k``."""

    name: str
    """The series' sample name: the metric's, or a histogram's ``_bucket`` / ``_count``."""
    labels: Labels
    """Sorted (name, value) pairs, ``le`` included for a bucket."""
    oldest: int
    """The index of its first sample; it has samples ``oldest`` … 0."""
    value: Callable[[int], float]


@dataclass(frozen=True)
class DatasetMetric:
    """A metric of the dataset as an allowlist would name it."""

    type: str
    help: str
    labels: tuple[str, ...]


class MetricsDataset:
    """Every series of a definition file, by sample name."""

    def __init__(self, interval_ms: int, metrics: dict[str, DatasetMetric], series: list[Series]) -> None:
        self.interval_ms = interval_ms
        self.metrics = metrics
        self._series: dict[str, list[Series]] = {}
        for item in series:
            self._series.setdefault(item.name, []).append(item)

    def series(self, name: str) -> list[Series]:
        return self._series.get(name, [])

    def all_series(self) -> list[Series]:
        return [item for group in self._series.values() for item in group]


def load_dataset(path: Path | None = None) -> MetricsDataset:
    """The dataset of ``path`` (the bundled one when None). Raises ``DatasetUnreadable``."""
    path = path or BUNDLED_DATASET
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        definition = _File.model_validate(data)
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise DatasetUnreadable(f"metrics dataset unreadable: {type(exc).__name__}") from None
    except ValidationError as exc:
        first = exc.errors(include_url=False, include_input=False)[0]
        where = ".".join(str(part) for part in first["loc"])
        raise DatasetUnreadable(f"metrics dataset invalid at {where}: {first['msg']}") from None
    return _compile(definition)


def _compile(definition: _File) -> MetricsDataset:
    interval = definition.interval
    bounds = [*definition.buckets, math.inf]
    metrics: dict[str, DatasetMetric] = {}
    series: list[Series] = []
    for name, metric in definition.metrics.items():
        label_names = dict.fromkeys(label for item in metric.series for label in item.labels)
        metrics[name] = DatasetMetric(metric.type, metric.help, tuple(label_names))
        for item in metric.series:
            labels = tuple(sorted(item.labels.items()))
            oldest = math.floor(item.segments[0].start / interval)
            seed = zlib.crc32(repr((name, labels)).encode())
            if metric.type == "gauge":
                series.append(Series(name, labels, oldest, _gauge(item.segments, interval, seed)))
            elif metric.type == "counter":
                rates = [(segment.start, segment.rate or 0.0) for segment in item.segments]
                series.append(Series(name, labels, oldest, _counter(rates, interval, item.noise, seed)))
            else:
                for bound in bounds:
                    rates = [
                        (s.start, (s.rate or 0.0) * _share(definition.latency[s.latency or ""], bound))
                        for s in item.segments
                    ]
                    value = _counter(rates, interval, item.noise, seed)
                    le = (("le", _le(bound)),)
                    series.append(Series(f"{name}_bucket", tuple(sorted(labels + le)), oldest, value))
                    if math.isinf(bound):
                        series.append(Series(f"{name}_count", labels, oldest, value))
    return MetricsDataset(round(interval * 1000), metrics, series)


def _share(profile: dict[float, float], bound: float) -> float:
    """The share of requests at or below ``bound``: the share of the largest listed bound not above it."""
    if math.isinf(bound):
        return 1.0
    below = [share for listed, share in profile.items() if listed <= bound]
    return max(below, default=0.0)


def _le(bound: float) -> str:
    """A bucket bound as Prometheus clients write it: ``0.005``, ``1.0``, ``+Inf``."""
    return "+Inf" if math.isinf(bound) else repr(float(bound))


def _unit(seed: int, k: int) -> float:
    """A deterministic draw in [0, 1) for sample ``k`` of a series (splitmix64)."""
    x = (seed + (k + 1) * 0x9E3779B97F4A7C15) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return (x ^ (x >> 31)) / 2.0**64


def _segment_at(starts: list[float], ago: float) -> int:
    """The index of the segment sample ``ago`` seconds before now falls in (the last one starting at or before)."""
    index = 0
    while index + 1 < len(starts) and starts[index + 1] >= ago:
        index += 1
    return index


def _gauge(segments: list[_Segment], interval: float, seed: int) -> Callable[[int], float]:
    starts = [segment.start for segment in segments]

    def value(k: int) -> float:
        ago = k * interval
        index = _segment_at(starts, ago)
        segment = segments[index]
        if segment.ramp is not None:
            end = starts[index + 1] if index + 1 < len(starts) else 0.0
            first, last = segment.ramp
            level = first + (last - first) * (segment.start - ago) / (segment.start - end)
        else:
            jitter = math.floor(_unit(seed, k) * (2 * segment.jitter + 1)) - segment.jitter
            level = max(0.0, (segment.value or 0.0) + jitter)
        return float(math.floor(level + 0.5))

    return value


def _counter(rates: list[tuple[float, float]], interval: float, noise: float, seed: int) -> Callable[[int], float]:
    """The integral of piecewise-constant ``rates`` ((start, per second), oldest first) plus noise below the
    smallest increase per interval: it never decreases."""
    amplitude = noise * interval * min(rate for _, rate in rates)
    ends = [start for start, _ in rates[1:]] + [0.0]

    def value(k: int) -> float:
        ago = k * interval
        spans = zip(rates, ends, strict=True)
        total = sum(rate * (start - max(ago, end)) for (start, rate), end in spans if ago < start)
        return total + amplitude * _unit(seed, k)

    return value
