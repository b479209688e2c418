"""The offline router: keyword rules in Chinese and English; follow-ups take the previous intent."""

from __future__ import annotations

import json

import pytest

from harness.intents import RouterInput, parse_intent, router_messages
from harness.messages import ModelRequest
from offline_model.model import OfflineChatModel
from offline_model.router import classify

CASES = [
    # SYSTEM_CHAT: greetings, identity, capabilities, usage, non-business chat
    ("你好", None, "SYSTEM_CHAT"),
    ("你是谁？", None, "SYSTEM_CHAT"),
    ("你能做什么", None, "SYSTEM_CHAT"),
    ("这个系统怎么用？", None, "SYSTEM_CHAT"),
    ("help", None, "SYSTEM_CHAT"),
    ("hello, what can you do?", None, "SYSTEM_CHAT"),
    ("今天天气怎么样", None, "SYSTEM_CHAT"),
    ("现在几点了", None, "SYSTEM_CHAT"),
    # KNOWLEDGE_QUERY: meanings, documents, configuration, error codes
    ("ERR_TIMEOUT 是什么意思", None, "KNOWLEDGE_QUERY"),
    ("错误码 ERR_POOL_EXHAUSTED 是", None, "KNOWLEDGE_QUERY"),
    ("HikariCP 连接池如何配置？", None, "KNOWLEDGE_QUERY"),
    ("支付超时排查手册里第一步是什么", None, "KNOWLEDGE_QUERY"),
    ("payment_record 的 status 字段有哪些取值", None, "KNOWLEDGE_QUERY"),
    ("退款流程是怎样的", None, "KNOWLEDGE_QUERY"),
    ("what is ERR_REFUND_DUPLICATE", None, "KNOWLEDGE_QUERY"),
    ("how to configure the connection pool", None, "KNOWLEDGE_QUERY"),
    ("ERR_CHANNEL_DECLINED", None, "KNOWLEDGE_QUERY"),
    # DIAGNOSIS: symptoms, investigation requests, order ids, windows
    ("订单 order-123 支付超时，帮我排查", None, "DIAGNOSIS"),
    ("为什么支付会超时", None, "DIAGNOSIS"),
    ("order-service 最近 30 分钟有没有报错", None, "DIAGNOSIS"),
    ("user-service 登录失败", None, "DIAGNOSIS"),
    ("order-123 卡在支付中", None, "DIAGNOSIS"),
    ("payment-service timeout, please investigate", None, "DIAGNOSIS"),
    ("你好，帮我排查一下 order-123", None, "DIAGNOSIS"),
    ("order-123 支付超时是什么原因", None, "DIAGNOSIS"),
    # follow-ups take last_intent; a new explicit topic wins
    ("那退款服务呢？", "DIAGNOSIS", "DIAGNOSIS"),
    ("继续", "DIAGNOSIS", "DIAGNOSIS"),
    ("那另一个呢", "KNOWLEDGE_QUERY", "KNOWLEDGE_QUERY"),
    ("那 ERR_POOL_EXHAUSTED 呢", "KNOWLEDGE_QUERY", "KNOWLEDGE_QUERY"),
    ("what about refund-service?", "DIAGNOSIS", "DIAGNOSIS"),
    ("那 ERR_TIMEOUT 是什么意思？", "DIAGNOSIS", "KNOWLEDGE_QUERY"),
    ("你好", "DIAGNOSIS", "SYSTEM_CHAT"),
    ("继续", None, "SYSTEM_CHAT"),
]


@pytest.mark.parametrize(("query", "last_intent", "expected"), CASES)
def test_rules(query: str, last_intent: str | None, expected: str) -> None:
    assert classify(query, last_intent) == expected


@pytest.mark.parametrize(("query", "last_intent", "expected"), CASES[::4])
async def test_router_role_reads_the_router_input_and_answers_one_fixed_value(
    query: str, last_intent: str | None, expected: str
) -> None:
    router_input = RouterInput(
        query=query, last_intent=last_intent, last_user_query="订单 order-123 支付超时" if last_intent else None
    )
    request = ModelRequest(role="router", messages=router_messages(router_input), json_output=True)
    reply = await OfflineChatModel().complete(request, timeout_s=1.0)
    assert json.loads(reply.content or "") == {"intent": expected}
    assert parse_intent(reply.content) == expected
