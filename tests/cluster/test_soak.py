"""The chaos soak's short version (``bench/soak.py --minutes 1.5``): a head and two worker nodes started with
the ``ray`` CLI, a private Redis and MariaDB, two gateways, eight clients, and faults thrown one after another.
It passes only when every check of ``bench/chaos/verdict.py`` finds nothing: every uncut stream ended with one
``done``, every run seen has its one terminal row agreeing with its stream, no row lost or written twice, no
secret in a log, flat actor memory, and each fault recovered from in time."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOAK_TIMEOUT_S = 1200
LEAST_FAULTS = 4


def test_the_short_soak_ends_every_run_once_through_its_faults(tmp_path: Path) -> None:
    summary_path = tmp_path / "soak.json"
    done = subprocess.run(
        [sys.executable, "bench/soak.py", "--minutes", "1.5", "--min-gap", "2", "--max-gap", "6",
         "--json", str(summary_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=SOAK_TIMEOUT_S, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-4000:]
    summary = json.loads(summary_path.read_text())
    assert summary["ok"] and not any(summary["failures"].values()), summary["failures"]
    injected = {row["kind"]: row["injected"] for row in summary["faults"]}
    assert sum(injected.values()) >= LEAST_FAULTS, injected
    assert all(row["unrecovered"] == 0 for row in summary["faults"]), summary["faults"]
    assert summary["requests"] > 20
