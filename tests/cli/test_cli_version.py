"""``superbiz --version`` prints the installed version and exits 0, with no command and no configuration."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version

import pytest

from cli.main import main


def test_version_prints_the_installed_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out.strip() == f"superbiz {version('superbiz-harness')}"


def test_version_through_the_installed_command() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "cli.main", "--version"], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"superbiz {version('superbiz-harness')}"
