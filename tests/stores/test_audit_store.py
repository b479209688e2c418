"""The durable audit store: one contract suite on SQLite (a temporary file) and on the private MariaDB.

The previous_turn, last_turn and session-ownership rules run on ``MemoryAudit`` too, so the in-process sink
and the durable one cannot drift apart. Every record of one test finishes at the same instant: "the latest
finished run" must never depend on clock resolution.
"""

from __future__ import annotations

import asyncio
import json
import threading
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
import yaml

from config.loader import parse_config
from config.runtime import AuditSettings
from contract.clock import ManualClock
from harness.audit import AuditSink, GuardCheck, MemoryAudit, ModelStep, RunFinished, RunStarted, ToolInvocation
from harness.messages import PreviousTurn
from harness.scripted_model import ScriptedChatModel, reply
from stores.audit.bounds import TRUNCATION_MARK
from stores.audit.migrations import AuditSchemaError, SchemaChanges
from stores.audit.rows import released_text
from stores.audit.schema import METADATA, TABLES, chat_session
from stores.audit.store import SqlAuditStore
from stores.audit.trail import released_content
from tests.harness.run_support import GOOD_DRAFT, SUPPORTED, diagnosis_model, draft, run_once, services
from tests.services import MariaDBServer, free_port

AT = datetime(2026, 7, 21, 2, 30, 0, 123456, tzinfo=UTC)
AUDIT_DATABASE = "audit_test"
SQL_BACKENDS = ["sqlite", "mariadb"]
ALL_SINKS = ["memory", *SQL_BACKENDS]

PUBLISHED = PreviousTurn(
    user_query="订单 order-123 支付超时，帮我排查",
    published_conclusion="支付超时与连接池耗尽有关",
    scope="order-service，最近 30 分钟",
    limitations=["尚未取得长事务数据"],
    source_documents=[{"document_id": "payment-timeout-guide", "title": "支付超时排查手册"}],
).model_dump()


# -- fixtures ---------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def mariadb_url(mariadb_server: MariaDBServer) -> str:
    with mariadb_server.connect() as connection, connection.cursor() as cursor:
        cursor.execute(f"DROP DATABASE IF EXISTS {AUDIT_DATABASE}")
        cursor.execute(f"CREATE DATABASE {AUDIT_DATABASE}")  # the server's default charset: the tables set theirs
    return f"mysql+pymysql://127.0.0.1:{mariadb_server.port}/{AUDIT_DATABASE}"


def _settings(request: pytest.FixtureRequest, backend: str, tmp_path: Path, **bounds: Any) -> AuditSettings:
    if backend == "sqlite":
        return AuditSettings(url=f"sqlite:///{tmp_path}/audit/superbiz-audit.db", **bounds)
    return AuditSettings(url=request.getfixturevalue("mariadb_url"), username="root", **bounds)


def _fresh(settings: AuditSettings) -> SqlAuditStore:
    store = SqlAuditStore(settings, ManualClock(AT))
    METADATA.drop_all(store.engine)
    store.init_schema()
    return store


@pytest.fixture(params=SQL_BACKENDS)
def make_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    """``make_store(**bounds)``: an empty store on the parametrised backend."""
    stores: list[SqlAuditStore] = []

    def make(**bounds: Any) -> SqlAuditStore:
        store = _fresh(_settings(request, request.param, tmp_path, **bounds))
        stores.append(store)
        return store

    yield make
    for store in stores:
        store.close()


@pytest.fixture
def store(make_store: Any) -> SqlAuditStore:
    return make_store()


@pytest.fixture(params=ALL_SINKS)
def sink(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[AuditSink]:
    if request.param == "memory":
        yield MemoryAudit()
        return
    store = _fresh(_settings(request, request.param, tmp_path))
    yield store
    store.close()


# -- records ----------------------------------------------------------------------------------------------------


def started(run_id: str, session_id: str = "session-1", principal: str = "alice", query: str = "q") -> RunStarted:
    return RunStarted(run_id, session_id, principal, query, AT)


def finished(
    run_id: str,
    session_id: str = "session-1",
    intent: str | None = "DIAGNOSIS",
    status: str = "SUCCESS",
    published: dict[str, Any] | None = None,
) -> RunFinished:
    fallback_type = "EVIDENCE_VALIDATION_FAILED" if status == "FALLBACK" else None
    return RunFinished(
        run_id=run_id,
        session_id=session_id,
        intent=intent,
        status=status,
        fallback_type=fallback_type,
        fallback_reason=None if status == "SUCCESS" else "SOME_REASON",
        published_result=published,
        model_calls=3,
        input_tokens=100,
        output_tokens=20,
        tool_calls=2,
        duration_ms=1500,
        finished_at=AT,
    )


async def complete(
    sink: AuditSink,
    run_id: str,
    intent: str | None = "DIAGNOSIS",
    status: str = "SUCCESS",
    published: dict[str, Any] | None = None,
    session_id: str = "session-1",
    query: str = "q",
) -> None:
    await sink.record(started(run_id, session_id, query=query))
    await sink.record(finished(run_id, session_id, intent, status, published))


def tool_record(run_id: str, **changes: Any) -> ToolInvocation:
    record = ToolInvocation(
        run_id=run_id,
        session_id="session-1",
        tool_call_id="call_knowledge_1",
        tool_name="lookup_knowledge",
        input_params={"query": "支付超时", "api_key": "[REDACTED]"},
        output_preview="证据" * 400,
        output_length=5321,
        evidence_status="OK",
        is_truncated=True,
        duration_ms=42,
        success=True,
        error_code=None,
        error_message=None,
    )
    return replace(record, **changes)


# -- the run lifecycle --------------------------------------------------------------------------------------------


async def test_a_run_writes_its_rows(make_store: Any) -> None:
    store = make_store(preview_chars=50)
    await store.record(started("run-1", query="订单 order-123 支付超时 🙂"))

    row = await store.run("run-1")
    assert row is not None
    assert (row["status"], row["release_outcome"], row["finished_at"], row["intent"]) == ("RUNNING", None, None, None)
    assert (row["session_id"], row["principal"], row["query"], row["started_at"]) == (
        "session-1",
        "alice",
        "订单 order-123 支付超时 🙂",
        AT,
    )
    assert await store.session_owner("session-1") == "alice"

    await store.record(ModelStep("run-1", "session-1", 1, "router", 12, 300, 8, False, "OK", 1))
    await store.record(ModelStep("run-1", "session-1", 2, "agent", 40, 900, 60, True, "TIMEOUT", 1))
    await store.record(tool_record("run-1"))
    failed = tool_record(
        "run-1",
        tool_call_id="call_mysql_1",
        tool_name="query_mysql",
        input_params={"sql": "SELECT 1", "params": []},
        output_preview="",
        output_length=0,
        evidence_status="ERROR",
        is_truncated=False,
        success=False,
        error_code="QUERY_TIMEOUT",
        error_message="查询超时",
    )
    await store.record(failed)
    await store.record(
        replace(finished("run-1", published=PUBLISHED), guard_verdict="SUPPORTED", guard_reason="all claims backed")
    )

    row = await store.run("run-1")
    assert row is not None
    assert {key: row[key] for key in ("status", "release_outcome", "intent", "fallback_type", "fallback_reason")} == {
        "status": "SUCCESS",
        "release_outcome": "SUCCESS",
        "intent": "DIAGNOSIS",
        "fallback_type": None,
        "fallback_reason": None,
    }
    assert row["published_result"] == PUBLISHED
    assert (row["guard_verdict"], row["guard_reason"]) == ("SUPPORTED", "all claims backed")
    assert (row["model_calls"], row["input_tokens"], row["output_tokens"], row["total_tokens"]) == (3, 100, 20, 120)
    assert (row["tool_call_count"], row["total_duration_ms"], row["finished_at"]) == (2, 1500, AT)

    steps = await store.steps("run-1")
    assert [(s["step_index"], s["agent_name"], s["has_tool_call"], s["outcome"]) for s in steps] == [
        (1, "router", False, "OK"),
        (2, "agent", True, "TIMEOUT"),
    ]
    assert [(s["input_tokens"], s["output_tokens"], s["token_count"], s["duration_ms"]) for s in steps] == [
        (300, 8, 308, 12),
        (900, 60, 960, 40),
    ]
    assert all(s["session_id"] == "session-1" and s["created_at"] == AT for s in steps)

    ok, error = await store.tool_invocations("run-1")
    assert ok["tool_name"] == "lookup_knowledge" and ok["tool_call_id"] == "call_knowledge_1"
    assert ok["input_params"] == {"query": "支付超时", "api_key": "[REDACTED]"}
    assert ok["output_preview"] == "证据" * 24 + "证" + TRUNCATION_MARK
    assert (ok["output_length"], ok["is_truncated"], ok["duration_ms"], ok["success"]) == (5321, True, 42, True)
    assert ok["retrieval_details"] == {"evidence_status": "OK", "tool_call_id": "call_knowledge_1"}
    assert (ok["evidence_status"], ok["error_code"], ok["error_message"], ok["step_id"]) == ("OK", None, None, None)
    assert (ok["session_id"], ok["run_id"], ok["created_at"]) == ("session-1", "run-1", AT)
    assert (error["success"], error["error_code"], error["error_message"]) == (False, "QUERY_TIMEOUT", "查询超时")
    assert (error["evidence_status"], error["output_preview"], error["output_length"]) == ("ERROR", "", 0)
    assert error["retrieval_details"] == {"evidence_status": "ERROR", "tool_call_id": "call_mysql_1"}


@pytest.mark.parametrize("status", ["FALLBACK", "FAILED", "CANCELLED"])
async def test_the_release_outcome_is_the_terminal_status(store: SqlAuditStore, status: str) -> None:
    await complete(store, "run-1", status=status)

    row = await store.run("run-1")
    assert row is not None
    assert (row["status"], row["release_outcome"], row["published_result"]) == (status, status, None)


async def test_the_terminal_state_is_written_once(store: SqlAuditStore) -> None:
    await complete(store, "run-1", status="CANCELLED")
    await store.record(finished("run-1", status="FAILED"))

    row = await store.run("run-1")
    assert row is not None
    assert (row["status"], row["release_outcome"], row["fallback_reason"]) == ("CANCELLED", "CANCELLED", "SOME_REASON")


async def test_a_run_that_never_finishes_is_never_success(store: SqlAuditStore) -> None:
    await store.record(started("run-1"))
    await store.record(ModelStep("run-1", "session-1", 1, "router", 12, 300, 8, False, "OK", 1))

    row = await store.run("run-1")
    assert row is not None
    assert (row["status"], row["release_outcome"], row["finished_at"]) == ("RUNNING", None, None)
    assert await store.previous_turn("session-1") is None
    assert await store.last_turn("session-1") == (None, None)


async def test_a_second_session_run_touches_the_session_without_changing_its_owner(store: SqlAuditStore) -> None:
    await store.record(started("run-1"))
    await store.record(replace(started("run-2", principal="bob"), started_at=AT + timedelta(minutes=5)))

    assert await store.session_owner("session-1") == "alice"
    with store.engine.connect() as connection:
        row = connection.execute(sa.select(chat_session)).one()
    assert row.last_active_at - row.created_at == timedelta(minutes=5)


async def test_run_ids_are_unique(store: SqlAuditStore) -> None:
    await store.record(started("run-1"))

    with pytest.raises(sa.exc.IntegrityError):
        await store.record(started("run-1"))


async def test_a_finish_without_a_start_writes_nothing(store: SqlAuditStore) -> None:
    await store.record(finished("ghost", published=PUBLISHED))

    assert await store.run("ghost") is None
    assert await store.previous_turn("session-1") is None


async def test_readers_of_an_unknown_run_are_empty(store: SqlAuditStore) -> None:
    assert await store.run("nope") is None
    assert await store.steps("nope") == []
    assert await store.tool_invocations("nope") == []


# -- previous_turn (§4.6) -------------------------------------------------------------------------------------------


async def test_no_previous_turn_in_a_new_session(sink: AuditSink) -> None:
    assert await sink.previous_turn("session-1") is None


async def test_a_successful_diagnosis_is_the_previous_turn(sink: AuditSink) -> None:
    await complete(sink, "run-1", published=PUBLISHED)

    assert await sink.previous_turn("session-1") == PreviousTurn.model_validate(PUBLISHED)


@pytest.mark.parametrize("status", ["FALLBACK", "FAILED", "CANCELLED"])
async def test_a_later_unsuccessful_diagnosis_resets_the_previous_turn(sink: AuditSink, status: str) -> None:
    await complete(sink, "run-1", published=PUBLISHED)
    await complete(sink, "run-2", status=status)

    assert await sink.previous_turn("session-1") is None


async def test_a_later_success_replaces_a_reset(sink: AuditSink) -> None:
    newer = {**PUBLISHED, "user_query": "那退款服务呢？", "published_conclusion": "退款服务正常"}
    await complete(sink, "run-1", published=PUBLISHED)
    await complete(sink, "run-2", status="FALLBACK")
    await complete(sink, "run-3", published=newer)

    assert await sink.previous_turn("session-1") == PreviousTurn.model_validate(newer)


@pytest.mark.parametrize("intent", ["KNOWLEDGE_QUERY", "SYSTEM_CHAT", None])
@pytest.mark.parametrize("status", ["SUCCESS", "FALLBACK", "FAILED"])
async def test_other_runs_in_between_keep_the_previous_turn(sink: AuditSink, intent: str | None, status: str) -> None:
    await complete(sink, "run-1", published=PUBLISHED)
    await complete(sink, "run-2", intent=intent, status=status)

    assert await sink.previous_turn("session-1") == PreviousTurn.model_validate(PUBLISHED)


async def test_a_success_without_a_published_result_is_no_previous_turn(sink: AuditSink) -> None:
    await complete(sink, "run-1", published=PUBLISHED)
    await complete(sink, "run-2", published=None)

    assert await sink.previous_turn("session-1") is None


async def test_a_running_diagnosis_does_not_hide_the_previous_turn(sink: AuditSink) -> None:
    await complete(sink, "run-1", published=PUBLISHED)
    await sink.record(started("run-2"))

    assert await sink.previous_turn("session-1") == PreviousTurn.model_validate(PUBLISHED)


async def test_the_previous_turn_belongs_to_its_session(sink: AuditSink) -> None:
    await complete(sink, "run-1", published=PUBLISHED, session_id="session-1")
    await complete(sink, "run-2", status="FAILED", session_id="session-2")

    assert await sink.previous_turn("session-1") == PreviousTurn.model_validate(PUBLISHED)
    assert await sink.previous_turn("session-2") is None
    assert await sink.previous_turn("session-3") is None


async def test_the_previous_turn_is_bounded_field_by_field(make_store: Any) -> None:
    store = make_store(previous_turn_chars=10, previous_turn_documents=2)
    published = PreviousTurn(
        user_query="订单 order-123 支付超时，帮我排查一下",
        published_conclusion="短结论",
        scope="order-service，最近 30 分钟",
        limitations=["尚未取得长事务数据，也没有慢查询日志", "无"],
        source_documents=[
            {"document_id": "payment-timeout-guide-with-a-long-id", "title": "支付超时排查手册（第二版）"},
            {"document_id": "pool", "title": "连接池"},
            {"document_id": "third", "title": "第三篇"},
        ],
    ).model_dump()
    await complete(store, "run-1", published=published)

    turn = await store.previous_turn("session-1")

    assert turn == PreviousTurn(
        user_query="订单 order-" + TRUNCATION_MARK,
        published_conclusion="短结论",
        scope="order-ser" + TRUNCATION_MARK,
        limitations=["尚未取得长事务数据" + TRUNCATION_MARK, "无"],
        source_documents=[
            {"document_id": "payment-timeout-guide-with-a-long-id", "title": "支付超时排查手册（" + TRUNCATION_MARK},
            {"document_id": "pool", "title": "连接池"},
        ],
    )
    row = await store.run("run-1")
    assert row is not None and row["published_result"] == published  # stored whole; bounded when read


async def test_no_source_documents_when_none_are_allowed(make_store: Any) -> None:
    store = make_store(previous_turn_documents=0)
    await complete(store, "run-1", published=PUBLISHED)

    turn = await store.previous_turn("session-1")
    assert turn is not None and turn.source_documents == [] and turn.scope == PUBLISHED["scope"]


async def test_a_corrupt_published_result_is_no_previous_turn(store: SqlAuditStore) -> None:
    await complete(store, "run-1", published={"user_query": "q", "tool_call_id": "call_1"})

    assert await store.previous_turn("session-1") is None


# -- last_turn ---------------------------------------------------------------------------------------------------


async def test_last_turn_of_a_new_session(sink: AuditSink) -> None:
    assert await sink.last_turn("session-1") == (None, None)


async def test_last_turn_is_the_latest_finished_run_whatever_its_intent(sink: AuditSink) -> None:
    await complete(sink, "run-1", published=PUBLISHED, query="订单 order-123 支付超时")
    assert await sink.last_turn("session-1") == ("DIAGNOSIS", "订单 order-123 支付超时")

    await complete(sink, "run-2", intent="KNOWLEDGE_QUERY", query="错误码 E102 是什么")
    await sink.record(started("run-3", query="还在跑"))
    assert await sink.last_turn("session-1") == ("KNOWLEDGE_QUERY", "错误码 E102 是什么")

    await complete(sink, "run-4", intent=None, status="FAILED", query="路由失败")
    assert await sink.last_turn("session-1") == (None, "路由失败")
    assert await sink.last_turn("session-2") == (None, None)


# -- session ownership ---------------------------------------------------------------------------------------------


async def test_a_new_session_is_claimed_by_its_first_principal(sink: AuditSink) -> None:
    assert await sink.session_owner("session-1") is None
    assert await sink.claim_session("session-1", "alice") is True
    assert await sink.claim_session("session-1", "alice") is True
    assert await sink.session_owner("session-1") == "alice"


async def test_another_principal_is_refused(sink: AuditSink) -> None:
    assert await sink.claim_session("session-1", "alice") is True
    assert await sink.claim_session("session-1", "bob") is False
    assert await sink.session_owner("session-1") == "alice"
    assert await sink.claim_session("session-2", "bob") is True


async def test_session_ids_compare_exactly(sink: AuditSink) -> None:
    assert await sink.claim_session("Session-A", "alice") is True
    assert await sink.claim_session("session-a", "bob") is True
    assert (await sink.session_owner("Session-A"), await sink.session_owner("session-a")) == ("alice", "bob")


async def test_the_first_run_of_an_unclaimed_session_owns_it(sink: AuditSink) -> None:
    await sink.record(started("run-1", principal="alice"))

    assert await sink.session_owner("session-1") == "alice"
    assert await sink.claim_session("session-1", "bob") is False


async def test_a_run_does_not_take_over_a_claimed_session(sink: AuditSink) -> None:
    assert await sink.claim_session("session-1", "alice") is True
    await sink.record(started("run-1", principal="bob"))

    assert await sink.session_owner("session-1") == "alice"


async def test_concurrent_claims_have_exactly_one_winner(sink: AuditSink) -> None:
    principals = ["alice", "bob", "carol", "dave"]
    for round_ in range(8):
        session_id = f"race-{round_}-{uuid.uuid4().hex[:8]}"
        results = await asyncio.gather(*(sink.claim_session(session_id, principal) for principal in principals))
        assert sum(results) == 1, results
        winner = principals[results.index(True)]
        assert await sink.session_owner(session_id) == winner
        assert await sink.claim_session(session_id, winner) is True


async def test_ping(sink: AuditSink) -> None:
    assert await sink.ping() is True


# -- the schema ----------------------------------------------------------------------------------------------------

EXPECTED_COLUMNS = {
    "chat_session": {"session_id", "principal", "created_at", "last_active_at"},
    "diagnosis_run": {
        "run_id", "session_id", "principal", "query", "intent", "status", "release_outcome", "fallback_type",
        "fallback_reason", "published_result", "guard_verdict", "guard_reason", "model_calls", "input_tokens",
        "output_tokens", "total_tokens", "tool_call_count", "total_duration_ms", "started_at", "finished_at",
        "finish_seq", "released_content", "cited_tool_calls", "trace_id",
    },
    "agent_step": {
        "id", "run_id", "session_id", "step_index", "agent_name", "has_tool_call", "duration_ms", "input_tokens",
        "output_tokens", "token_count", "outcome", "created_at", "attempt",
    },
    "tool_invocation": {
        "id", "session_id", "run_id", "step_id", "tool_name", "input_params", "output_preview", "output_length",
        "retrieval_layer", "l0_match_count", "l1_match_count", "is_truncated", "relevance_level", "dedup_reason",
        "retrieval_details", "duration_ms", "success", "error_message", "created_at", "tool_call_id",
        "evidence_status", "error_code",
    },
    "guard_check": {
        "id", "run_id", "session_id", "check_index", "guard", "verdict", "step_index", "failure_codes", "failures",
        "created_at",
    },
}  # fmt: skip
EXPECTED_INDEXES = {
    "diagnosis_run": {
        "idx_diagnosis_run_session_started": ["session_id", "started_at"],
        "idx_diagnosis_run_session_finish": ["session_id", "finish_seq"],
        "idx_diagnosis_run_started": ["started_at"],
    },
    "guard_check": {"idx_guard_check_run_id": ["run_id", "check_index"]},
    "agent_step": {"idx_agent_step_run_id": ["run_id"]},
    "tool_invocation": {
        "idx_session_id": ["session_id"],
        "idx_tool_invocation_run_id": ["run_id", "id"],
        "idx_tool_name": ["tool_name"],
        "idx_retrieval_layer": ["retrieval_layer"],
    },
}


def test_the_database_holds_the_expected_tables_columns_and_indexes(store: SqlAuditStore) -> None:
    inspector = sa.inspect(store.engine)

    assert set(inspector.get_table_names()) == set(TABLES) == set(EXPECTED_COLUMNS)
    for table, columns in EXPECTED_COLUMNS.items():
        assert {column["name"] for column in inspector.get_columns(table)} == columns, table
        indexes = {index["name"]: index["column_names"] for index in inspector.get_indexes(table)}
        assert indexes == EXPECTED_INDEXES.get(table, {}), table
    assert inspector.get_pk_constraint("diagnosis_run")["constrained_columns"] == ["run_id"]
    assert inspector.get_pk_constraint("chat_session")["constrained_columns"] == ["session_id"]


def test_no_raw_response_or_prompt_column_anywhere(store: SqlAuditStore) -> None:
    inspector = sa.inspect(store.engine)
    names = {column["name"] for table in inspector.get_table_names() for column in inspector.get_columns(table)}

    assert not {name for name in names if "raw" in name or "prompt" in name or name.startswith("model_")} - {
        "model_calls"
    }
    assert "raw_response" not in names and "model_input" not in names and "model_output" not in names


def test_init_schema_is_idempotent(store: SqlAuditStore) -> None:
    changes = store.init_schema()

    assert (changes.created_tables, changes.created_indexes) == ((), ())


async def test_init_schema_keeps_the_data(store: SqlAuditStore) -> None:
    await complete(store, "run-1", published=PUBLISHED)

    store.init_schema()

    assert await store.previous_turn("session-1") == PreviousTurn.model_validate(PUBLISHED)


def test_init_schema_creates_what_is_missing(store: SqlAuditStore) -> None:
    with store.engine.begin() as connection:
        METADATA.tables["agent_step"].drop(connection)
        [index] = [index for index in METADATA.tables["tool_invocation"].indexes if index.name == "idx_tool_name"]
        index.drop(connection)
    changes = store.init_schema()
    assert (changes.created_tables, changes.created_indexes) == (("agent_step",), ("idx_tool_name",))
    assert "idx_tool_name" in {index["name"] for index in sa.inspect(store.engine).get_indexes("tool_invocation")}


@pytest.mark.parametrize("backend", SQL_BACKENDS)
def test_init_schema_succeeds_for_every_store_starting_at_once(
    request: pytest.FixtureRequest, backend: str, tmp_path: Path
) -> None:
    """Every supervisor of a pool creates the schema when it starts, at the same moment as the others."""
    settings = _settings(request, backend, tmp_path)
    stores = [SqlAuditStore(settings) for _ in range(6)]
    try:
        for _ in range(4):
            METADATA.drop_all(stores[0].engine)
            barrier = threading.Barrier(len(stores))

            def start(store: SqlAuditStore, barrier: threading.Barrier = barrier) -> SchemaChanges:
                barrier.wait()
                return store.init_schema()

            with ThreadPoolExecutor(len(stores)) as pool:
                changes = list(pool.map(start, stores))

            assert sorted(name for change in changes for name in change.created_tables) == sorted(TABLES)
            assert set(sa.inspect(stores[0].engine).get_table_names()) >= set(TABLES)
    finally:
        for store in stores:
            store.close()


@pytest.mark.parametrize("backend", SQL_BACKENDS)
def test_every_store_starting_at_once_on_an_older_schema_adds_the_new_column_once(
    request: pytest.FixtureRequest, backend: str, tmp_path: Path
) -> None:
    settings = _settings(request, backend, tmp_path)
    stores = [SqlAuditStore(settings) for _ in range(6)]
    try:
        METADATA.drop_all(stores[0].engine)
        stores[0].init_schema()
        with stores[0].engine.begin() as connection:
            connection.execute(sa.text("ALTER TABLE agent_step DROP COLUMN attempt"))
        barrier = threading.Barrier(len(stores))

        def start(store: SqlAuditStore) -> SchemaChanges:
            barrier.wait()
            return store.init_schema()

        with ThreadPoolExecutor(len(stores)) as pool:
            changes = list(pool.map(start, stores))

        assert [column for change in changes for column in change.added_columns] == ["agent_step.attempt"]
        assert "attempt" in {column["name"] for column in sa.inspect(stores[0].engine).get_columns("agent_step")}
    finally:
        for store in stores:
            store.close()


def test_init_schema_refuses_a_table_that_needs_a_migration(store: SqlAuditStore) -> None:
    with store.engine.begin() as connection:
        connection.execute(sa.text("DROP TABLE chat_session"))
        connection.execute(sa.text("CREATE TABLE chat_session (session_id VARCHAR(64) PRIMARY KEY)"))

    with pytest.raises(AuditSchemaError, match=r"chat_session\.principal.*migrate"):
        store.init_schema()


# -- backends ------------------------------------------------------------------------------------------------------


def test_the_sqlite_folder_is_created(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "var" / "audit.db"
    store = SqlAuditStore(AuditSettings(url=f"sqlite:///{path}"))
    try:
        store.init_schema()
    finally:
        store.close()
    assert path.is_file()


async def test_an_in_memory_sqlite_is_one_database_across_threads() -> None:
    store = SqlAuditStore(AuditSettings(url="sqlite://"), ManualClock(AT))
    try:
        store.init_schema()
        await asyncio.gather(*(complete(store, f"run-{n}", published=PUBLISHED) for n in range(10)))
        assert await store.previous_turn("session-1") == PreviousTurn.model_validate(PUBLISHED)
        assert len([n for n in range(10) if await store.run(f"run-{n}") is not None]) == 10
    finally:
        store.close()


async def test_ping_fails_when_the_database_is_unreachable() -> None:
    store = SqlAuditStore(AuditSettings(url=f"mysql+pymysql://127.0.0.1:{free_port()}/audit", username="root"))
    try:
        assert await store.ping() is False
    finally:
        store.close()


async def test_the_mariadb_dialect_url_works(mariadb_url: str) -> None:
    url = mariadb_url.replace("mysql+pymysql://", "mariadb+pymysql://")
    store = _fresh(AuditSettings(url=url, username="root"))
    try:
        await complete(store, "run-1", published=PUBLISHED)
        assert await store.previous_turn("session-1") == PreviousTurn.model_validate(PUBLISHED)
    finally:
        store.close()


async def test_a_password_from_the_environment_is_joined_at_connect(
    mariadb_server: MariaDBServer, mariadb_url: str
) -> None:
    password = "audit-Pw-never-shown"
    with mariadb_server.connect() as connection, connection.cursor() as cursor:
        cursor.execute("DROP USER IF EXISTS 'superbiz_audit'@'127.0.0.1'")
        cursor.execute(f"CREATE USER 'superbiz_audit'@'127.0.0.1' IDENTIFIED BY '{password}'")
        cursor.execute(f"GRANT ALL ON {AUDIT_DATABASE}.* TO 'superbiz_audit'@'127.0.0.1'")
    text = yaml.safe_dump(
        {"audit": {"url": mariadb_url, "username": "superbiz_audit", "password": "${AUDIT_DB_PASSWORD}"}}
    )
    settings = parse_config(text, {"AUDIT_DB_PASSWORD": password}).audit
    store = SqlAuditStore(settings)
    try:
        assert await store.ping() is True
        assert password not in store.url and password not in repr(store.engine) and password not in repr(store)
    finally:
        store.close()
    wrong = SqlAuditStore(parse_config(text, {"AUDIT_DB_PASSWORD": "wrong"}).audit)
    try:
        assert await wrong.ping() is False
    finally:
        wrong.close()


# -- the trail of a run: step links, guard decisions, counters -------------------------------------------------------


async def test_a_tool_row_names_the_agent_step_that_asked_for_it(store: SqlAuditStore) -> None:
    await store.record(started("run-1"))
    await store.record(started("run-2"))
    await store.record(ModelStep("run-2", "session-1", 1, "agent", 5, 10, 1, True, "OK", 1))
    # The asking step and its calls in one commit, and a call in a later commit than its step.
    await asyncio.gather(
        store.record(ModelStep("run-1", "session-1", 1, "router", 5, 10, 1, False, "OK", 1)),
        store.record(ModelStep("run-1", "session-1", 2, "agent", 5, 10, 1, True, "OK", 1)),
        store.record(tool_record("run-1", tool_call_id="call_a", step_index=2)),
        store.record(tool_record("run-1", tool_call_id="call_b", step_index=2)),
    )
    await store.record(ModelStep("run-1", "session-1", 3, "agent", 5, 10, 1, True, "OK", 1))
    await store.record(tool_record("run-1", tool_call_id="call_c", step_index=3))
    await store.record(tool_record("run-1", tool_call_id="call_knowledge_1", step_index=None))

    step_ids = {step["step_index"]: step["id"] for step in await store.steps("run-1")}
    tools = {tool["tool_call_id"]: tool["step_id"] for tool in await store.tool_invocations("run-1")}
    assert tools == {"call_a": step_ids[2], "call_b": step_ids[2], "call_c": step_ids[3], "call_knowledge_1": None}


async def test_each_guard_decision_is_a_row_with_its_codes_and_redacted_messages(store: SqlAuditStore) -> None:
    secret = "password=Sup3rSecretValue"
    await store.record(started("run-1"))
    failures = (("UNKNOWN_TOOL_CALL", "a1 cites call_x"), ("SECRET_IN_TEXT", f"the conclusion contains {secret}"))
    await store.record(GuardCheck("run-1", "session-1", 1, "evidence", "FAIL", 5, failures))
    await store.record(GuardCheck("run-1", "session-1", 2, "evidence", "PASS", 6))
    await store.record(GuardCheck("run-1", "session-1", 3, "semantic", "UNAVAILABLE", 8, (("TIMEOUT", "x" * 1000),)))

    rows = await store.guard_checks("run-1")
    assert [(r["check_index"], r["guard"], r["verdict"], r["step_index"]) for r in rows] == [
        (1, "evidence", "FAIL", 5),
        (2, "evidence", "PASS", 6),
        (3, "semantic", "UNAVAILABLE", 8),
    ]
    assert [r["failure_codes"] for r in rows] == [["UNKNOWN_TOOL_CALL", "SECRET_IN_TEXT"], [], ["TIMEOUT"]]
    assert "Sup3rSecretValue" not in str(rows) and "[REDACTED]" in rows[0]["failures"][1]["message"]
    assert len(rows[2]["failures"][0]["message"]) == 300 and rows[2]["failures"][0]["message"].endswith(TRUNCATION_MARK)


@pytest.mark.parametrize("backend", SQL_BACKENDS)
def test_init_schema_adds_the_columns_a_later_version_added_and_keeps_the_rows(
    request: pytest.FixtureRequest, backend: str, tmp_path: Path
) -> None:
    settings = _settings(request, backend, tmp_path)
    store = SqlAuditStore(settings, ManualClock(AT))
    try:
        METADATA.drop_all(store.engine)
        store.init_schema()
        with store.engine.begin() as connection:  # the agent_step of the previous version: no attempt column
            connection.execute(sa.text("ALTER TABLE agent_step DROP COLUMN attempt"))
            connection.execute(
                sa.text(
                    "INSERT INTO agent_step (run_id, session_id, step_index, agent_name, has_tool_call, outcome,"
                    " created_at) VALUES ('old-run', 'session-1', 1, 'router', 0, 'OK', '2026-07-01 00:00:00')"
                )
            )

        assert store.init_schema().added_columns == ("agent_step.attempt",)
        assert store.init_schema().added_columns == ()  # idempotent

        asyncio.run(store.record(ModelStep("new-run", "session-1", 1, "guard", 5, 10, 1, False, "TIMEOUT", 2)))
        assert [s["attempt"] for s in asyncio.run(store.steps("old-run"))] == [None]
        assert [s["attempt"] for s in asyncio.run(store.steps("new-run"))] == [2]
    finally:
        store.close()


INTENT_RUNS = {
    "DIAGNOSIS": "订单 order-123 支付超时，帮我排查",
    "KNOWLEDGE_QUERY": "ERR_TIMEOUT 是什么意思？",
    "SYSTEM_CHAT": "你能做什么？",
}


def _intent_model(intent: str) -> ScriptedChatModel:
    """A run of ``intent`` with retries and decisions on the way: a refused router reply; for a diagnosis, a
    repair after a failed EvidenceGuard check and a guard attempt that fails before the verdict."""
    if intent == "DIAGNOSIS":
        bad = draft(("a1", "NORMAL", ["call_fabricated"]), conclusion=["a1"])
        model = diagnosis_model(bad, reply("not a verdict"), SUPPORTED)
        model.script("repair", reply(GOOD_DRAFT))
    else:
        model = ScriptedChatModel()
        model.script("knowledge", reply({"answer": "ERR_TIMEOUT 表示请求超时。", "references": [], "limitations": []}))
        model.script("system_chat", reply("我可以帮你排查订单和支付问题。"))
    model._steps["router"].clear()
    model.script("router", reply({"intent": "PERHAPS"}), reply({"intent": intent}))
    return model


@pytest.mark.parametrize("intent", list(INTENT_RUNS))
async def test_a_runs_counters_agree_with_its_rows_for_every_intent(store: SqlAuditStore, intent: str) -> None:
    shared = services(_intent_model(intent), audit=store)
    outcome = await run_once(shared, INTENT_RUNS[intent], session_id=f"session-{intent.lower()}")

    row = await store.run(outcome.run.run_id)
    steps = await store.steps(outcome.run.run_id)
    tools = await store.tool_invocations(outcome.run.run_id)
    checks = await store.guard_checks(outcome.run.run_id)
    assert row is not None and row["intent"] == intent
    assert row["model_calls"] == len(steps) >= 2
    assert row["tool_call_count"] == len(tools)
    assert row["input_tokens"] == sum(step["input_tokens"] for step in steps)
    assert row["output_tokens"] == sum(step["output_tokens"] for step in steps)
    assert row["total_tokens"] == sum(step["token_count"] for step in steps)
    assert [step["step_index"] for step in steps] == list(range(1, len(steps) + 1))
    assert [(s["agent_name"], s["attempt"], s["outcome"]) for s in steps[:2]] == [
        ("router", 1, "INVALID_OUTPUT"),
        ("router", 2, "OK"),
    ]
    step_ids = {step["id"]: step for step in steps}
    for tool in tools:  # every call the agent made names the step that asked for it; the Harness's own none
        assert tool["step_id"] is None if intent == "KNOWLEDGE_QUERY" else step_ids[tool["step_id"]]["has_tool_call"]
    if intent == "DIAGNOSIS":
        assert row["status"] == "SUCCESS" and len(tools) == 3
        assert [(c["guard"], c["verdict"]) for c in checks] == [
            ("evidence", "FAIL"),
            ("evidence", "PASS"),
            ("semantic", "SUPPORTED"),
        ]
        assert checks[0]["failure_codes"] and checks[1]["failure_codes"] == []
        assert row["guard_verdict"] == checks[-1]["verdict"]
        guard_steps = [(s["attempt"], s["outcome"]) for s in steps if s["agent_name"] == "guard"]
        assert guard_steps == [(1, "INVALID_OUTPUT"), (2, "OK")]
        assert checks[-1]["step_index"] == steps[-1]["step_index"]
    else:
        assert checks == [] and row["guard_verdict"] is None
        assert len(tools) == (1 if intent == "KNOWLEDGE_QUERY" else 0)


async def test_a_finish_that_cannot_know_the_counts_gets_them_from_the_rows(store: SqlAuditStore) -> None:
    """A gateway records a run whose supervisor died: the store counts what the supervisor had written."""
    await store.record(started("run-1"))
    await store.record(started("run-2"))
    await store.record(ModelStep("run-1", "session-1", 1, "router", 5, 300, 8, False, "OK", 1))
    await store.record(ModelStep("run-1", "session-1", 2, "agent", 5, 900, 60, True, "OK", 1))
    await store.record(tool_record("run-1", step_index=2))
    unknown = {"model_calls": None, "input_tokens": None, "output_tokens": None, "tool_calls": None}
    await store.record(replace(finished("run-1", status="FAILED"), **unknown))
    await store.record(replace(finished("run-2", status="FAILED"), **unknown))

    counters = ("model_calls", "input_tokens", "output_tokens", "total_tokens", "tool_call_count")
    first, second = await store.run("run-1"), await store.run("run-2")
    assert first is not None and second is not None
    assert [first[name] for name in counters] == [2, 1200, 68, 1268, 1]
    assert [second[name] for name in counters] == [0, 0, 0, 0, 0]


async def test_runs_since_a_time_newest_first_filtered_by_outcome(store: SqlAuditStore) -> None:
    for run_id, minutes_ago, status in (("old", 90, "SUCCESS"), ("a", 30, "FALLBACK"), ("b", 10, "SUCCESS")):
        await store.record(replace(started(run_id), started_at=AT - timedelta(minutes=minutes_ago)))
        await store.record(finished(run_id, status=status))
    await store.record(started("running"))

    since = AT - timedelta(hours=1)
    assert [run["run_id"] for run in await store.runs(since)] == ["running", "b", "a"]
    assert [run["run_id"] for run in await store.runs(since, "FALLBACK")] == ["a"]
    assert [run["run_id"] for run in await store.runs(since, "RUNNING")] == ["running"]
    assert [run["run_id"] for run in await store.runs(since, limit=1)] == ["running"]
    assert all("published_result" not in run for run in await store.runs(since))
    assert all("released_content" not in run for run in await store.runs(since))


async def test_run_ids_by_their_start_treat_like_wildcards_as_text(store: SqlAuditStore) -> None:
    for run_id in ("abc_123", "abcX123", "abc%9", "zzz"):
        await store.record(started(run_id))
    assert await store.run_ids_starting_with("abc_") == ["abc_123"]
    assert await store.run_ids_starting_with("abc%") == ["abc%9"]
    assert await store.run_ids_starting_with("abc", limit=5) == ["abc%9", "abcX123", "abc_123"]
    assert await store.run_ids_starting_with("nope") == []


# -- the released answer ---------------------------------------------------------------------------------------

RELEASED = {
    "content_type": "DIAGNOSIS_REPORT",
    "payload": {
        "conclusion": {"text": "支付超时与连接池耗尽有关", "based_on_analysis_ids": ["a1"]},
        "analysis": [{"analysis_id": "a1", "kind": "NORMAL", "text": "HikariCP 等待超时 " * 40, "references": ["R1"]}],
        "references": [{"ref": "R1", "source_type": "LOG", "source": "order-service", "value": 30000, "ratio": 0.25}],
        "zeta": None,
        "alpha": [],
    },
}
"""Keys out of alphabetical order, non-ASCII text, numbers, a null: a JSON column would keep none of it exactly."""


async def test_the_released_content_is_kept_as_it_was_sent_with_the_finish(store: SqlAuditStore) -> None:
    cited = [{"ref": "R1", "tool_call_id": "call_l1"}, {"ref": "R2", "tool_call_id": "call_k1"}]
    await store.record(started("released"))
    await store.record(started("failed"))
    await store.record(replace(finished("released"), released_content=RELEASED, cited_tool_calls=cited))
    await store.record(finished("failed", status="FAILED"))

    row, failed = await store.run("released"), await store.run("failed")
    assert row is not None and failed is not None
    assert row["released_content"] == json.dumps(RELEASED, ensure_ascii=False) == released_text(RELEASED)
    assert list(released_content(row) or {}) == ["content_type", "payload"]
    assert list((released_content(row) or {})["payload"]) == list(RELEASED["payload"])
    assert row["cited_tool_calls"] == cited
    assert failed["released_content"] is None and failed["cited_tool_calls"] is None
    assert released_content(failed) is None


async def test_a_later_finish_does_not_replace_the_released_content(store: SqlAuditStore) -> None:
    await store.record(started("run-1"))
    await store.record(replace(finished("run-1"), released_content=RELEASED))
    await store.record(replace(finished("run-1", status="FAILED"), fallback_reason="SUPERVISOR_LOST"))
    row = await store.run("run-1")
    assert row is not None and row["status"] == "SUCCESS" and released_content(row) == RELEASED


@pytest.mark.parametrize("backend", SQL_BACKENDS)
def test_an_audit_schema_without_the_released_answer_is_upgraded_and_keeps_its_runs(
    request: pytest.FixtureRequest, backend: str, tmp_path: Path
) -> None:
    settings = _settings(request, backend, tmp_path)
    store = SqlAuditStore(settings, ManualClock(AT))
    try:
        METADATA.drop_all(store.engine)
        store.init_schema()
        with store.engine.begin() as connection:  # the diagnosis_run of the previous version
            connection.execute(sa.text("ALTER TABLE diagnosis_run DROP COLUMN released_content"))
            connection.execute(sa.text("ALTER TABLE diagnosis_run DROP COLUMN cited_tool_calls"))
            connection.execute(
                sa.text(
                    "INSERT INTO diagnosis_run (run_id, session_id, principal, query, status, release_outcome,"
                    " started_at, finished_at, finish_seq) VALUES ('old-run', 'session-1', 'alice', 'q', 'SUCCESS',"
                    " 'SUCCESS', '2026-07-01 00:00:00', '2026-07-01 00:00:01', 1)"
                )
            )

        assert sorted(store.init_schema().added_columns) == [
            "diagnosis_run.cited_tool_calls",
            "diagnosis_run.released_content",
        ]
        assert store.init_schema().added_columns == ()  # idempotent

        asyncio.run(store.record(started("new-run")))
        asyncio.run(store.record(replace(finished("new-run"), released_content=RELEASED)))
        old, new = asyncio.run(store.run("old-run")), asyncio.run(store.run("new-run"))
        assert old is not None and old["status"] == "SUCCESS" and released_content(old) is None
        assert new is not None and new["released_content"] == released_text(RELEASED)
    finally:
        store.close()


@pytest.mark.parametrize("intent", list(INTENT_RUNS))
async def test_a_run_records_the_content_it_sent(store: SqlAuditStore, intent: str) -> None:
    outcome = await run_once(services(_intent_model(intent), audit=store), INTENT_RUNS[intent], session_id="s-c")
    [sent] = [event.data for event in outcome.events if event.event == "content"]
    row = await store.run(outcome.run.run_id)
    assert row is not None and row["released_content"] == json.dumps(sent, ensure_ascii=False)
    if intent == "DIAGNOSIS":
        labels = [reference["ref"] for reference in sent["payload"]["references"]]
        assert [cited["ref"] for cited in row["cited_tool_calls"]] == labels
        recorded = {tool["tool_call_id"] for tool in await store.tool_invocations(outcome.run.run_id)}
        assert {cited["tool_call_id"] for cited in row["cited_tool_calls"]} <= recorded
    else:
        assert row["cited_tool_calls"] is None
