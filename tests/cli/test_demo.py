"""``superbiz demo --once``: the three questions end as expected and the command exits 0 (a separate process
with its own local Ray, as a user runs it), logging no error; ``superbiz runs`` then reads the three runs back."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def test_demo_once_exits_zero(tmp_path: Path) -> None:
    superbiz = Path(sys.executable).with_name("superbiz")
    env = {key: value for key, value in os.environ.items() if key != "SUPERBIZ_CONFIG"}
    result = subprocess.run(
        [str(superbiz), "demo", "--once", "--port", "0"],
        cwd=tmp_path,
        env={**env, "COLUMNS": "120"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert result.stdout.count("✓") == 3
    assert "诊断报告" in result.stdout and "安全降级" in result.stdout
    assert (tmp_path / "var" / "superbiz-audit.db").is_file()
    assert '"level": "ERROR"' not in result.stderr, result.stderr[-3000:]

    listed = subprocess.run(
        [str(superbiz), "runs", "list", "--since", "1h", "--json"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert listed.returncode == 0, listed.stderr
    runs = json.loads(listed.stdout)
    assert sorted((run["intent"], run["status"]) for run in runs) == [
        ("DIAGNOSIS", "FALLBACK"),
        ("DIAGNOSIS", "SUCCESS"),
        ("KNOWLEDGE_QUERY", "SUCCESS"),
    ]
