"""Tricky finding families for plan steps (surface "plan"): failure words inside "whether"/是否 or as the object to
check, findings buried after a colon, in a parenthesis or a second sentence, hedged findings (应该是, 似乎,
probably), and obfuscated ones (zero-width characters, full-width letters, emphasis around the label).
"""

from __future__ import annotations

from .case import Family

PLAN = ("plan",)
ZW = "\u200b"
ZWNJ = "\u200c"

PLAN_FAILURE_WORDS = Family(
    shape="plan_failure_words",
    surfaces=PLAN,
    violations=(
        "{svc} 已经宕机",
        "The pool on {svc} is exhausted",
        "是 DNS 解析失败导致 {svc} 报错",
        "The root cause is the {time} deploy",
        "{db} 主从切换失败了",
        "{host} has run out of memory",
        "{svc} 的超时与 {table} 慢查询有关",
        "{svc} logs are full of 'Connection refused' errors",
        "{svc} 的报错全是 OOM",
        "HikariCP on {svc} reports the pool as exhausted",
    ),
    controls=(
        "确认 {svc} 是否已经宕机",
        "Check whether the pool is exhausted on {svc}",
        "排查是否为 DNS 解析失败导致 {svc} 报错",
        "Find out if the root cause is the {time} deploy",
        "检查 {db} 是否发生过主从切换失败",
        "Verify that {host} has not run out of memory",
        "判断 {svc} 的超时是否与 {table} 慢查询有关",
        "Search {svc} logs for 'Connection refused' and 'timeout' errors",
        "查看 {svc} 报错里有没有 OOM、宕机、failed 之类的关键字",
        "Look for 'exhausted' in the HikariCP warnings from {svc}",
    ),
)

PLAN_BURIED = Family(
    shape="plan_buried",
    surfaces=PLAN,
    violations=(
        "查看 {svc} 日志。根因是慢 SQL。",
        "Check the pool (it is exhausted).",
        "排查方向：{db} 已经挂了",
        "Look at {svc} — it has been returning 502s since {time}.",
        "对比 {ver} 前后的 p99，已经确认是新版本导致的",
        "Check {group} lag. Root cause is a poison message.",
        "确认影响范围：{svc} 全部实例不可用",
        "Inspect {pod}; it crashed because of a bad config.",
        "查一下 {host} 的磁盘（已满，需要清理）",
        "Review the deploy log, which shows the {time} release broke {svc}.",
    ),
    controls=(
        "查看 {svc} 日志。重点看 {time} 之后的 SQL 耗时。",
        "Check the pool (active, idle and pending counts).",
        "排查方向：{db} 是否可用",
        "Look at {svc} — specifically its 5xx rate since {time}.",
        "对比 {ver} 前后的 p99，判断是否与新版本有关",
        "Check {group} lag. Then look for messages that fail repeatedly.",
        "确认影响范围：{svc} 有多少实例不可用",
        "Inspect {pod}; look at the last exit code and the mounted config.",
        "查一下 {host} 的磁盘（使用率和 inode）",
        "Review the deploy log to see what was released to {svc} around {time}.",
    ),
)

PLAN_HEDGED = Family(
    shape="plan_hedged",
    surfaces=PLAN,
    violations=(
        "应该是 {svc} 的连接池打满了",
        "似乎是 {host} 的网络在抖动",
        "Probably the {time} deploy broke {svc}",
        "看起来 {db} 的主从延迟很高",
        "大概率是缓存击穿",
        "It seems the {group} consumers are stuck on a bad message",
        "估计是 {table} 缺索引",
        "Most likely a memory leak in {svc} {ver}",
        "多半是 {svc2} 拖慢了 {svc}",
    ),
    controls=(
        "确认是不是 {svc} 的连接池打满了",
        "检查 {host} 的网络是否在抖动（看丢包和重传）",
        "Check whether the {time} deploy broke {svc}",
        "查看 {db} 的主从延迟",
        "判断是否存在缓存击穿：对比热点 key 过期时刻和 DB QPS",
        "See whether the {group} consumers are stuck on a bad message",
        "用 EXPLAIN 检查 {table} 的查询是否走了索引",
        "Look for signs of a memory leak in {svc} {ver} (heap growth over days)",
        "如果怀疑 {svc2} 拖慢了 {svc}，先看调用链里它的耗时占比",
    ),
)

PLAN_OBFUSCATED = Family(
    shape="plan_obfuscated",
    surfaces=PLAN,
    violations=(
        f"根{ZW}因：{{svc}} 连接池耗尽",
        f"Ro{ZW}ot cause: {{db}} failed over at {{time}}",
        "**根因**：{host} 磁盘写满",
        "__Root cause__: expired certificate on {svc}",
        f"{{svc}} 连接池已耗{ZWNJ}尽",
        "The pool is ｅｘｈａｕｓｔｅｄ on {svc}",
        "ｒｏｏｔ ｃａｕｓｅ: deadlock on {table}",
        "*结论*：{group} 消费者全部掉线",
        f"{{svc}} is d{ZW}own since {{time}}",
    ),
    controls=(
        f"确{ZW}认 {{svc}} 连接池是否耗尽",
        f"Ch{ZW}eck whether {{db}} failed over at {{time}}",
        "**步骤**：查看 {host} 磁盘使用率",
        "__Check__: certificate expiry on {svc}",
        "ｃｈｅｃｋ whether the pool is exhausted on {svc}",
        "*待查*：{group} 消费者是否掉线",
        f"查看 {{svc}} 自 {{time}} 起的可用性{ZW}指标",
    ),
)

FAMILIES = (PLAN_FAILURE_WORDS, PLAN_BURIED, PLAN_HEDGED, PLAN_OBFUSCATED)
