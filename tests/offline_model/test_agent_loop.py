"""End to end: ``DiagnosisAgent`` + the offline model + the real tools on the bundled demo data.

Nothing here is scripted: every tool call comes from the model reading the query and the results so far, and
every Draft is checked by the real EvidenceGuard and by the offline SemanticGuard.
"""

from __future__ import annotations

import asyncio
import json
import re

import pytest

from contract.vocabulary import EvidenceStatus
from harness.draft import parse_draft
from harness.messages import ModelRequest, PreviousTurn
from offline_model.model import OfflineChatModel
from tests.offline_model.loop import Run, diagnose, guard_verdict

ORDER_QUERY = "订单 order-123 支付超时，帮我排查"
FOUND, EMPTY = EvidenceStatus.EVIDENCE_FOUND, EvidenceStatus.NO_EVIDENCE


@pytest.fixture(scope="module")
def order_run() -> Run:
    """One run shared by the tests that read it (a sync fixture: each test keeps its own event loop)."""
    return asyncio.run(diagnose(ORDER_QUERY))


def _tools_cited(run: Run) -> set[str]:
    draft = parse_draft(run.draft_text)
    return {run.gateway.records[call].tool_name for call in draft.cited_tool_call_ids()}


def _assert_citations_hold(run: Run) -> None:
    draft = parse_draft(run.draft_text)
    for item in draft.analysis:
        assert item.tool_call_ids
        for call in item.tool_call_ids:
            assert call in run.gateway.records, f"{item.analysis_id} cites unknown {call}"
            expected = FOUND if item.kind == "NORMAL" else EMPTY
            assert run.gateway.status_of(call) is expected
    check = run.gateway.check(run.draft_text)
    assert check.ok, check.failures


async def test_order_timeout_plan_comes_first_and_names_no_sql(order_run: Run) -> None:
    steps = order_run.gateway.plan_steps
    assert 3 <= len(steps) <= 5
    assert not any(re.search(r"\b(select|from|where|join)\b|\?|`", step, re.I) for step in steps)
    assert any("order-123" in step for step in steps)
    first = order_run.gateway.requests[0]
    assert first.tool_choice == "none" and first.json_output


async def test_order_timeout_calls_the_tools_with_arguments_from_the_query_and_earlier_results(order_run: Run) -> None:
    calls = order_run.gateway.calls
    ids = [call.id for call in calls]
    assert len(ids) == len(set(ids)) and all(re.fullmatch(r"call_\d+", ident) for ident in ids)
    by_name: dict[str, list[dict]] = {}
    for call in calls:
        by_name.setdefault(call.name, []).append(json.loads(call.arguments))
    # The first tool turn is one parallel batch: knowledge, data dictionary and both services' logs.
    first_batch = order_run.gateway.replies[1].tool_calls
    assert {call.name for call in first_batch} == {"lookup_knowledge", "query_logs"} and len(first_batch) >= 3
    assert any(args["query"].startswith("order-service order-123") for args in by_name["query_logs"])
    assert all(args["lookback_minutes"] == 30 and args["topic"] == "APPLICATION" for args in by_name["query_logs"])
    # The pool-exhaustion message the logs returned is explained by knowledge the agent read: by a lookup of its
    # signature, unless an earlier lookup's excerpts already explain it (the runbook's log section does).
    read = [
        json.dumps(record.agent_result, ensure_ascii=False)
        for record in order_run.gateway.records.values()
        if record.tool_name == "lookup_knowledge"
    ]
    assert any("Connection is not available, request timed out" in text for text in read)
    (mysql,) = by_name["query_mysql"]
    assert mysql["data_source"] == "order_readonly"
    assert mysql["params"] == ["order-123"] and "?" in mysql["sql"] and "order-123" not in mysql["sql"]
    # Metrics follow the logs: the root service's pool gauges (its error is a pool error), and the requests by
    # status of the root service and of the caller whose errors name it.
    metrics = by_name["query_metrics"]
    pool = {args["metric"] for args in metrics if args["metric"].startswith("hikaricp_")}
    assert pool == {"hikaricp_connections_active", "hikaricp_connections_pending"}
    requests = [args for args in metrics if args["metric"] == "http_server_requests_seconds"]
    assert [args["matchers"]["service"] for args in requests] == ["order-service", "payment-service"]
    assert all(args["aggregation"] == "sum" and args["by"] == "status" for args in requests)
    assert all(args["lookback_minutes"] == 30 for args in metrics)
    # MySQL comes after the data dictionary lookup whose excerpts document its tables and columns.
    names = [call.name for call in calls]
    assert names.index("query_mysql") > names.index("lookup_knowledge")


async def test_order_timeout_draft_cites_all_four_tools_and_concludes(order_run: Run) -> None:
    draft = parse_draft(order_run.draft_text)
    assert _tools_cited(order_run) == {"lookup_knowledge", "query_logs", "query_mysql", "query_metrics"}
    _assert_citations_hold(order_run)
    assert draft.conclusion is not None
    assert "order-123" in draft.conclusion.text and "order-service" in draft.conclusion.text
    assert "连接池耗尽" in draft.conclusion.text
    basis = {
        item.analysis_id: item for item in draft.analysis if item.analysis_id in draft.conclusion.based_on_analysis_ids
    }
    assert {order_run.gateway.records[item.tool_call_ids[0]].tool_name for item in basis.values()} == {
        "lookup_knowledge",
        "query_logs",
        "query_mysql",
        "query_metrics",
    }
    texts = " ".join(item.text for item in draft.analysis)
    assert "指标 hikaricp_connections_pending（service=order-service" in texts
    assert "模拟指标" in draft.limitations.scope
    assert not any("监控指标" in line for line in draft.limitations.missing_info)
    assert "HikariPool-1 - Connection is not available" in texts
    assert "TIMEOUT" in texts and "ALIPAY" in texts
    assert "模拟日志" in draft.limitations.scope and "order-service" in draft.limitations.scope
    dangerous = [a for a in draft.action_plan if re.search("扩大|重启", a.action)]
    assert dangerous and all(action.requires_human_confirmation for action in dangerous)
    assert any(not action.requires_human_confirmation for action in draft.action_plan)
    assert draft.recommendations


async def test_order_timeout_draft_is_supported_by_the_guard(order_run: Run) -> None:
    verdict = await guard_verdict(order_run)
    assert verdict.verdict == "SUPPORTED", verdict.reason


async def test_the_same_conversation_gets_the_same_reply(order_run: Run) -> None:
    fresh = OfflineChatModel()
    for request, reply in zip(order_run.gateway.requests, order_run.gateway.replies, strict=True):
        again = await fresh.complete(request, timeout_s=1.0)
        assert again == reply


async def test_nothing_in_the_logs_gives_a_negative_observation_and_no_conclusion() -> None:
    run = await diagnose("user-service 接口超时，帮我排查")
    draft = parse_draft(run.draft_text)
    _assert_citations_hold(run)
    assert draft.conclusion is None
    negatives = [item for item in draft.analysis if item.kind == "NEGATIVE_OBSERVATION"]
    assert negatives and all("没有匹配" in item.text for item in negatives)
    assert not any(word in item.text for item in negatives for word in ("正常", "健康", "排除"))
    assert draft.limitations.missing_info
    assert "query_mysql" not in {call.name for call in run.gateway.calls}  # not an order question
    assert (await guard_verdict(run)).verdict == "SUPPORTED"


async def test_a_callee_named_in_the_logs_is_followed() -> None:
    run = await diagnose("支付超时，帮我排查")
    logs = [json.loads(call.arguments)["query"] for call in run.gateway.calls if call.name == "query_logs"]
    assert logs[0].startswith("payment-service")
    assert any(query.startswith("order-service") for query in logs[1:])  # "ERR_TIMEOUT calling order-service"
    draft = parse_draft(run.draft_text)
    assert draft.conclusion is not None and "order-service" in draft.conclusion.text
    mysql = next(json.loads(call.arguments) for call in run.gateway.calls if call.name == "query_mysql")
    assert "GROUP BY" in mysql["sql"] and mysql["params"] == []
    _assert_citations_hold(run)
    assert (await guard_verdict(run)).verdict == "SUPPORTED"


async def test_a_follow_up_uses_the_previous_turn_only_to_understand_the_target() -> None:
    previous = PreviousTurn(
        user_query=ORDER_QUERY,
        published_conclusion="订单 order-123 的支付超时与 order-service 的数据库连接池耗尽有关",
        scope="order-service，最近 30 分钟",
    )
    run = await diagnose("那退款服务呢？", previous_turn=previous)
    logs = [json.loads(call.arguments)["query"] for call in run.gateway.calls if call.name == "query_logs"]
    assert logs and all(query.startswith("refund-service") for query in logs)
    draft = parse_draft(run.draft_text)
    _assert_citations_hold(run)
    # refund-service has no timeouts; its own errors (duplicate refunds) are reported but do not explain a timeout
    assert draft.conclusion is None
    assert any(item.kind == "NEGATIVE_OBSERVATION" for item in draft.analysis)
    assert any("ERR_REFUND_DUPLICATE" in item.text for item in draft.analysis)
    assert "order-123" not in run.draft_text  # the previous turn is not evidence
    assert (await guard_verdict(run)).verdict == "SUPPORTED"


async def test_without_query_mysql_the_order_database_is_skipped_and_said_so() -> None:
    run = await diagnose(ORDER_QUERY, without=("query_mysql",))
    names = {call.name for call in run.gateway.calls}
    assert "query_mysql" not in names
    assert all(
        json.loads(c.arguments)["query"] != "order_db 数据字典 biz_order payment_record 字段"
        for c in run.gateway.calls
        if c.name == "lookup_knowledge"
    )
    draft = parse_draft(run.draft_text)
    assert any("订单库" in info for info in draft.limitations.missing_info)
    _assert_citations_hold(run)
    assert draft.conclusion is not None  # logs + knowledge still support it
    assert (await guard_verdict(run)).verdict == "SUPPORTED"


async def test_usage_is_estimated_and_the_run_stays_within_the_default_budgets(order_run: Run) -> None:
    replies = order_run.gateway.replies
    assert all(reply.usage.input_tokens > 0 and reply.usage.output_tokens > 0 for reply in replies)
    total = sum(reply.usage.input_tokens + reply.usage.output_tokens for reply in replies)
    assert total < 64000 and len(replies) <= 12 and len(order_run.gateway.calls) <= 12
    assert all(reply.model == "offline-deterministic" for reply in replies)


async def test_a_tool_error_is_never_cited() -> None:
    model = OfflineChatModel()
    run = await diagnose("api-gateway 最近 1 小时 504 报错", model=model)
    _assert_citations_hold(run)
    # Replay the final turn with the first log result turned into an ERROR: it disappears from the Draft.
    final = run.gateway.requests[-1]
    messages = list(final.messages)
    index = next(i for i, m in enumerate(messages) if m.role == "tool" and '"source_kind"' in (m.content or ""))
    broken = messages[index].model_copy(
        update={
            "content": json.dumps(
                {
                    "evidence_status": "ERROR",
                    "tool_call_id": messages[index].tool_call_id,
                    "error": {"code": "LOGS_UNAVAILABLE", "message": "x"},
                }
            )
        }
    )
    messages[index] = broken
    reply = await model.complete(
        ModelRequest(role="agent", messages=tuple(messages), tools=final.tools, tool_choice="auto"), 1.0
    )
    draft = parse_draft(reply.content)
    assert broken.tool_call_id not in draft.cited_tool_call_ids()
    assert any("LOGS_UNAVAILABLE" in info for info in draft.limitations.missing_info)


async def test_an_order_that_exists_nowhere_gets_no_conclusion() -> None:
    run = await diagnose("订单 order-999 支付超时，帮我排查")
    draft = parse_draft(run.draft_text)
    _assert_citations_hold(run)
    mysql = next(call.id for call in run.gateway.calls if call.name == "query_mysql")
    assert run.gateway.status_of(mysql) is EMPTY
    assert draft.conclusion is None  # the pool is exhausted, but nothing ties order-999 to it
    assert any("order-999" in info for info in draft.limitations.missing_info)
    assert (await guard_verdict(run)).verdict == "SUPPORTED"

    # An author who concludes about order-999 anyway relies on a value only its own queries contain.
    forced = json.loads(run.draft_text or "")
    normal = [item["analysis_id"] for item in forced["analysis"] if item["kind"] == "NORMAL"]
    forced["conclusion"] = {
        "text": "订单 order-999 的支付超时与 order-service 的数据库连接池耗尽有关",
        "based_on_analysis_ids": normal,
    }
    verdict = await guard_verdict(run, json.dumps(forced, ensure_ascii=False))
    assert verdict.verdict == "UNSUPPORTED" and "order-999" in verdict.reason


async def test_mysql_is_skipped_when_the_data_dictionary_does_not_document_the_columns(order_run: Run) -> None:
    second_turn = order_run.gateway.requests[2]  # the model's view right after the first batch of results
    dictionary_call = next(
        call.id
        for call in order_run.gateway.calls
        if call.name == "lookup_knowledge" and "数据字典" in json.loads(call.arguments)["query"]
    )
    messages = []
    for message in second_turn.messages:
        if message.role == "tool" and message.tool_call_id == dictionary_call:
            result = json.loads(message.content or "")
            for item in result["evidence"]:
                item["excerpt"] = item["excerpt"].replace("channel", "渠道字段")
            message = message.model_copy(update={"content": json.dumps(result, ensure_ascii=False)})
        messages.append(message)
    altered = second_turn.model_copy(update={"messages": tuple(messages)})
    original = await OfflineChatModel().complete(second_turn, 1.0)
    reply = await OfflineChatModel().complete(altered, 1.0)
    assert "query_mysql" in {call.name for call in original.tool_calls}
    assert "query_mysql" not in {call.name for call in reply.tool_calls}
