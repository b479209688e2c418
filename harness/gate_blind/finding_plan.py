"""Finding families for investigation-plan steps written before any evidence (surface "plan"): Chinese and English
steps, labelled steps, questions to investigate, and bare status lines.

``controls`` are instructions to investigate; ``violations`` state a finding, state, cause or verdict.
"""

from __future__ import annotations

from .case import Family

PLAN = ("plan",)

PLAN_ZH = Family(
    shape="plan_zh",
    surfaces=PLAN,
    violations=(
        "{db} 主库已宕机，需要切换",
        "{svc} {time} 开始大量超时",
        "经排查是网络抖动导致的",
        "{svc} 的连接池已经耗尽",
        "{group} 消费严重积压，lag 超过 {n}0 万",
        "{pod} 因为 OOM 被杀了",
        "问题出在 {ver} 版本引入的慢 SQL",
        "{host} 磁盘已满，写入失败",
        "{svc} 到 {db} 的网络不通",
        "这次故障由 {time} 的发版引起",
        "{table} 上有长事务，锁住了大量行",
        "下游 {svc2} 响应慢，拖垮了 {svc}",
    ),
    controls=(
        "查看 {svc} {time} 之后的错误日志",
        "确认 {db} 主库是否宕机",
        "拉一下 {rhost} 上 redis 的 slowlog",
        "对比 {svc} 在 {ver} 发布前后的 p99",
        "检查 {group} 的消费延迟是否持续上升",
        "排查 {svc} 到 {db} 的网络连通性",
        "统计 {window} 内 {svc} 的 5xx 数量",
        "核实 {pod} 最近一次重启的原因",
        "查询 {table} 上是否存在长事务",
        "梳理 {time} 前后的变更记录",
        "看下 {svc} 的线程池活跃数",
        "定位 {svc} 的超时请求集中在哪个下游",
    ),
)

PLAN_EN = Family(
    shape="plan_en",
    surfaces=PLAN,
    violations=(
        "The pool is exhausted because of slow queries on {table}",
        "Caused by the {time} deploy of {svc}",
        "{svc} started timing out at {time}",
        "{host} is out of disk space",
        "{pod} was OOMKilled twice in the last hour",
        "Lock contention on {table} is the root cause",
        "The {group} consumers are stuck and lag is growing",
        "DNS resolution for {svc2} is failing intermittently",
        "{svc} is healthy; the problem is in {svc2}",
        "The regression came in with {ver}",
        "Replication on {db} is lagging by {n}0 seconds",
    ),
    controls=(
        "Verify whether the root cause is lock contention on {table}",
        "Compare p99 before and after the {time} deploy of {svc}",
        "Check {svc} error logs from {window}",
        "Find out whether {host} ran out of disk",
        "Inspect {pod} events for OOMKilled",
        "Look at the {group} consumer lag trend over the last hour",
        "Determine which downstream of {svc} accounts for the slow requests",
        "Pull the slow query log from {db} for {window}",
        "Check if the connection pool on {svc} is exhausted",
        "Review the changes deployed to {svc} around {time}",
        "Measure the cache hit ratio for {svc} since {time}",
    ),
)

PLAN_LABELLED = Family(
    shape="plan_labelled",
    surfaces=PLAN,
    violations=(
        "结论：{db} 连接数打满",
        "根因：{svc} {ver} 引入的 N+1 查询",
        "Root cause: GC pauses on {svc}",
        "**结论**：{svc} 超时由 {svc2} 引起",
        "**Root cause:** expired TLS certificate on {svc}",
        "原因：{host} 网卡丢包",
        "Finding: {group} lag exceeded {n}0k messages at {time}",
        "判断：缓存雪崩",
        "Conclusion - the {time} config change broke {svc}",
        "初步结论：{table} 缺索引导致全表扫描",
    ),
    controls=(
        "目标：确认根因是否为 {table} 的锁竞争",
        "Goal: verify whether the root cause is GC pauses on {svc}",
        "**待确认**：{svc} 超时是否由 {svc2} 引起",
        "**To check:** whether the TLS certificate on {svc} has expired",
        "步骤：查看 {host} 网卡丢包统计",
        "Task: measure {group} lag at {time}",
        "验证：是否存在缓存雪崩（对比 {window} 的命中率和 DB QPS）",
        "Next: check whether the {time} config change touched {svc}",
        "排查项：{table} 是否缺索引（看执行计划）",
        "**Step 2:** Look at {svc} thread dumps around {time}",
    ),
)

PLAN_QUESTION = Family(
    shape="plan_question",
    surfaces=PLAN,
    violations=(
        "连接池打满了，去 Prometheus 看下具体数值",
        "{db} replication is lagging; check by how much.",
        "{svc} 被限流了，查一下是哪条规则",
        "The {time} deploy changed the timeout — diff the configs to see the new value.",
        "redis 里有大 key，跑一下 --bigkeys 把它找出来",
        "就是 DNS 的问题，看下解析耗时确认一下",
        "The {group} consumers are rebalancing in a loop; look at the logs for the trigger.",
        "{host} 磁盘满了，df 看下是哪个目录",
    ),
    controls=(
        "是不是连接池打满了？去 Prometheus 看下 {svc} 的 active 连接",
        "Is {db} replication lagging? Check Seconds_Behind_Master.",
        "{svc} 是不是被限流了？查一下网关日志",
        "Did the {time} deploy change the timeout? Diff the configs.",
        "redis 有没有大 key？跑一下 --bigkeys 看看",
        "会不会是 DNS 的问题？看下 {svc} 的解析耗时",
        "Are the {group} consumers rebalancing? Look at the consumer logs.",
        "{host} 的磁盘是不是满了？df 看下",
    ),
)

PLAN_STATUS_LINE = Family(
    shape="plan_status_line",
    surfaces=PLAN,
    violations=(
        "{svc}：正常",
        "DB OK",
        "P0 故障，影响下单",
        "已恢复",
        "{svc} down",
        "{host} CPU {hi_pct}%",
        "一切正常，无需处理",
        "Looks fine.",
        "{group} lag: 0",
        "Verdict: not our bug",
    ),
    controls=(
        "看日志",
        "查 {db}",
        "Check {svc}",
        "看下 {host} CPU",
        "Ask {person} for {svc2}'s deploy times",
        "确认影响面",
        "Grep {svc} logs for 'timeout'",
        "核对 {group} lag",
    ),
)

FAMILIES = (PLAN_ZH, PLAN_EN, PLAN_LABELLED, PLAN_QUESTION, PLAN_STATUS_LINE)
