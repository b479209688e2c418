"""Intent routing by keyword rules (Chinese and English), reading exactly ``{query, last_intent, last_user_query}``.

Order of the rules:

1. a strong diagnosis cue (帮我查/排查一下/为什么/根因/diagnose/"最近 N 分钟" …) -> DIAGNOSIS;
2. a knowledge cue (是什么/什么意思/含义/文档/手册/规范/如何配置/what is/how to configure …) -> KNOWLEDGE_QUERY;
3. a symptom (超时/报错/失败/异常/故障/timeout …) or an order id -> DIAGNOSIS;
4. a follow-up ("那退款服务呢", "继续", "那另一个呢", "what about …") with a ``last_intent`` -> that intent;
5. a system cue (greeting, 你是谁, 你能做什么, 怎么用, help …) -> SYSTEM_CHAT;
6. a bare service, error code or order-domain word -> DIAGNOSIS (service) / KNOWLEDGE_QUERY (code);
7. anything else is non-business chat -> SYSTEM_CHAT.

A new explicit topic always wins over the previous intent (rules 1–3 come before the follow-up rule).
"""

from __future__ import annotations

import re
from typing import Any

from offline_model.entities import ERROR_CODE_PATTERN, ORDER_ID_PATTERN
from offline_model.query_facts import services_in

INTENTS = ("SYSTEM_CHAT", "KNOWLEDGE_QUERY", "DIAGNOSIS")

_STRONG_DIAGNOSIS = re.compile(
    r"帮我查|帮忙查|帮我看|查一下|查查|查下|排查一下|帮我排查|帮忙排查|请排查|排查(?!手册|步骤|流程|顺序|方法|指南)"
    r"|为什么|为何|根因|什么原因|原因是什么|怎么回事|诊断|定位一下|定位问题"
    r"|最近\s*\d|最近[一两二三四五六十半]|刚才|线上"
    r"|\b(?:diagnose|investigate|troubleshoot|root cause|why)\b",
    re.I,
)
_KNOWLEDGE = re.compile(
    r"是什么|是啥|什么意思|啥意思|含义|意思是|定义|文档|手册|规范|指南|流程是|步骤是|如何配置|怎么配置|配置项|配置规范"
    r"|数据字典|字段|取值|接口说明|错误码\s*\S*\s*(?:是|代表|表示)|代表什么|表示什么|怎么处理|如何处理"
    r"|\b(?:what is|what's|what does|meaning of|how (?:do i|to) configure|runbook|documentation|docs?)\b",
    re.I,
)
_SYMPTOM = re.compile(
    r"超时|报错|失败|异常|故障|告警|宕机|挂了|不可用|耗尽|卡住|转圈|变慢|很慢|延迟高|重复退款|5\d\d\b"
    r"|\b(?:timeout|timed out|error|errors|failing|failed|failure|outage|down|exception|slow)\b",
    re.I,
)
_FOLLOW_UP = re.compile(
    r"^\s*(?:那|那么|那个|还有|再|然后)|呢\s*[?？]?\s*$|继续|接着|另一个|另外一个|其他的|别的"
    r"|^\s*(?:and|what about|how about|continue|go on|the other)\b",
    re.I,
)
_SYSTEM = re.compile(
    r"^\s*(?:你好|您好|嗨|哈喽|早上好|晚上好|下午好|在吗|hi|hello|hey)\b|^\s*(?:你好|您好|嗨|哈喽|在吗)"
    r"|你是谁|你是什么|你能做什么|你可以做什么|能做什么|能帮我做什么|有什么功能|怎么用|如何使用|怎么使用|使用方法|使用说明"
    r"|帮助|谢谢|感谢|\b(?:help|who are you|what can you do|how to use|thanks|thank you)\b",
    re.I,
)


def classify(query: str, last_intent: str | None = None) -> str:
    """One of the three intents for ``query`` (rules in the module docstring)."""
    text = query.strip()
    previous = last_intent if last_intent in INTENTS else None
    if _STRONG_DIAGNOSIS.search(text):
        return "DIAGNOSIS"
    if _KNOWLEDGE.search(text):
        return "KNOWLEDGE_QUERY"
    if _SYMPTOM.search(text) or ORDER_ID_PATTERN.search(text):
        return "DIAGNOSIS"
    if previous is not None and _FOLLOW_UP.search(text):
        return previous
    if _SYSTEM.search(text):
        return "SYSTEM_CHAT"
    if ERROR_CODE_PATTERN.search(text):
        return "KNOWLEDGE_QUERY"
    if services_in(text):
        return "DIAGNOSIS"
    return "SYSTEM_CHAT"


def route(payload: dict[str, Any] | None, fallback_query: str) -> dict[str, str]:
    """The router reply for the router's user message (parsed JSON, or the raw text when it is not JSON)."""
    payload = payload or {}
    query = payload.get("query") if isinstance(payload.get("query"), str) else fallback_query
    last_intent = payload.get("last_intent") if isinstance(payload.get("last_intent"), str) else None
    return {"intent": classify(query, last_intent)}
