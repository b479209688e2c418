"""Release (seed §10.2, §10.3): the draft unchanged with expanded references, or the fixed Fallback."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from contract.vocabulary import EvidenceStatus
from harness.draft import parse_draft
from harness.invocation import InvocationRecord, ToolCallStatus
from harness.language import language_of
from harness.release import FallbackType, fallback_payload, knowledge_fallback_payload, report_payload
from tools.registry import BUNDLED

MARKER = "RAW-ONLY-MARKER-c0de"
SCOPE = {
    "topic": "APPLICATION",
    "query": "order-service HikariPool",
    "start_time": "2026-07-21T02:00:00.000+00:00",
    "end_time": "2026-07-21T02:30:00.000+00:00",
}
LOG_SCOPE = "order-service HikariPool，2026-07-21T02:00:00.000+00:00 至 2026-07-21T02:30:00.000+00:00"
PATTERN = {
    "count": 2,
    "first_seen": "2026-07-21T02:28:00.000+00:00",
    "last_seen": "2026-07-21T02:29:00.000+00:00",
    "level": "ERROR",
    "service": "order-service",
    "example": "HikariPool-1 - Connection is not available",
}
EVENT = {
    "timestamp": "2026-07-21T02:30:00.000+00:00",
    "level": "WARN",
    "service": "order-service",
    "message": "HikariPool active=50, max=50, pending=23",
}
RESULTS: dict[str, tuple[str, EvidenceStatus, dict[str, Any]]] = {
    "tool-logs": (
        "query_logs",
        EvidenceStatus.EVIDENCE_FOUND,
        {"source_kind": "MOCK", "scope": SCOPE, "match_count": 3, "patterns": [PATTERN], "events": [EVENT]},
    ),
    "tool-nolog": (
        "query_logs",
        EvidenceStatus.NO_EVIDENCE,
        {"source_kind": "MOCK", "scope": {**SCOPE, "query": "slow"}, "match_count": 0, "patterns": [], "events": []},
    ),
    "tool-kb": (
        "lookup_knowledge",
        EvidenceStatus.EVIDENCE_FOUND,
        {
            "query": "连接池耗尽",
            "evidence": [
                {
                    "document_id": "runbook-db-pool",
                    "source": "docs/runbook.md",
                    "title": "数据库连接池耗尽",
                    "breadcrumb": "排障手册 > 数据库",
                    "excerpt": "active 达到 max 且存在 pending 时，说明连接池耗尽。",
                }
            ],
            "returned_count": 1,
        },
    ),
    "tool-sql": (
        "query_mysql",
        EvidenceStatus.EVIDENCE_FOUND,
        {
            "scope": {"data_source": "order_db", "sql": "SELECT id FROM biz_order WHERE status = ?", "params": ["X"]},
            "columns": ["id"],
            "rows": [{"id": 7}],
            "returned_count": 1,
            "truncated": False,
        },
    ),
}


def record(call: str) -> InvocationRecord:
    tool, status, result = RESULTS[call]
    return InvocationRecord(
        run_id="run-a",
        tool_call_id=call,
        tool_name=tool,
        status=ToolCallStatus.READY,
        evidence_status=status,
        request={},
        agent_result={"evidence_status": status.value, "tool_call_id": call, **result},
        started_at="2026-07-21T02:30:00.000+00:00",
        finished_at="2026-07-21T02:30:01.000+00:00",
        error_code=None,
        raw_response={"secret": MARKER},
    )


VERIFIED = {call: record(call) for call in RESULTS}
DRAFT: dict[str, Any] = {
    "conclusion": {"text": "支付超时的主要原因是数据库连接池耗尽", "based_on_analysis_ids": ["a1", "a2"]},
    "analysis": [
        {
            "analysis_id": "a1",
            "kind": "NORMAL",
            "text": '连接池活跃连接达到 50/50，并存在等待线程（"pending=23"）',
            "tool_call_ids": ["tool-logs", "tool-kb", "tool-logs"],
        },
        {"analysis_id": "a2", "kind": "NORMAL", "text": "订单停留在支付中", "tool_call_ids": ["tool-sql", "tool-kb"]},
        {
            "analysis_id": "a3",
            "kind": "NEGATIVE_OBSERVATION",
            "text": "最近 30 分钟没有匹配的慢查询日志",
            "tool_call_ids": ["tool-nolog"],
        },
    ],
    "action_plan": [
        {"action": "查询连接泄漏和长事务", "based_on_analysis_ids": ["a1"], "requires_human_confirmation": False},
        {"action": "临时扩大连接池容量", "based_on_analysis_ids": ["a1"], "requires_human_confirmation": True},
    ],
    "recommendations": [{"text": "增加连接池等待线程和获取耗时告警", "based_on_analysis_ids": ["a1"]}],
    "limitations": {"scope": "order-service，最近 30 分钟", "missing_info": ["尚未取得慢 SQL 和长事务数据"]},
}


def test_the_report_sections_come_in_the_fixed_order() -> None:
    payload = report_payload(parse_draft(json.dumps(DRAFT)), VERIFIED, BUNDLED)
    order = ["conclusion", "analysis", "action_plan", "recommendations", "limitations", "references"]
    assert list(payload) == order
    assert list(json.loads(json.dumps(payload, ensure_ascii=False))) == order


def test_the_draft_text_is_released_unchanged() -> None:
    payload = report_payload(parse_draft(json.dumps(DRAFT)), VERIFIED, BUNDLED)
    assert payload["conclusion"] == DRAFT["conclusion"]
    assert [item["text"] for item in payload["analysis"]] == [item["text"] for item in DRAFT["analysis"]]
    assert [(item["analysis_id"], item["kind"]) for item in payload["analysis"]] == [
        ("a1", "NORMAL"),
        ("a2", "NORMAL"),
        ("a3", "NEGATIVE_OBSERVATION"),
    ]
    assert payload["action_plan"] == DRAFT["action_plan"]
    assert payload["recommendations"] == [
        {**item, "requires_human_confirmation": False} for item in DRAFT["recommendations"]
    ]
    assert payload["limitations"] == DRAFT["limitations"]


def test_references_are_expanded_from_the_cited_calls_in_first_citation_order() -> None:
    payload = report_payload(parse_draft(json.dumps(DRAFT)), VERIFIED, BUNDLED)
    assert [item["references"] for item in payload["analysis"]] == [["R1", "R2"], ["R3", "R2"], ["R4"]]
    assert payload["references"] == [
        {
            "ref": "R1",
            "source_type": "LOG",
            "source": "APPLICATION (MOCK)",
            "scope": LOG_SCOPE,
            "evidence": [
                {
                    "level": "ERROR",
                    "service": "order-service",
                    "excerpt": PATTERN["example"],
                    "count": 2,
                    "first_seen": PATTERN["first_seen"],
                    "last_seen": PATTERN["last_seen"],
                },
                {
                    "timestamp": EVENT["timestamp"],
                    "level": "WARN",
                    "service": "order-service",
                    "excerpt": EVENT["message"],
                },
            ],
        },
        {
            "ref": "R2",
            "source_type": "KNOWLEDGE",
            "source": "数据库连接池耗尽",
            "scope": "连接池耗尽",
            "evidence": [
                {
                    "document_id": "runbook-db-pool",
                    "title": "数据库连接池耗尽",
                    "breadcrumb": "排障手册 > 数据库",
                    "excerpt": "active 达到 max 且存在 pending 时，说明连接池耗尽。",
                }
            ],
        },
        {
            "ref": "R3",
            "source_type": "MYSQL",
            "source": "order_db",
            "scope": 'SELECT id FROM biz_order WHERE status = ? params=["X"]',
            "evidence": [{"columns": ["id"], "rows": [{"id": 7}]}],
        },
        {
            "ref": "R4",
            "source_type": "LOG",
            "source": "APPLICATION (MOCK)",
            "scope": LOG_SCOPE.replace("order-service HikariPool", "slow"),
            "evidence": [{"match_count": 0}],
        },
    ]


def test_the_report_never_shows_a_tool_call_id_or_raw_data() -> None:
    text = json.dumps(report_payload(parse_draft(json.dumps(DRAFT)), VERIFIED, BUNDLED), ensure_ascii=False)
    assert "tool_call_id" not in text and MARKER not in text
    assert not any(call in text for call in RESULTS)


def test_a_null_conclusion_is_released_as_null_and_only_cited_calls_are_referenced() -> None:
    draft = {**DRAFT, "conclusion": None, "analysis": DRAFT["analysis"][2:], "action_plan": [], "recommendations": []}
    payload = report_payload(parse_draft(json.dumps(draft)), VERIFIED, BUNDLED)
    assert payload["conclusion"] is None
    assert [ref["ref"] for ref in payload["references"]] == ["R1"]
    assert payload["references"][0]["evidence"] == [{"match_count": 0}]


def test_the_report_is_deterministic() -> None:
    draft = parse_draft(json.dumps(DRAFT))
    first = json.dumps(report_payload(draft, VERIFIED, BUNDLED), ensure_ascii=False)
    assert first == json.dumps(report_payload(draft, dict(reversed(VERIFIED.items())), BUNDLED), ensure_ascii=False)


def test_an_unverified_citation_cannot_be_released() -> None:
    with pytest.raises(ValueError, match="EvidenceGuard"):
        report_payload(parse_draft(json.dumps(DRAFT)), {"tool-logs": VERIFIED["tool-logs"]}, BUNDLED)


SOURCES = [
    {"source_type": "LOG", "source": "APPLICATION (MOCK)", "scope": "order-service，最近 30 分钟"},
    {"source_type": "LOG", "source": "APPLICATION (MOCK)", "scope": "order-service，最近 30 分钟"},
    {"source_type": "MYSQL", "source": "order_db", "scope": "SELECT 1", "analysis_text": "连接池耗尽", "reason": "x"},
]


@pytest.mark.parametrize(
    ("kind", "limitation"),
    [
        (FallbackType.SEMANTIC_UNSUPPORTED, "已验证证据不足以支持诊断结论"),
        (FallbackType.SEMANTIC_UNAVAILABLE, "语义校验暂不可用"),
    ],
)
def test_a_semantic_fallback_shows_the_verified_sources_only(kind: FallbackType, limitation: str) -> None:
    payload = fallback_payload(kind, SOURCES)
    assert payload == {
        "type": kind.value,
        "conclusion": None,
        "message": "当前证据不足，无法确认根因",
        "verified_sources": [
            {"source_type": "LOG", "source": "APPLICATION (MOCK)", "scope": "order-service，最近 30 分钟"},
            {"source_type": "MYSQL", "source": "order_db", "scope": "SELECT 1"},
        ],
        "limitations": [limitation],
        "next_steps": [
            "补充当前缺失的数据后重新发起诊断",
            "缩小查询范围（服务、时间窗口或数据范围）后重新发起诊断",
            "稍后重试",
        ],
    }
    assert list(payload) == ["type", "conclusion", "message", "verified_sources", "limitations", "next_steps"]
    assert "连接池耗尽" not in json.dumps(payload, ensure_ascii=False)


def test_an_evidence_validation_fallback_never_shows_sources() -> None:
    payload = fallback_payload(FallbackType.EVIDENCE_VALIDATION_FAILED, SOURCES)
    assert payload["type"] == "EVIDENCE_VALIDATION_FAILED"
    assert payload["verified_sources"] == []
    assert payload["limitations"] == ["诊断报告未通过证据引用校验"]
    assert payload["conclusion"] is None and payload["message"] == "当前证据不足，无法确认根因"


def test_a_fallback_names_its_cause_as_its_one_limitation() -> None:
    budget = fallback_payload(FallbackType.SEMANTIC_UNSUPPORTED, SOURCES[:1], limitation="BUDGET_MODEL_CALLS")
    assert budget["limitations"] == ["诊断在用完模型调用预算前未能完成报告"]
    assert budget["verified_sources"] == SOURCES[:1] and budget["message"] == "当前证据不足，无法确认根因"
    deadline = fallback_payload(FallbackType.SEMANTIC_UNSUPPORTED, [], limitation="BUDGET_DEADLINE")
    assert deadline["limitations"] == ["诊断超过了运行时限，未能完成报告"]
    claim = fallback_payload(FallbackType.SEMANTIC_UNSUPPORTED, SOURCES, limitation="CLAIM_UNGROUNDED_VALUE")
    assert (
        claim["limitations"] == ["诊断报告中有数值或标识无法在已验证的证据中找到"]
        and len(claim["verified_sources"]) == 2
    )


@pytest.mark.parametrize("kind", list(FallbackType))
def test_an_english_fallback_has_the_same_schema_in_english(kind: FallbackType) -> None:
    chinese, english = fallback_payload(kind, SOURCES), fallback_payload(kind, SOURCES, "en")
    assert list(english) == list(chinese)
    assert (english["type"], english["conclusion"], english["verified_sources"]) == (
        chinese["type"],
        None,
        chinese["verified_sources"],
    )
    assert english["message"] == "The current evidence is not enough to confirm the root cause"
    assert len(english["limitations"]) == 1 and len(english["next_steps"]) == 3
    written = [english["message"], *english["limitations"], *english["next_steps"]]
    assert {language_of(text) for text in written} == {"en"}


def test_the_knowledge_fallback_in_each_language() -> None:
    assert knowledge_fallback_payload()["message"] == "知识库回答未能通过证据校验，本次不提供回答"
    english = knowledge_fallback_payload("en")
    assert english["type"] == "EVIDENCE_VALIDATION_FAILED" and english["verified_sources"] == []
    assert english["message"].startswith("The knowledge answer did not pass the evidence check")


def test_fallback_types_are_the_three_fixed_categories() -> None:
    assert [kind.value for kind in FallbackType] == [
        "EVIDENCE_VALIDATION_FAILED",
        "SEMANTIC_UNSUPPORTED",
        "SEMANTIC_UNAVAILABLE",
    ]
    assert fallback_payload("SEMANTIC_UNAVAILABLE", [])["type"] == "SEMANTIC_UNAVAILABLE"  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        fallback_payload("GUARD_SAID_NO", [])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "literal",
    ["password=Sup3rS3cret!", "jdbc:mysql://app:Sup3rS3cret@db-1:3306/order_db", "token: ghp_" + "a1B2" * 9],
)
def test_a_secret_the_agent_wrote_into_its_own_sql_is_masked_in_the_reference(literal: str) -> None:
    result = RESULTS["tool-sql"][2]
    sql = f"SELECT id FROM biz_order WHERE status = ? AND note = '{literal}'"
    original = record("tool-sql")
    assert isinstance(original.agent_result, dict)
    leaky = dataclasses.replace(
        original, agent_result={**original.agent_result, "scope": {**result["scope"], "sql": sql}}
    )
    draft = parse_draft(json.dumps({**DRAFT, "analysis": DRAFT["analysis"][1:2]}, ensure_ascii=False))
    payload = report_payload(draft, {**VERIFIED, "tool-sql": leaky}, BUNDLED)
    shown = json.dumps(payload["references"], ensure_ascii=False)
    assert "Sup3rS3cret" not in shown and "a1B2a1B2" not in shown
    assert "[REDACTED]" in shown and "SELECT id FROM biz_order" in shown
