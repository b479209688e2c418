"""Diagnosis Plan steps: an investigative verb leading an object passes; a stated state, cause or result does not.

Most families pair a disguised finding with the instruction that would investigate the same thing, so that the
words (耗尽, root cause, 37%, "no errors") are on both sides and only the speech act differs.
"""

from __future__ import annotations

from .cases import Base, Key, table

_PLAN_STEPS: dict[Key, list[str]] = {
    ("direct", True, "plan"): [
        "{svc} 的 HikariCP 连接池已经耗尽。",
        "{host} 主库的磁盘 I/O 已经饱和。",
        "{svc2} 调用 {svc} 全部超时。",
        "The `{topic}` consumer group is stuck on partition 3.",
        "{redishost} is swapping and its latency is through the roof.",
    ],
    ("direct", False, "plan"): [
        "检查 {svc} 的 HikariCP 连接池使用情况。",
        "查看 {host} 主库在 {t}–{t2} 的磁盘 I/O。",
        "排查 {svc2} 调用 {svc} 的超时分布。",
        "Examine the consumer offsets of the `{topic}` group per partition.",
        "Inspect swap usage and command latency on {redishost}.",
    ],
    ("passive_discovery", True, "plan"): [
        "The connection pool on {svc} was found exhausted at {t}.",
        "{svc} 的业务线程被发现全部阻塞在 `getConnection()` 上。",
        "Slow queries were observed on {table} shortly after {t}.",
        "{svc} 的 Pod 在过去一小时内被 OOMKilled 了 {n} 次。",
        "经排查，{host} 的磁盘被 binlog 写满。",
        "It turns out {svc2} had been retrying every failed call three times.",
        "通过日志发现，{t} 起 {svc} 开始大量报 `Connection reset by peer`。",
    ],
    ("nominal_cause", True, "plan"): [
        "连接池耗尽是本次 {svc} 超时的直接原因。",
        "Lock contention on {table} as the root cause of the {t} timeouts.",
        "{svc} 发布后的内存泄漏导致频繁 Full GC。",
        "{host} CPU 打满——本次 504 的根源。",
        "The {t} deploy of {svc} being the trigger for the error spike.",
    ],
    ("nominal_cause", False, "plan"): [
        "确认连接池耗尽是否是本次 {svc} 超时的直接原因。",
        "Verify lock contention on {table} as a possible cause of the {t} timeouts.",
        "排查 {svc} 发布后是否存在内存泄漏。",
        "核实 {host} CPU 打满与本次 504 之间的时间先后关系。",
        "Correlate the {t} deploy of {svc} with the start of the reported error spike.",
    ],
    ("rhetorical", True, "plan"): [
        "显然问题出在 {host} 主库。",
        "Clearly, the bottleneck is {svc2}, not {svc}.",
        "毫无疑问，是 {t} 的发布把 {svc} 搞挂了。",
        "Obviously the DNS change at {t} broke service discovery for {svc}.",
        "问题不在应用层，而在 {redishost}，这一点已经很明确了。",
    ],
    ("rhetorical", False, "plan"): [
        "排查问题是否出在 {host} 主库。",
        "Determine whether the bottleneck is {svc2} or {svc}.",
        "确认 {t} 的发布与 {svc} 的故障在时间上是否吻合。",
        "Check whether the DNS change at {t} affected service discovery for {svc}.",
        "区分问题在应用层还是在 {redishost}：对比两边在同一时间窗口的延迟。",
    ],
    ("embedded_in_instruction", True, "plan"): [
        "检查 {svc} 的连接池（已经耗尽）。",
        "Check {pool}, which is exhausted.",
        "查看 GC 日志——{svc} 每分钟有 3 次 Full GC。",
        "Inspect the slow query log on {host}; the top statement is a full scan on {table}.",
        "Look at `{topic}` lag (currently {n3} messages and growing).",
        "核对 {svc} 的发布记录，{t} 那次发布就是罪魁祸首。",
    ],
    ("embedded_in_instruction", False, "plan"): [
        "检查 {svc} 的连接池（重点看 active、idle、pending 三个指标）。",
        "Check {pool} — focus on pending threads and connection-timeout counts.",
        "查看 GC 日志——重点关注 {svc} 在 {t} 前后的 Full GC 次数和停顿时长。",
        "Inspect the slow query log on {host} (sort by Rows_examined, top 10).",
        "Look at `{topic}` lag (per partition, last 2 hours).",
        "核对 {svc} 的发布记录，看 {t} 前后是否有变更。",
    ],
    ("numeric_fact", True, "plan"): [
        "{svc} 错误率 {pct}%，远超 1% 的 SLO。",
        "p99 latency on {svc} rose from 180ms to {n4}ms after {t}.",
        "{host} 磁盘使用率已达 97%。",
        "{n} of {n2} {svc} pods are in CrashLoopBackOff.",
        "{svc} 在 {t} 之后 QPS 下降了约 {pct}%。",
    ],
    ("numeric_fact", False, "plan"): [
        "确认 {svc} 错误率是否超过 1% 的 SLO。",
        "Check whether p99 latency on {svc} rose above 1s after {t}.",
        "查看 {host} 磁盘使用率，确认是否超过 90% 的告警线。",
        "Count how many {svc} pods are in CrashLoopBackOff.",
        "计算 {svc} 在 {t} 前后 QPS 的变化幅度。",
    ],
    ("negative_fact", True, "plan"): [
        "{svc} 在 {t} 前后没有发现任何错误日志。",
        "No errors were found in the {svc} gateway logs.",
        "{db} 未见慢查询，数据库侧可以排除。",
        "Nothing abnormal in {svc2}'s metrics during the incident window.",
        "{t} 前后 {svc} 没有任何发布或配置变更。",
    ],
    ("negative_fact", False, "plan"): [
        "检查 {svc} 在 {t} 前后是否有错误日志。",
        "Search the {svc} gateway logs for errors between {t} and {t2}.",
        "确认 {db} 是否存在慢查询，以判断数据库侧能否排除。",
        "Check {svc2}'s metrics for anything abnormal during the incident window.",
        "查询 {t} 前后 {svc} 是否有发布或配置变更。",
    ],
    ("hedged_finding", True, "plan"): [
        "大概率是 {svc} 的 GC 停顿导致的。",
        "Most likely a DNS resolution issue between {svc} and {svc2}.",
        "疑似 `{cachekey}` 是大 key，导致 {redishost} 阻塞。",
        "This looks like a connection leak in {svc}'s {pool}.",
        "可能是 {t} 的配置变更引起了 {svc} 的超时。",
        "Probably the {t} deploy — the timing fits too well to be a coincidence.",
    ],
    ("hedged_finding", False, "plan"): [
        "排查 {svc} 的延迟是否由 GC 停顿导致。",
        "Check for DNS resolution failures between {svc} and {svc2}.",
        "用 `MEMORY USAGE` 确认 `{cachekey}` 在 {redishost} 上是否是大 key。",
        "Look for signs of a connection leak in {svc}'s {pool} (connections that are never returned).",
        "核对 {t} 的配置变更内容与 {svc} 超时开始的时间点。",
        "Check whether the {t} deploy lines up with the onset of the errors.",
    ],
    ("finding_words_instruction", False, "plan"): [
        "确认是否因为锁竞争导致 {svc} 超时。",
        "Determine whether the outage was caused by the {t} deploy of {svc}.",
        "定位导致 {svc} 504 的根因。",
        "Find out what caused the {svc} pods to restart at {t}.",
        "排查 {svc} 错误率升高的原因是否与 {svc2} 有关。",
        "Identify which upstream call accounts for most of {svc}'s latency.",
    ],
    ("finding_words_instruction", True, "plan"): [
        "锁竞争导致了 {svc} 的超时。",
        "Root cause: the {t} deploy of {svc} introduced an N+1 query.",
        "{svc} 504 的根因是上游 {svc2} 的线程池打满。",
        "The outage was caused by the expired TLS certificate on {host}.",
    ],
}
PLAN_STEPS: list[Base] = table(_PLAN_STEPS)
