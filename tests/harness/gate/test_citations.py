"""The release gate on a report (seed §4.3, stage 5): every deterministic pre-release rule, failures collected in
draft order."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping
from datetime import UTC, datetime
from typing import Any

import pytest
from fakeredis import FakeAsyncRedis, FakeServer

from config.harness import EvidenceStoreSettings
from contract.vocabulary import EvidenceStatus
from harness.errors import StoreUnavailable
from harness.gate import (
    ClaimPolicy,
    EvidenceFailureCode,
    Report,
    check,
    cited_tool_call_ids,
    failure_texts,
    fetch_cited,
)
from harness.invocation import InvocationRecord, ToolCallStatus
from stores.invocation_store import InvocationStore
from tools.registry import BUNDLED

Code = EvidenceFailureCode
MARKER = "SECRET-MARKER-7f3a"
SCOPE = {
    "topic": "APPLICATION",
    "query": "order-service HikariPool",
    "start_time": "2026-07-21T02:00:00+00:00",
    "end_time": "2026-07-21T02:30:00+00:00",
}
LOG_FOUND = {
    "evidence_status": "EVIDENCE_FOUND",
    "source_kind": "MOCK",
    "scope": SCOPE,
    "match_count": 23,
    "returned_count": 1,
    "patterns": [],
    "events": [{"timestamp": SCOPE["end_time"], "level": "ERROR", "service": "order-service", "message": MARKER}],
    "truncated": True,
}
LOG_NONE = {**LOG_FOUND, "evidence_status": "NO_EVIDENCE", "match_count": 0, "returned_count": 0, "events": []}
MYSQL_NONE = {
    "evidence_status": "NO_EVIDENCE",
    "scope": {"data_source": "order_db", "sql": "SELECT id FROM biz_order WHERE status = ?", "params": ["STUCK"]},
    "columns": ["id"],
    "rows": [],
    "returned_count": 0,
    "truncated": False,
}
KNOWLEDGE_NONE = {"evidence_status": "NO_EVIDENCE", "query": "HikariPool 超时", "evidence": [], "returned_count": 0}
TOOLS = {"logs": "query_logs", "mysql": "query_mysql", "knowledge": "lookup_knowledge"}


def record(
    call: str,
    result: dict[str, Any] | None = LOG_FOUND,
    *,
    tool: str = "query_logs",
    status: ToolCallStatus = ToolCallStatus.READY,
    evidence: EvidenceStatus | None = EvidenceStatus.EVIDENCE_FOUND,
    run_id: str = "run-a",
) -> InvocationRecord:
    agent_result = None if result is None else {**result, "tool_call_id": call}
    return InvocationRecord(
        run_id=run_id,
        tool_call_id=call,
        tool_name=tool,
        status=status,
        evidence_status=evidence,
        request={"query": "order-service"},
        agent_result=agent_result,
        started_at="2026-07-21T02:30:00+00:00",
        finished_at="2026-07-21T02:30:01+00:00",
        error_code=None,
        raw_response={"marker": MARKER},
    )


def no_evidence(call: str, tool: str = "logs", result: dict[str, Any] | None = None) -> InvocationRecord:
    default = {"logs": LOG_NONE, "mysql": MYSQL_NONE, "knowledge": KNOWLEDGE_NONE}[tool]
    return record(call, default if result is None else result, tool=TOOLS[tool], evidence=EvidenceStatus.NO_EVIDENCE)


def analysis(analysis_id: str, *calls: str, kind: str = "NORMAL") -> dict[str, Any]:
    return {"analysis_id": analysis_id, "kind": kind, "text": f"分析 {analysis_id}", "tool_call_ids": list(calls)}


def draft(analyses: list[dict[str, Any]], conclusion: Any = "a1", **overrides: Any) -> str:
    content: dict[str, Any] = {
        "conclusion": None if conclusion is None else {"text": "连接池耗尽", "based_on_analysis_ids": [conclusion]},
        "analysis": analyses,
        "action_plan": [
            {"action": "查询长事务", "based_on_analysis_ids": ["a1"], "requires_human_confirmation": False}
        ],
        "recommendations": [
            {"text": "增加连接池告警", "based_on_analysis_ids": ["a1"], "requires_human_confirmation": True}
        ],
        "limitations": {"scope": "order-service，最近 30 分钟", "missing_info": []},
    }
    content.update(overrides)
    return json.dumps(content, ensure_ascii=False)


def checked(text: str | None, records: Mapping[str, InvocationRecord | None], run_id: str | None = None) -> Any:
    return check(Report(text, records, BUNDLED, "订单 order-123 支付超时", run_id), ClaimPolicy.default())


def codes(text: str, records: Mapping[str, InvocationRecord | None]) -> list[str]:
    return [failure.code for failure in checked(text, records).failures]


def test_a_well_formed_draft_passes_with_the_cited_records_in_first_citation_order() -> None:
    records = {"c2": record("c2"), "c1": record("c1"), "c3": no_evidence("c3")}
    text = draft([analysis("a1", "c2", "c1", "c2"), analysis("a2", "c3", kind="NEGATIVE_OBSERVATION")])
    check = checked(text, records, run_id="run-a")
    assert check.ok and check.failures == ()
    assert check.draft is not None and check.draft.analysis[0].analysis_id == "a1"
    assert list(check.verified) == ["c2", "c1", "c3"]
    assert check.verified["c1"] is records["c1"]


def test_duplicate_analysis_id_is_reported_once() -> None:
    text = draft([analysis("a1", "c1"), analysis("a1", "c1"), analysis("a1", "c1")])
    check = checked(text, {"c1": record("c1")})
    assert [failure.code for failure in check.failures] == [Code.DUPLICATE_ANALYSIS_ID]
    assert "a1" in check.failures[0].message


def test_references_to_missing_analysis_ids_are_rejected_everywhere() -> None:
    text = draft(
        [analysis("a1", "c1")],
        conclusion="a9",
        action_plan=[{"action": "重启", "based_on_analysis_ids": ["a1", "a8"], "requires_human_confirmation": True}],
        recommendations=[{"text": "告警", "based_on_analysis_ids": ["a7", "a7"], "requires_human_confirmation": True}],
    )
    check = checked(text, {"c1": record("c1")})
    assert [failure.code for failure in check.failures] == [Code.UNKNOWN_ANALYSIS_ID] * 3
    messages = [failure.message for failure in check.failures]
    assert "conclusion" in messages[0] and "a9" in messages[0]
    assert "action_plan[0]" in messages[1] and "a8" in messages[1]
    assert "recommendations[0]" in messages[2] and "a7" in messages[2]


def test_statements_without_analysis_are_rejected() -> None:
    text = draft(
        [analysis("a1", "c1")],
        conclusion=None,
        action_plan=[{"action": "查询", "based_on_analysis_ids": [], "requires_human_confirmation": False}],
        recommendations=[{"text": "告警", "based_on_analysis_ids": [], "requires_human_confirmation": True}],
    )
    content = json.loads(text)
    content["conclusion"] = {"text": "连接池耗尽", "based_on_analysis_ids": []}
    assert codes(json.dumps(content), {"c1": record("c1")}) == [
        Code.CONCLUSION_WITHOUT_ANALYSIS,
        Code.ACTION_WITHOUT_ANALYSIS,
        Code.RECOMMENDATION_WITHOUT_ANALYSIS,
    ]


def test_an_analysis_without_evidence_reference_is_rejected() -> None:
    check = checked(draft([analysis("a1")]), {})
    assert [failure.code for failure in check.failures] == [Code.EMPTY_TOOL_CALL_IDS]
    assert check.verified == {}


@pytest.mark.parametrize(
    "records",
    [
        {},
        {"call_fake": None},
        {"call_fake": record("call_other")},
        {"call_fake": record("call_fake", run_id="run-b")},
        {"call_fake": record("call_fake", tool="delete_everything")},
    ],
    ids=["not-fetched", "not-found", "wrong-id", "other-run", "not-an-evidence-tool"],
)
def test_a_fabricated_or_foreign_tool_call_id_is_unknown(records: dict[str, InvocationRecord | None]) -> None:
    check = checked(draft([analysis("a1", "call_fake")]), records, run_id="run-a")
    assert [failure.code for failure in check.failures] == [Code.UNKNOWN_TOOL_CALL]
    assert "a1" in check.failures[0].message and "call_fake" in check.failures[0].message
    assert check.verified == {}


@pytest.mark.parametrize(
    ("status", "evidence", "code"),
    [
        (ToolCallStatus.ERROR, EvidenceStatus.ERROR, Code.TOOL_CALL_FAILED),
        (ToolCallStatus.READY, EvidenceStatus.ERROR, Code.TOOL_CALL_FAILED),
        (ToolCallStatus.READY, None, Code.TOOL_CALL_FAILED),
        (ToolCallStatus.PROJECTING, None, Code.TOOL_CALL_NOT_READY),
    ],
)
def test_failed_and_unfinished_calls_cannot_be_cited(
    status: ToolCallStatus, evidence: EvidenceStatus | None, code: str
) -> None:
    for kind in ("NORMAL", "NEGATIVE_OBSERVATION"):
        records = {"c1": record("c1", status=status, evidence=evidence)}
        assert codes(draft([analysis("a1", "c1", kind=kind)]), records) == [code]


def test_a_ready_call_without_agent_result_is_rejected() -> None:
    assert codes(draft([analysis("a1", "c1")]), {"c1": record("c1", None)}) == [Code.MISSING_AGENT_RESULT]


@pytest.mark.parametrize("tool", ["logs", "mysql", "knowledge"])
def test_no_evidence_supports_a_negative_observation(tool: str) -> None:
    text = draft([analysis("a1", "c1", kind="NEGATIVE_OBSERVATION")], conclusion=None)
    check = checked(text, {"c1": no_evidence("c1", tool)})
    assert check.ok and list(check.verified) == ["c1"]


def test_a_negative_observation_may_cite_found_evidence() -> None:
    assert checked(draft([analysis("a1", "c1", kind="NEGATIVE_OBSERVATION")]), {"c1": record("c1")}).ok


@pytest.mark.parametrize("tool", ["logs", "mysql", "knowledge"])
def test_no_evidence_cited_by_a_normal_analysis_is_rejected(tool: str) -> None:
    check = checked(draft([analysis("a1", "c1")]), {"c1": no_evidence("c1", tool)})
    assert [failure.code for failure in check.failures] == [Code.NORMAL_CITES_NO_EVIDENCE]
    assert check.verified == {}


def _without(result: dict[str, Any], *path: str) -> dict[str, Any]:
    copy = json.loads(json.dumps(result))
    target = copy
    for name in path[:-1]:
        target = target[name]
    del target[path[-1]]
    return copy


@pytest.mark.parametrize(
    ("tool", "result"),
    [
        ("logs", _without(LOG_NONE, "scope")),
        ("logs", _without(LOG_NONE, "scope", "start_time")),
        ("logs", _without(LOG_NONE, "scope", "query")),
        ("logs", _without(LOG_NONE, "match_count")),
        ("logs", {**LOG_NONE, "match_count": False}),
        ("logs", {**LOG_NONE, "match_count": 3}),
        ("mysql", _without(MYSQL_NONE, "scope", "sql")),
        ("mysql", {**MYSQL_NONE, "scope": "SELECT 1"}),
        ("mysql", _without(MYSQL_NONE, "returned_count")),
        ("knowledge", _without(KNOWLEDGE_NONE, "query")),
        ("knowledge", {**KNOWLEDGE_NONE, "query": "  "}),
        ("knowledge", _without(KNOWLEDGE_NONE, "returned_count")),
    ],
)
def test_no_evidence_without_its_scope_is_rejected(tool: str, result: dict[str, Any]) -> None:
    text = draft([analysis("a1", "c1", kind="NEGATIVE_OBSERVATION")], conclusion=None)
    assert codes(text, {"c1": no_evidence("c1", tool, result)}) == [Code.NEGATIVE_OBSERVATION_WITHOUT_SCOPE]


def test_a_null_conclusion_and_unreferenced_analyses_are_allowed() -> None:
    text = draft([analysis("a1", "c1"), analysis("a2", "c2")], conclusion=None, action_plan=[], recommendations=[])
    assert checked(text, {"c1": record("c1"), "c2": record("c2")}).ok


@pytest.mark.parametrize(
    "text",
    [
        None,
        "",
        "诊断完成",
        "[]",
        draft([analysis("a1", "c1")], thought="先查日志"),
        draft([analysis("a1", "c1", kind="POSITIVE")]),
        draft([{**analysis("a1", "c1"), "evidence": "x"}]),
        json.dumps({"analysis": []}),
    ],
    ids=["none", "empty", "prose", "array", "thought", "wrong-kind", "extra-analysis-field", "missing-fields"],
)
def test_schema_errors_are_draft_schema_failures(text: str | None) -> None:
    check = checked(text, {"c1": record("c1")})
    assert not check.ok and check.draft is None and check.verified == {}
    assert check.failures and {failure.code for failure in check.failures} == {Code.DRAFT_SCHEMA}


def test_all_failures_are_collected_in_draft_order() -> None:
    records = {"ok": record("ok"), "err": record("err", status=ToolCallStatus.ERROR, evidence=EvidenceStatus.ERROR)}
    text = draft(
        [
            analysis("a1", "ok", "ghost"),
            analysis("a2"),
            analysis("a1", "err"),
            analysis("a3", "none", kind="NEGATIVE_OBSERVATION"),
        ],
        conclusion="a4",
        recommendations=[{"text": "告警", "based_on_analysis_ids": [], "requires_human_confirmation": True}],
    )
    records["none"] = no_evidence("none", "logs", _without(LOG_NONE, "match_count"))
    check = checked(text, records)
    assert [failure.code for failure in check.failures] == [
        Code.UNKNOWN_TOOL_CALL,
        Code.EMPTY_TOOL_CALL_IDS,
        Code.DUPLICATE_ANALYSIS_ID,
        Code.TOOL_CALL_FAILED,
        Code.NEGATIVE_OBSERVATION_WITHOUT_SCOPE,
        Code.UNKNOWN_ANALYSIS_ID,
        Code.RECOMMENDATION_WITHOUT_ANALYSIS,
    ]
    assert list(check.verified) == ["ok"]
    assert check == checked(text, dict(reversed(records.items())))
    texts = failure_texts(check)
    assert texts[0].startswith("UNKNOWN_TOOL_CALL: analysis a1 cites tool_call_id ghost")
    assert len(texts) == 7 and all(MARKER not in line for line in texts)


def test_a_call_that_fails_one_citation_is_not_verified() -> None:
    records = {"c1": no_evidence("c1")}
    text = draft([analysis("a1", "c1", kind="NEGATIVE_OBSERVATION"), analysis("a2", "c1")], conclusion=None)
    check = checked(text, records)
    assert [failure.code for failure in check.failures] == [Code.NORMAL_CITES_NO_EVIDENCE]
    assert "a2" in check.failures[0].message and check.verified == {}


def test_the_ids_to_fetch_come_from_the_draft() -> None:
    assert cited_tool_call_ids(draft([analysis("a1", "c2", "c1"), analysis("a2", "c1", "c3")])) == ["c2", "c1", "c3"]
    assert cited_tool_call_ids("not json") == []
    assert cited_tool_call_ids(None) == []


@pytest.fixture
async def store() -> AsyncIterator[InvocationStore]:
    client = FakeAsyncRedis(server=FakeServer())
    yield InvocationStore(client, EvidenceStoreSettings())
    await client.aclose()


async def _recorded(store: InvocationStore, run_id: str, call: str) -> None:
    started = datetime(2026, 7, 21, 2, 30, tzinfo=UTC)
    await store.record_raw(run_id, call, "query_logs", {"query": "order-service"}, {"marker": MARKER}, started)
    await store.record_projection(run_id, call, {**LOG_FOUND, "tool_call_id": call}, EvidenceStatus.EVIDENCE_FOUND)


async def test_fetch_cited_reads_this_run_only(store: InvocationStore) -> None:
    await _recorded(store, "run-a", "call_a")
    await _recorded(store, "run-b", "call_b")
    records = await fetch_cited(store, "run-a", ["call_a", "call_b", "call_a", "bad id!", "call_x"])
    assert list(records) == ["call_a", "call_b", "bad id!", "call_x"]
    assert records["call_b"] is None and records["bad id!"] is None and records["call_x"] is None
    fetched = records["call_a"]
    assert fetched is not None and fetched.run_id == "run-a" and fetched.raw_response is None
    assert await fetch_cited(store, "run-never", ["call_a"]) == {"call_a": None}

    check = checked(draft([analysis("a1", "call_a"), analysis("a2", "call_b")]), records, run_id="run-a")
    assert [failure.code for failure in check.failures] == [Code.UNKNOWN_TOOL_CALL]
    assert "call_b" in check.failures[0].message and list(check.verified) == ["call_a"]


async def test_fetch_cited_lets_an_unavailable_store_propagate() -> None:
    class DownStore:
        async def get(self, run_id: str, tool_call_id: str) -> InvocationRecord:
            raise StoreUnavailable("redis is unreachable")

    with pytest.raises(StoreUnavailable):
        await fetch_cited(DownStore(), "run-a", ["c1", "c2"])
