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


VERDICTS = (
    "It's the connection pool.",
    "Hello — it's Redis.",
    "It's the DNS, I'm afraid.",
    "Probably the connection pool.",
    "Looks like the DB.",
    "I think it's the database.",
    "It must be Kafka.",
    "The database is to blame.",
    "Hi there! Definitely the load balancer.",
    "是连接池的问题。",
    "你好！是连接池的问题。",
    "多半是 Redis 的问题。",
    "是数据库。",
    "应该是网络抖动。",
    "就是连接池满了。",
    "我觉得是缓存的问题。",
    "八成是 GC。",
    "Redis 的锅。",
    "**Root cause:** connection pool",
    "**根因**：连接池耗尽",
    "Verdict: the DB.",
    "Culprit: payment-gateway",
    "My guess: the connection pool.",
    "Short answer: the pool.",
    "Bottom line — the cache.",
    "The pool, obviously.",
    "Pretty sure it's DNS.",
    "Could be the cache.",
    "Nothing's broken — it's just peak traffic.",
    "数据库没挂，是应用的问题。",
    "Hi! By the way, the payment gateway just recovered.",
    "数据库有问题。",
)
RHETORICAL = (
    "Isn't the database the obvious culprit here?",
    "Could it be anything other than the cache?",
    "Wasn't it the DNS?",
    "Surely it's the cache?",
    "Don't you think it's the connection pool?",
    "What else could it be but the primary database?",
    "难道不是数据库的锅吗？",
    "不就是连接池的问题吗？",
    "这不是缓存击穿吗？",
    "莫非是 DNS？",
    "除了连接池还能是什么？",
    "除了数据库，还能是什么呢？",
    "Couldn't it simply be the DNS?",
)


@pytest.mark.parametrize("text", VERDICTS)
def test_a_verdict_is_a_finding_whatever_its_length(text: str) -> None:
    """A cause named in any wording (a bare copula, a hedge, a label) asserts something about the system."""
    assert finding(text, POLICY) is not None


@pytest.mark.parametrize("text", RHETORICAL)
def test_a_rhetorical_question_asserts_its_answer(text: str) -> None:
    assert finding(text, POLICY) is not None


@pytest.mark.parametrize(
    "text",
    [
        "It's the connection pool",
        "是连接池的问题",
        "Probably the DNS",
        "检查连接池，是连接池的问题",
        "Check the logs; it's the DNS",
        "Isn't it the cache?",
    ],
)
def test_a_verdict_is_no_plan_step(text: str) -> None:
    assert not is_instruction(text, POLICY)


@pytest.mark.parametrize(
    "text",
    [
        "Check whether it's the DNS",
        "确认是不是连接池的问题",
        "查看日志，重点是连接池",
        "Is it the connection pool or the database?",
        "是否是数据库的问题？",
        "应该检查数据库连接池",
        "Maybe check the DB connections",
    ],
)
def test_asking_about_a_cause_is_still_an_instruction(text: str) -> None:
    assert is_instruction(text, POLICY)


@pytest.mark.parametrize(
    "text",
    [
        "你提到了 order-123。",
        "You mentioned order-123.",
        "你说的 order-123 我可以帮你查。",
        "You asked about order-123 earlier.",
        "你刚才问了 order-123 和 order-456。",
        "It's a pleasure to help.",
        "That's a good question!",
        "是的，我可以帮你排查。",
        "这是个好问题。",
        "It's easy: just tell me the order id.",
        "我可以帮你查连接池",
        "I can look into the connection pool for you.",
        "Is it the connection pool? I can check that for you.",
        "你提到 19:00 左右开始报错，我可以从那个时间点查起。",
        "You said checkout timed out; do you have a trace ID?",
        "你说的“支付超时”，是指用户下单后一直没有支付结果吗？",
        "收到，你说的是 checkout 超时的问题，对吗？",
        "对于支付超时，我可以依据日志和订单库给出诊断。",
        "Confirm the symptom, the services involved and the time range",
    ],
)
def test_what_the_user_said_and_courtesy_state_no_finding(text: str) -> None:
    """A verb of the user's speech (你提到, you mentioned) asserts nothing about the system."""
    assert finding(text, POLICY) is None


def test_what_the_user_said_does_not_excuse_a_state_after_it() -> None:
    assert finding("你提到的 order-123 已经超时了。", POLICY) is not None
    assert finding("You mentioned order-123, it's the connection pool.", POLICY) is not None
