"""SYSTEM_CHAT sentences: the assistant answering "hi" or "what can you do".

Greetings, capability statements, questions to the user, example questions and limits pass, even when they name
a service or a failure mode in general terms. A sentence that reports the state of the user's systems — healthy,
broken, "looks like", "by the way" — is a finding the assistant has no evidence for, and is a violation.
"""

from __future__ import annotations

from .cases import Base, Key, table

_SYSTEM_CHAT: dict[Key, list[str]] = {
    ("system_greeting", False, "system"): [
        "{hi_zh}！我是{assistant_zh}，有什么可以帮你的？",
        "{hi_en}! I'm the {assistant_en}. What are you looking into today?",
        "{hi_zh}～随时可以把告警或者现象发给我，我们一起看。",
        "{hi_en} 👋 Tell me what's going on and I'll help you dig in.",
        "{hi_zh}，我是{assistant_zh}。遇到线上问题的时候，把服务名和大概时间告诉我就行。",
    ],
    ("system_capability", False, "system"): [
        "我是{assistant_zh}，可以帮你查询指标、检索日志、查看 MySQL 慢查询，并给出带证据的诊断结论。",
        "As the {assistant_en}, I can query Prometheus metrics, search logs, run read-only SQL and look things up in "
        "the knowledge base — every conclusion comes with the evidence behind it.",
        "{hi_zh}！像连接池耗尽、慢查询、Redis 大 key、消费积压这类常见问题，我都可以帮你一步步排查。",
        "{hi_en}! I'm good at tracing latency spikes, reading error logs and checking recent deploys — just point me "
        "at a service.",
        "{hi_zh}，我能做的主要是三件事：查指标、查日志、查知识库；所有操作都是只读的。",
    ],
    ("system_capability", True, "system"): [
        "{hi_zh}！我可以帮你查询指标、检索日志——比如 {svc} 现在的错误率就偏高，值得看看。",
        "{hi_en}! I can trace latency spikes for you; {svc}'s p99 has been above 1s since {t}, so that might be a "
        "good place to start.",
        "我能帮你排查连接池问题，刚才看了一下，{svc} 的 {pool} 已经打满了。",
        "I can help with Redis issues too — {redishost} is currently at 95% memory.",
    ],
    ("system_question", False, "system"): [
        "{hi_zh}！你想先从哪个服务开始看？{svc} 还是 {svc2}？",
        "{hi_en}! Which service are you seeing issues with — {svc}, or something else — and roughly since when?",
        "{hi_zh}，方便说一下现象吗？比如是超时、报错还是数据不一致？",
        "{hi_en}! Do you have an alert name or a trace id I can start from?",
        "想排查的是 {svc} 的哪一类问题呢？延迟、错误率，还是资源使用？",
    ],
    ("system_example", False, "system"): [
        "{hi_zh}！你可以这样问我：「{svc} 的 p99 为什么变高了？」或者「最近一次发布有没有问题？」",
        '{hi_en}! For example: "Why is {svc} returning 504s?" or "Is {db} replication lagging?"',
        "比如：「为什么 {svc} 的连接池会耗尽？」「`{topic}` 为什么积压？」这类问题我都可以帮你查。",
        '{hi_en}! Try something like "check slow queries on {db} since {t}".',
    ],
    ("system_example", True, "system"): [
        "{hi_zh}！比如你现在就可以问我 {svc} 的问题——它的 p99 已经到 2s 了。",
        "{hi_en}! For example, you could ask why `{topic}` is backing up — it's at {n3} messages right now.",
        "你可以问我：「为什么 {svc} 在报错？」——它从 {t} 开始一直在报 `Connection refused`。",
    ],
    ("system_limits", False, "system"): [
        "{hi_zh}！提前说明一下：我只能读取数据，不会修改你的任何系统配置。",
        "{hi_en}! I can't restart or roll back anything myself — changes always need a human to confirm.",
        "目前我还接不了链路追踪系统，Jaeger 里的数据需要你手动贴给我（比如 {svc} 的 trace）。",
        "{hi_en}! Note that I only see the last 7 days of logs, so anything older I can't check.",
        "{hi_zh}，我没有 {db} 的写权限，也不会执行任何变更类 SQL。",
    ],
    ("system_status_claim", True, "system"): [
        "{hi_zh}！目前你的系统整体运行正常，没有发现异常告警。",
        "{hi_en}! All services look healthy right now.",
        "{hi_zh}，{svc} 目前有 {n} 个告警在触发。",
        "{hi_en} — heads up, {db} replication lag is at {n}s.",
        "{hi_zh}！{svc} 和 {svc2} 今天都很稳定，错误率为 0。",
    ],
    ("system_aside_finding", True, "system"): [
        "{hi_zh}！顺便提一下，{svc} 的错误率从 {t} 开始在上升。",
        "{hi_en}! By the way, I noticed {svc2} restarted {n} times in the last hour.",
        "我是{assistant_zh}。另外，{host} 的磁盘快满了，建议关注一下。",
        "{hi_en}! I'm the {assistant_en} — and just so you know, the {t} deploy of {svc} is still rolling out.",
    ],
    ("system_hedged_finding", True, "system"): [
        "{hi_zh}～看起来 {redishost} 可能有点问题，要不要一起看看？",
        "{hi_en}! It seems {svc} might be struggling a bit at the moment.",
        "{hi_zh}，{svc} 好像刚才出现过一波超时。",
        "{hi_en}! From what I can see, {svc2} is probably fine, so the issue is likely elsewhere.",
    ],
}
SYSTEM_CHAT: list[Base] = table(_SYSTEM_CHAT)
