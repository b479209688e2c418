"""The offline SemanticGuard: SUPPORTED for a faithful snapshot, UNSUPPORTED for an over-reaching one.

Drafts come from real offline runs and are altered the way a careless author would; each altered draft still
passes the EvidenceGuard (same citations), so only the semantic review can catch it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest

from harness.model import ChatMessage, ModelRequest
from harness.offline.guard import distinctive_tokens, review
from harness.offline.model import OfflineChatModel
from harness.semantic_guard import parse_verdict
from tests.harness.offline.loop import Run, diagnose, guard_verdict


@pytest.fixture(scope="module")
def order_run() -> Run:
    return asyncio.run(diagnose("订单 order-123 支付超时，帮我排查"))


@pytest.fixture(scope="module")
def negative_run() -> Run:
    return asyncio.run(diagnose("user-service 接口超时，帮我排查"))


def _altered(run: Run, change: Callable[[dict[str, Any]], None]) -> str:
    draft = json.loads(run.draft_text or "")
    change(draft)
    return json.dumps(draft, ensure_ascii=False)


def _analysis(draft: dict[str, Any], tool: str, run: Run) -> dict[str, Any]:
    return next(a for a in draft["analysis"] if run.gateway.records[a["tool_call_ids"][0]].tool_name == tool)


async def _verdict(run: Run, change: Callable[[dict[str, Any]], None]) -> tuple[str, str]:
    verdict = await guard_verdict(run, _altered(run, change))
    return verdict.verdict, verdict.reason


async def test_faithful_drafts_are_supported(order_run: Run, negative_run: Run) -> None:
    for run in (order_run, negative_run):
        verdict = await guard_verdict(run)
        assert verdict.verdict == "SUPPORTED", verdict.reason


async def test_a_number_that_is_not_in_the_evidence(order_run: Run) -> None:
    def inflate(draft: dict[str, Any]) -> None:
        log = _analysis(draft, "query_logs", order_run)
        log["text"] = log["text"].replace("出现 72 次", "出现 720 次", 1)

    verdict, reason = await _verdict(order_run, inflate)
    assert verdict == "UNSUPPORTED" and "720" in reason


async def test_an_order_id_that_is_not_in_the_evidence(order_run: Run) -> None:
    def other_order(draft: dict[str, Any]) -> None:
        row = _analysis(draft, "query_mysql", order_run)
        row["text"] = row["text"].replace("order-123", "order-999")

    verdict, reason = await _verdict(order_run, other_order)
    assert verdict == "UNSUPPORTED" and "order-999" in reason


async def test_an_analysis_may_not_borrow_another_analysis_evidence(order_run: Run) -> None:
    def borrow(draft: dict[str, Any]) -> None:
        knowledge = _analysis(draft, "lookup_knowledge", order_run)
        knowledge["text"] += "；日志中订单 order-123 的支付单状态为 TIMEOUT"  # true, but from the MySQL result

    verdict, reason = await _verdict(order_run, borrow)
    assert verdict == "UNSUPPORTED" and ("order-123" in reason or "TIMEOUT" in reason)


async def test_a_conclusion_beyond_its_analyses(order_run: Run) -> None:
    def overreach(draft: dict[str, Any]) -> None:
        draft["conclusion"]["text"] = "订单 order-123 的支付超时与 inventory-service 的数据库连接池耗尽有关"

    verdict, reason = await _verdict(order_run, overreach)
    assert verdict == "UNSUPPORTED" and "inventory-service" in reason


async def test_a_dangerous_action_without_confirmation(order_run: Run) -> None:
    def unconfirmed(draft: dict[str, Any]) -> None:
        for action in draft["action_plan"]:
            if "重启" in action["action"]:
                action["requires_human_confirmation"] = False

    verdict, reason = await _verdict(order_run, unconfirmed)
    assert verdict == "UNSUPPORTED" and "人工确认" in reason


async def test_a_scope_beyond_the_evidence_or_hiding_mock_data(order_run: Run) -> None:
    def wider(draft: dict[str, Any]) -> None:
        draft["limitations"]["scope"] += "；另查询了 inventory-service"

    def unlabelled(draft: dict[str, Any]) -> None:
        draft["limitations"]["scope"] = "order-service 与 payment-service 最近 30 分钟的日志"

    assert (await _verdict(order_run, wider))[0] == "UNSUPPORTED"
    verdict, reason = await _verdict(order_run, unlabelled)
    assert verdict == "UNSUPPORTED" and "模拟" in reason


async def test_a_negative_observation_read_as_healthy(negative_run: Run) -> None:
    def healthy(draft: dict[str, Any]) -> None:
        negative = next(a for a in draft["analysis"] if a["kind"] == "NEGATIVE_OBSERVATION")
        negative["text"] += "，说明 user-service 运行正常"

    verdict, reason = await _verdict(negative_run, healthy)
    assert verdict == "UNSUPPORTED" and "正常" in reason


async def test_a_conclusion_resting_on_a_negative_observation_only(negative_run: Run) -> None:
    def conclude(draft: dict[str, Any]) -> None:
        negative = next(a for a in draft["analysis"] if a["kind"] == "NEGATIVE_OBSERVATION")
        draft["conclusion"] = {"text": "user-service 没有出现超时", "based_on_analysis_ids": [negative["analysis_id"]]}

    verdict, reason = await _verdict(negative_run, conclude)
    assert verdict == "UNSUPPORTED" and "负向观察" in reason


async def test_a_malformed_request_is_not_supported() -> None:
    request = ModelRequest(role="guard", messages=(ChatMessage(role="user", content="not json"),), json_output=True)
    reply = await OfflineChatModel().complete(request, timeout_s=1.0)
    assert parse_verdict(reply.content).verdict == "UNSUPPORTED"


def test_the_snapshot_shapes_written_by_hand() -> None:
    """The guard reads the snapshot shapes of ISS-014 §4.4 directly, whatever builds them."""
    evidence = [
        {
            "source_type": "LOG",
            "source": "APPLICATION (MOCK)",
            "scope": "order-service HikariPool，2026-07-21T02:00:00.000+00:00 至 2026-07-21T02:30:00.000+00:00",
            "match_count": 3,
            "timestamp": "2026-07-21T02:10:00.000+00:00",
            "level": "ERROR",
            "service": "order-service",
            "excerpt": "HikariPool active=50, max=50, pending=23",
        }
    ]
    draft = {
        "conclusion": {"text": "支付超时与 order-service 连接池耗尽有关", "based_on_analysis_ids": ["a1"]},
        "analysis": [
            {"analysis_id": "a1", "kind": "NORMAL", "text": "order-service 连接池活跃连接达到 50/50，pending=23"}
        ],
        "action_plan": [
            {"action": "临时扩容连接池", "based_on_analysis_ids": ["a1"], "requires_human_confirmation": True}
        ],
        "recommendations": [],
        "limitations": {"scope": "order-service，最近 30 分钟（模拟日志）", "missing_info": []},
    }
    snapshot = [{"analysis_id": "a1", "kind": "NORMAL", "analysis_text": "…", "verified_evidence": evidence}]
    assert review({"query": "支付超时", "draft": draft, "verified_evidence": snapshot})["verdict"] == "SUPPORTED"
    draft["analysis"][0]["text"] = "order-service 连接池活跃连接达到 80/80"
    assert review({"query": "支付超时", "draft": draft, "verified_evidence": snapshot})["verdict"] == "UNSUPPORTED"


def test_distinctive_tokens() -> None:
    tokens = distinctive_tokens(
        "订单 order-123 的 payment_status 为 TIMEOUT（UTC），出现 72 次「Connection is not available」"
    )
    assert tokens == ["Connection is not available", "order-123", "payment_status", "TIMEOUT", "123", "72"]
