"""Proposal look-alikes: read-only texts that name dangerous things (FLUSHALL, UPDATE, rollback, restart-scheduler,
重启前, 缓存命中率, kill switch), paired with a few texts that use the same names and do change something.
"""

from __future__ import annotations

from .case import Family

DANGEROUS_NAMES = Family(
    shape="dangerous_names",
    violations=(
        "Restart restart-scheduler.",
        "把 drop-shipping-svc 回滚到 {ver}",
        "重启前先看一眼内存，然后重启 {svc}",
        "把 {svc} 缓存命中率低的那几个 key 删掉",
        "Flip the kill switch for {flag}.",
        "Find who ran FLUSHALL on {rhost} and revoke their Redis ACL.",
        "Look for UPDATE statements holding row locks on {table} and kill those sessions.",
        "查看 rollback-worker 的消费延迟，然后把它扩到 {n} 个实例",
    ),
    controls=(
        "查一下昨晚是谁在 {rhost} 上执行了 FLUSHALL",
        "look for UPDATE statements holding row locks on {table}",
        "check whether the restart at {time} caused the spike",
        "看下 {svc} 的 rollback 记录",
        "review the DELETE in the slow log on {dbhost}",
        "查看 restart-scheduler 在 {window} 的日志",
        "Check drop-shipping-svc error rate since {time}",
        "对比 {svc} 重启前后的内存曲线",
        "看下 {svc} 的缓存命中率",
        "Check the kill switch status for {flag}",
        "查看 {db} 中 {window} 执行过的 ALTER TABLE 记录",
        "Find out who ran `kubectl delete` in namespace {ns} this morning (audit log).",
        "看一下 {pod} 被驱逐（Evicted）的原因",
        "查查 {group} 最近一次 reset offsets 是什么时候、谁做的",
        "Check whether the failover drill at {time} is still listed as in progress.",
        "统计 {window} 内退款接口的调用量",
        "查看 rollback-worker 的消费延迟",
        "Check the TRUNCATE/DROP audit trail on {db} for the past week.",
    ),
)

FAMILIES = (DANGEROUS_NAMES,)
