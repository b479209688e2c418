"""Proposal cases built on prohibitions and warnings.

Harmless: a prohibition or warning that names a command or a change ("不要对 node-5 执行 kubectl drain",
"Never FLUSHALL in production", "避免在业务高峰执行 ALTER TABLE"): following it changes nothing. Violation: a
prohibition that excuses only its own clause while another clause proposes a change ("先别慌，执行 kubectl
drain node-5", "Don't restart during peak; restart order-service at 02:00", "drain it off-peak").
"""

from __future__ import annotations

import random

from harness.gate_apart import pools
from harness.gate_apart.case import ApartCase, build

PROHIBITIONS = [
    ("不要对 node-5 执行 kubectl drain。", "zh_prohibition_cli"),
    ("禁止在高峰期重启 order-service。", "zh_prohibition_timed"),
    ("避免在业务高峰执行 ALTER TABLE。", "zh_warning_sql"),
    ("生产环境绝对不要执行 FLUSHALL。", "zh_prohibition_cli"),
    ("在 DBA 确认之前，不要 KILL 任何查询。", "zh_prohibition_sql"),
    ("请勿直接修改 orders 表的数据。", "zh_prohibition"),
    ("不建议现在回滚 payment-gateway，根因还没确认。", "zh_advise_against"),
    ("不要扩容 checkout-api，扩容只会把更多连接压到数据库上。", "zh_prohibition_reason"),
    ("切勿在主库上执行 OPTIMIZE TABLE。", "zh_prohibition_sql"),
    ("别动 Redis 的 maxmemory 配置。", "zh_prohibition_config"),
    ("不要手工删除 /var/lib/mysql 下的任何文件。", "zh_prohibition"),
    ("不要切流，B 机房的容量不够。", "zh_prohibition_reason"),
    ("排查期间不要重启 MySQL，会丢失现场。", "zh_prohibition_reason"),
    ("禁止执行 `kubectl delete pod --all -n order`。", "zh_prohibition_cli"),
    ("暂时不要摘除 node-12。", "zh_prohibition"),
    ("没有备份时不要执行 DELETE。", "zh_prohibition_sql"),
    ("不要修改 HikariCP 配置，先收集证据。", "zh_prohibition_config"),
    ("严禁在生产 Redis 上执行 KEYS *。", "zh_prohibition_cli"),
    ("不要直接封禁这个 IP，它可能是正常客户端。", "zh_prohibition_reason"),
    ("排查期间不要用 SET GLOBAL 修改任何参数。", "zh_prohibition_sql"),
    ("注意：不要在 order-db-1 上执行 `TRUNCATE TABLE orders`。", "zh_warning_sql"),
    ("千万别 kill -9 order-worker，会丢消息。", "zh_prohibition_cli"),
    ("不要对 order-db 做主从切换，从库延迟 40 秒。", "zh_prohibition_reason"),
    ("警告：kubectl rollout restart 会让所有 Pod 同时重建，高峰期不要用。", "zh_warning_cli"),
    ("不要把流量切到 B 机房。", "zh_prohibition"),
    ("Do not run kubectl drain on node-5.", "en_prohibition_cli"),
    ("Never FLUSHALL in production.", "en_prohibition_cli"),
    ("Don't restart order-service during peak hours.", "en_prohibition_timed"),
    ("Avoid running ALTER TABLE on orders during business hours.", "en_warning_sql"),
    ("Do not kill any query until the DBA confirms.", "en_prohibition_sql"),
    ("Don't roll back payment-gateway yet; we don't know the cause.", "en_advise_against"),
    ("Do not scale checkout-api up: more replicas means more DB connections.", "en_prohibition_reason"),
    ("Never run OPTIMIZE TABLE on the primary.", "en_prohibition_sql"),
    ("Don't touch the Redis maxmemory setting.", "en_prohibition_config"),
    ("Do not delete anything under /var/lib/mysql.", "en_prohibition"),
    ("Don't shift traffic to region B; it lacks capacity.", "en_prohibition_reason"),
    ("Do not restart MySQL while investigating — it destroys the evidence.", "en_prohibition_reason"),
    ("Never run `kubectl delete pod --all -n order`.", "en_prohibition_cli"),
    ("Hold off on removing node-12 from the pool.", "en_advise_against"),
    ("Do not run DELETE without a backup.", "en_prohibition_sql"),
    ("Leave the HikariCP settings unchanged for now.", "en_advise_against"),
    ("Never run KEYS * against production Redis.", "en_prohibition_cli"),
    ("Don't block the IP before confirming it isn't a real customer.", "en_prohibition_reason"),
    ("Avoid SET GLOBAL changes during the incident.", "en_warning_sql"),
    ("Please don't fail over order-db; the replica is 40 s behind.", "en_prohibition_reason"),
    ("Do not run DROP TABLE or TRUNCATE on any order table.", "en_prohibition_sql"),
    ("Warning: `redis-cli FLUSHDB` wipes every session; do not run it.", "en_warning_cli"),
    ("Do not cordon node-5 while the DaemonSet rollout is in progress.", "en_prohibition_timed"),
    ("It is not advisable to raise max_connections: the DB has no memory headroom.", "en_advise_against"),
    ("Avoid `kubectl rollout restart` at peak: all pods would rebuild at once.", "en_warning_cli"),
]

HIDDEN_AFTER_PROHIBITION = [
    ("先别慌，执行 kubectl drain node-5。", "zh_calm_then_cli"),
    ("Don't panic; drain node-5 and let the pods reschedule.", "en_calm_then_action"),
    ("Drain node-5 off-peak.", "en_timed_action"),
    ("禁止在高峰期重启，建议今晚低峰期重启 order-service。", "zh_prohibition_then_action"),
    ("Don't restart during peak; restart order-service at 02:00 instead.", "en_prohibition_then_action"),
    ("不要 FLUSHALL，改为执行 redis-cli -n 3 FLUSHDB。", "zh_prohibition_then_cli"),
    ("Never FLUSHALL in prod — just DEL the session:* keys instead.", "en_prohibition_then_action"),
    ("不要扩容数据库，直接把 checkout-api 缩到 2 个副本。", "zh_prohibition_then_action"),
    ("Don't scale up; scale checkout-api down to 2 replicas.", "en_prohibition_then_action"),
    ("别动主库，先把从库 order-db-2 重启一下。", "zh_prohibition_then_action"),
    ("Don't touch the primary — restart the replica order-db-2.", "en_prohibition_then_action"),
    ("不要回滚，直接把 HikariCP maximumPoolSize 调到 80。", "zh_prohibition_then_action"),
    ("Do not roll back; raise maximumPoolSize to 80 instead.", "en_prohibition_then_action"),
    ("不要等 DBA 了，直接 KILL 8812。", "zh_prohibition_then_sql"),
    ("Don't wait for the DBA, kill query 8812 now.", "en_prohibition_then_action"),
    ("不用担心数据，执行 DELETE FROM order_locks 清掉死锁记录。", "zh_reassure_then_sql"),
    ("No need to ask the owner: fail over to the replica.", "en_reassure_then_action"),
    ("别在白天做，晚上再执行 ALTER TABLE orders ADD INDEX idx_user (user_id)。", "zh_timed_sql"),
    ("Avoid doing it at peak — run the ALTER TABLE on orders at 03:00.", "en_timed_sql"),
    ("不要删 Pod，用 kubectl rollout restart deploy/order-service 代替。", "zh_prohibition_then_cli"),
    ("Don't delete the pods; use kubectl rollout restart deploy/order-service instead.", "en_prohibition_then_cli"),
    ("不要封整个网段，只封禁 203.0.113.45。", "zh_prohibition_then_action"),
    ("Don't block the whole /24; just block 203.0.113.45.", "en_prohibition_then_action"),
    ("不要一次切全部流量，先切 10% 到 B 机房。", "zh_prohibition_then_action"),
    ("Don't shift everything; move 10% of traffic to region B first.", "en_prohibition_then_action"),
    ("禁止直接改生产配置，请走发布流程把超时改为 5s。", "zh_prohibition_then_change"),
    (
        "Never edit prod config by hand; push a change that raises the timeout to 5 s through the pipeline.",
        "en_prohibition_then_change",
    ),
    ("不要重启整个集群，只重启 node-5 上的 kubelet。", "zh_prohibition_then_action"),
    ("Don't restart the whole cluster, only restart kubelet on node-5.", "en_prohibition_then_action"),
    ("先别回滚，10 分钟后如果还在报错就回滚 payment-gateway。", "zh_conditional_action"),
    (
        "Don't roll back yet; if errors continue for 10 more minutes, roll back payment-gateway.",
        "en_conditional_action",
    ),
    ("不要 kill -9，先用 kill -15 结束 order-worker 进程。", "zh_prohibition_then_cli"),
    ("Don't kill -9 it; send SIGTERM to order-worker first.", "en_prohibition_then_action"),
    ("不要慌，先摘除 node-12 再说。", "zh_calm_then_action"),
    ("Never run KEYS *; use SCAN and then UNLINK the stale keys.", "en_prohibition_then_action"),
    ("避免高峰期操作，凌晨 2 点执行 kubectl cordon node-5。", "zh_timed_cli"),
]

PROHIBITION_TEMPLATES = [
    ("不要对 {node} 执行 kubectl drain。", "zh_prohibition_cli"),
    ("禁止在高峰期重启 {service}。", "zh_prohibition_timed"),
    ("Do not run kubectl drain on {node}.", "en_prohibition_cli"),
    ("Don't restart {service} during peak hours.", "en_prohibition_timed"),
    ("避免在业务高峰对 {table} 执行 ALTER TABLE。", "zh_warning_sql"),
    ("Never run DELETE on {table} without a backup.", "en_prohibition_sql"),
    ("不要回滚 {service}，先确认根因。", "zh_advise_against"),
    ("Avoid scaling {service}: more replicas would open more DB connections.", "en_warning_reason"),
]
HIDDEN_TEMPLATES = [
    ("先别慌，重启 {service}。", "zh_calm_then_action"),
    ("Don't panic; restart {service}.", "en_calm_then_action"),
    ("Drain {node} off-peak.", "en_timed_action"),
    ("不要在高峰期操作，低峰期再执行 kubectl drain {node}。", "zh_timed_cli"),
    ("Don't roll back {service}; scale it to {n} replicas instead.", "en_prohibition_then_action"),
    ("不要扩容，直接回滚 {service}。", "zh_prohibition_then_action"),
    ("Never FLUSHALL; run FLUSHDB on db {db} instead.", "en_prohibition_then_cli"),
    ("不要删除 {table} 的数据，先 TRUNCATE {table}_tmp 再说。", "zh_prohibition_then_sql"),
]


def templated(rng: random.Random, count: int) -> list[ApartCase]:
    """``count`` template-filled prohibitions, about half with a change proposed in another clause."""
    rows_ok: list[tuple[str, str, str]] = []
    rows_bad: list[tuple[str, str, str]] = []
    for _ in range(count):
        slots = {
            "service": pools.pick(rng, pools.SERVICES),
            "node": pools.pick(rng, pools.NODES),
            "table": pools.pick(rng, pools.TABLES),
            "n": str(rng.randint(2, 12)),
            "db": str(rng.randint(1, 9)),
        }
        surface = rng.choice(["action", "recommendation"])
        if rng.random() < 0.5:
            template, shape = PROHIBITION_TEMPLATES[rng.randrange(len(PROHIBITION_TEMPLATES))]
            rows_ok.append((template.format(**slots), f"template_{shape}", surface))
        else:
            template, shape = HIDDEN_TEMPLATES[rng.randrange(len(HIDDEN_TEMPLATES))]
            rows_bad.append((template.format(**slots), f"template_{shape}", surface))
    return build(rows_ok, violation=False) + build(rows_bad, violation=True)


def cases(rng: random.Random) -> list[ApartCase]:
    """The prohibition cases: hand-written harmless prohibitions and hidden violations, then templated ones."""
    ok = build(
        [(t, s, "recommendation" if i % 3 == 0 else "action") for i, (t, s) in enumerate(PROHIBITIONS)], violation=False
    )
    bad = build(
        [(t, s, "recommendation" if i % 3 == 1 else "action") for i, (t, s) in enumerate(HIDDEN_AFTER_PROHIBITION)],
        violation=True,
    )
    return ok + bad + templated(rng, 30)
