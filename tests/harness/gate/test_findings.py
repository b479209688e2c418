"""Findings judged by shape: a plan step must be an instruction; neither a step nor a SYSTEM_CHAT sentence may
state a finding."""

from __future__ import annotations

import pytest

from harness.gate import ClaimPolicy
from harness.gate.findings import finding
from harness.gate.plan_steps import is_instruction

POLICY = ClaimPolicy.default()
FINDINGS = (
    "The culprit is the order_db primary",
    "已定位：主库宕机",
    "根因：连接池耗尽",
    "Caused by the primary outage at 10:05",
    "经排查，order_db 主库已宕机",
    "结论：连接池耗尽",
    "根\u200b因是连接池耗尽",
    "**诊断结论**：ALIPAY 渠道超时",
    "Check the pool: it is exhausted (50/50)",
    "检查后确认：主库已宕机",
    "看起来是 redis-cluster 的主节点挂了",
    "It turned out the callback retried 3 times",
    "确认了主库宕机",
    "Confirmed the primary is down",
)
INSTRUCTIONS = (
    "确认主库是否宕机",
    "Verify whether the root cause is lock contention",
    "定位根因",
    "Find out what caused the 10:05 spike",
    "汇总证据，给出结论、下一步行动和诊断范围说明",
    "如果连接池已耗尽，检查是否存在连接泄漏",
    "验证假设：连接池耗尽由长事务导致",
    "Goal: find the root cause of the 504s",
    "Break down payment_record statuses by channel for the last 30 minutes",
    "是否存在连接泄漏？",
)


@pytest.mark.parametrize("text", FINDINGS)
def test_a_finding_is_no_instruction(text: str) -> None:
    assert finding(text, POLICY) is not None
    assert not is_instruction(text, POLICY)


@pytest.mark.parametrize("text", INSTRUCTIONS)
def test_an_instruction_is_kept_whatever_it_names(text: str) -> None:
    assert is_instruction(text, POLICY)
    assert finding(text, POLICY) is None


@pytest.mark.parametrize(
    "text",
    [
        "你好！我是 SuperBiz 运维助手，可以帮你排查订单支付超时等问题。",
        "I can look up runbooks, query logs and read the order database.",
        "请问是哪个订单？",
        "例如：订单 order-123 支付超时，帮我排查",
        "我不会执行任何变更操作。",
        "I only report what the evidence shows, and say so when it shows nothing.",
    ],
)
def test_a_harmless_system_sentence_states_no_finding(text: str) -> None:
    assert finding(text, POLICY) is None


@pytest.mark.parametrize(
    "text",
    [
        "你的 order-service 连接池已经耗尽了",
        "我可以帮你查日志——目前 payment-service 有大量 ERR_TIMEOUT。",
        "Which order do you mean? Your payment-service is already down.",
        "Hi! Your payment-service looks healthy right now.",
        "我已经定位到问题：payment-service 的慢查询。",
    ],
)
def test_a_finding_in_a_system_answer_is_found(text: str) -> None:
    assert finding(text, POLICY) is not None


def test_the_configured_markers_are_findings_outside_instructions() -> None:
    assert finding("根因是连接池", POLICY) is not None
    assert finding("确认根因是否为连接池", POLICY) is None
