"""Ray started the way users start it (the ``ray`` CLI) for the cluster tests, and stopped without ``ray stop``."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RAY = Path(sys.executable).with_name("ray")


def clean_env(home: Path) -> dict[str, str]:
    """This process's environment without any Ray address, token or mode, and with ``home`` as HOME."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_") and k != "SUPERBIZ_CONFIG"}
    return {**env, "HOME": str(home), "PYTHONPATH": str(ROOT)}


def kill_processes_under(base: Path, port: int) -> None:
    """The head's processes and all their descendants: those whose command line names ``base`` (its temp dir)
    or its port, and every process below them (Ray renames some, e.g. ``ray::DashboardAgent``). ``ray stop``
    would stop every Ray on the machine, the test session's own included."""
    names = re.compile(re.escape(str(base)).encode() + b"|[:=]" + str(port).encode() + rb"(\x00|$)")
    children: dict[int, list[int]] = {}
    roots = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        with contextlib.suppress(OSError, ValueError, IndexError):
            stat = Path(f"/proc/{entry}/stat").read_bytes()
            children.setdefault(int(stat[stat.rindex(b")") + 2 :].split()[1]), []).append(int(entry))
            if names.search(Path(f"/proc/{entry}/cmdline").read_bytes()):
                roots.append(int(entry))
    doomed, todo = set(), list(roots)
    while todo:
        pid = todo.pop()
        if pid != os.getpid() and pid not in doomed:
            doomed.add(pid)
            todo.extend(children.get(pid, []))
    for pid in doomed:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
