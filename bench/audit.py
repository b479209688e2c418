"""Audit writes through the store's group commit against one transaction per write, on SQLite (WAL, a file).

A run writes ten records, each awaited before the next, as the Harness does: its ``RunStarted``, five model
steps, three tool invocations, its ``RunFinished``. ``--runs`` runs are played by C concurrent simulated runs
(C = 1, 10, 200 by default) through ``SqlAuditStore`` (group commit) and through ``PerRowStore`` below, the
store's former write path kept here as the baseline: each write its own ``asyncio.to_thread`` -> lock ->
``engine.begin()`` (a pool checkout with its pre-ping ``SELECT 1``) -> COMMIT; a run start touches the session
first, in a transaction of its own. Both sides convert the same records the same way (redaction, caps).

Each measurement starts on an empty database file of its own; rounds alternate the two sides so machine noise
hits both, and the table shows medians:

* ``rows/s``: records committed per second of wall time;
* ``commits/run``: COMMITs per run (group: ``write_stats()``; per row: counted by the baseline);
* ``cpu ms/run``: CPU of the whole process (``time.process_time``: event loop and every thread) per run;
  ``loop ms/run``: the event-loop thread's own share (``time.thread_time``);
* ``ratio``: per-row CPU per run over group-commit CPU per run.

    python bench/audit.py [--runs 200] [--concurrency 1 10 200] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from sqlalchemy import Engine, Executable, func, insert, select, update
from sqlalchemy.exc import IntegrityError

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from config.runtime import AuditSettings
from harness.audit import AuditRecord, ModelStep, RunFinished, RunStarted, ToolInvocation
from stores.audit.bounds import MAX_ERROR_MESSAGE_CHARS, MAX_TEXT_CHARS, audit_params, audit_text
from stores.audit.schema import agent_step, chat_session, diagnosis_run, tool_invocation
from stores.audit.store import SqlAuditStore

RECORDS_PER_RUN = 10
SESSIONS = 50


class AuditWriter(Protocol):
    async def record(self, record: AuditRecord) -> None: ...


class PerRowStore:
    """The baseline: one transaction per write (a run start: two), as ``SqlAuditStore`` wrote before."""

    def __init__(self, engine: Engine, preview_chars: int) -> None:
        self._engine = engine
        self._preview_chars = preview_chars
        self._lock = threading.Lock()
        self.commits = 0

    async def record(self, record: AuditRecord) -> None:
        work: Callable[[Any], None]
        match record:
            case RunStarted():
                work = self._run_started
            case ModelStep():
                work = self._model_step
            case ToolInvocation():
                work = self._tool_invoked
            case RunFinished():
                work = self._run_finished
            case _:
                raise TypeError(f"the baseline does not write {type(record).__name__}")
        await asyncio.to_thread(self._locked, work, record)

    def _locked(self, work: Callable[[Any], None], record: Any) -> None:
        with self._lock:
            work(record)

    def _commit(self, statement: Executable) -> int:
        with self._engine.begin() as connection:
            rowcount = connection.execute(statement).rowcount
        self.commits += 1
        return rowcount

    def _run_started(self, record: RunStarted) -> None:
        started = record.started_at.astimezone(UTC).replace(tzinfo=None)
        touch = update(chat_session).where(chat_session.c.session_id == record.session_id)
        if not self._commit(touch.values(last_active_at=started)):
            try:
                self._commit(
                    insert(chat_session).values(
                        session_id=record.session_id,
                        principal=record.principal,
                        created_at=started,
                        last_active_at=started,
                    )
                )
            except IntegrityError:
                self._commit(touch.values(last_active_at=started))
        self._commit(
            insert(diagnosis_run).values(
                run_id=record.run_id,
                session_id=record.session_id,
                principal=record.principal,
                query=audit_text(record.query, MAX_TEXT_CHARS),
                status="RUNNING",
                started_at=started,
            )
        )

    def _model_step(self, record: ModelStep) -> None:
        self._commit(
            insert(agent_step).values(
                run_id=record.run_id,
                session_id=record.session_id,
                step_index=record.step_index,
                agent_name=record.role[:32],
                has_tool_call=record.has_tool_call,
                duration_ms=record.duration_ms,
                input_tokens=record.input_tokens,
                output_tokens=record.output_tokens,
                token_count=record.input_tokens + record.output_tokens,
                outcome=record.outcome[:64],
                created_at=datetime.now(UTC).replace(tzinfo=None),
            )
        )

    def _tool_invoked(self, record: ToolInvocation) -> None:
        self._commit(
            insert(tool_invocation).values(
                session_id=record.session_id,
                run_id=record.run_id,
                tool_name=record.tool_name[:64],
                input_params=audit_params(record.input_params),
                output_preview=audit_text(record.output_preview, self._preview_chars),
                output_length=record.output_length,
                is_truncated=record.is_truncated,
                retrieval_details={"evidence_status": record.evidence_status, "tool_call_id": record.tool_call_id},
                duration_ms=record.duration_ms,
                success=record.success,
                error_message=audit_text(record.error_message, MAX_ERROR_MESSAGE_CHARS),
                created_at=datetime.now(UTC).replace(tzinfo=None),
                tool_call_id=audit_text(record.tool_call_id, 128),
                evidence_status=record.evidence_status[:32],
                error_code=record.error_code,
            )
        )

    def _run_finished(self, record: RunFinished) -> None:
        with self._engine.begin() as connection:
            last = connection.execute(
                select(func.max(diagnosis_run.c.finish_seq)).where(diagnosis_run.c.session_id == record.session_id)
            ).scalar()
            connection.execute(
                update(diagnosis_run)
                .where(diagnosis_run.c.run_id == record.run_id, diagnosis_run.c.release_outcome.is_(None))
                .values(
                    intent=record.intent,
                    status=record.status,
                    release_outcome=record.status,
                    model_calls=record.model_calls,
                    input_tokens=record.input_tokens,
                    output_tokens=record.output_tokens,
                    total_tokens=record.input_tokens + record.output_tokens,
                    tool_call_count=record.tool_calls,
                    total_duration_ms=record.duration_ms,
                    finished_at=record.finished_at.astimezone(UTC).replace(tzinfo=None),
                    finish_seq=(last or 0) + 1,
                )
            )
        self.commits += 1


async def one_run(writer: AuditWriter, n: int) -> None:
    run_id, session_id, now = f"run-{n}", f"session-{n % SESSIONS}", datetime.now(UTC)
    await writer.record(RunStarted(run_id, session_id, "alice", "订单 order-123 支付超时，帮我排查", now))
    for index in range(1, 6):
        await writer.record(ModelStep(run_id, session_id, index, "agent", 850, 2400, 120, index <= 3, "OK", 1))
        if index <= 3:
            await writer.record(
                ToolInvocation(
                    run_id=run_id,
                    session_id=session_id,
                    tool_call_id=f"call_{index}",
                    tool_name="query_logs",
                    input_params={"topic": "APPLICATION", "query": "order-service HikariCP", "lookback_minutes": 30},
                    output_preview="2026-07-21 02:29:58 ERROR HikariPool-1 - Connection is not available " * 8,
                    output_length=5321,
                    evidence_status="EVIDENCE_FOUND",
                    is_truncated=True,
                    duration_ms=42,
                    success=True,
                    error_code=None,
                    error_message=None,
                )
            )
    await writer.record(
        RunFinished(run_id, session_id, "DIAGNOSIS", "SUCCESS", None, None, None, 5, 12000, 600, 3, 9000, now)
    )


async def play(writer: AuditWriter, runs: int, concurrency: int) -> None:
    """``runs`` runs, at most ``concurrency`` at a time."""
    numbers = iter(range(runs))

    async def worker() -> None:
        for n in numbers:
            await one_run(writer, n)

    await asyncio.gather(*(worker() for _ in range(concurrency)))


@dataclass(frozen=True)
class Figures:
    rows_per_s: float
    commits_per_run: float
    cpu_ms_per_run: float
    loop_ms_per_run: float


def measure(folder: Path, group: bool, runs: int, concurrency: int) -> Figures:
    path = folder / f"audit-{time.monotonic_ns()}.db"
    settings = AuditSettings(url=f"sqlite:///{path}")
    store = SqlAuditStore(settings)
    store.init_schema()
    baseline = PerRowStore(store.engine, settings.preview_chars)
    writer: AuditWriter = store if group else baseline
    try:
        wall, cpu, loop = time.perf_counter(), time.process_time(), time.thread_time()
        asyncio.run(play(writer, runs, concurrency))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        loop = time.thread_time() - loop
        commits = store.write_stats().commits if group else baseline.commits
    finally:
        store.close()
        path.unlink(missing_ok=True)
    return Figures(runs * RECORDS_PER_RUN / wall, commits / runs, cpu * 1e3 / runs, loop * 1e3 / runs)


def main(runs: int, levels: list[int], rounds: int) -> None:
    print(f"{runs} runs x {RECORDS_PER_RUN} records per measurement, SQLite WAL file; median of {rounds} rounds\n")
    header = f"{'C':>4} | {'side':>9} | {'rows/s':>7} | {'commits/run':>11} | {'cpu ms/run':>10} | {'loop ms/run':>11}"
    print(f"{header} | ratio")
    print("-" * (len(header) + 8))
    with tempfile.TemporaryDirectory(prefix="superbiz-bench-audit-") as folder:
        for concurrency in levels:
            measure(Path(folder), True, max(1, runs // 10), concurrency)  # warm-up: imports, first connections
            results: dict[bool, list[Figures]] = {True: [], False: []}
            for _ in range(rounds):
                for group in (True, False):
                    results[group].append(measure(Path(folder), group, runs, concurrency))
            medians = {
                group: Figures(
                    *(statistics.median(getattr(f, name) for f in figures) for name in Figures.__annotations__)
                )
                for group, figures in results.items()
            }
            for group, label in ((True, "group"), (False, "per-row")):
                m = medians[group]
                ratio = f"{medians[False].cpu_ms_per_run / medians[True].cpu_ms_per_run:.2f}x" if group else ""
                print(
                    f"{concurrency:>4} | {label:>9} | {m.rows_per_s:>7.0f} | {m.commits_per_run:>11.2f} | "
                    f"{m.cpu_ms_per_run:>10.2f} | {m.loop_ms_per_run:>11.2f} | {ratio}".rstrip()
                )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 10, 200])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    main(args.runs, args.concurrency, args.rounds)
