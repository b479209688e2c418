"""The audit trail as it is read back: a run, its model steps, tool invocations and guard checks, the runs since
a moment (``superbiz runs``, tests and tooling). Reads see every acknowledged write."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine

from stores.audit.engine import AuditDatabase
from stores.audit.rows import db_time, from_row
from stores.audit.schema import agent_step, diagnosis_run, guard_check, tool_invocation


class AuditTrail:
    """The readers of the audit tables of ``database``."""

    def __init__(self, database: AuditDatabase) -> None:
        self._database = database

    @property
    def engine(self) -> Engine:
        return self._database.engine

    async def run(self, run_id: str) -> dict[str, Any] | None:
        rows = await self._database.call(self._select, select(diagnosis_run).where(diagnosis_run.c.run_id == run_id))
        return rows[0] if rows else None

    async def steps(self, run_id: str) -> list[dict[str, Any]]:
        return await self._database.call(
            self._select, select(agent_step).where(agent_step.c.run_id == run_id).order_by(agent_step.c.id)
        )

    async def tool_invocations(self, run_id: str) -> list[dict[str, Any]]:
        query = select(tool_invocation).where(tool_invocation.c.run_id == run_id).order_by(tool_invocation.c.id)
        return await self._database.call(self._select, query)

    async def guard_checks(self, run_id: str) -> list[dict[str, Any]]:
        query = select(guard_check).where(guard_check.c.run_id == run_id).order_by(guard_check.c.check_index)
        return await self._database.call(self._select, query)

    async def run_ids_starting_with(self, prefix: str, limit: int = 2) -> list[str]:
        """Up to ``limit`` run ids that start with ``prefix`` (an id shortened for a terminal)."""
        query = (
            select(diagnosis_run.c.run_id)
            .where(diagnosis_run.c.run_id.startswith(prefix, autoescape=True))
            .order_by(diagnosis_run.c.run_id)
            .limit(limit)
        )
        return [row["run_id"] for row in await self._database.call(self._select, query)]

    async def runs(self, since: datetime, outcome: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        """Runs started at or after ``since``, newest first, without their published result or released content;
        ``outcome`` (SUCCESS, FALLBACK, FAILED, CANCELLED or RUNNING) keeps only runs in that state."""
        left_out = {"published_result", "released_content", "cited_tool_calls"}
        columns = [column for column in diagnosis_run.columns if column.name not in left_out]
        query = select(*columns).where(diagnosis_run.c.started_at >= db_time(since))
        if outcome is not None:
            query = query.where(diagnosis_run.c.status == outcome)
        query = query.order_by(diagnosis_run.c.started_at.desc(), diagnosis_run.c.run_id).limit(limit)
        return await self._database.call(self._select, query)

    def _select(self, query: Any) -> list[dict[str, Any]]:
        with self._database.engine.connect() as connection:
            return [from_row(row._mapping) for row in connection.execute(query)]


def released_content(run: Mapping[str, Any]) -> dict[str, Any] | None:
    """A ``diagnosis_run`` row's released content, parsed (None when the run released none, or an older version
    recorded it)."""
    stored = run.get("released_content")
    if not stored:
        return None
    try:
        parsed = json.loads(stored)
    except ValueError:
        return None
    return parsed if isinstance(parsed, dict) else None
