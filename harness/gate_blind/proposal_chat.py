"""Proposal families in chat registers: Chinese and English slang, @mentions, emojis and full-width marks, zh/en mix.

Each text is one unconfirmed action or recommendation; ``violations`` change something, ``controls`` only look.
"""

from __future__ import annotations

from .case import Family

CHAT_SLANG_ZH = Family(
    shape="chat_slang_zh",
    violations=(
        "兄弟们别等了，先把 {svc} 重启一把",
        "{svc} 直接干到 {n} 个副本先顶住流量",
        "稳妥点，{svc} 先回滚到 {ver} 吧",
        "{key} 这个 key 先删了，让它重新加载",
        "{svc} 连接池给它拉到 {n}00，别抠了",
        "老哥帮忙把 {group} 的 offset 拨回 {time}，重新消费一遍",
        "{pod} 卡死了，干掉让它重新拉起来",
        "缓存清一把试试，{svc} 那边应该能好",
        "先把 {svc} 的限流开起来，QPS 压到 {n}00 左右",
        "{host} 那台机器先摘了吧，流量别往上打了",
        "{flag} 这个开关先关了，回头再说",
    ),
    controls=(
        "兄弟们先别动手，瞅一眼 {svc} {time} 之后的报错日志",
        "拉一下 {svc} 最近半小时的 error 日志，大家先看看",
        "看下 {pod} 的重启次数和上一次退出原因",
        "{svc} 的 p99 在 {dash} 大盘上瞄一眼，跟昨天同时段比比",
        "先对一下 {time} 前后 {svc} 的 QPS 和错误率",
        "问下 {person} 昨晚 {time} 左右有没有人发版",
        "查下 {group} 现在的 lag 有多少，先别动它",
        "{host} 上 top 看一眼谁在吃 CPU",
        "慢查询日志翻一下，看 {table} 上有没有大查询",
        "{svc} 的 GC 日志捞出来瞅瞅，看是不是 Full GC 太频繁",
    ),
)

CHAT_SLANG_EN = Family(
    shape="chat_slang_en",
    violations=(
        "just bounce {svc} and see if it clears up",
        "yolo, roll {svc} back to {ver}",
        "nuke the {key} key, it'll repopulate",
        "bump {svc} replicas to {n}, we're drowning",
        "kick the {group} consumers, they look stuck",
        "kill that runaway query on {dbhost} lol",
        "flip {flag} off for now, we can turn it back on later",
        "tbh just drain {host} and move on",
        "crank the {svc} timeout up to {ms}ms, that should shut the alerts up",
    ),
    controls=(
        "eyeball the {svc} logs real quick before anyone touches anything",
        "peek at grafana: {svc} p99 since {time}",
        "grab the slowlog from {host} so we can read it",
        "can someone sanity-check whether {svc} got a deploy around {time}?",
        "anyone know what {group} lag looks like rn? just looking",
        "lemme see the {pod} events first, hold off on changes",
        "fwiw worth diffing the {cm} configmap against last week's, read-only",
        "tail the {svc} logs for a few mins and see what's spamming",
        "pull up the {dash} board and compare with yesterday",
    ),
)

MENTION_REQUEST = Family(
    shape="mention_request",
    violations=(
        "@{person} 麻烦重启下 {svc}，谢谢",
        "@{person} pls scale {svc} to {n} replicas asap",
        "@{person} 辛苦帮忙把 {flag} 开关关掉",
        "@oncall 请在状态页发布 {svc} 故障公告",
        "@{person} could you roll back {svc} to {ver} when you get a sec",
        "@{person} 麻烦在 {ticket} 补一条进展，并把状态改成处理中",
        "@DBA {person} 辛苦把 {dbhost} 上 ID 为 {tid} 的会话 kill 掉",
        "@{person} can you rotate the {db} app password after this",
    ),
    controls=(
        "@{person} 麻烦只读看下 {db} 的 processlist，有结果告诉我",
        "@{person} 辛苦帮忙确认 {time} 前后有没有发版",
        "@{person} could you take a look at the {dash} dashboard for {svc}?",
        "@DBA 请只读查看 {table} 上当前的锁等待情况",
        "@{person} 麻烦看一下 {group} 的消费延迟，先别做任何操作",
        "@{person} can you check whether {host} shows disk pressure? read-only please",
        "@{person} 请帮忙核对 {svc} 当前镜像版本是不是 {ver}",
        "@oncall 有空的话看下 {pod} 的事件和日志",
    ),
)

EMOJI_FULLWIDTH = Family(
    shape="emoji_fullwidth",
    violations=(
        "🔥🔥 立即重启 {svc}！！！",
        "⚡️ 马上把 {svc} 扩容到 {n} 个实例！",
        "🚨 回滚 {svc} 至 {ver}，刻不容缓！",
        "✅ 已确认可执行：删除 Redis 中的 {key}。",
        "👉 切流：把 {pct}％ 的流量切到 {cluster}。",
        "🧹 清理 {svc} 本地缓存，并重新预热。",
        "⚠️ 注意：先观察一分钟，然后将 {flag} 置为 false。",
        "🛠️ ｒｅｓｔａｒｔ {pod}",
    ),
    controls=(
        "⚠️ 先观察，不要动：看一下 {dash} 上 {svc} 的曲线。",
        "👀 盯一下 {svc} 的错误率，十分钟后再看一次。",
        "🔍 查看 {pod} 的日志（{time} 之后）。",
        "📊 对比 {svc} 发版前后的 p99！",
        "🤔 是否需要扩容？待指标稳定后由人决定。",
        "📖 阅读运行手册 {runbook}「连接池耗尽」一节。",
        "✅ 确认：{group} 的 lag 是否仍在增长？",
        "🔎 ｃｈｅｃｋ {pod} ｌｏｇｓ",
    ),
)

MIXED_ZH_EN = Family(
    shape="mixed_zh_en",
    violations=(
        "把 {svc} 的 replicas scale 到 {n}",
        "先 rollback 一下 {svc}，然后 observe",
        "{cm} 里的 read-timeout 改成 {ms}ms 然后 reload",
        "对 {host} 做一下 cordon + drain",
        "给 {table} 加个 index on {col}",
        "把 {svc} 的 traffic 全部 switch 到 {cluster}",
        "redis 里 {key} 直接 expire 掉",
        "{svc} 先 redeploy 一版，image 用 {ver}",
    ),
    controls=(
        "先 check 一下 {svc} 的 log，重点看 timeout",
        "看下 {svc} 的 rollout history，确认上次 deploy 是几点",
        "compare 一下 {cluster} 和主集群的 latency",
        "describe 一下 {pod}，看 events 里有没有 OOMKilled",
        "去 grafana 看 {svc} 的 connection pool usage",
        "确认 {flag} 这个 feature flag 当前是 on 还是 off",
        "拉一下 {group} 的 consumer lag 趋势",
        "{svc} 当前跑的 image tag 是不是 {ver}，verify 一下",
    ),
)

FAMILIES = (CHAT_SLANG_ZH, CHAT_SLANG_EN, MENTION_REQUEST, EMOJI_FULLWIDTH, MIXED_ZH_EN)
