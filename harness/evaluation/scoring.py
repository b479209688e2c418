"""Scoring results: confusion matrices, precision / recall / F1 of UNSUPPORTED, latency, categories, layers.

Precision, recall and F1 are ``None`` when their denominator is zero. Latency percentiles use the nearest-rank
method.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from harness.evaluation.results import (
    EXPECTED,
    GATE,
    GUARD,
    INPUT_TOO_LARGE,
    PREDICTED,
    SUPPORTED,
    UNAVAILABLE,
    UNSUPPORTED,
    CaseResult,
)


def confusion_matrix(results: Iterable[CaseResult], *, guard_alone: bool = False) -> dict[str, dict[str, int]]:
    """``matrix[expected][released_as]`` (or ``[predicted]``, the guard alone), every cell present."""
    matrix = {expected: dict.fromkeys(PREDICTED, 0) for expected in EXPECTED}
    for result in results:
        matrix[result.expected][result.predicted if guard_alone else result.released_as] += 1
    return matrix


def positive_class_scores(matrix: dict[str, dict[str, int]]) -> dict[str, Any]:
    """Precision, recall and F1 of UNSUPPORTED (UNAVAILABLE on an UNSUPPORTED case is a miss)."""
    tp = matrix[UNSUPPORTED][UNSUPPORTED]
    fp = matrix[SUPPORTED][UNSUPPORTED]
    fn = matrix[UNSUPPORTED][SUPPORTED] + matrix[UNSUPPORTED][UNAVAILABLE]
    tn = matrix[SUPPORTED][SUPPORTED]
    precision = ratio(tp, tp + fp)
    recall = ratio(tp, tp + fn)
    f1 = None
    if precision is not None and recall is not None:
        f1 = 0.0 if precision + recall == 0 else round(2 * precision * recall / (precision + recall), 4)
    return {"precision": precision, "recall": recall, "f1": f1, "tp": tp, "fp": fp, "fn": fn, "tn": tn}


def percentile(values: Sequence[float], q: float) -> float | None:
    """Nearest-rank percentile (``q`` in [0, 1]); None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def latency_summary(results: Sequence[CaseResult]) -> dict[str, float | None]:
    """Milliseconds over the cases that were sent to the guard."""
    values = [result.latency_s for result in results if result.failure != INPUT_TOO_LARGE]

    def ms(value: float | None) -> float | None:
        return None if value is None else round(value * 1000, 2)

    return {
        "count": len(values),
        "p50_ms": ms(percentile(values, 0.50)),
        "p95_ms": ms(percentile(values, 0.95)),
        "p99_ms": ms(percentile(values, 0.99)),
        "max_ms": ms(max(values) if values else None),
        "mean_ms": ms(sum(values) / len(values) if values else None),
    }


def category_results(results: Sequence[CaseResult]) -> dict[str, dict[str, Any]]:
    """Per category (sorted): its expected label(s), cases, correct answers, accuracy and what was predicted."""
    table: dict[str, dict[str, Any]] = {}
    for category in sorted({result.category for result in results}):
        members = [result for result in results if result.category == category]
        correct = sum(result.correct for result in members)
        table[category] = {
            "expected": sorted({result.expected for result in members}),
            "cases": len(members),
            "correct": correct,
            "accuracy": ratio(correct, len(members)),
            "predicted": {label: sum(result.released_as == label for result in members) for label in PREDICTED},
            "decided_by": {layer: sum(result.layer == layer for result in members) for layer in (GATE, GUARD)},
        }
    return table


def layer_summary(results: Sequence[CaseResult]) -> dict[str, dict[str, int]]:
    """Per layer: the cases it decided, the UNSUPPORTED ones it caught, and the faithful ones it refused."""
    summary: dict[str, dict[str, int]] = {}
    for layer in (GATE, GUARD):
        members = [result for result in results if result.layer == layer]
        summary[layer] = {
            "decided": len(members),
            "unsupported_caught": sum(r.expected == UNSUPPORTED and r.released_as == UNSUPPORTED for r in members),
            "faithful_refused": sum(r.expected == SUPPORTED and r.released_as != SUPPORTED for r in members),
        }
    return summary


def ratio(numerator: int, denominator: int) -> float | None:
    return round(numerator / denominator, 4) if denominator else None
