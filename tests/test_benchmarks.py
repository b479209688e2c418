"""Every benchmark still runs and prints its table (a smoke run with one round; figures live in README)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("script", "args", "expected"),
    [
        ("store.py", ["--rounds", "1"], "ratio"),
        ("sql_validate.py", ["--rounds", "1", "--repeat", "1"], "ratio"),
        ("projectors.py", ["--rounds", "1"], "query_mysql 10,000 rows"),
        ("audit.py", ["--runs", "20", "--concurrency", "1", "10", "--rounds", "1"], "commits/run"),
        ("model_client.py", ["--requests", "100", "--rounds", "1"], "ratio"),
        ("runtime.py", ["--quick", "--delays", "0", "--concurrency", "1"], "R=1, zero delay"),
        ("guards.py", ["--quick"], "Scaling efficiency up to 8 replicas"),
        ("load.py", ["--quick"], "server/baseline runs/s"),
        ("knowledge.py", ["--quick"], "p50 tantivy/bm25"),
    ],
)
def test_benchmark_runs(script: str, args: list[str], expected: str) -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert expected in result.stdout
