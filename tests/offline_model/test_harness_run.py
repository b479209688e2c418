"""The offline model behind the whole in-process Harness run (router, agent, EvidenceGuard, SemanticGuard, release)."""

from __future__ import annotations

import pytest

from harness.run_state import RunStatus
from offline_model import LABEL, OfflineChatModel
from tests.harness.run_support import Outcome, run_once, services


async def _run(query: str) -> Outcome:
    return await run_once(services(OfflineChatModel()), query=query)


async def test_a_diagnosis_is_released_as_written() -> None:
    outcome = await _run("订单 order-123 支付超时，帮我排查")
    assert outcome.status is RunStatus.SUCCESS
    assert outcome.first("metadata")["model"] == LABEL
    assert outcome.first("status")["code"] == "ROUTING"
    assert "PLANNING" in outcome.statuses() and "SEMANTIC_VALIDATING" in outcome.statuses()
    content = outcome.first("content")
    assert content["content_type"] == "DIAGNOSIS_REPORT"
    assert "order-service" in content["payload"]["conclusion"]["text"]


async def test_no_evidence_is_released_without_a_conclusion() -> None:
    outcome = await _run("user-service 接口超时，帮我排查")
    assert outcome.status is RunStatus.SUCCESS
    payload = outcome.first("content")["payload"]
    assert payload["conclusion"] is None
    assert any(item["kind"] == "NEGATIVE_OBSERVATION" for item in payload["analysis"])


@pytest.mark.parametrize(
    ("query", "content_type"),
    [("你好", "SYSTEM_ANSWER"), ("ERR_POOL_EXHAUSTED 是什么意思", "KNOWLEDGE_ANSWER")],
)
async def test_the_light_paths(query: str, content_type: str) -> None:
    outcome = await _run(query)
    assert outcome.status is RunStatus.SUCCESS
    assert outcome.first("content")["content_type"] == content_type


async def test_a_premise_taken_as_fact_is_caught_by_the_guard() -> None:
    outcome = await _run("订单 order-123 显示 REFUNDED，但客户反馈一直支付超时，帮我排查")
    assert outcome.status is RunStatus.FALLBACK
    payload = outcome.first("content")["payload"]
    assert payload["type"] == "SEMANTIC_UNSUPPORTED"
    assert "REFUNDED" not in str(payload)
    assert "REFUNDED" in (outcome.audit.finished[-1].guard_reason or "")
