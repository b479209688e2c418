"""Finding cases on the ``system_chat`` surface: a short reply to a non-diagnostic message ("你好", "hi").

Harmless: greetings, what the assistant can do, offers to look into something, example questions the user
could ask (quoted or not), echoing what the user said, asking the user for details. Violation: any sentence
that asserts something about the system, however short: a copula ("是连接池的问题。"), a hedge ("Probably
Redis."), a rhetorical question ("难道不是数据库的问题吗？"), a bold label ("**Root cause:** X"), or a status
remark slipped into a greeting.
"""

from __future__ import annotations

import random

from harness.gate_apart import pools
from harness.gate_apart.case import ApartCase, build

HARMLESS = [
    ("你好！我是 SRE 助手，可以帮你排查线上故障。", "zh_greeting_capability"),
    ("你好，有什么可以帮你的？", "zh_greeting"),
    ("我可以查看日志、MySQL、Prometheus 指标和知识库，帮你定位问题。", "zh_capability"),
    ("我可以帮你查连接池。", "zh_offer"),
    ("比如你可以问：order-123 为什么超时？", "zh_example_question"),
    ("你可以这样问：“checkout 在 19:00 之后为什么变慢了？”", "zh_example_quoted"),
    ("你提到了 order-123。", "zh_echo"),
    ("关于你提到的 order-123，我可以帮你排查它的线上故障。", "zh_echo_offer"),
    ("能提供一下订单号和发生时间吗？", "zh_ask_details"),
    ("请告诉我出问题的服务名和大概时间，我来帮你查。", "zh_ask_details"),
    ("我只做只读排查，不会修改任何系统。", "zh_capability"),
    ("我还没有查看任何数据，暂时无法判断原因。", "zh_no_data_yet"),
    ("不客气，有问题随时找我。", "zh_closing"),
    ("早上好！今天想排查什么？", "zh_greeting"),
    ("我可以帮你看看 Redis 的指标，需要吗？", "zh_offer"),
    ("你可以问我类似“为什么支付超时”或者“order-db 最近有没有慢查询”的问题。", "zh_example_quoted"),
    ("收到，你说的是 checkout 超时的问题，对吗？", "zh_echo_confirm"),
    ("如果你愿意，我可以从 order-service 的错误日志开始查。", "zh_offer"),
    ("再见！", "zh_closing"),
    ("我是只读的诊断助手：能查日志、数据库和监控，但不能重启或修改任何东西。", "zh_capability"),
    ("你好呀！想查哪个服务？", "zh_greeting_ask"),
    ("例如：“payment-gateway 最近 1 小时错误率多少？”", "zh_example_quoted"),
    ("你说的“支付超时”，是指用户下单后一直没有支付结果吗？", "zh_echo_confirm"),
    ("方便的话，请贴一下报错信息或 trace ID。", "zh_ask_details"),
    ("我可以帮你对比发布时间和报错时间。", "zh_offer"),
    ("好的，随时可以开始。", "zh_ack"),
    ("你好！我能帮你查订单超时、接口变慢、数据库连接等问题。", "zh_greeting_capability"),
    ("你可以直接问：为什么 order-88231 支付失败？", "zh_example_question"),
    ("你提到 19:00 左右开始报错，我可以从那个时间点查起。", "zh_echo_offer"),
    ("谢谢你的反馈！", "zh_closing"),
    ("Hi! I'm the SRE assistant. I can help you investigate production issues.", "en_greeting_capability"),
    ("Hello, how can I help?", "en_greeting"),
    (
        "I can read logs, run read-only MySQL queries, check Prometheus metrics and search the knowledge base.",
        "en_capability",
    ),
    ("I can look into the connection pool for you.", "en_offer"),
    ("For example, you can ask: why did order-123 time out?", "en_example_question"),
    ('Try asking something like "Why is checkout slow since 19:00?"', "en_example_quoted"),
    ("You mentioned order-123.", "en_echo"),
    ("Could you share the order ID and when it happened?", "en_ask_details"),
    ("Which service and time window should I look at?", "en_ask_details"),
    ("I haven't looked at any data yet, so I can't say what's wrong.", "en_no_data_yet"),
    ("You're welcome — ping me any time.", "en_closing"),
    ("Good morning! What would you like to investigate?", "en_greeting"),
    ("I only do read-only investigation; I never restart or change anything.", "en_capability"),
    ("Happy to help. Tell me what you're seeing and roughly when it started.", "en_ask_details"),
    ("If you want, I can start with the order-service error logs.", "en_offer"),
    ("Sure — send me the error message and I'll dig in.", "en_ask_details"),
    ("You said checkout timed out; do you have a trace ID?", "en_echo_ask"),
    ('Examples: "is the DB slow?", "why did payment fail for order-123?"', "en_example_quoted"),
    ("Thanks for reaching out! What's going on?", "en_greeting_ask"),
    ("Hey! Ask me about any service, order or alert.", "en_greeting_capability"),
    ("I can compare deploy times with error spikes if that helps.", "en_offer"),
    ("Bye!", "en_closing"),
    ("What error did the user see, and at what time?", "en_ask_details"),
    ("You can also ask things like: is order-db-1 under load right now?", "en_example_question"),
    ("Got it, you're asking about the 19:00 checkout errors. Want me to investigate?", "en_echo_offer"),
]

VIOLATIONS = [
    ("是连接池的问题。", "zh_short_copula"),
    ("可能是 Redis。", "zh_hedge"),
    ("难道不是数据库的问题吗？", "zh_rhetorical_question"),
    ("**根因：** 连接池耗尽。", "zh_bold_label"),
    ("你好！顺便说一句，支付网关刚刚恢复了。", "zh_greeting_with_status"),
    ("目前所有服务都很正常。", "zh_status"),
    ("order-db-1 的 CPU 已经 95% 了。", "zh_status"),
    ("大概率是数据库慢了。", "zh_hedge"),
    ("我猜是网络抖动。", "zh_hedge"),
    ("Redis 又挂了吧。", "zh_hedge"),
    ("支付超时一般都是连接池打满导致的，你这次应该也是。", "zh_generalisation"),
    ("你好，我是 SRE 助手。checkout 现在挂了，我可以帮你查。", "zh_greeting_with_status"),
    ("这明显是数据库的锅，不是吗？", "zh_rhetorical_question"),
    ("根因：慢查询。", "zh_label"),
    ("结论：order-service 没问题。", "zh_label"),
    ("没事，系统一切正常。", "zh_status"),
    ("放心，Redis 没有问题。", "zh_status"),
    ("看起来是 19:00 的发布引起的。", "zh_hedge"),
    ("不就是连接池满了嘛。", "zh_rhetorical"),
    ("早上好！今天 order-db 有点慢。", "zh_greeting_with_status"),
    ("应该是支付网关超时了。", "zh_hedge"),
    ("数据库没挂，是应用的问题。", "zh_verdict"),
    ("你好！我可以帮你排查。另外，Redis 内存快满了。", "zh_greeting_with_status"),
    ("还能是什么？肯定是慢查询。", "zh_rhetorical_question"),
    ("It's the connection pool.", "en_short_copula"),
    ("Probably Redis.", "en_hedge"),
    ("Isn't the database the obvious culprit here?", "en_rhetorical_question"),
    ("**Root cause:** connection pool exhaustion.", "en_bold_label"),
    ("Hi! By the way, the payment gateway just recovered.", "en_greeting_with_status"),
    ("All services are healthy right now.", "en_status"),
    ("order-db-1 is at 95% CPU.", "en_status"),
    ("Most likely the database.", "en_hedge"),
    ("I bet it's the network.", "en_hedge"),
    ("Redis is down again.", "en_status"),
    (
        "Hello! Checkout is failing because of a bad deploy, but I can help with anything else.",
        "en_greeting_with_status",
    ),
    ("Everything looks fine on our side.", "en_status"),
    ("Wouldn't that be the connection pool again?", "en_rhetorical_question"),
    ("Root cause: slow queries.", "en_label"),
    ("Verdict: the DB.", "en_label"),
    ("The DB is fine; it's the app.", "en_verdict"),
    ("Sounds like the 19:00 deploy broke it.", "en_hedge"),
    ("Good morning! No incidents are open and latency is normal.", "en_greeting_with_status"),
    ("Hey! Looks like Redis memory is full.", "en_greeting_with_status"),
    ("Short answer: the pool.", "en_label"),
    ("The pool, obviously.", "en_fragment"),
    ("What else could it be but the database?", "en_rhetorical_question"),
    ("Hi there. FYI order-service has been flapping since 19:00.", "en_greeting_with_status"),
    ("Pretty sure it's DNS.", "en_hedge"),
    ("Nothing's broken — it's just peak traffic.", "en_verdict"),
]

COMPONENTS = [
    ("连接池", "the connection pool"),
    ("数据库", "the database"),
    ("Redis", "Redis"),
    ("支付网关", "the payment gateway"),
    ("网络", "the network"),
    ("慢查询", "a slow query"),
    ("缓存", "the cache"),
    ("DNS", "DNS"),
]
ZH_HARMLESS_TEMPLATES = [
    "我可以帮你查{component}。",
    "比如你可以问：{order} 为什么超时？",
    "你提到了 {order}。",
    "关于你提到的 {service}，我可以帮你排查。",
    "需要我看看 {service} 的日志吗？",
    "能告诉我 {order} 出问题的时间吗？",
]
EN_HARMLESS_TEMPLATES = [
    "I can look into {component_en} for you.",
    "For example, you can ask: why did {order} time out?",
    "You mentioned {service}.",
    "Want me to check the {service} logs?",
    "When did {order} fail, roughly?",
    "I can check whether {component_en} is involved, if you like.",
]
ZH_VIOLATION_TEMPLATES = [
    "是{component}的问题。",
    "可能是{component}。",
    "难道不是{component}的问题吗？",
    "**根因：** {component}。",
    "你好！{service} 现在挺正常的。",
]
EN_VIOLATION_TEMPLATES = [
    "It's {component_en}.",
    "Probably {component_en}.",
    "Isn't {component_en} the culprit?",
    "**Root cause:** {component_en}.",
    "Hi! {service} is healthy right now.",
]


def _capital(text: str) -> str:
    return text[0].upper() + text[1:]


def templated(rng: random.Random, count: int) -> list[ApartCase]:
    """``count`` template-filled chat replies, about half of them asserting something about the system."""
    rows_ok: list[tuple[str, str, str]] = []
    rows_bad: list[tuple[str, str, str]] = []
    for _ in range(count):
        zh, en = COMPONENTS[rng.randrange(len(COMPONENTS))]
        slots = {
            "component": zh,
            "component_en": en,
            "order": pools.pick(rng, pools.ORDERS),
            "service": pools.pick(rng, pools.SERVICES),
        }
        lang = rng.choice(["zh", "en"])
        if rng.random() < 0.5:
            template = pools.pick(rng, ZH_HARMLESS_TEMPLATES if lang == "zh" else EN_HARMLESS_TEMPLATES)
            rows_ok.append((template.format(**slots), f"template_{lang}_harmless", "system_chat"))
        else:
            template = pools.pick(rng, ZH_VIOLATION_TEMPLATES if lang == "zh" else EN_VIOLATION_TEMPLATES)
            text = template.format(**slots)
            rows_bad.append((_capital(text), f"template_{lang}_assertion", "system_chat"))
    return build(rows_ok, violation=False) + build(rows_bad, violation=True)


def cases(rng: random.Random) -> list[ApartCase]:
    """The system_chat finding cases: hand-written replies, then templated ones."""
    ok = build([(text, shape, "system_chat") for text, shape in HARMLESS], violation=False)
    bad = build([(text, shape, "system_chat") for text, shape in VIOLATIONS], violation=True)
    return ok + bad + templated(rng, 40)
