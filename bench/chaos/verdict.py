"""What the soak checks at the end, against the streams the clients read, the audit database and the logs.

- every stream the client did not cut ends well formed, with exactly one ``done``;
- every run id a client saw has its one ``diagnosis_run`` row, in a terminal state, and a stream that ended
  has the row's outcome and, byte for byte once parsed, its released content; each TOOL_FINISHED the stream
  showed has its ``tool_invocation`` row (no row lost) and no row is written twice. A supervisor killed with
  ``kill -9`` takes the writes it had not committed yet with it (milliseconds after each call): those of its
  runs (recorded ``SUPERVISOR_LOST``) are counted apart, not as a failure;
- no row of the audit database is left RUNNING;
- no credential of the soak and no secret of the demo data appears in any log, nor a prompt's text;
- each actor process that lived from the warm-up to the end kept its memory flat;
- every fault was recovered from within the bound.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pymysql

from bench.chaos.clients import Stream
from bench.chaos.faults import Fault

TERMINAL = frozenset({"SUCCESS", "FALLBACK", "FAILED", "CANCELLED"})
DEMO_SECRETS = ("Welcome2024!", "Passw0rd!23", "Tr0ub4dor&3", "at_9f8e7d6c5b4a", "Qm9ndXNTaWduYXR1cmVGb3JUZXN0c09ubHk")
"""Secrets written in the demo's mock logs: the projectors redact them, so no log may hold one."""
PROMPT_MARKERS = ("你是 SuperBiz 的故障诊断 Agent",)
ROWS_SETTLE_S = 90.0
"""How long the audit rows of the last runs may take to be written (a write waiting out an outage)."""
MEMORY_SLACK_MB = 48.0
MEMORY_SLACK_SHARE = 0.25


@dataclass
class Verdict:
    streams: int = 0
    cut: int = 0
    refused: int = 0
    without_done: list[str] = field(default_factory=list)
    malformed: list[str] = field(default_factory=list)
    lost_runs: list[str] = field(default_factory=list)
    not_terminal: list[str] = field(default_factory=list)
    mismatched: list[str] = field(default_factory=list)
    lost_tool_rows: list[str] = field(default_factory=list)
    lost_with_supervisor: list[str] = field(default_factory=list)
    """Tool rows a supervisor killed with -9 had not written yet (its runs are recorded SUPERVISOR_LOST)."""
    doubled_rows: list[str] = field(default_factory=list)
    running_rows: int = 0
    leaks: list[str] = field(default_factory=list)
    memory: dict[str, tuple[int, float, float]] = field(default_factory=dict)
    """title -> (processes compared, worst growth in MB, worst growth in the second half)."""
    memory_grew: list[str] = field(default_factory=list)
    unrecovered: list[str] = field(default_factory=list)

    def failures(self) -> dict[str, int]:
        checks = {
            "streams without done": self.without_done,
            "streams not well formed": self.malformed,
            "runs without a row (lost)": self.lost_runs,
            "runs not in one terminal state": self.not_terminal,
            "stream/audit mismatches": self.mismatched,
            "tool rows lost": self.lost_tool_rows,
            "rows written twice": self.doubled_rows,
            "secrets or prompts in logs": self.leaks,
            "actors whose memory grew": self.memory_grew,
            "faults not recovered in time": self.unrecovered,
        }
        counts = {name: len(found) for name, found in checks.items()}
        counts["rows left RUNNING"] = self.running_rows
        return counts

    @property
    def ok(self) -> bool:
        return not any(self.failures().values())


def judge(
    streams: Sequence[Stream],
    faults: Sequence[Fault],
    connect: Any,
    logs: Sequence[Path],
    secrets: Sequence[str],
    memory: dict[int, list[tuple[float, str, int]]],
    warm_up_until: float,
) -> Verdict:
    verdict = Verdict(streams=len(streams))
    for stream in streams:
        _judge_stream(verdict, stream)
    seen = [s for s in streams if s.run_id is not None]
    rows, tools, doubled, running = _settled_rows(connect, [s.run_id for s in seen if s.run_id])
    verdict.doubled_rows, verdict.running_rows = doubled, running
    for stream in seen:
        _judge_row(verdict, stream, rows.get(stream.run_id or ""), tools.get(stream.run_id or "", []))
    verdict.leaks = leaks(logs, secrets)
    verdict.memory, verdict.memory_grew = memory_growth(memory, warm_up_until)
    verdict.unrecovered = [f"{f.kind} at {f.detail}" for f in faults if f.recovered is None]
    return verdict


def _judge_stream(verdict: Verdict, stream: Stream) -> None:
    if stream.refused is not None:
        verdict.refused += 1
    elif stream.cut:
        verdict.cut += 1
    elif stream.outcome is None:
        verdict.without_done.append(f"{stream.run_id}: {stream.broken} after {stream.events}")
    elif not stream.well_formed:
        verdict.malformed.append(f"{stream.run_id}: {stream.events}")


def _judge_row(verdict: Verdict, stream: Stream, row: dict[str, Any] | None, tools: list[tuple[str, str]]) -> None:
    run = stream.run_id
    if row is None:
        verdict.lost_runs.append(str(run))
        return
    if row["status"] not in TERMINAL or row["release_outcome"] != row["status"]:
        verdict.not_terminal.append(f"{run}: {row['status']}/{row['release_outcome']}")
        return
    if stream.cut or stream.outcome is None:
        return
    stored = json.loads(row["released_content"]) if row["released_content"] is not None else None
    if row["status"] != stream.outcome or stored != stream.content:
        verdict.mismatched.append(f"{run}: stream {stream.outcome}, audit {row['status']}/{row['fallback_reason']}")
    missing = Counter(stream.tools) - Counter(tools)
    if missing:
        lost = verdict.lost_with_supervisor if row["fallback_reason"] == "SUPERVISOR_LOST" else verdict.lost_tool_rows
        lost.append(f"{run} ({row['fallback_reason']}): {sorted(missing.elements())}")


def _settled_rows(
    connect: Any, run_ids: list[str]
) -> tuple[dict[str, dict[str, Any]], dict[str, list[tuple[str, str]]], list[str], int]:
    """The rows of ``run_ids`` once none is RUNNING (or the settle time is up), their tool rows, the rows
    written twice, and how many rows of the whole database are still RUNNING."""
    deadline = time.monotonic() + ROWS_SETTLE_S
    while True:
        try:
            found = _read_rows(connect, run_ids)
        except pymysql.MySQLError:
            if time.monotonic() > deadline:
                raise
            time.sleep(1.0)
            continue
        if (found[3] == 0 and len(found[0]) == len(set(run_ids))) or time.monotonic() > deadline:
            return found
        time.sleep(1.0)


def _read_rows(
    connect: Any, run_ids: list[str]
) -> tuple[dict[str, dict[str, Any]], dict[str, list[tuple[str, str]]], list[str], int]:
    with connect() as connection, connection.cursor(pymysql.cursors.DictCursor) as cursor:
        cursor.execute("SELECT run_id, status, release_outcome, fallback_reason, released_content FROM diagnosis_run")
        rows = {row["run_id"]: row for row in cursor.fetchall()}
        cursor.execute("SELECT run_id, tool_name, evidence_status FROM tool_invocation")
        tools: dict[str, list[tuple[str, str]]] = {}
        for row in cursor.fetchall():
            tools.setdefault(row["run_id"], []).append((row["tool_name"], row["evidence_status"]))
        doubled = []
        for table, key in (
            ("tool_invocation", "run_id, tool_call_id"),
            ("agent_step", "run_id, step_index, agent_name, attempt"),
            ("guard_check", "run_id, check_index"),
        ):
            cursor.execute(f"SELECT {key}, COUNT(*) AS n FROM {table} GROUP BY {key} HAVING COUNT(*) > 1")
            doubled += [f"{table}: {row}" for row in cursor.fetchall()]
        running = sum(1 for row in rows.values() if row["status"] == "RUNNING")
    wanted = set(run_ids)
    return {k: v for k, v in rows.items() if k in wanted}, tools, doubled, running


def leaks(logs: Sequence[Path], secrets: Sequence[str]) -> list[str]:
    """``file: what`` for each secret or prompt found; a secret is named by its position, never printed."""
    needles = [(f"credential #{i + 1}", s) for i, s in enumerate(secrets)]
    needles += [(f"demo secret #{i + 1}", s) for i, s in enumerate(DEMO_SECRETS)]
    needles += [("prompt text", s) for s in PROMPT_MARKERS]
    found = []
    for path in logs:
        try:
            text = path.read_bytes()
        except OSError:
            continue
        found += [f"{path.name}: {name}" for name, needle in needles if needle.encode() in text]
    return found


def memory_growth(
    samples: dict[int, list[tuple[float, str, int]]], warm_up_until: float
) -> tuple[dict[str, tuple[int, float, float]], list[str]]:
    """Per process title: how many processes lived from the warm-up to the end, the worst RSS growth over that
    time, and the worst over its second half (a leak keeps growing; a warming cache levels off)."""
    by_title: dict[str, tuple[int, float, float]] = {}
    grew = []
    for pid, series in samples.items():
        after = [(at, rss / 2**20) for at, _, rss in series if at >= warm_up_until]
        if len(after) < 3 or series[0][0] > warm_up_until:
            continue
        title = series[0][1].split(".")[0]
        middle = after[0][0] + (after[-1][0] - after[0][0]) / 2
        first, half, last = after[0][1], min(after, key=lambda s: abs(s[0] - middle))[1], after[-1][1]
        count, worst, worst_late = by_title.get(title, (0, 0.0, 0.0))
        by_title[title] = (count + 1, max(worst, last - first), max(worst_late, last - half))
        if last - first > max(MEMORY_SLACK_MB, first * MEMORY_SLACK_SHARE):
            grew.append(f"{title} pid {pid}: {first:.0f} -> {half:.0f} -> {last:.0f} MB")
    return by_title, grew
