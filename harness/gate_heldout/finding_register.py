"""Diagnosis Plan steps in the LLM register: step markers, mixed language, summaries and long multi-clause steps.

A long step passes only if every clause is still an instruction; one clause that reports what was seen ("目前看
RT 已经翻倍", "92% of the latency sits in …") turns the step into a stated finding.
"""

from __future__ import annotations

from .cases import Base, Key, table

_PLAN_REGISTER: dict[Key, list[str]] = {
    ("step_marker", False, "plan"): [
        "Step 2 — 检查 {svc} 的慢查询日志。",
        "2. Review the {svc} deployment events since {t}.",
        "- 查看 `{topic}` 各分区的 lag（{svc}）",
        "**Step 3:** Compare {svc}'s p99 with {svc2}'s over the same window.",
        "步骤 4：核对 {host} 在 {t} 前后的连接数变化。",
    ],
    ("step_marker", True, "plan"): [
        "Step 3 — 慢查询已经定位到 {table} 的全表扫描。",
        "2. The {svc} deployment at {t} is the trigger.",
        "- `{topic}` 第 3 分区 lag 最高（{svc}）",
        "**Step 4:** {svc2} is healthy; the problem is isolated to {svc}.",
        "步骤 5：{host} 的连接数在 {t} 达到上限。",
    ],
    ("mixed_language", False, "plan"): [
        "Check 一下 {svc} 的 thread dump，看有没有大量 BLOCKED 线程。",
        "查看 {svc} 的 Prometheus 指标 `hikaricp_connections_pending`。",
        "Compare {svc} 在 canary 和 stable 两组 pod 上的 error rate。",
        "排查 {svc} → {svc2} 的 gRPC deadline exceeded 是否集中在某几个 pod。",
    ],
    ("mixed_language", True, "plan"): [
        "{svc} 的 thread dump 里有 200 多个 BLOCKED 线程。",
        "`hikaricp_connections_pending` 在 {t} 之后一直大于 0（{svc}）。",
        "{svc} canary pod 的 error rate 明显高于 stable。",
        "{svc} → {svc2} 的 gRPC deadline exceeded 全部集中在 node {node} 上。",
    ],
    ("conclusion", True, "plan"): [
        "结论：本次故障由 {t} 的 {svc} 发布引起。",
        "In summary, {svc2}'s retry storm overloaded {svc}.",
        "综上，{db} 的长事务是根因，与应用无关。",
        "Bottom line: {host} ran out of disk and the writes stalled.",
        "最终确认：{svc} 的超时与 {redishost} 的大 key 有关。",
    ],
    ("conclusion", False, "plan"): [
        "汇总前几步的结果，判断本次故障是否由 {t} 的 {svc} 发布引起。",
        "Summarise the evidence from steps 1–3 and decide whether {svc2}'s retries overloaded {svc}.",
        "综合 {db} 的事务信息和应用日志，确认长事务是否为根因。",
        "Correlate disk usage on {host} with the timeline of the reported write stalls.",
        "最后对照 {redishost} 的大 key 扫描结果，判断 {svc} 的超时与之是否相关。",
    ],
    ("long_clause", False, "plan"): [
        "查看 {svc} 在 {t} 前后 30 分钟的 QPS、RT 和错误率，并与 {svc2} 同期数据对比，以便判断问题是否只影响单个服务。",
        "Check the {pool} metrics (active, idle, pending) for each {svc} pod — ideally at 1-minute resolution — so "
        "that we can see whether pending connections build up before the timeouts.",
        "排查 {host} 的慢查询和锁等待；如果时间线吻合，再进一步查看对应事务的来源。",
        "Trace request {req} end to end in Jaeger, noting which span carries most of the latency.",
        "拉取 {svc} 在 {t}–{t2} 的 access log，按 upstream_status 分组统计（重点看 502/504），再和 {svc2} "
        "的错误日志对齐时间。",
    ],
    ("long_clause", True, "plan"): [
        "查看 {svc} 在 {t} 前后 30 分钟的 QPS、RT 和错误率；目前看 RT 已经翻倍，而 QPS 基本持平。",
        "Check the {pool} metrics for each {svc} pod — pending connections clearly build up before the timeouts, so "
        "this is the main lead.",
        "排查 {host} 的慢查询和锁等待，锁等待在 {t} 达到峰值，与超时时间完全吻合。",
        "Trace request {req} in Jaeger: 92% of the latency sits in the {svc2} span.",
        "拉取 {svc} 在 {t}–{t2} 的 access log——其中 504 占了将近一半，基本都来自 {svc2}。",
    ],
}
PLAN_REGISTER: list[Base] = table(_PLAN_REGISTER)
