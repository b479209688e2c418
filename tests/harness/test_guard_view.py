"""The SemanticGuard's bounded view of the snapshot (seed §4.2 budgets, §4.4 input): a rich report keeps its review.

A snapshot over ``semantic-guard.max-input-bytes`` is cut, per analysis and cited call, to the items the report
refers to first (its ids, numbers and times), then the rest in order up to the bound, and says how many items of
each call it left out. Only a draft that is over the bound by itself is too large to review.
"""

from __future__ import annotations

import json
from typing import Any

from contract.vocabulary import EvidenceStatus
from harness.draft import Draft, parse_draft
from harness.guard_view import guard_view
from harness.invocation import InvocationRecord, ToolCallStatus
from harness.messages import GuardRequest, guard_input_json
from harness.snapshot import build_snapshot
from tools.registry import BUNDLED

BOUND = 64 * 1024
QUERY = "订单 order-4711 支付超时，帮我排查"
LOGS_CALL, SQL_CALL = "call_logs_big", "call_sql_big"
DEEP_EVENT, DEEP_ROW, SIGNATURE = 317, 488, 250


def _record(call: str, tool: str, agent_result: dict[str, Any]) -> InvocationRecord:
    return InvocationRecord(
        run_id="run-a",
        tool_call_id=call,
        tool_name=tool,
        status=ToolCallStatus.READY,
        evidence_status=EvidenceStatus.EVIDENCE_FOUND,
        request={},
        agent_result={"evidence_status": "EVIDENCE_FOUND", "tool_call_id": call, **agent_result},
        started_at="2026-07-21T03:30:00.000+00:00",
        finished_at="2026-07-21T03:30:01.000+00:00",
        error_code=None,
    )


def _event(index: int) -> dict[str, Any]:
    order = "order-4711" if index == DEEP_EVENT else f"order-{1000 + index}"
    second = f"{index % 60:02d}"
    return {
        "timestamp": f"2026-07-21T03:{(index // 60) % 60:02d}:{second}.000+00:00",
        "level": "WARN",
        "service": "payment-service",
        "message": f"payment callback timeout orderId={order} channel={'ALIPAY' if index % 2 else 'WECHAT'} "
        f"elapsed_ms={3000 + index} "
        + (
            "the acquirer rejected the settlement signature"
            if index == SIGNATURE
            else "upstream=gateway retry scheduled, waiting for the acquirer to confirm the settlement state"
        ),
    }


def _row(index: int) -> dict[str, Any]:
    order = "order-4711" if index == DEEP_ROW else f"order-{5000 + index}"
    return {"order_id": order, "payment_status": "TIMEOUT" if index == DEEP_ROW else "PAID", "amount": 100 + index}


LOGS = _record(
    LOGS_CALL,
    "query_logs",
    {
        "source_kind": "MOCK",
        "scope": {
            "topic": "APPLICATION",
            "query": "payment-service timeout",
            "start_time": "2026-07-21T03:00:00.000+00:00",
            "end_time": "2026-07-21T03:30:00.000+00:00",
        },
        "match_count": 400,
        "returned_count": 400,
        "events": [_event(index) for index in range(400)],
        "truncated": False,
    },
)
SQL = _record(
    SQL_CALL,
    "query_mysql",
    {
        "scope": {
            "data_source": "order_readonly",
            "tables": ["biz_order"],
            "sql": "SELECT order_id, payment_status, amount FROM biz_order LIMIT 600",
            "params": [],
        },
        "columns": ["order_id", "payment_status", "amount"],
        "rows": [_row(index) for index in range(600)],
        "returned_count": 600,
        "truncated": False,
    },
)
VERIFIED = {LOGS_CALL: LOGS, SQL_CALL: SQL}


def _draft(a1: str = "payment-service 在 03:05:17 记录 order-4711 回调超时，elapsed_ms=3317。") -> Draft:
    return parse_draft(
        json.dumps(
            {
                "conclusion": {"text": "order-4711 的支付回调超时", "based_on_analysis_ids": ["a1", "a2"]},
                "analysis": [
                    {"analysis_id": "a1", "kind": "NORMAL", "text": a1, "tool_call_ids": [LOGS_CALL]},
                    {
                        "analysis_id": "a2",
                        "kind": "NORMAL",
                        "text": "biz_order 中 order-4711 的 payment_status 为 TIMEOUT，amount 为 588。",
                        "tool_call_ids": [SQL_CALL],
                    },
                ],
                "limitations": {"scope": "payment-service 最近 30 分钟（模拟日志）、biz_order", "missing_info": []},
            },
            ensure_ascii=False,
        )
    )


def _size(evidence: list[dict[str, Any]], draft: Draft) -> int:
    return len(guard_input_json(QUERY, draft.user_visible(), evidence).encode())


def _group(evidence: list[dict[str, Any]], analysis_id: str) -> dict[str, Any]:
    return next(group for group in evidence if group["analysis_id"] == analysis_id)


def test_a_snapshot_within_the_bound_is_sent_whole() -> None:
    draft = _draft()
    full = build_snapshot(draft, VERIFIED, BUNDLED)
    view = guard_view(QUERY, draft, VERIFIED, BUNDLED, _size(full, draft))
    assert view is not None
    assert view.evidence == full and (view.shown, view.omitted) == (1000, 0)


def test_a_snapshot_well_over_the_bound_keeps_the_cited_records_and_says_what_it_left_out() -> None:
    draft = _draft()
    assert _size(build_snapshot(draft, VERIFIED, BUNDLED), draft) > 2 * BOUND
    view = guard_view(QUERY, draft, VERIFIED, BUNDLED, BOUND)
    assert view is not None
    request = GuardRequest(query=QUERY, draft=draft.user_visible(), verified_evidence=view.evidence)
    content = request.content()
    assert len(content.encode()) <= BOUND
    logs, rows = _group(view.evidence, "a1"), _group(view.evidence, "a2")
    assert _event(DEEP_EVENT)["message"] in [entry.get("excerpt") for entry in logs["verified_evidence"]]
    [table] = rows["verified_evidence"]
    assert _row(DEEP_ROW) in table["rows"] and table["returned_count"] == 600
    [logs_note] = logs["omitted_evidence"]
    [rows_note] = rows["omitted_evidence"]
    assert logs_note["source"] == "APPLICATION (MOCK)" and rows_note["source"] == "order_readonly"
    assert logs_note["shown_items"] == len(logs["verified_evidence"])
    assert logs_note["shown_items"] + logs_note["omitted_items"] == 400
    assert rows_note["shown_items"] == len(table["rows"])
    assert rows_note["shown_items"] + rows_note["omitted_items"] == 600
    assert logs_note["omitted_items"] > 0 and rows_note["omitted_items"] > 0
    assert view.omitted == logs_note["omitted_items"] + rows_note["omitted_items"]
    assert view.shown + view.omitted == 1000
    assert LOGS_CALL not in content and SQL_CALL not in content


def test_the_cited_items_come_first_then_the_rest_in_their_own_order() -> None:
    draft = _draft()
    view = guard_view(QUERY, draft, VERIFIED, BUNDLED, BOUND)
    assert view is not None
    excerpts = [entry["excerpt"] for entry in _group(view.evidence, "a1")["verified_evidence"]]
    events = [_event(index)["message"] for index in range(400)]
    kept = [events.index(excerpt) for excerpt in excerpts]
    assert kept == sorted(kept)  # the source's order, the deep record in its place
    assert DEEP_EVENT in kept and kept[0] == 0  # what fits after the cited record is the beginning of the rest
    rows = _group(view.evidence, "a2")["verified_evidence"][0]["rows"]
    assert [row["order_id"] for row in rows][-1] == "order-4711"


def test_the_view_is_deterministic() -> None:
    draft = _draft()
    first = guard_view(QUERY, draft, VERIFIED, BUNDLED, BOUND)
    again = guard_view(QUERY, draft, dict(reversed(VERIFIED.items())), BUNDLED, BOUND)
    assert first is not None and again is not None
    assert guard_input_json(QUERY, {}, first.evidence) == guard_input_json(QUERY, {}, again.evidence)


def test_only_a_draft_over_the_bound_by_itself_is_too_large() -> None:
    draft = _draft()
    alone = _size([], draft)
    assert guard_view(QUERY, draft, VERIFIED, BUNDLED, alone - 1) is None
    tight = guard_view(QUERY, draft, VERIFIED, BUNDLED, alone + 400)
    assert tight is not None and _size(tight.evidence, draft) <= alone + 400
    assert [group["analysis_id"] for group in tight.evidence] == ["a1", "a2"]
    assert tight.omitted > 0


RUNBOOK_CALL = "call_kb_runbook"
RUNBOOK = _record(
    RUNBOOK_CALL,
    "lookup_knowledge",
    {
        "query": "支付回调超时 处理",
        "evidence": [
            {
                "document_id": f"runbook#{index}",
                "title": "支付回调排障手册",
                "breadcrumb": f"排障手册 > 第 {index} 节",
                "excerpt": "回调超时后先核对收单方的结算状态，再决定是否补单；" * 30,
            }
            for index in range(20)
        ],
        "returned_count": 20,
    },
)


def test_every_analysis_keeps_some_evidence_before_any_other_gets_more() -> None:
    """The report names ALIPAY, which half the log lines hold: those lines alone would fill the bound, and the
    analysis whose documents hold none of the report's tokens would be left with nothing to be judged on."""
    text = "payment-service 在 03:05:17 记录 order-4711 的 ALIPAY 回调超时，elapsed_ms=3317。"
    draft = parse_draft(
        json.dumps(
            {
                **_draft(text).model_dump(mode="json"),
                "analysis": [
                    *_draft(text).model_dump(mode="json")["analysis"],
                    {
                        "analysis_id": "a3",
                        "kind": "NORMAL",
                        "text": "手册要求先核对结算状态",
                        "tool_call_ids": [RUNBOOK_CALL],
                    },
                ],
            },
            ensure_ascii=False,
        )
    )
    verified = {**VERIFIED, RUNBOOK_CALL: RUNBOOK}
    view = guard_view(QUERY, draft, verified, BUNDLED, BOUND)
    assert view is not None and _size(view.evidence, draft) <= BOUND
    assert all(group["verified_evidence"] for group in view.evidence)
    [note] = _group(view.evidence, "a3")["omitted_evidence"]
    assert note["shown_items"] >= 1 and note["shown_items"] + note["omitted_items"] == 20


METRICS_CALL = "call_metrics_status"
DEEP_SERIES = 47


def _series(index: int) -> dict[str, Any]:
    peak = 0.4271 if index == DEEP_SERIES else round(0.1 + index / 1000, 4)
    return {
        "labels": {"status": str(500 + index)},
        "points": 61,
        "min": 0.0911,
        "max": peak,
        "last": 0.0989,
        "mean": 0.1963,
        "first_time": "2026-12-07T14:14:24.000+00:00",
        "last_time": "2026-12-07T14:44:24.000+00:00",
        "sample": [{"time": f"2026-12-07T14:{14 + 2 * step}:24.000+00:00", "value": 0.0989} for step in range(12)],
    }


METRICS = _record(
    METRICS_CALL,
    "query_metrics",
    {
        "source_kind": "MOCK",
        "source": "prometheus",
        "scope": {
            "metric": "http_server_requests_seconds",
            "type": "counter",
            "aggregation": "sum",
            "by": "status",
            "matchers": {"service": "payment-service"},
            "promql": 'sum by (status) (rate(http_server_requests_seconds_count{service="payment-service"}[1m]))',
            "start_time": "2026-12-07T14:14:24.000+00:00",
            "end_time": "2026-12-07T14:44:24.000+00:00",
            "step_seconds": 30,
        },
        "series_count": 60,
        "returned_count": 60,
        "series": [_series(index) for index in range(60)],
    },
)


def test_a_record_list_is_chosen_by_what_its_entry_says_too() -> None:
    """A series is cited by its labels and figures, which sit beside its samples: the samples of the series the
    report names come first, and the series with them."""
    said = "payment-service 的 status=547 每秒请求数最大 0.4271。"
    draft = parse_draft(
        json.dumps(
            {
                "conclusion": {"text": said, "based_on_analysis_ids": ["a1"]},
                "analysis": [{"analysis_id": "a1", "kind": "NORMAL", "text": said, "tool_call_ids": [METRICS_CALL]}],
                "limitations": {"scope": "payment-service 最近 30 分钟（模拟指标）", "missing_info": []},
            },
            ensure_ascii=False,
        )
    )
    verified = {METRICS_CALL: METRICS}
    assert _size(build_snapshot(draft, verified, BUNDLED), draft) > BOUND
    view = guard_view(QUERY, draft, verified, BUNDLED, BOUND // 4)
    assert view is not None and view.omitted > 0
    shown = [entry["labels"]["status"] for entry in view.evidence[0]["verified_evidence"]]
    assert "547" in shown
    deep = next(entry for entry in view.evidence[0]["verified_evidence"] if entry["labels"]["status"] == "547")
    assert deep["max"] == 0.4271 and deep["sample"]


def test_a_quoted_passage_chooses_the_item_that_holds_it() -> None:
    text = "payment-service 记录了「the acquirer rejected the settlement signature」。"
    view = guard_view(QUERY, _draft(text), VERIFIED, BUNDLED, BOUND // 4)
    assert view is not None
    excerpts = [entry["excerpt"] for entry in _group(view.evidence, "a1")["verified_evidence"]]
    assert _event(SIGNATURE)["message"] in excerpts
