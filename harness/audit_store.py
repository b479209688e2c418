"""The durable audit store: ``AuditSink`` on SQLAlchemy Core, SQLite by default, MySQL/MariaDB through pymysql.

Five tables (``init_schema`` creates them):

* ``chat_session``: one row per session, owned by the principal that claimed it first;
* ``diagnosis_run``: one row per run, inserted RUNNING at ``run_started`` and completed at ``run_finished``.
  ``release_outcome`` stays NULL until the run finishes, so a run that crashed mid-way is never SUCCESS.
  ``released_content`` is the run's ``content`` event data as the client received it (the same JSON text the
  gateway sends), written by the finish itself; ``cited_tool_calls`` names the tool call behind each reference of
  a released report;
* ``agent_step``: one row per model attempt of any role (metadata only: role, attempt number, tokens,
  duration, outcome or failure kind);
* ``tool_invocation``: one row per tool call (the columns of the seed's table plus ``tool_call_id``,
  ``evidence_status`` and ``error_code``); ``output_preview`` is bounded, the raw response is never stored.
  ``step_id`` is the ``agent_step.id`` of the model step that asked for the call (NULL for the Harness's own
  knowledge lookup);
* ``guard_check``: one row per guard decision (each EvidenceGuard check with its failure codes, the
  SemanticGuard's verdict).

Audit records carry metadata, never prompts or raw tool responses. ``previous_turn`` and ``last_turn`` are
read back from ``diagnosis_run`` (§4.6): its ``published_result`` is the truth source of ``previous_turn``.

Writes go through a group commit (``harness/audit_writer.py``): each one returns once the transaction holding
it has committed, and every write pending at a commit shares it (one INSERT per table, then the finishes), so
a run's writes cost a fraction of a commit each under load. Reads run in a worker thread (``asyncio.to_thread``)
on a small pool and see every acknowledged write. SQLite serialises its writers anyway; here the store
serialises its own calls with a lock (an in-memory ``sqlite://`` database is one shared connection).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from pydantic import ValidationError
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Index,
    Insert,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    event,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.dialects import mysql, sqlite
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.pool import StaticPool
from sqlalchemy.schema import CreateIndex, CreateTable, ExecutableDDLElement

from config.schema import AuditSettings
from contract.clock import Clock, SystemClock
from contract.secrets import redact
from harness.agent import PreviousTurn
from harness.audit import GuardCheck, ModelStep, RunFinished, RunStarted, ToolInvocation
from harness.audit_writer import GroupCommitWriter, WriteStats

log = logging.getLogger(__name__)

T = TypeVar("T")

MAX_ERROR_MESSAGE_CHARS = 1000
MAX_TEXT_CHARS = 16000
"""A MySQL TEXT holds 65,535 bytes: 16,000 characters of 4-byte UTF-8."""
MAX_PARAMS_CHARS = 4000
"""Serialised ``tool_invocation.input_params`` beyond this is replaced by a marked, cut preview."""
MAX_GUARD_REASON_CHARS = 2000
PING_TIMEOUT_S = 5.0
TRUNCATION_MARK = "…"

# -- the schema ------------------------------------------------------------------------------------------------

_DATETIME = DateTime().with_variant(mysql.DATETIME(fsp=6), "mysql", "mariadb")
_BIGINT_ID = BigInteger().with_variant(Integer(), "sqlite")  # SQLite autoincrements INTEGER PRIMARY KEY only
_JSON = JSON(none_as_null=True)
_LONG_TEXT = Text().with_variant(mysql.LONGTEXT(), "mysql", "mariadb")
# utf8mb4_bin: ids compare exactly (as on SQLite); a case-insensitive collation would make "Session-A" and
# "session-a" one session, shared by two principals.
_TABLE_OPTIONS = {
    "mysql_engine": "InnoDB",
    "mysql_charset": "utf8mb4",
    "mysql_collate": "utf8mb4_bin",
    "mariadb_engine": "InnoDB",
    "mariadb_charset": "utf8mb4",
    "mariadb_collate": "utf8mb4_bin",
}

METADATA = MetaData()

chat_session = Table(
    "chat_session",
    METADATA,
    Column("session_id", String(64), primary_key=True),
    Column("principal", String(128), nullable=False),
    Column("created_at", _DATETIME, nullable=False),
    Column("last_active_at", _DATETIME, nullable=False),
    **_TABLE_OPTIONS,
)

diagnosis_run = Table(
    "diagnosis_run",
    METADATA,
    Column("run_id", String(64), primary_key=True),
    Column("session_id", String(64), nullable=False),
    Column("principal", String(128), nullable=False),
    Column("query", Text, nullable=False),
    Column("intent", String(32)),
    Column("status", String(16), nullable=False),
    Column("release_outcome", String(16)),
    Column("fallback_type", String(64)),
    Column("fallback_reason", String(128)),
    Column("published_result", _JSON),
    Column("guard_verdict", String(32)),
    Column("guard_reason", Text),
    Column("model_calls", Integer),
    Column("input_tokens", Integer),
    Column("output_tokens", Integer),
    Column("total_tokens", Integer),
    Column("tool_call_count", Integer),
    Column("total_duration_ms", Integer),
    Column("started_at", _DATETIME, nullable=False),
    Column("finished_at", _DATETIME),
    # The order in which the session's runs finished (1, 2, ...): "the latest finished run" must not depend
    # on clock resolution (two runs can finish within one tick).
    Column("finish_seq", BigInteger),
    # The content event's data as sent, kept as its JSON text (a JSON column on MySQL reorders object keys): what
    # the user saw, byte for byte. NULL for a run that sent no content (a failure, a cancellation).
    Column("released_content", _LONG_TEXT),
    Column("cited_tool_calls", _JSON),
    # session_id lookups use the leading column of these two indexes.
    Index("idx_diagnosis_run_session_started", "session_id", "started_at"),
    Index("idx_diagnosis_run_session_finish", "session_id", "finish_seq"),
    Index("idx_diagnosis_run_started", "started_at"),
    **_TABLE_OPTIONS,
)

# The seed's agent_step also has model_input / model_output / thought summaries. They are left out on
# purpose: the audit never holds prompts or model text, and a column that must stay NULL invites filling it.
agent_step = Table(
    "agent_step",
    METADATA,
    Column("id", _BIGINT_ID, primary_key=True, autoincrement=True),
    Column("run_id", String(64), nullable=False),
    Column("session_id", String(64), nullable=False),
    Column("step_index", Integer, nullable=False),
    Column("agent_name", String(32), nullable=False),
    Column("has_tool_call", Boolean, nullable=False),
    Column("duration_ms", Integer),
    Column("input_tokens", Integer),
    Column("output_tokens", Integer),
    Column("token_count", Integer),
    Column("outcome", String(64), nullable=False),
    Column("created_at", _DATETIME, nullable=False),
    Column("attempt", Integer),
    Index("idx_agent_step_run_id", "run_id"),
    **_TABLE_OPTIONS,
)

tool_invocation = Table(
    "tool_invocation",
    METADATA,
    Column("id", _BIGINT_ID, primary_key=True, autoincrement=True),
    Column("session_id", String(64), nullable=False),
    Column("run_id", String(64)),
    Column("step_id", BigInteger),
    Column("tool_name", String(64), nullable=False),
    Column("input_params", _JSON, nullable=False),
    Column("output_preview", Text),
    Column("output_length", Integer),
    Column("retrieval_layer", String(8)),
    Column("l0_match_count", Integer),
    Column("l1_match_count", Integer),
    Column("is_truncated", Boolean),
    Column("relevance_level", String(20)),
    Column("dedup_reason", String(32)),
    Column("retrieval_details", _JSON),
    Column("duration_ms", Integer),
    Column("success", Boolean),
    Column("error_message", Text),
    Column("created_at", _DATETIME, nullable=False),
    Column("tool_call_id", String(128)),
    Column("evidence_status", String(32)),
    Column("error_code", String(64)),
    Index("idx_session_id", "session_id"),
    Index("idx_tool_invocation_run_id", "run_id", "id"),
    Index("idx_tool_name", "tool_name"),
    Index("idx_retrieval_layer", "retrieval_layer"),
    **_TABLE_OPTIONS,
)

guard_check = Table(
    "guard_check",
    METADATA,
    Column("id", _BIGINT_ID, primary_key=True, autoincrement=True),
    Column("run_id", String(64), nullable=False),
    Column("session_id", String(64), nullable=False),
    Column("check_index", Integer, nullable=False),
    Column("guard", String(16), nullable=False),
    Column("verdict", String(16), nullable=False),
    Column("step_index", Integer),
    Column("failure_codes", _JSON, nullable=False),
    Column("failures", _JSON, nullable=False),
    Column("created_at", _DATETIME, nullable=False),
    Index("idx_guard_check_run_id", "run_id", "check_index"),
    **_TABLE_OPTIONS,
)

ADDED_COLUMNS = frozenset(
    {("agent_step", "attempt"), ("diagnosis_run", "released_content"), ("diagnosis_run", "cited_tool_calls")}
)
"""Nullable columns a later version added to an existing table: ``init_schema`` adds them (ALTER TABLE ADD
COLUMN); rows written before keep NULL there. Any other missing column needs a migration by hand."""

MAX_CHECK_FAILURES = 50
MAX_FAILURE_MESSAGE_CHARS = 300

TABLES = tuple(METADATA.tables)
"""The audit tables, in the order a reader meets them."""


AuditRecord = RunStarted | ModelStep | ToolInvocation | GuardCheck | RunFinished


@dataclass(frozen=True)
class _Write:
    record: AuditRecord
    at: datetime
    """The store's clock when the write was asked for: ``created_at`` of a model step or tool invocation."""


class AddColumn(ExecutableDDLElement):
    """``ALTER TABLE t ADD COLUMN c <type>`` for a nullable column of this schema."""

    def __init__(self, column: Column[Any]) -> None:
        self.column = column


@compiles(AddColumn)
def _compile_add_column(element: AddColumn, compiler: Any, **kw: Any) -> str:
    column = element.column
    return (
        f"ALTER TABLE {compiler.preparer.format_table(column.table)} "
        f"ADD COLUMN {compiler.get_column_specification(column)}"
    )


class AuditSchemaError(Exception):
    """The database holds an audit table that lacks columns this version writes: it needs a migration."""


@dataclass(frozen=True)
class SchemaChanges:
    created_tables: tuple[str, ...]
    created_indexes: tuple[str, ...]
    added_columns: tuple[str, ...]


# -- helpers ---------------------------------------------------------------------------------------------------


def _db_time(moment: datetime) -> datetime:
    """Stored as naive UTC (MySQL DATETIME has no zone); a naive input is taken as UTC."""
    return moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment


def _row(mapping: Mapping[str, Any]) -> dict[str, Any]:
    return {
        key: value.replace(tzinfo=UTC) if isinstance(value, datetime) and value.tzinfo is None else value
        for key, value in mapping.items()
    }


def _clip(value: str | None, limit: int) -> str | None:
    return value if value is None or len(value) <= limit else value[:limit]


def cut_text(value: str, limit: int) -> str:
    """``value`` if it fits in ``limit`` characters, else its first ``limit - 1`` and a truncation mark."""
    return value if len(value) <= limit else value[: limit - 1] + TRUNCATION_MARK


def audit_text(value: str | None, limit: int) -> str | None:
    """Model-, tool- or user-supplied text as the audit keeps it: redacted, then cut with a truncation mark."""
    return None if value is None else cut_text(redact(value)[0], limit)


def audit_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """Tool arguments as the audit keeps them: redacted strings; when their JSON is longer than
    ``MAX_PARAMS_CHARS``, a marked preview instead (``{"truncated": true, "chars": N, "preview": "…"}``)."""
    redacted = _redact_values(dict(params))
    serialised = _json_dumps(redacted)
    if len(serialised) <= MAX_PARAMS_CHARS:
        return redacted
    return {"truncated": True, "chars": len(serialised), "preview": cut_text(serialised, MAX_PARAMS_CHARS)}


def _redact_values(value: Any) -> Any:
    if isinstance(value, str):
        return redact(value)[0]
    if isinstance(value, dict):
        return {str(key): _redact_values(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_redact_values(item) for item in value]
    return value


def bounded_previous_turn(published: Mapping[str, Any], max_chars: int, max_documents: int) -> PreviousTurn:
    """``previous_turn`` from a run's ``published_result``, deterministically bounded field by field: each text
    (the query, conclusion, scope, every limitation, every document title) is cut to ``max_chars``; only the
    first ``max_documents`` source documents are kept. Document ids are never cut (a cut id names nothing).
    Raises ``ValidationError`` if ``published`` is not a published result."""
    turn = PreviousTurn.model_validate(dict(published))
    return PreviousTurn(
        user_query=cut_text(turn.user_query, max_chars),
        published_conclusion=None
        if turn.published_conclusion is None
        else cut_text(turn.published_conclusion, max_chars),
        scope=cut_text(turn.scope, max_chars),
        limitations=[cut_text(item, max_chars) for item in turn.limitations],
        source_documents=[
            {key: value if key == "document_id" else cut_text(value, max_chars) for key, value in document.items()}
            for document in turn.source_documents[:max_documents]
        ],
    )


def _json_dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def released_text(content: Mapping[str, Any]) -> str:
    """A content event's data as the gateway serialises it on the SSE stream (``json.dumps``, non-ASCII kept)."""
    return json.dumps(dict(content), ensure_ascii=False)


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


def _is_memory(url: URL) -> bool:
    return url.database in (None, "", ":memory:")


def connect_url(settings: AuditSettings) -> URL:
    """The URL the engine connects with: the configured one plus ``username``/``password`` (never logged)."""
    url = make_url(settings.url)
    if settings.username is not None:
        url = url.set(username=settings.username)
    if settings.password is not None:
        url = url.set(password=settings.password.reveal())
    if url.get_backend_name() != "sqlite" and "charset" not in url.query:
        url = url.update_query_dict({"charset": "utf8mb4"})
    return url


def _create_engine(url: URL) -> Engine:
    common: dict[str, Any] = {"json_serializer": _json_dumps, "hide_parameters": True}
    if url.get_backend_name() == "sqlite":
        if _is_memory(url):
            return create_engine(url, poolclass=StaticPool, connect_args={"check_same_thread": False}, **common)
        database = url.database or ""
        if not database.startswith("file:"):
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(
            url, pool_size=2, max_overflow=2, connect_args={"check_same_thread": False, "timeout": 30}, **common
        )
        # Several processes (every supervisor of a local cluster) write the same file: WAL lets readers and one
        # writer work at once instead of failing on "database is locked".
        event.listen(engine, "connect", lambda connection, _: connection.execute("PRAGMA journal_mode=WAL"))
        return engine
    # A server may close an idle connection (a restart, wait_timeout): each checkout checks it first. A SQLite
    # file has no server, so its connections are never checked.
    return create_engine(
        url,
        pool_pre_ping=True,
        pool_size=2,
        max_overflow=4,
        pool_timeout=10,
        pool_recycle=1800,
        connect_args={"connect_timeout": 5, "read_timeout": 30, "write_timeout": 30},
        **common,
    )


# -- the rows of a batch -----------------------------------------------------------------------------------------


def _touch_session_statement(sqlite_backend: bool) -> Insert:
    """Insert a session, or move the ``last_active_at`` of an existing one (never its owner)."""
    if sqlite_backend:
        upsert = sqlite.insert(chat_session)
        return upsert.on_conflict_do_update(
            index_elements=[chat_session.c.session_id], set_={"last_active_at": upsert.excluded.last_active_at}
        )
    mysql_upsert = mysql.insert(chat_session)
    return mysql_upsert.on_duplicate_key_update(last_active_at=mysql_upsert.inserted.last_active_at)


def _session_touches(started: Sequence[RunStarted]) -> list[dict[str, Any]]:
    """One row per session: a new session belongs to the principal of its first run and was active at its last;
    sorted by id so that concurrent writers lock sessions in one order."""
    sessions: dict[str, dict[str, Any]] = {}
    for record in started:
        moment = _db_time(record.started_at)
        row = sessions.setdefault(
            record.session_id, {"session_id": record.session_id, "principal": record.principal, "created_at": moment}
        )
        row["last_active_at"] = moment
    return [sessions[session_id] for session_id in sorted(sessions)]


def _started_row(record: RunStarted) -> dict[str, Any]:
    return {
        "run_id": record.run_id,
        "session_id": record.session_id,
        "principal": record.principal,
        "query": audit_text(record.query, MAX_TEXT_CHARS),
        "status": "RUNNING",
        "started_at": _db_time(record.started_at),
    }


def _step_row(record: ModelStep, at: datetime) -> dict[str, Any]:
    return {
        "run_id": record.run_id,
        "session_id": record.session_id,
        "step_index": record.step_index,
        "agent_name": _clip(record.role, 32),
        "has_tool_call": record.has_tool_call,
        "duration_ms": record.duration_ms,
        "input_tokens": record.input_tokens,
        "output_tokens": record.output_tokens,
        "token_count": record.input_tokens + record.output_tokens,
        "outcome": _clip(record.outcome, 64),
        "created_at": _db_time(at),
        "attempt": record.attempt,
    }


def _check_row(record: GuardCheck, at: datetime) -> dict[str, Any]:
    failures = record.failures[:MAX_CHECK_FAILURES]
    return {
        "run_id": record.run_id,
        "session_id": record.session_id,
        "check_index": record.check_index,
        "guard": _clip(record.guard, 16),
        "verdict": _clip(record.verdict, 16),
        "step_index": record.step_index,
        "failure_codes": [_clip(code, 64) for code, _ in failures],
        "failures": [
            {"code": _clip(code, 64), "message": audit_text(message, MAX_FAILURE_MESSAGE_CHARS)}
            for code, message in failures
        ],
        "created_at": _db_time(at),
    }


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


def _run_counts(record: RunFinished) -> dict[str, Any]:
    """The run's counters as its writer knew them, or, for each it could not know (None), counted from the
    rows the run left (a lost supervisor's run): either way they agree with the child rows."""

    def rows(table: Table, value: Any) -> Any:
        return select(func.coalesce(value, 0)).where(table.c.run_id == record.run_id).scalar_subquery()

    counted = {
        "model_calls": rows(agent_step, func.count()) if record.model_calls is None else record.model_calls,
        "input_tokens": rows(agent_step, func.sum(agent_step.c.input_tokens))
        if record.input_tokens is None
        else record.input_tokens,
        "output_tokens": rows(agent_step, func.sum(agent_step.c.output_tokens))
        if record.output_tokens is None
        else record.output_tokens,
        "tool_call_count": rows(tool_invocation, func.count()) if record.tool_calls is None else record.tool_calls,
    }
    if record.input_tokens is None or record.output_tokens is None:
        counted["total_tokens"] = rows(agent_step, func.sum(agent_step.c.token_count))
    else:
        counted["total_tokens"] = record.input_tokens + record.output_tokens
    return counted


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
            .values(
                intent=_clip(record.intent, 32),
                status=record.status,
                release_outcome=record.status,
                fallback_type=_clip(record.fallback_type, 64),
                fallback_reason=_clip(record.fallback_reason, 128),
                published_result=dict(record.published_result) if record.published_result else None,
                guard_verdict=_clip(record.guard_verdict, 32),
                guard_reason=audit_text(record.guard_reason, MAX_GUARD_REASON_CHARS),
                **_run_counts(record),
                total_duration_ms=record.duration_ms,
                finished_at=_db_time(record.finished_at),
                finish_seq=seq,
                released_content=None if record.released_content is None else released_text(record.released_content),
                cited_tool_calls=None
                if record.cited_tool_calls is None
                else [
                    {"ref": _clip(cited["ref"], 16), "tool_call_id": audit_text(cited["tool_call_id"], 128)}
                    for cited in record.cited_tool_calls
                ],
            )
        ).rowcount
        if updated:
            last_seq[record.session_id] = seq
        else:
            log.warning("run finished without an open started record", extra={"run_id": record.run_id})


# -- the store -------------------------------------------------------------------------------------------------


class SqlAuditStore:
    """``AuditSink`` on a SQL database. Construction connects to nothing; call ``init_schema`` once (or run
    ``superbiz db init``) before the first write."""

    def __init__(self, settings: AuditSettings, clock: Clock | None = None) -> None:
        self._settings = settings
        self._clock = clock or SystemClock()
        url = connect_url(settings)
        self._sqlite = url.get_backend_name() == "sqlite"
        self._engine = _create_engine(url)
        self._lock = threading.Lock()
        self._touch_session = _touch_session_statement(self._sqlite)
        self._insert_tool = _insert_tool_statement()
        self._writer = GroupCommitWriter(self._engine, self._write_batch, self._serialised, settings.outage_wait)

    @property
    def url(self) -> str:
        """The configured URL, without credentials (safe to print)."""
        return self._settings.url

    @property
    def engine(self) -> Engine:
        return self._engine

    def close(self) -> None:
        """Commit the pending writes, then release the connections."""
        self._writer.close()
        self._engine.dispose()

    def write_stats(self) -> WriteStats:
        """Commits made and writes committed so far (e.g. commits per run in a benchmark)."""
        return self._writer.stats()

    # -- schema ----------------------------------------------------------------------------------------------

    def init_schema(self) -> SchemaChanges:
        """Create what is missing (tables, and indexes of existing tables); idempotent.

        Safe to call from several processes at once (every supervisor of a pool does when it starts): a table,
        index or column that another process created first is not an error. It adds the nullable columns a
        later version added (``ADDED_COLUMNS``) and never alters an existing column: a table that lacks any
        other column this version writes raises ``AuditSchemaError`` and needs a migration (ALTER TABLE) first.
        """
        with self._serialised():
            inspector = inspect(self._engine)
            existing = set(inspector.get_table_names())
            missing_columns: list[str] = []
            addable: list[Column[Any]] = []
            for table in METADATA.tables.values():
                if table.name in existing:
                    present = {column["name"] for column in inspector.get_columns(table.name)}
                    for column in table.columns:
                        if column.name in present:
                            continue
                        if (table.name, column.name) in ADDED_COLUMNS:
                            addable.append(column)
                        else:
                            missing_columns.append(f"{table.name}.{column.name}")
            if missing_columns:
                raise AuditSchemaError(
                    "the audit schema is older than this version (missing "
                    + ", ".join(missing_columns)
                    + "): migrate it with ALTER TABLE"
                )
            added_columns = tuple(
                f"{column.table.name}.{column.name}"
                for column in addable
                if self._create(AddColumn(column), functools.partial(self._has_column, column))
            )
            created_tables = tuple(
                table.name
                for table in METADATA.sorted_tables
                if table.name not in existing
                and self._create(CreateTable(table), functools.partial(self._has_table, table.name))
            )
            created_indexes: list[str] = []
            for table in METADATA.sorted_tables:
                present_indexes = {index["name"] for index in inspect(self._engine).get_indexes(table.name)}
                for index in sorted(table.indexes, key=lambda index: str(index.name)):
                    created = index.name not in present_indexes and self._create(
                        CreateIndex(index), functools.partial(self._has_index, table.name, str(index.name))
                    )
                    if created and table.name not in created_tables:
                        created_indexes.append(str(index.name))
        return SchemaChanges(created_tables, tuple(created_indexes), added_columns)

    def missing_tables(self) -> list[str]:
        """The audit tables the database lacks (all of them before ``init_schema``)."""
        with self._serialised():
            present = set(inspect(self._engine).get_table_names())
        return [name for name in TABLES if name not in present]

    def _create(self, statement: ExecutableDDLElement, exists: Callable[[], bool]) -> bool:
        """Run one CREATE: True if it created the object, False if another process had just created it."""
        try:
            with self._engine.begin() as connection:
                connection.execute(statement)
        except DBAPIError:
            if exists():
                return False
            raise
        return True

    def _has_table(self, table_name: str) -> bool:
        return table_name in inspect(self._engine).get_table_names()

    def _has_column(self, column: Column[Any]) -> bool:
        return column.name in {found["name"] for found in inspect(self._engine).get_columns(column.table.name)}

    def _has_index(self, table_name: str, index_name: str) -> bool:
        return index_name in {index["name"] for index in inspect(self._engine).get_indexes(table_name)}

    # -- AuditSink: writes ------------------------------------------------------------------------------------

    async def run_started(self, record: RunStarted) -> None:
        await self._writer.write(_Write(record, self._clock.now()))

    async def model_step(self, record: ModelStep) -> None:
        await self._writer.write(_Write(record, self._clock.now()))

    async def tool_invoked(self, record: ToolInvocation) -> None:
        await self._writer.write(_Write(record, self._clock.now()))

    async def guard_checked(self, record: GuardCheck) -> None:
        await self._writer.write(_Write(record, self._clock.now()))

    async def run_finished(self, record: RunFinished) -> None:
        await self._writer.write(_Write(record, self._clock.now()))

    # -- AuditSink: reads -------------------------------------------------------------------------------------

    async def last_turn(self, session_id: str) -> tuple[str | None, str | None]:
        return await self._call(self._last_turn, session_id)

    async def previous_turn(self, session_id: str) -> PreviousTurn | None:
        return await self._call(self._previous_turn, session_id)

    async def session_owner(self, session_id: str) -> str | None:
        return await self._call(self._session_owner, session_id)

    async def claim_session(self, session_id: str, principal: str) -> bool:
        return await self._call(self._claim_session, session_id, principal)

    async def ping(self) -> bool:
        try:
            return await asyncio.wait_for(self._call(self._ping), PING_TIMEOUT_S)
        except Exception as exc:
            log.warning("audit store unreachable: %s", type(exc).__name__)
            return False

    # -- readers for tests and tooling ------------------------------------------------------------------------

    async def run(self, run_id: str) -> dict[str, Any] | None:
        rows = await self._call(self._select, select(diagnosis_run).where(diagnosis_run.c.run_id == run_id))
        return rows[0] if rows else None

    async def steps(self, run_id: str) -> list[dict[str, Any]]:
        return await self._call(
            self._select, select(agent_step).where(agent_step.c.run_id == run_id).order_by(agent_step.c.id)
        )

    async def tool_invocations(self, run_id: str) -> list[dict[str, Any]]:
        query = select(tool_invocation).where(tool_invocation.c.run_id == run_id).order_by(tool_invocation.c.id)
        return await self._call(self._select, query)

    async def guard_checks(self, run_id: str) -> list[dict[str, Any]]:
        query = select(guard_check).where(guard_check.c.run_id == run_id).order_by(guard_check.c.check_index)
        return await self._call(self._select, query)

    async def run_ids_starting_with(self, prefix: str, limit: int = 2) -> list[str]:
        """Up to ``limit`` run ids that start with ``prefix`` (an id shortened for a terminal)."""
        query = (
            select(diagnosis_run.c.run_id)
            .where(diagnosis_run.c.run_id.startswith(prefix, autoescape=True))
            .order_by(diagnosis_run.c.run_id)
            .limit(limit)
        )
        return [row["run_id"] for row in await self._call(self._select, query)]

    async def runs(self, since: datetime, outcome: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        """Runs started at or after ``since``, newest first, without their published result or released content;
        ``outcome`` (SUCCESS, FALLBACK, FAILED, CANCELLED or RUNNING) keeps only runs in that state."""
        left_out = {"published_result", "released_content", "cited_tool_calls"}
        columns = [column for column in diagnosis_run.columns if column.name not in left_out]
        query = select(*columns).where(diagnosis_run.c.started_at >= _db_time(since))
        if outcome is not None:
            query = query.where(diagnosis_run.c.status == outcome)
        query = query.order_by(diagnosis_run.c.started_at.desc(), diagnosis_run.c.run_id).limit(limit)
        return await self._call(self._select, query)

    # -- the work, in a worker thread ---------------------------------------------------------------------------

    async def _call(self, work: Callable[..., T], *args: Any) -> T:
        return await asyncio.to_thread(self._serialised_call, work, *args)

    def _serialised_call(self, work: Callable[..., T], *args: Any) -> T:
        with self._serialised():
            return work(*args)

    @contextlib.contextmanager
    def _serialised(self) -> Iterator[None]:
        if self._sqlite:
            with self._lock:
                yield
        else:
            yield

    def _write_batch(self, connection: Connection, writes: Sequence[_Write]) -> None:
        """Write ``writes`` in one transaction: the sessions and started runs, the model steps and the tool
        invocations as one multi-row INSERT per table, then each finish in arrival order."""
        started = [write.record for write in writes if isinstance(write.record, RunStarted)]
        if started:
            connection.execute(self._touch_session, _session_touches(started))
            connection.execute(insert(diagnosis_run), [_started_row(record) for record in started])
        steps = [_step_row(write.record, write.at) for write in writes if isinstance(write.record, ModelStep)]
        if steps:
            connection.execute(insert(agent_step), steps)
        tools = [self._tool_row(write.record, write.at) for write in writes if isinstance(write.record, ToolInvocation)]
        if tools:
            connection.execute(self._insert_tool, tools)
        checks = [_check_row(write.record, write.at) for write in writes if isinstance(write.record, GuardCheck)]
        if checks:
            connection.execute(insert(guard_check), checks)
        finished = [write.record for write in writes if isinstance(write.record, RunFinished)]
        if finished:
            _finish_runs(connection, finished)

    def _tool_row(self, record: ToolInvocation, at: datetime) -> dict[str, Any]:
        return {
            "session_id": record.session_id,
            "run_id": record.run_id,
            "step_run_id": record.run_id,
            "step_index": record.step_index,
            "tool_name": _clip(record.tool_name, 64),
            "input_params": audit_params(record.input_params),
            "output_preview": audit_text(record.output_preview, self._settings.preview_chars),
            "output_length": record.output_length,
            "is_truncated": record.is_truncated,
            "retrieval_details": {"evidence_status": record.evidence_status, "tool_call_id": record.tool_call_id},
            "duration_ms": record.duration_ms,
            "success": record.success,
            "error_message": audit_text(record.error_message, MAX_ERROR_MESSAGE_CHARS),
            "created_at": _db_time(at),
            "tool_call_id": audit_text(record.tool_call_id, 128),
            "evidence_status": _clip(record.evidence_status, 32),
            "error_code": _clip(record.error_code, 64),
        }

    def _latest_finished(self, session_id: str, *columns: Any, diagnosis_only: bool = False) -> Any:
        query = select(*columns).where(
            diagnosis_run.c.session_id == session_id, diagnosis_run.c.release_outcome.is_not(None)
        )
        if diagnosis_only:
            query = query.where(diagnosis_run.c.intent == "DIAGNOSIS")
        query = query.order_by(
            diagnosis_run.c.finish_seq.desc(), diagnosis_run.c.finished_at.desc(), diagnosis_run.c.run_id.desc()
        ).limit(1)
        with self._engine.connect() as connection:
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
        with self._engine.connect() as connection:
            return connection.execute(
                select(chat_session.c.principal).where(chat_session.c.session_id == session_id)
            ).scalar_one_or_none()

    def _claim_session(self, session_id: str, principal: str) -> bool:
        now = _db_time(self._clock.now())
        try:
            with self._engine.begin() as connection:
                connection.execute(
                    insert(chat_session).values(
                        session_id=session_id, principal=principal, created_at=now, last_active_at=now
                    )
                )
            return True
        except IntegrityError:  # the session exists: it is ours or it is not
            return self._session_owner(session_id) == principal

    def _ping(self) -> bool:
        with self._engine.connect() as connection:
            connection.execute(text("SELECT 1"))
        return True

    def _select(self, query: Any) -> list[dict[str, Any]]:
        with self._engine.connect() as connection:
            return [_row(row._mapping) for row in connection.execute(query)]
