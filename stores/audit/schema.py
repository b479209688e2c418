"""The audit tables (SQLAlchemy Core), one row per session, run, model attempt, tool call and guard decision.

* ``chat_session``: one row per session, owned by the principal that claimed it first;
* ``diagnosis_run``: one row per run, inserted RUNNING when the run starts and completed when it finishes.
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

Audit records carry metadata, never prompts or raw tool responses. ``stores/audit/migrations.py`` creates the
tables.
"""

from __future__ import annotations

from sqlalchemy import JSON, BigInteger, Boolean, Column, DateTime, Index, Integer, MetaData, String, Table, Text
from sqlalchemy.dialects import mysql

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
    Column("trace_id", String(32)),
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

TABLES = tuple(METADATA.tables)
"""The audit tables, in the order a reader meets them."""
