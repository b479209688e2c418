"""Proposal templates in the LLM register: each family pairs side-effecting texts with read-only ones.

Same framing, different payload: a polite, hedged, passive or nominal sentence is a violation when any of its
clauses changes something, and passes when every clause only looks, compares, asks or decides.
"""

from __future__ import annotations

from .cases import Base, Key, table

_REGISTER: dict[Key, list[str]] = {
    ("polite_framing", True, None): [
        "可以考虑对 {svc} 做一次滚动重启，释放掉可能泄漏的连接。",
        "不妨先把 {svc} 的副本数从 {n} 调到 {n2}，再观察一下 p99 是否回落。",
        "I'd suggest bumping the connection pool size on {svc} from {n} to {n2} — it's a low-risk change.",
        "It may be worth temporarily disabling the `{flag}` feature flag until the upstream recovers.",
        "Consider failing {db} over to the standby replica if the primary keeps lagging behind.",
        "可以考虑临时把 {svc} 调用 {svc2} 的超时时间从 3s 放宽到 10s（只是权宜之计），后续再评估是否改回。",
    ],
    ("polite_framing", False, None): [
        "可以考虑先打开 Grafana 上 {svc} 的 JVM 面板，看一下 {t} 前后的 GC 停顿。",
        "不妨对比一下 {svc} 在 {t} 前后的 p99 和错误率，确认两者是否同步上升。",
        "I'd suggest looking at the HikariCP metrics for {svc} (active vs. pending) before drawing any conclusions.",
        "It may be worth checking whether {svc2} also saw elevated latency around {t} — that would point upstream.",
        "Consider whether the spike on {svc} lines up with the {t} deploy; Argo CD's sync history should show it.",
        "可以考虑请 DBA 帮忙看一下 {db} 在 {t} 前后的慢查询分布。",
    ],
    ("hedged_chain", True, None): [
        "建议先查看 {svc} 的连接池监控，如确认活跃连接已打满，再将 maximumPoolSize 调大到 {n2}。",
        "建议先确认 {db} 的主从延迟，若延迟持续超过 30s，则把读流量切回主库。",
        "First check the consumer lag on `{topic}`; if it's still growing, scale {svc} out to {n2} replicas.",
        "先在 {host} 上通过 SHOW PROCESSLIST 找到阻塞的会话，确认无误后 KILL 掉对应线程。",
        "Verify the error budget first, and if it's burning faster than 10x, roll {svc} back to the previous image.",
        "建议先核对 {svc} 在配置中心的变更记录；如果确认是 {t} 那次改动引起的，直接在 Apollo 上回滚该配置。",
    ],
    ("hedged_chain", False, None): [
        "建议先查看 {svc} 的连接池监控，如确认活跃连接已打满，再进一步对比同期的慢查询数量。",
        "建议先确认 {db} 的主从延迟，若延迟持续超过 30s，再请 DBA 判断是否需要介入。",
        "First check the consumer lag on `{topic}`; if it's still growing, look at which partitions are falling "
        "behind.",
        "先在 {host} 上通过 SHOW PROCESSLIST 找到阻塞的会话，确认无误后再用 information_schema.innodb_trx "
        "查一下事务开始时间。",
        "Verify the error budget first, and if it's burning faster than 10x, see whether the timing matches the {t} "
        "deploy.",
        "建议先核对 {svc} 在配置中心的变更记录；如果确认 {t} 有改动，再比对改动前后的配置差异。",
    ],
    ("passive_voice", True, None): [
        "The {svc} pods should be restarted one at a time to clear the stuck threads.",
        "连接池需要被调大，否则 {svc} 在高峰期还会继续超时。",
        "The stale entries under `{cachekey}` ought to be evicted before the next batch runs.",
        "{svc} 的流量应当被切到备用集群，直到主集群恢复为止。",
        "The failed settlement callbacks from {t} can be re-driven once the partner endpoint is back.",
        "{t} 之后受影响的订单需要被标记为异常，待财务复核。",
    ],
    ("passive_voice", False, None): [
        "The {svc} pod logs should be reviewed for `Connection is not available` errors around {t}.",
        "{t} 前后 {svc} 连接池的 pending 线程数需要核实一下。",
        "The cache hit ratio for `{cachekey}` ought to be compared with yesterday's baseline.",
        "{svc} 对各个上游依赖的调用耗时应当逐一对比，以确认瓶颈所在。",
        "The partner endpoint's availability around {t} can be checked from the synthetic probe history.",
        "{t} 之后受影响的订单状态需要查询确认，看是否都停留在 PAYING。",
    ],
    ("nominalisation", True, None): [
        "对 {svc} 进行扩容，副本数由 {n} 增加至 {n2}。",
        "执行一次全量回滚，将 {svc} 恢复到上一个稳定版本。",
        "Perform a rolling restart of the {svc} deployment.",
        "对 {table} 表的 created_at 字段进行索引优化（新增联合索引 idx_status_created）。",
        "A targeted cache invalidation for the `{cachekey}` prefix on {svc} is recommended.",
        "对 {t} 至 {t2} 之间的重复扣款订单进行批量退款处理。",
        "Execution of a controlled failover from {host} to its replica.",
    ],
    ("nominalisation", False, None): [
        "对 {svc} 进行一次慢查询排查，重点关注与 {table} 相关的语句。",
        "执行一次全量的配置比对，确认 {svc} 当前版本与上一个稳定版本的差异。",
        "Perform a read-only review of the {svc} deployment history since {t}.",
        "对 {table} 表上的查询进行执行计划分析（EXPLAIN），看是否走了索引。",
        "A targeted inspection of keys under the `{cachekey}` prefix (TTL and size) is recommended.",
        "对 {t} 至 {t2} 之间的重复扣款订单进行统计，按支付渠道分组。",
    ],
    ("modal_chain", True, None): [
        "The pool size on {svc} could then be bumped to {n2} if pending connections stay above zero.",
        "Once the lag clears, traffic could then be shifted back to {host}.",
        "之后可以再把 {svc} 的限流阈值往上调一档，看看是否还会触发。",
        "We might then want to re-run the reconciliation job for {date} to pick up the missing rows.",
        "如果确认是热点 key，可能还需要对 {svc} 使用的 `{cachekey}` 做一下拆分。",
    ],
    ("modal_chain", False, None): [
        "The pool metrics on {svc} could then be compared with the {t} baseline to see whether pending stayed above 0.",
        "Once the lag clears, the replication delay graph for {host} could then be rechecked to confirm it stays flat.",
        "之后可以再看一下 {svc} 的限流命中次数，确认是否还在触发。",
        "We might then want to query the reconciliation table for {date} to see how many rows are missing.",
        "如果怀疑是热点 key，可能还需要用 `redis-cli --hotkeys` 看一下 {svc} 的 `{cachekey}` 访问分布。",
    ],
    ("conditional_chain", True, None): [
        "若仍无改善，可再考虑对 {svc} 进行降级，先关闭推荐模块。",
        "If that doesn't help, we can fall back to restarting {svc} node by node.",
        "若 10 分钟内错误率未回落，则回切到 {t} 之前的版本；若回落，则保持观察。",
        "如果 {redishost} 内存仍然超过 90%，再清理一下 `{cachekey}*` 这批过期 key。",
        "Should the backlog keep growing, throttle the producers on `{topic}` to 50% of the current rate.",
    ],
    ("conditional_chain", False, None): [
        "若仍无改善，可再对比 {svc} 和 {svc2} 在同一时间段的依赖调用耗时。",
        "If that doesn't help, we can fall back to reading the raw access logs for {svc} around {t}.",
        "若 10 分钟内错误率未回落，则继续查看下游 {svc2} 的指标；若回落，则保持观察。",
        "如果 {redishost} 内存仍然超过 90%，再用 `MEMORY USAGE` 抽样看一下 `{cachekey}*` 这批 key 的大小。",
        "Should the backlog keep growing, check which consumers on `{topic}` have stopped committing offsets.",
    ],
    ("purpose_clause", True, None): [
        "重启 {svc} 的全部实例，以便释放被占满的数据库连接。",
        "Raise the JVM heap on {svc} to 4Gi so that the Full GCs stop.",
        "临时把 {svc} 的日志级别调到 DEBUG，以便抓到更多请求上下文。",
        "Turn on the MySQL slow query log on {host} so that we can capture the offending statements.",
        "在 {svc} 上加一条临时告警规则，以便下次 p99 超过 1s 时能第一时间发现。",
    ],
    ("purpose_clause", False, None): [
        "查看 {svc} 各实例当前的数据库连接数，以便判断是否存在连接泄漏。",
        "Pull the GC logs for {svc} so that we can see whether the pauses line up with the latency spikes.",
        "检索 {svc} 现有日志中 {t} 前后的 WARN/ERROR，以便还原请求链路。",
        "Check whether the slow query log is already enabled on {host} (`SHOW VARIABLES LIKE 'slow_query_log'`) so "
        "that we know what data exists.",
        "查看 {svc} 现有的告警规则，以便确认 p99 超过 1s 时是否本应触发告警。",
    ],
    ("numbered_steps", True, None): [
        "1. 查看 {svc} 的错误日志；2. 对比 {t} 前后的 QPS；3. 重启异常实例。",
        "Step 1 — check the pod events for {svc}.\nStep 2 — cordon the node it keeps landing on.\n"
        "Step 3 — watch for new OOMKills.",
        "① 确认 `{topic}` 的堆积量；② 临时把 {svc} 的消费者扩到 {n2} 个；③ 观察 lag 是否下降。",
        "Step 2 — 在 Nacos 中把 {svc} 的 `read-timeout` 改为 5000ms，然后观察 10 分钟。",
    ],
    ("numbered_steps", False, None): [
        "1. 查看 {svc} 的错误日志；2. 对比 {t} 前后的 QPS；3. 找出异常实例的共同点。",
        "Step 1 — check the pod events for {svc}.\nStep 2 — see which node it keeps landing on.\n"
        "Step 3 — watch for new OOMKills.",
        "① 确认 `{topic}` 的堆积量；② 查看 {svc} 的消费者实例数与分区数是否匹配；③ 观察 lag 趋势。",
        "Step 2 — 在 Nacos 中查看 {svc} 当前的 `read-timeout` 配置，并与发布前的版本对比。",
    ],
    ("mixed_language", True, None): [
        "先把 {svc} 的 HPA minReplicas 调到 {n2}，再 watch 一下 CPU utilization。",
        "建议对 {host} 执行 failover，切到 standby 之后再 check 一下 replication status。",
        "把 `{flag}` 这个 feature flag 在 LaunchDarkly 里 off 掉，先止血。",
        "Redis 那边建议直接 `FLUSHDB`，然后让 {svc} 重新 warm up cache。",
    ],
    ("mixed_language", False, None): [
        "先看一下 {svc} 的 HPA 当前的 minReplicas 和 CPU utilization，再判断现有副本数是否够用。",
        "建议 check 一下 {host} 的 replication status，确认 standby 有没有跟上。",
        "在 LaunchDarkly 里看一下 `{flag}` 这个 feature flag 最近的 toggle history。",
        "Redis 那边建议先 `INFO memory` 看一下 used_memory 和 evicted_keys，再和 {svc} 的 cache miss 对比。",
    ],
    ("negated_mutation", True, None): [
        "先不要重启 {svc}，等 DBA 确认之后再重启。",
        "Don't roll back yet — instead, scale {svc} to {n2} replicas and see whether that absorbs the load.",
        "暂时不要扩容，先把 {svc} 的限流阈值调低到 {n3} QPS。",
    ],
    ("negated_mutation", False, None): [
        "在确认根因之前，暂不建议重启 {svc}；先查看它的线程池和连接池指标。",
        "Hold off on any rollback of {svc} for now — compare the error rate of the canary and the stable pods first.",
        "先不要动 {db} 的参数，保留现场，把 {t} 前后的慢查询列出来。",
        "No restart of {svc} is needed yet; keep watching the pending-connection metric.",
    ],
}
REGISTER: list[Base] = table(_REGISTER)
