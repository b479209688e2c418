"""harness/ and tools/ are Ray-free: importing every module there never imports Ray."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_harness_and_tools_import_without_ray() -> None:
    modules = sorted(
        ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for package in ("harness", "tools", "config")
        for path in (ROOT / package).rglob("*.py")
        if path.name != "__init__.py"
    )
    assert "harness.invocation_store" in modules
    script = "; ".join([*(f"import {name}" for name in modules), "import sys", "print('ray' in sys.modules)"])
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"
