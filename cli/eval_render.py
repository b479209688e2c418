"""The report of ``superbiz eval`` on the terminal: the release gate's confusion matrix and scores, the layers
that decided, the guard alone, latency and the categories (rich, imported only when used)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console


def print_report(report: dict[str, Any], console: Console) -> None:
    """The release gate's confusion matrix and scores, the layers, the guard alone, latency and the categories."""
    from rich.table import Table

    from harness.evaluation.results import GATE, GUARD, PREDICTED

    matrix = Table(title="release gate: confusion matrix (rows: expected, columns: released as)")
    matrix.add_column("expected \\ released as")
    for label in PREDICTED:
        matrix.add_column(label, justify="right")
    for expected, row in report["confusion_matrix"].items():
        matrix.add_row(expected, *(str(row[label]) for label in PREDICTED))
    console.print(matrix)

    scores, latency, run = report["unsupported"], report["latency"], report["run"]
    console.print(
        f"UNSUPPORTED (positive class): precision {_fmt(scores['precision'])}  recall {_fmt(scores['recall'])}  "
        f"F1 {_fmt(scores['f1'])}  (tp {scores['tp']}, fp {scores['fp']}, fn {scores['fn']}, tn {scores['tn']})"
    )
    console.print(f"accuracy {_fmt(report['accuracy'])}; unavailable {report['unavailable']}")
    layers = report["layers"]
    for layer, name in ((GATE, "deterministic gate (EvidenceGuard)"), (GUARD, "SemanticGuard")):
        row = layers[layer]
        console.print(
            f"decided by the {name}: {row['decided']} cases; UNSUPPORTED caught {row['unsupported_caught']}; "
            f"faithful refused {row['faithful_refused']}"
        )
    alone = report["guard_alone"]["unsupported"]
    console.print(
        f"SemanticGuard alone (every case): precision {_fmt(alone['precision'])}  recall {_fmt(alone['recall'])}"
    )
    for name, target in report["targets"].items():
        comparison = "≥" if name == "unsupported_recall" else "≤"
        value = _fmt(target["value"]) if isinstance(target["value"], float) else str(target["value"])
        verdict = "met" if target["met"] else "MISSED"
        console.print(f"target {name.replace('_', ' ')}: {value} ({comparison} {target['target']}) {verdict}")
    console.print(
        f"latency p50 {_ms(latency['p50_ms'])}  p95 {_ms(latency['p95_ms'])}  p99 {_ms(latency['p99_ms'])}  "
        f"max {_ms(latency['max_ms'])}; {run['throughput_per_s']} evaluations/s over {run['wall_s']} s"
    )

    categories = Table(
        title="per category (released as: SUPPORTED / UNSUPPORTED / UNAVAILABLE; decided by: gate / guard)"
    )
    categories.add_column("category", no_wrap=True)
    categories.add_column("expected")
    for name in ("cases", "correct", "accuracy", "released as", "decided by"):
        categories.add_column(name, justify="right")
    for name, row in report["categories"].items():
        predicted = row["predicted"]
        categories.add_row(
            name,
            "/".join(row["expected"]),
            str(row["cases"]),
            str(row["correct"]),
            _fmt(row["accuracy"]),
            f"{predicted['SUPPORTED']}/{predicted['UNSUPPORTED']}/{predicted['UNAVAILABLE']}",
            f"{row['decided_by'][GATE]}/{row['decided_by'][GUARD]}",
        )
    console.print(categories)


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def _ms(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1f} ms"
