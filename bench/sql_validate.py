"""SQL validator cost against bare ``sqlglot.parse_one(sql, read="mysql")`` on the same corpus.

The corpus is the validator's test corpus (tests/tools/mysql/sql_corpus.py): realistic accepted queries and
rejected ones of every category, mixed. A validation is ``validate_sql`` to the end (``ValidatedQuery`` with
all renderings, or ``SqlRejected``); the baseline is one ``parse_one`` per query (its error swallowed). Rounds
alternate validator and baseline so machine noise hits both. Target: mean ratio <= 1.5.

    python bench/sql_validate.py [--rounds 7] [--repeat 20]
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import sqlglot

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.tools.mysql.sql_corpus import ALLOW, MAX_ROWS, REJECT, seed_allowlist
from tools.mysql.sql_validator import SqlRejected, validate_sql

Case = tuple[str, tuple[object, ...]]
ALLOWLIST = seed_allowlist()


def validator(case: Case) -> None:
    with contextlib.suppress(SqlRejected):
        validate_sql(case[0], case[1], ALLOWLIST, MAX_ROWS)


def bare_parse(case: Case) -> None:
    with contextlib.suppress(Exception):  # the baseline pays for a failed parse like the validator does
        sqlglot.parse_one(case[0], read="mysql")


def timed(run: Callable[[Case], None], cases: Sequence[Case], repeat: int) -> list[float]:
    """Seconds per call, one sample per case per repetition."""
    samples = []
    for _ in range(repeat):
        for case in cases:
            started = time.perf_counter()
            run(case)
            samples.append(time.perf_counter() - started)
    return samples


def p99(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=100)[98]


def main(rounds: int, repeat: int) -> None:
    corpora: dict[str, list[Case]] = {
        "allow": [(case.sql, case.params) for case in ALLOW],
        "reject": [(case.sql, case.params) for case in REJECT],
    }
    corpora["mixed"] = corpora["allow"] + corpora["reject"]
    print(
        f"sqlglot {sqlglot.__version__}; {len(ALLOW)} allowed + {len(REJECT)} rejected queries; "
        f"{rounds} alternating rounds x {repeat} passes\n"
    )
    print(f"{'corpus':>7} | {'validate/s':>10} | {'parse/s':>8} | {'p99 validate':>12} | {'p99 parse':>9} | ratio")
    print("-" * 68)
    for name, cases in corpora.items():
        timed(validator, cases, 2)
        timed(bare_parse, cases, 2)
        validate_samples: list[float] = []
        parse_samples: list[float] = []
        for _ in range(rounds):
            validate_samples += timed(validator, cases, repeat)
            parse_samples += timed(bare_parse, cases, repeat)
        validate_mean, parse_mean = statistics.fmean(validate_samples), statistics.fmean(parse_samples)
        print(
            f"{name:>7} | {1 / validate_mean:>10.0f} | {1 / parse_mean:>8.0f} | "
            f"{p99(validate_samples) * 1e6:>9.0f} us | {p99(parse_samples) * 1e6:>6.0f} us | "
            f"{validate_mean / parse_mean:.2f}x"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    main(args.rounds, args.repeat)
