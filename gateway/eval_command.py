"""``superbiz eval``: measure the release gate on a labelled dataset: its deterministic claim rules (the
EvidenceGuard) and the SemanticGuard, through a pool of guard replicas on Ray.

    superbiz eval DATASET.jsonl [--concurrency N] [--report PATH] [--replicas R]
    superbiz eval --bundled                      # tools/eval/guard_cases.jsonl, built from the demo data
    superbiz eval --rules [--seed N]             # the deterministic release rules on generated text, both ways
    superbiz eval --mutations [--seed N] [--sample K]   # faithful drafts and their one-token mutations, no Ray

Joins ``ray.address`` (or starts a local Ray; a Ray already running in this process is reused), creates R
``SemanticGuardActor`` replicas of the configured model in a namespace of their own (nothing is shared with a
running gateway's pool), puts every case through the deterministic gate and sends it once to the guard with at
most N in flight, prints the confusion matrix of the release gate, precision/recall for UNSUPPORTED, which layer
decided how many cases, the guard alone, latency percentiles and per-category accuracy, and writes the JSON report.

Exit 0 when the run completed, however the guard scored (it is a measurement); 2 for a bad dataset, configuration
or argument; 1 when Ray or the report file failed. Ray, rich and the actors are imported only when used.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any

from config.loader import ConfigError, load_config
from config.schema import AppConfig

if TYPE_CHECKING:
    from rich.console import Console

    from harness.evaluation.dataset import GuardCase
    from harness.evaluation.results import CaseResult
    from harness.ports import GuardAttempt
    from harness.semantic_guard import GuardRequest

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_INVALID = 2
DEFAULT_REPORT = "eval-report.json"
TIMEOUT_GRACE_S = 5.0
"""How long past the attempt timeout the driver waits for a replica before it gives up on the call."""
Commands = argparse._SubParsersAction  # type: ignore[type-arg]


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def add_eval_command(commands: Commands, config_option: argparse.ArgumentParser) -> None:
    parser = commands.add_parser(
        "eval",
        parents=[config_option],
        help="measure the release gate (EvidenceGuard rules and SemanticGuard) on a labelled dataset",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("dataset", nargs="?", metavar="DATASET.jsonl", help="labelled cases, one JSON object a line")
    source.add_argument("--bundled", action="store_true", help="use the bundled dataset built from the demo data")
    source.add_argument(
        "--rules",
        action="store_true",
        help="measure the deterministic release rules (proposals, findings, secrets) on generated text, no model",
    )
    source.add_argument(
        "--mutations",
        action="store_true",
        help="measure the gate on faithful drafts written from the demo's tool results and their one-token mutations",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the generated text (default: 0)")
    parser.add_argument(
        "--sample", type=_positive, metavar="K", help="--mutations: every K-th faithful draft only (default: all)"
    )
    parser.add_argument(
        "--concurrency",
        type=_positive,
        help="evaluations in flight (default: replicas × harness.semantic-guard.replica-concurrency)",
    )
    parser.add_argument("--replicas", type=_positive, help="guard replicas (default: ray.guard-pool)")
    parser.add_argument("--report", default=DEFAULT_REPORT, metavar="PATH", help="JSON report (default: %(default)s)")
    parser.set_defaults(handler=evaluate_command)


def evaluate_command(args: argparse.Namespace) -> int:
    if args.rules:
        from gateway.rule_report import rules_command

        return rules_command(args)
    if args.mutations:
        from gateway.mutation_report import mutations_command

        return mutations_command(args)
    from harness.evaluation.dataset import DatasetError, bundled_dataset, load_cases

    try:
        config = load_config(args.config, os.environ)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return EXIT_INVALID
    path = bundled_dataset() if args.bundled else Path(args.dataset)
    try:
        cases = load_cases(path)
    except DatasetError as exc:
        print(f"invalid dataset {exc.source}:", file=sys.stderr)
        for problem in exc.problems:
            print(f"  {problem}", file=sys.stderr)
        return EXIT_INVALID
    replicas = args.replicas or config.ray.guard_pool
    concurrency = args.concurrency or replicas * config.harness.semantic_guard.replica_concurrency
    return run_eval(config, cases, str(path), replicas=replicas, concurrency=concurrency, report_path=args.report)


def run_eval(
    config: AppConfig,
    cases: list[GuardCase],
    dataset: str,
    *,
    replicas: int,
    concurrency: int,
    report_path: str | Path = DEFAULT_REPORT,
    console: Console | None = None,
) -> int:
    """The command's body, callable from Python: a Ray already initialised in this process is reused (and left
    running); one this call starts is shut down at the end."""
    import ray
    from ray.exceptions import RayError
    from rich.console import Console

    from actors.model_factory import model_label
    from harness.evaluation.report import build_report, write_report

    console = console or Console()
    try:
        started_ray = _ensure_ray(config)
    except Exception as exc:  # a cluster that cannot be reached, a local Ray that cannot start
        print(f"cannot start or join Ray: {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_FAILED
    namespace = f"{config.ray.namespace}-eval-{uuid.uuid4().hex[:8]}"
    label = model_label(config.model)
    try:
        pool = GuardPool.create(config, replicas, namespace)
        try:
            console.print(
                f"release gate eval: {len(cases)} cases from {dataset}\n"
                f"model: {label}; {replicas} replica(s) × {config.harness.semantic_guard.replica_concurrency} in "
                f"namespace {namespace}; {concurrency} in flight"
            )
            results, wall_s = asyncio.run(_evaluate(pool, cases, config, concurrency, console))
        finally:
            pool.kill()
    except RayError as exc:  # a replica that could not start (its model could not be built, ...)
        print(f"the guard replicas failed: {type(exc).__name__}", file=sys.stderr)
        return EXIT_FAILED
    finally:
        if started_ray:
            ray.shutdown()
    report = build_report(
        results,
        dataset=dataset,
        model=label,
        wall_s=wall_s,
        concurrency=concurrency,
        replicas=replicas,
        replica_concurrency=config.harness.semantic_guard.replica_concurrency,
    )
    print_report(report, console)
    try:
        written = write_report(report, report_path)
    except OSError as exc:
        print(f"cannot write the report to {report_path}: {exc.strerror or type(exc).__name__}", file=sys.stderr)
        return EXIT_FAILED
    console.print(f"report written to {written}")
    return EXIT_OK


def _ensure_ray(config: AppConfig) -> bool:
    """Reuse this process's Ray, else join ``ray.address``, else start a local one; True when this call started it."""
    import ray

    if ray.is_initialized():
        return False
    if config.ray.address:
        ray.init(address=config.ray.address, log_to_driver=False, configure_logging=False)
    else:
        ray.init(address="local", include_dashboard=False, log_to_driver=False, configure_logging=False)
    return True


class GuardPool:
    """R SemanticGuard replicas; each request goes to the replica with the fewest calls in flight."""

    def __init__(self, actors: list[Any], names: list[str], timeout_s: float) -> None:
        self._actors = actors
        self._names = names
        self._timeout_s = timeout_s
        self._in_flight = [0] * len(actors)

    @classmethod
    def create(cls, config: AppConfig, replicas: int, namespace: str) -> GuardPool:
        """Named replicas (``guard:N``) in ``namespace``, ``max_concurrency`` = semantic-guard replica-concurrency."""
        import ray

        from actors.guard import SemanticGuardActor
        from actors.names import guard_name

        names = [guard_name(index) for index in range(replicas)]
        options = {
            "namespace": namespace,
            "num_cpus": 0,
            "max_concurrency": config.harness.semantic_guard.replica_concurrency,
        }
        actors = [
            ray.remote(SemanticGuardActor).options(name=name, **options).remote(name, config.model) for name in names
        ]
        return cls(actors, names, config.harness.semantic_guard.attempt_timeout)

    @property
    def size(self) -> int:
        return len(self._actors)

    async def ready(self) -> None:
        """Every replica constructed (its process up, its model built), so startup is not measured as latency."""
        await asyncio.gather(*(actor.__ray_ready__.remote() for actor in self._actors))

    async def evaluate(self, request: GuardRequest) -> GuardAttempt:
        import ray

        from harness.model import Usage
        from harness.ports import GuardAttempt
        from harness.retry import FailureKind

        index = min(range(len(self._actors)), key=self._in_flight.__getitem__)
        self._in_flight[index] += 1
        ref = self._actors[index].evaluate.remote(request, self._timeout_s)
        try:
            return await asyncio.wait_for(_resolve(ref), self._timeout_s + TIMEOUT_GRACE_S)
        except TimeoutError:
            ray.cancel(ref)
            return GuardAttempt(None, FailureKind.TIMEOUT.value, Usage(), self._names[index])
        finally:
            self._in_flight[index] -= 1

    def kill(self) -> None:
        import ray

        for actor in self._actors:
            ray.kill(actor)


async def _resolve(ref: Any) -> Any:
    return await ref


async def _evaluate(
    pool: GuardPool, cases: list[GuardCase], config: AppConfig, concurrency: int, console: Console
) -> tuple[list[CaseResult], float]:
    """The results and the wall time of the evaluations (replica startup excluded)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from harness.evaluation.running import evaluate_cases
    from harness.gate import ClaimPolicy
    from tools.registry import configured_kinds

    await pool.ready()
    columns = (TextColumn("evaluating"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=False) as progress:
        task = progress.add_task("eval", total=len(cases))
        started = time.perf_counter()
        results = await evaluate_cases(
            cases,
            pool.evaluate,
            concurrency,
            max_input_bytes=int(config.harness.semantic_guard.max_input_bytes),
            on_result=lambda _: progress.advance(task),
            policy=ClaimPolicy.from_settings(config.harness),
            kinds=configured_kinds(config),
        )
        return results, time.perf_counter() - started


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
