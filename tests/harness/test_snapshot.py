"""The verified evidence snapshot (seed §4.4) and verified sources (§10.3), from real projector agent_results."""

from __future__ import annotations

import json
from typing import Any

import pytest

from config.tool_budgets import LogsBudget, MysqlBudget, RagBudget
from harness.draft import Draft, parse_draft
from harness.invocation import InvocationRecord, ToolCallStatus
from harness.messages import guard_input_json
from harness.snapshot import build_snapshot, snapshot_bytes, verified_sources
from tools.knowledge.projector import RagResultProjector
from tools.logs.projector import QueryLogsResultProjector
from tools.mysql.projector import MysqlResultProjector
from tools.registry import BUNDLED

MARKER = "RAW-ONLY-MARKER-51c9"
SCOPE = {
    "topic": "APPLICATION",
    "query": "order-service HikariPool",
    "start_time": "2026-07-21T10:00:00+08:00",
    "end_time": "2026-07-21T10:30:00+08:00",
}
LOG_EVENT = {
    "timestamp": "2026-07-21T10:30:00+08:00",
    "level": "WARN",
    "service": "order-service",
    "message": "HikariPool active=50, max=50, pending=23",
}
LOGS_RAW = {"source_kind": "MOCK", "scope": SCOPE, "match_count": 1, "events": [LOG_EVENT]}
KNOWLEDGE_RAW = {
    "query": "HikariPool 连接池耗尽",
    "hits": [
        {
            "document_id": "runbook-db-pool",
            "source": "docs/runbook.md",
            "title": "数据库连接池耗尽",
            "breadcrumb": "排障手册 > 数据库",
            "text": "当 active 达到 max 且存在 pending 时，说明连接池耗尽。",
        }
    ],
}
MYSQL_RAW = {
    "columns": ["id", "status", "phone"],
    "rows": [[1, "PAYING", "13800000000"]],
    "limit_is_cap": False,
    "limit": 50,
    "params": ["PAYING"],
    "data_source": "order_db",
    "tables": ["order_db.biz_order"],
    "sql": "SELECT id, status, phone FROM biz_order WHERE status = ? LIMIT 50",
}
PROJECTORS: dict[str, Any] = {
    "query_logs": QueryLogsResultProjector(LogsBudget()),
    "lookup_knowledge": RagResultProjector(RagBudget()),
    "query_mysql": MysqlResultProjector(MysqlBudget()),
}


def projected(call: str, tool: str, raw: dict[str, Any]) -> InvocationRecord:
    """A READY record exactly as the Harness stores it: the real projector's agent_result, the raw beside it."""
    projection = PROJECTORS[tool].project(call, {"query": raw.get("query", "")}, raw)
    return InvocationRecord(
        run_id="run-a",
        tool_call_id=call,
        tool_name=tool,
        status=ToolCallStatus.READY,
        evidence_status=projection.evidence_status,
        request={"query": "q"},
        agent_result=projection.agent_result,
        started_at="2026-07-21T02:30:00.000+00:00",
        finished_at="2026-07-21T02:30:01.000+00:00",
        error_code=None,
        raw_response={**raw, "secret": MARKER},
    )


LOGS = projected("call_logs_9d1", "query_logs", LOGS_RAW)
LOGS_NONE = projected("call_logs_0e2", "query_logs", {**LOGS_RAW, "match_count": 0, "events": []})
KNOWLEDGE = projected("call_kb_77a", "lookup_knowledge", KNOWLEDGE_RAW)
KNOWLEDGE_NONE = projected("call_kb_000", "lookup_knowledge", {**KNOWLEDGE_RAW, "hits": []})
MYSQL = projected("call_sql_4f0", "query_mysql", MYSQL_RAW)
MYSQL_NONE = projected("call_sql_000", "query_mysql", {**MYSQL_RAW, "rows": []})
ALL = {record.tool_call_id: record for record in (LOGS, LOGS_NONE, KNOWLEDGE, KNOWLEDGE_NONE, MYSQL, MYSQL_NONE)}
LOG_SCOPE = "order-service HikariPool，2026-07-21T02:00:00.000+00:00 至 2026-07-21T02:30:00.000+00:00"


def make_draft(*analyses: tuple[str, str, list[str]]) -> Draft:
    return parse_draft(
        json.dumps(
            {
                "conclusion": None,
                "analysis": [
                    {"analysis_id": ident, "kind": kind, "text": f"分析 {ident}", "tool_call_ids": calls}
                    for ident, kind, calls in analyses
                ],
                "limitations": {"scope": "order-service，最近 30 分钟", "missing_info": []},
            }
        )
    )


def test_the_snapshot_holds_the_exact_evidence_of_each_tool() -> None:
    draft = make_draft(("a1", "NORMAL", ["call_logs_9d1"]), ("a2", "NORMAL", ["call_kb_77a", "call_sql_4f0"]))
    log_header = {
        "source_type": "LOG",
        "source": "APPLICATION (MOCK)",
        "scope": LOG_SCOPE,
        "asked": [SCOPE["query"]],
        "match_count": 1,
    }
    assert build_snapshot(draft, ALL, BUNDLED) == [
        {
            "analysis_id": "a1",
            "kind": "NORMAL",
            "analysis_text": "分析 a1",
            "verified_evidence": [
                {
                    **log_header,
                    "pattern": LOG_EVENT["message"],
                    "count": 1,
                    "first_seen": "2026-07-21T02:30:00.000+00:00",
                    "last_seen": "2026-07-21T02:30:00.000+00:00",
                    "level": "WARN",
                    "service": "order-service",
                    "detail": {},
                },
                {
                    **log_header,
                    "timestamp": "2026-07-21T02:30:00.000+00:00",
                    "level": "WARN",
                    "service": "order-service",
                    "excerpt": LOG_EVENT["message"],
                },
            ],
        },
        {
            "analysis_id": "a2",
            "kind": "NORMAL",
            "analysis_text": "分析 a2",
            "verified_evidence": [
                {
                    "source_type": "KNOWLEDGE",
                    "document_id": "runbook-db-pool",
                    "title": "数据库连接池耗尽",
                    "breadcrumb": "排障手册 > 数据库",
                    "excerpt": "当 active 达到 max 且存在 pending 时，说明连接池耗尽。",
                    "asked": [KNOWLEDGE_RAW["query"]],
                },
                {
                    "source_type": "MYSQL",
                    "source": "order_db",
                    "tables": ["order_db.biz_order"],  # the validated tables are what was queried, found
                    "scope": f'{MYSQL_RAW["sql"]} params=["PAYING"]',
                    "asked": ["PAYING", "50"],
                    "selection": {"status": "PAYING"},  # every returned row meets the WHERE equality
                    "columns": ["id", "status", "phone"],
                    "rows": [{"id": 1, "status": "PAYING", "phone": "***"}],
                    "returned_count": 1,
                    "truncated": False,
                },
            ],
        },
    ]


def test_no_evidence_keeps_the_scope_and_the_zero_count() -> None:
    draft = make_draft(("a1", "NEGATIVE_OBSERVATION", ["call_logs_0e2", "call_kb_000", "call_sql_000"]))
    assert build_snapshot(draft, ALL, BUNDLED)[0]["verified_evidence"] == [
        {
            "source_type": "LOG",
            "source": "APPLICATION (MOCK)",
            "scope": LOG_SCOPE,
            "asked": [SCOPE["query"]],
            "match_count": 0,
        },
        {
            "source_type": "KNOWLEDGE",
            "source": "内部知识库",
            "scope": "HikariPool 连接池耗尽",
            "asked": [KNOWLEDGE_RAW["query"]],
            "returned_count": 0,
        },
        {
            "source_type": "MYSQL",
            "source": "order_db",
            "tables": ["order_db.biz_order"],
            "scope": f'{MYSQL_RAW["sql"]} params=["PAYING"]',
            "asked": ["PAYING", "50"],
            "columns": ["id", "status", "phone"],
            "rows": [],
            "returned_count": 0,
            "truncated": False,
        },
    ]


def test_a_real_log_source_is_not_marked_mock() -> None:
    record = projected("call_real", "query_logs", {**LOGS_RAW, "source_kind": "SLS"})
    evidence = build_snapshot(make_draft(("a1", "NORMAL", ["call_real"])), {"call_real": record}, BUNDLED)
    assert {entry["source"] for entry in evidence[0]["verified_evidence"]} == {"APPLICATION"}


def test_the_snapshot_has_no_tool_call_id_and_no_raw_data() -> None:
    draft = make_draft(("a1", "NORMAL", list(ALL)[:1]), ("a2", "NEGATIVE_OBSERVATION", list(ALL)))
    text = json.dumps(build_snapshot(draft, ALL, BUNDLED), ensure_ascii=False)
    assert "tool_call_id" not in text and "raw_response" not in text and MARKER not in text
    assert "13800000000" not in text
    assert not any(call in text for call in ALL)


def test_evidence_is_grouped_by_analysis_and_repeated_for_each_citation() -> None:
    draft = make_draft(("a2", "NORMAL", ["call_kb_77a", "call_kb_77a"]), ("a1", "NORMAL", ["call_kb_77a"]))
    snapshot = build_snapshot(draft, ALL, BUNDLED)
    assert [entry["analysis_id"] for entry in snapshot] == ["a2", "a1"]
    assert snapshot[0]["verified_evidence"] == snapshot[1]["verified_evidence"]
    assert len(snapshot[0]["verified_evidence"]) == 1


def test_the_snapshot_is_deterministic() -> None:
    draft = make_draft(("a1", "NORMAL", ["call_sql_4f0", "call_logs_9d1"]), ("a2", "NORMAL", ["call_kb_77a"]))
    first = json.dumps(build_snapshot(draft, ALL, BUNDLED), ensure_ascii=False).encode()
    again = json.dumps(build_snapshot(draft, dict(reversed(ALL.items())), BUNDLED), ensure_ascii=False).encode()
    assert first == again


def test_the_snapshot_does_not_alias_the_records() -> None:
    draft = make_draft(("a1", "NORMAL", ["call_sql_4f0"]))
    build_snapshot(draft, ALL, BUNDLED)[0]["verified_evidence"][0]["rows"][0]["status"] = "CHANGED"
    assert MYSQL.agent_result is not None and MYSQL.agent_result["rows"][0]["status"] == "PAYING"


def test_a_call_that_was_not_verified_has_no_snapshot() -> None:
    with pytest.raises(ValueError, match="EvidenceGuard"):
        build_snapshot(make_draft(("a1", "NORMAL", ["call_ghost"])), ALL, BUNDLED)


def test_verified_sources_name_each_source_and_scope_once() -> None:
    verified = {call: ALL[call] for call in ("call_logs_9d1", "call_logs_0e2", "call_kb_77a", "call_sql_4f0")}
    window = "2026-07-21T02:00:00.000+00:00 至 2026-07-21T02:30:00.000+00:00"
    assert verified_sources(verified, BUNDLED) == [
        {"source_type": "LOG", "source": "APPLICATION (MOCK)", "scope": f"APPLICATION 日志，{window}"},
        {"source_type": "KNOWLEDGE", "source": "数据库连接池耗尽", "scope": "内部知识库"},
        {"source_type": "MYSQL", "source": "order_db", "scope": "order_db.biz_order"},
    ]
    assert verified_sources({}, BUNDLED) == []


def test_verified_sources_carry_no_free_text_argument() -> None:
    """A fallback's sources come from validated parameters only: the agent's log query, knowledge query and SQL
    literals never ride along."""
    verified = {call: ALL[call] for call in ("call_logs_9d1", "call_kb_77a", "call_sql_4f0")}
    text = json.dumps(verified_sources(verified, BUNDLED), ensure_ascii=False)
    for free_text in (SCOPE["query"], KNOWLEDGE_RAW["query"], MYSQL_RAW["sql"], "PAYING"):
        assert free_text not in text


def test_snapshot_bytes_is_the_utf8_size_of_the_guard_input() -> None:
    draft = make_draft(("a1", "NORMAL", ["call_kb_77a"]))
    snapshot = build_snapshot(draft, ALL, BUNDLED)
    visible = draft.user_visible()
    size = snapshot_bytes(snapshot, visible, "支付超时")
    assert size == len(guard_input_json("支付超时", visible, snapshot).encode("utf-8"))
    assert snapshot_bytes(snapshot, visible, "支付超时了") == size + len("了".encode())
