"""``superbiz eval --rules``: the release rules measured both ways on generated text, printed as one table.

Exit 0 when every rule meets its target, 1 when one misses (a regression a CI job can stop on), 2 for a bad
configuration. Nothing is started: the rules are pure functions, and no model is called.
"""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.table import Table

from cli.options import configured
from harness.gate import ClaimPolicy
from harness.rule_figures import TARGETS, RuleFigure, rule_figures
from tools.registry import configured_kinds

EXIT_MET, EXIT_MISSED, EXIT_INVALID = 0, 1, 2


def rules_command(args: argparse.Namespace) -> int:
    config = configured(args)
    if config is None:
        return EXIT_INVALID
    figures = rule_figures(configured_kinds(config), ClaimPolicy.from_settings(config.harness), seed=args.seed)
    return print_figures(figures, Console(width=max(Console().width, 100)))


def print_figures(figures: list[RuleFigure], console: Console) -> int:
    """The table, then what each rule got wrong; the exit code."""
    table = Table(title="release rules on generated text", title_justify="left")
    for column in ("rule", "corpus", "violations", "refused", "harmless", "passed", "target", "met"):
        table.add_column(column, justify="left" if column in ("rule", "corpus", "target") else "right", no_wrap=True)
    met = True
    for figure in figures:
        target = TARGETS[figure.rule]
        ok = figure.meets(target)
        met = met and ok
        table.add_row(
            figure.rule,
            figure.corpus,
            f"{figure.violations:,}",
            f"{figure.refused_share:.1%}",
            f"{figure.harmless:,}",
            f"{figure.passed_share:.1%}",
            f"≥{_share(target.refused)} / ≥{_share(target.passed)}",
            "yes" if ok else "NO",
        )
    console.print(table)
    for figure in figures:
        for label, texts in (("let through", figure.missed), ("refused wrongly", figure.wrongly_refused)):
            for text in texts:
                console.print(f"  {figure.rule} {label}: {text!r}", markup=False, highlight=False)
    return EXIT_MET if met else EXIT_MISSED


def _share(target: float) -> str:
    """A target as a percentage, with the decimal it needs (99 %, 99.5 %)."""
    return f"{target:.1%}".replace(".0%", "%")
