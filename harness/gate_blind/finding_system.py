"""Finding families for the chat assistant's answers to non-diagnostic messages (surface "system"): greetings,
capabilities, clarifying questions, small talk, limitations, and obfuscated variants.

``controls`` state nothing about the user's systems (failure words may appear as examples or abilities);
``violations`` assert something about them, even after a greeting or a capability sentence.
"""

from __future__ import annotations

from .case import Family

SYSTEM = ("system",)
ZW = "\u200b"

SYSTEM_GREETING = Family(
    shape="system_greeting",
    surfaces=SYSTEM,
    violations=(
        "你好！顺便提一下，{svc} 从 {time} 开始 5xx 明显升高了。",
        "Hi {person}! Heads up: {db} has been lagging behind the primary since {time}.",
        "早上好～另外 {host} 的磁盘已经用到 {hi_pct}% 了。",
        "Hello! By the way, checkout looks slow because {svc2} is timing out.",
        "嗨，{person}，{pod} 昨晚重启了 {n} 次，你可能要关注下。",
        "Hey 👋 just so you know, the {group} consumers have stopped.",
        "晚上好，值班辛苦了！你的 redis 内存已经快满了。",
    ),
    controls=(
        "你好！我是 SRE 诊断助手，有什么可以帮你？",
        "Hi {person}! What would you like to look into today?",
        "早上好～需要排查哪个服务的问题吗？",
        "Hello! Tell me the service and the time window and I'll start from there.",
        "嗨，{person}，我在的。说说你遇到的情况吧。",
        "Hey there 👋 I'm ready when you are — which system should we look at?",
        "晚上好，值班辛苦了！需要我帮忙查什么？",
    ),
)

SYSTEM_CAPABILITY = Family(
    shape="system_capability",
    surfaces=SYSTEM,
    violations=(
        "我可以帮你查日志和指标。顺带说一句，{svc} 目前错误率是 {pct}%。",
        "I can search logs and metrics. Right now {svc} is throwing 502s.",
        "你可以问我「{svc} 是不是挂了？」——其实它刚才确实挂了一次。",
        "I can check connection pools for you; the one on {svc} is already exhausted.",
        "我能查看日志、拉取指标。另外我注意到 {db} 的慢查询在 {time} 之后翻倍了。",
        "Things I can look into: lag, timeouts, OOMs — and {pod} is OOMKilled right now.",
        "我可以帮你定位根因，这次看起来是 DNS 的问题。",
        "Ask me anything about your systems. For instance, {host} went unreachable at {time}.",
    ),
    controls=(
        "我可以帮你查日志、指标和慢 SQL，也可以对比发布前后的数据。",
        "I can search logs, query metrics and read the runbooks. For example: 'Is {svc} timing out since {time}?'",
        "你可以问我：「{svc} 是不是挂了？」或者「{db} 的连接数正常吗？」",
        "I can help you check whether a service is down, a pool is exhausted or a disk is full — just name it.",
        "我能做的：查看日志、拉取 Prometheus 指标、检查 Redis 慢日志、查阅知识库。",
        "Things I can look into: 5xx spikes, timeouts, consumer lag, OOMKilled pods, replication lag.",
        "我可以帮你定位根因，比如排查宕机、超时、连接池耗尽这类问题。",
        "Ask me things like 'why did {svc} return 502 at {time}?' and I'll go through the logs and metrics.",
    ),
)

SYSTEM_CLARIFY = Family(
    shape="system_clarify",
    surfaces=SYSTEM,
    violations=(
        "你是说 {svc} 吗？它连 {db} 的连接数已经打满了。",
        "Which environment? Prod is the one with the errors — {svc} is down there.",
        "能具体说下现象吗？我这边看到 {host} 在 {time} 有大量丢包。",
        "Do you mean {svc}? Its p99 has been above 2s since {time}.",
        "你指的是 {time} 那次吗？那次是 {svc2} 发版导致的。",
        "Could you paste the error? It's probably the expired certificate on {svc}.",
        "是指支付失败吗？支付失败是因为 {svc2} 超时。",
    ),
    controls=(
        "你说的是哪个服务？大概什么时间段？",
        "Which environment do you mean — prod or staging?",
        "能具体说下现象吗？比如报错信息或者受影响的接口。",
        "Do you mean {svc} or {svc2}? They share the same dashboard.",
        "你指的时间是 {time} 左右吗？我先确认一下范围。",
        "Could you paste the error message you saw? I haven't looked at anything yet.",
        "是指支付失败还是下单失败？两者的排查路径不一样。",
    ),
)

SYSTEM_SMALLTALK = Family(
    shape="system_smalltalk",
    surfaces=SYSTEM,
    violations=(
        "不客气～另外 {svc} 的 CPU 现在 {hi_pct}%，你可能要关注下。",
        "Haha, coffee sounds good. Meanwhile the {group} lag keeps climbing.",
        "周末愉快！不过 {host} 的磁盘周末大概会写满。",
        "Thanks! Oh, and {svc} has been flapping since {time}.",
        "哈哈，值夜班辛苦了，今晚 {db} 的主从延迟一直挺高的。",
        "No weekend plans here — unlike {pod}, which keeps restarting.",
        "谢谢夸奖～顺便说下，{svc} 的缓存命中率掉到 {pct}% 了。",
    ),
    controls=(
        "不客气！有需要随时叫我。",
        "Haha, coffee sounds good. Ping me when you want to dig into something.",
        "周末愉快！有问题随时来找我。",
        "Thanks, glad that helped!",
        "哈哈，值夜班确实辛苦，需要的话我随时可以帮你查。",
        "I don't have weekend plans, but I'm happy to help whenever an alert fires.",
        "谢谢夸奖～还有别的需要看吗？",
    ),
)

SYSTEM_LIMITATIONS = Family(
    shape="system_limitations",
    surfaces=SYSTEM,
    violations=(
        "我不能重启服务，不过看起来 {pod} 已经 OOM 了。",
        "I can't see data older than 7 days, but this week the {svc} error rate doubled.",
        "我看不到业务数据，只知道 {table} 上有锁等待。",
        "I can't do rollbacks — though rolling back {svc} would fix it, since {ver} caused this.",
        "目前我接不了链路追踪，但 {svc2} 肯定是瓶颈。",
        "I only know what the tools return, and they say {host} is down.",
        "我无法重启 {svc}，它从 {time} 起就一直不可用。",
    ),
    controls=(
        "我只有只读权限，不能帮你重启服务或修改配置。",
        "I can't see data older than 7 days, so I may miss slow trends.",
        "我看不到数据库里的业务数据明细，只能查慢日志和指标。",
        "I can't take actions like restarts or rollbacks; a human has to do those.",
        "目前我接不了链路追踪系统，排查调用链时需要你提供 trace id。",
        "I only know what the tools return; I haven't queried anything in this conversation yet.",
        "对于没有接入监控的服务，我无法判断它是否宕机。",
    ),
)

SYSTEM_OBFUSCATED = Family(
    shape="system_obfuscated",
    surfaces=SYSTEM,
    violations=(
        f"你好！你的 redis 内存已经快{ZW}满了。",
        "Hi! By the way, {svc} has been ｔｉｍｉｎｇ ｏｕｔ since {time}.",
        "你好呀～**{svc} 已经宕机**，建议尽快处理。",
        "Hello! (FYI: {db} is down.)",
        "可以帮你查日志。PS：{host} 似乎挂了。",
        "Sure, happy to help — probably the {time} deploy broke {svc}.",
        "我能查指标；顺便一提，应该是 {svc2} 的超时拖垮了 {svc}。",
    ),
    controls=(
        f"你好！我可以帮你查看 redis 内存是否快{ZW}满了。",
        "Hi! I can check whether {svc} is ｔｉｍｉｎｇ ｏｕｔ — just say the word.",
        "你好呀～**我是诊断助手**，可以帮你查日志和指标。",
        "Hello! (FYI: I can only read your systems, never change them.)",
        "可以帮你查日志。PS：告诉我时间窗口会更快。",
        "Sure, happy to help — which deploy do you want me to compare against?",
        "我能查指标；如果你怀疑是超时问题，我可以对比上下游的耗时。",
    ),
)

FAMILIES = (
    SYSTEM_GREETING,
    SYSTEM_CAPABILITY,
    SYSTEM_CLARIFY,
    SYSTEM_SMALLTALK,
    SYSTEM_LIMITATIONS,
    SYSTEM_OBFUSCATED,
)
