"""The durable audit store: ``AuditSink`` on SQLAlchemy Core (the tables of ``stores/audit/schema.py``).

Every record goes through one write, ``record``, and a group commit (``stores/audit/writer.py``): each write returns
once the transaction holding it has committed, and every write pending at a commit shares it (one INSERT per
table, then the finishes), so a run's writes cost a fraction of a commit each under load. ``previous_turn`` and
``last_turn`` are read back from ``diagnosis_run`` (§4.6): its ``published_result`` is the truth source of
``previous_turn``. Reads run in a worker thread and see every acknowledged write.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import ValidationError
from sqlalchemy import Insert, bindparam, func, insert, select, text, update
from sqlalchemy.dialects import mysql, sqlite
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from config.runtime import AuditSettings
from contract.clock import Clock, SystemClock
from harness.audit import AuditRecord, GuardCheck, ModelStep, RunFinished, RunStarted, ToolInvocation
from harness.messages import PreviousTurn
from stores.audit import migrations
from stores.audit.bounds import bounded_previous_turn
from stores.audit.engine import AuditDatabase
from stores.audit.migrations import SchemaChanges
from stores.audit.rows import (
    check_row,
    db_time,
    finished_values,
    session_touches,
    started_row,
    step_row,
    tool_row,
)
from stores.audit.schema import agent_step, chat_session, diagnosis_run, guard_check, tool_invocation
from stores.audit.trail import AuditTrail
from stores.audit.writer import GroupCommitWriter, WriteStats

log = logging.getLogger(__name__)

PING_TIMEOUT_S = 5.0


@dataclass(frozen=True)
class _Write:
    record: AuditRecord
    at: datetime
    """The store's clock when the write was asked for: ``created_at`` of a model step or tool invocation."""


class SqlAuditStore(AuditTrail):
    """``AuditSink`` on a SQL database, and the readers of its trail. Construction connects to nothing; call
    ``init_schema`` once (or run ``superbiz db init``) before the first write."""

    def __init__(self, settings: AuditSettings, clock: Clock | None = None) -> None:
        database = AuditDatabase(settings)
        super().__init__(database)
        self._settings = settings
        self._clock = clock or SystemClock()
        self._touch_session = _touch_session_statement(database.sqlite)
        self._insert_tool = _insert_tool_statement()
        self._writer = GroupCommitWriter(database.engine, self._write_batch, database.serialised, settings.outage_wait)

    @property
    def url(self) -> str:
        """The configured URL, without credentials (safe to print)."""
        return self._settings.url

    def close(self) -> None:
        """Commit the pending writes, then release the connections."""
        self._writer.close()
        self._database.engine.dispose()

    def write_stats(self) -> WriteStats:
        """Commits made and writes committed so far (e.g. commits per run in a benchmark)."""
        return self._writer.stats()

    def init_schema(self) -> SchemaChanges:
        """Bring the schema up to this version (``stores/audit/migrations.py``); idempotent."""
        with self._database.serialised():
            return migrations.init_schema(self._database.engine)

    def missing_tables(self) -> list[str]:
        """The audit tables the database lacks (all of them before ``init_schema``)."""
        with self._database.serialised():
            return migrations.missing_tables(self._database.engine)

    # -- AuditSink -------------------------------------------------------------------------------------------

    async def record(self, record: AuditRecord) -> None:
        await self._writer.write(_Write(record, self._clock.now()))

    async def last_turn(self, session_id: str) -> tuple[str | None, str | None]:
        return await self._database.call(self._last_turn, session_id)

    async def previous_turn(self, session_id: str) -> PreviousTurn | None:
        return await self._database.call(self._previous_turn, session_id)

    async def session_owner(self, session_id: str) -> str | None:
        return await self._database.call(self._session_owner, session_id)

    async def claim_session(self, session_id: str, principal: str) -> bool:
        return await self._database.call(self._claim_session, session_id, principal)

    async def ping(self) -> bool:
        try:
            return await asyncio.wait_for(self._database.call(self._ping), PING_TIMEOUT_S)
        except Exception as exc:
            log.warning("audit store unreachable: %s", type(exc).__name__)
            return False

    # -- the work, in the writer's or a worker thread -----------------------------------------------------------

    def _write_batch(self, connection: Connection, writes: Sequence[_Write]) -> None:
        """Write ``writes`` in one transaction: the sessions and started runs, the model steps and the tool
        invocations as one multi-row INSERT per table, then each finish in arrival order."""
        started = [write.record for write in writes if isinstance(write.record, RunStarted)]
        if started:
            connection.execute(self._touch_session, session_touches(started))
            connection.execute(insert(diagnosis_run), [started_row(record) for record in started])
        steps = [step_row(write.record, write.at) for write in writes if isinstance(write.record, ModelStep)]
        if steps:
            connection.execute(insert(agent_step), steps)
        preview_chars = self._settings.preview_chars
        tools = [
            tool_row(write.record, write.at, preview_chars)
            for write in writes
            if isinstance(write.record, ToolInvocation)
        ]
        if tools:
            connection.execute(self._insert_tool, tools)
        checks = [check_row(write.record, write.at) for write in writes if isinstance(write.record, GuardCheck)]
        if checks:
            connection.execute(insert(guard_check), checks)
        finished = [write.record for write in writes if isinstance(write.record, RunFinished)]
        if finished:
            _finish_runs(connection, finished)

    def _latest_finished(self, session_id: str, *columns: Any, diagnosis_only: bool = False) -> Any:
        query = select(*columns).where(
            diagnosis_run.c.session_id == session_id, diagnosis_run.c.release_outcome.is_not(None)
        )
        if diagnosis_only:
            query = query.where(diagnosis_run.c.intent == "DIAGNOSIS")
        query = query.order_by(
            diagnosis_run.c.finish_seq.desc(), diagnosis_run.c.finished_at.desc(), diagnosis_run.c.run_id.desc()
        ).limit(1)
        with self._database.engine.connect() as connection:
            return connection.execute(query).first()

    def _last_turn(self, session_id: str) -> tuple[str | None, str | None]:
        row = self._latest_finished(session_id, diagnosis_run.c.intent, diagnosis_run.c.query)
        return (row.intent, row.query) if row is not None else (None, None)

    def _previous_turn(self, session_id: str) -> PreviousTurn | None:
        row = self._latest_finished(
            session_id, diagnosis_run.c.release_outcome, diagnosis_run.c.published_result, diagnosis_only=True
        )
        if row is None or row.release_outcome != "SUCCESS" or not row.published_result:
            return None
        try:
            return bounded_previous_turn(
                row.published_result, self._settings.previous_turn_chars, self._settings.previous_turn_documents
            )
        except (ValidationError, TypeError):
            log.warning("published_result is not a previous turn; ignored", extra={"session_id": session_id})
            return None

    def _session_owner(self, session_id: str) -> str | None:
        with self._database.engine.connect() as connection:
            return connection.execute(
                select(chat_session.c.principal).where(chat_session.c.session_id == session_id)
            ).scalar_one_or_none()

    def _claim_session(self, session_id: str, principal: str) -> bool:
        now = db_time(self._clock.now())
        try:
            with self._database.engine.begin() as connection:
                connection.execute(
                    insert(chat_session).values(
                        session_id=session_id, principal=principal, created_at=now, last_active_at=now
                    )
                )
            return True
        except IntegrityError:  # the session exists: it is ours or it is not
            return self._session_owner(session_id) == principal

    def _ping(self) -> bool:
        with self._database.engine.connect() as connection:
            connection.execute(text("SELECT 1"))
        return True


def _touch_session_statement(sqlite_backend: bool) -> Insert:
    """Insert a session, or move the ``last_active_at`` of an existing one (never its owner)."""
    if sqlite_backend:
        upsert = sqlite.insert(chat_session)
        return upsert.on_conflict_do_update(
            index_elements=[chat_session.c.session_id], set_={"last_active_at": upsert.excluded.last_active_at}
        )
    mysql_upsert = mysql.insert(chat_session)
    return mysql_upsert.on_duplicate_key_update(last_active_at=mysql_upsert.inserted.last_active_at)


def _insert_tool_statement() -> Insert:
    """A tool row's ``step_id`` is the id of its run's step with the row's ``step_index``: that step was written
    first (in an earlier commit, or earlier in the same one), since the call was made after its reply."""
    requesting_step = (
        select(agent_step.c.id)
        .where(agent_step.c.run_id == bindparam("step_run_id"), agent_step.c.step_index == bindparam("step_index"))
        .order_by(agent_step.c.id)
        .limit(1)
        .scalar_subquery()
    )
    return insert(tool_invocation).values(step_id=requesting_step)


def _finish_runs(connection: Connection, finished: Sequence[RunFinished]) -> None:
    """A run has one terminal state: the first finish is kept (e.g. over a gateway's later SUPERVISOR_LOST). Each
    finish that lands takes its session's next ``finish_seq``, in arrival order."""
    last_seq: dict[str, int] = {
        session_id: seq or 0
        for session_id, seq in connection.execute(
            select(diagnosis_run.c.session_id, func.max(diagnosis_run.c.finish_seq))
            .where(diagnosis_run.c.session_id.in_(sorted({record.session_id for record in finished})))
            .group_by(diagnosis_run.c.session_id)
        )
    }
    for record in finished:
        seq = last_seq.get(record.session_id, 0) + 1
        updated = connection.execute(
            update(diagnosis_run)
            .where(diagnosis_run.c.run_id == record.run_id, diagnosis_run.c.release_outcome.is_(None))
            .values(**finished_values(record, seq))
        ).rowcount
        if updated:
            last_seq[record.session_id] = seq
        else:
            log.warning("run finished without an open started record", extra={"run_id": record.run_id})
