"""The demo metrics as OpenMetrics text with absolute timestamps, for ``promtool tsdb create-blocks-from openmetrics``.

Every series of the dataset, sample ``k`` at ``now - k × interval`` (milliseconds), oldest first, for the last
``history_s`` seconds: the samples ``MockMetricsSource`` reads for the same ``now``. Counter families drop their
``_total`` suffix (OpenMetrics names the family, the samples carry the suffix); a histogram family has its
``_bucket`` and ``_count`` series.
"""

from __future__ import annotations

import math
from datetime import datetime

from tools.metrics.dataset import MetricsDataset, load_dataset


def _label_value(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def demo_openmetrics(now: datetime, history_s: int, dataset: MetricsDataset | None = None) -> str:
    dataset = dataset or load_dataset()
    now_ms = math.floor(now.timestamp() * 1000)
    newest_old = history_s * 1000 // dataset.interval_ms
    lines: list[str] = []
    for name, metric in dataset.metrics.items():
        family = name.removesuffix("_total") if metric.type == "counter" else name
        lines += [f"# HELP {family} {metric.help}", f"# TYPE {family} {metric.type}"]
        names = [f"{name}_bucket", f"{name}_count"] if metric.type == "histogram" else [name]
        for sample_name in names:
            for series in dataset.series(sample_name):
                labels = ",".join(f'{label}="{_label_value(value)}"' for label, value in series.labels)
                for k in range(min(series.oldest, newest_old), -1, -1):
                    timestamp = (now_ms - k * dataset.interval_ms) / 1000
                    lines.append(f"{sample_name}{{{labels}}} {series.value(k)!r} {timestamp:.3f}")
    lines.append("# EOF")
    return "\n".join(lines) + "\n"
