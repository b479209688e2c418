"""``superbiz eval --mutations``: the release gate on faithful drafts written from the demo's real tool results and
on every one-token mutation of them, printed by pattern, by style and by mutation category, in-process (no Ray).

Printed per row: faithful drafts the gate refuses (n/N, %, target ≤ 1 %), mutations whose new token is absent from
the cited evidence that the gate catches (n/N, %, target ≥ 99 %), mutations whose new token is present (left to the
SemanticGuard by design: their count, and how many the gate happened to catch), and the mutations left unmeasured
(of a token the gate already refuses in the faithful draft); then the offline model's
SemanticGuard on what the gate let through (faithful drafts it refuses, mutations it catches); then the refusal
reasons and the misses, grouped, with an example each. Exit 0 when the total meets both targets, 1 when it misses
one, 2 for a bad configuration.
"""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.table import Table

from cli.options import configured
from config.app import AppConfig
from harness.gate import ClaimPolicy
from harness.gate_mutations.figures import (
    TARGET_ABSENT_CAUGHT,
    TARGET_FAITHFUL_REFUSED,
    Guard,
    MutationFigures,
    Tally,
    measure,
)
from harness.gate_mutations.results import records_of
from harness.messages import GuardRequest
from tools.demo_calls import demo_calls
from tools.registry import configured_kinds

EXIT_MET, EXIT_MISSED, EXIT_INVALID = 0, 1, 2
TOP_REASONS = 15


def offline_guard(request: GuardRequest) -> str:
    """The offline model's SemanticGuard, called in-process (lexical reading, not an LLM)."""
    from offline_model.guard.review import review

    return review(request.model_dump(mode="json"))["verdict"]


def mutation_figures(
    config: AppConfig, *, seed: int = 0, sample: int | None = None, guard: Guard | None = offline_guard
) -> MutationFigures:
    """The figures ``superbiz eval --mutations`` prints (a test can assert on them)."""
    records = records_of(demo_calls(config))
    kinds = configured_kinds(config)
    return measure(kinds, ClaimPolicy.from_settings(config.harness), records, seed=seed, sample=sample, guard=guard)


def mutations_command(args: argparse.Namespace) -> int:
    config = configured(args)
    if config is None:
        return EXIT_INVALID
    figures = mutation_figures(config, seed=args.seed, sample=args.sample)
    return print_figures(figures, Console(width=max(Console().width, 140)))


def print_figures(figures: MutationFigures, console: Console) -> int:
    """The three tables, the offline guard's figures, the reasons and the misses; the exit code."""
    for title, rows in (
        ("by pattern", figures.by_pattern),
        ("by style", figures.by_style),
        ("by mutation category", figures.by_category),
    ):
        console.print(_table(f"release gate on faithful drafts and their one-token mutations, {title}", rows, figures))
    total = figures.total
    console.print(
        f"total: faithful refused {_share(total.refused, total.faithful)} (≤ {TARGET_FAITHFUL_REFUSED:.0%}) "
        f"{_met(total.refused_share <= TARGET_FAITHFUL_REFUSED)}; absent-token mutations caught "
        f"{_share(total.caught, total.absent)} (≥ {TARGET_ABSENT_CAUGHT:.0%}) "
        f"{_met(total.caught_share >= TARGET_ABSENT_CAUGHT)}; present-token mutations {total.present:,} "
        f"(the gate caught {total.present_caught:,}; the SemanticGuard's by design); {total.unmeasured:,} mutations of "
        "tokens the gate already refuses in the faithful draft not counted",
        highlight=False,
    )
    if figures.guard:
        console.print(
            f"offline SemanticGuard on what the gate let through: faithful refused "
            f"{_share(total.guard_refused, total.guard_faithful)}; mutations caught "
            f"{_share(total.guard_caught, total.guard_mutations)}",
            highlight=False,
        )
    console.print("why faithful drafts were refused (top reasons, one example each):")
    for reason, count in figures.refusals.most_common(TOP_REASONS):
        console.print(f"  {count:>4} × {reason}\n         {figures.refusal_examples[reason][0]}", markup=False)
    console.print("absent-token mutations the gate let through (category/pattern, examples):")
    for key, count in figures.misses.most_common(TOP_REASONS):
        console.print(f"  {count:>4} × {key}: {figures.miss_examples[key][0]}", markup=False, highlight=False)
    return EXIT_MET if total.meets() else EXIT_MISSED


def _table(title: str, rows: dict[str, Tally], figures: MutationFigures) -> Table:
    table = Table(title=title, title_justify="left")
    columns = ["row", "faithful refused", "≤1%", "absent caught", "≥99%", "present", "present caught", "unmeasured"]
    if figures.guard:
        columns += ["guard: faithful refused", "guard: mutations caught"]
    for column in columns:
        table.add_column(column, justify="left" if column == "row" else "right", no_wrap=True)
    for name, row in [*rows.items(), ("total", figures.total)]:
        cells = [
            name,
            _share(row.refused, row.faithful),
            _met(row.refused_share <= TARGET_FAITHFUL_REFUSED) if row.faithful else "",
            _share(row.caught, row.absent),
            _met(row.caught_share >= TARGET_ABSENT_CAUGHT) if row.absent else "",
            f"{row.present:,}",
            f"{row.present_caught:,}",
            f"{row.unmeasured:,}",
        ]
        if figures.guard:
            cells += [_share(row.guard_refused, row.guard_faithful), _share(row.guard_caught, row.guard_mutations)]
        table.add_row(*cells)
    return table


def _share(part: int, whole: int) -> str:
    return f"{part:,}/{whole:,} ({part / whole:.1%})" if whole else "0/0"


def _met(ok: bool) -> str:
    return "yes" if ok else "NO"
