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
import sys
import time
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cli.eval_render import print_report
from cli.guard_pool import GuardPool
from cli.options import configured
from config.app import AppConfig

if TYPE_CHECKING:
    from rich.console import Console

    from harness.evaluation.dataset import GuardCase
    from harness.evaluation.results import CaseResult

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_INVALID = 2
DEFAULT_REPORT = "eval-report.json"
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
        from cli.eval_rules import rules_command

        return rules_command(args)
    if args.mutations:
        from cli.eval_mutations import mutations_command

        return mutations_command(args)
    from harness.evaluation.dataset import DatasetError, bundled_dataset, load_cases

    config = configured(args)
    if config is None:
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
    from harness.evaluation.report import build_report

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
    return _write_report(report, report_path, console)


def _write_report(report: dict[str, Any], report_path: str | Path, console: Console) -> int:
    from harness.evaluation.report import write_report

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
