"""The JSON report of one evaluation run, with its targets, and writing it."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from harness.evaluation.results import GATE, POSITIVE, UNAVAILABLE, CaseResult
from harness.evaluation.scoring import (
    category_results,
    confusion_matrix,
    latency_summary,
    layer_summary,
    positive_class_scores,
    ratio,
)

REPORT_VERSION = 2
TARGET_RECALL = 0.95
TARGET_FAITHFUL_REFUSED_BY_GATE = 0


def build_report(
    results: Sequence[CaseResult],
    *,
    dataset: str,
    model: str,
    wall_s: float,
    concurrency: int,
    replicas: int | None = None,
    replica_concurrency: int | None = None,
) -> dict[str, Any]:
    """The JSON report of one evaluation run."""
    matrix = confusion_matrix(results)
    alone = confusion_matrix(results, guard_alone=True)
    correct = sum(result.correct for result in results)
    scores = positive_class_scores(matrix)
    layers = layer_summary(results)
    return {
        "version": REPORT_VERSION,
        "dataset": {
            "path": dataset,
            "cases": len(results),
            "expected": dict(sorted(Counter(result.expected for result in results).items())),
        },
        "guard": {"model": model, "replicas": replicas, "replica_concurrency": replica_concurrency},
        "run": {
            "concurrency": concurrency,
            "wall_s": round(wall_s, 3),
            "throughput_per_s": round(len(results) / wall_s, 2) if wall_s > 0 else None,
        },
        "positive_class": POSITIVE,
        "confusion_matrix": matrix,
        "unsupported": scores,
        "accuracy": ratio(correct, len(results)),
        "layers": layers,
        "targets": _targets(scores, layers),
        "guard_alone": {"confusion_matrix": alone, "unsupported": positive_class_scores(alone)},
        "unavailable": sum(result.predicted == UNAVAILABLE for result in results),
        "latency": latency_summary(results),
        "categories": category_results(results),
        "cases": [_case_row(result) for result in results],
    }


def _targets(scores: dict[str, Any], layers: dict[str, dict[str, int]]) -> dict[str, dict[str, Any]]:
    """Each target with its value and whether the run met it."""
    return {
        "unsupported_recall": {
            "value": scores["recall"],
            "target": TARGET_RECALL,
            "met": scores["recall"] is not None and scores["recall"] >= TARGET_RECALL,
        },
        "faithful_refused_by_gate": {
            "value": layers[GATE]["faithful_refused"],
            "target": TARGET_FAITHFUL_REFUSED_BY_GATE,
            "met": layers[GATE]["faithful_refused"] <= TARGET_FAITHFUL_REFUSED_BY_GATE,
        },
    }


def _case_row(result: CaseResult) -> dict[str, Any]:
    """One case as the report lists it: the release gate's decision first, then the guard's own answer."""
    return {
        "id": result.case_id,
        "category": result.category,
        "expected": result.expected,
        "predicted": result.released_as,
        "correct": result.correct,
        "decided_by": result.layer,
        "gate": list(result.gate),
        "guard": result.predicted,
        "latency_ms": round(result.latency_s * 1000, 2),
        "failure": result.failure,
        "reason": result.reason,
        "replica": result.replica,
    }


def write_report(report: dict[str, Any], path: Path | str) -> Path:
    target = Path(path)
    if target.parent != Path():
        target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return target
