"""Proposal cases that are plain items of an action plan or recommendations: side effects and read-only steps.

Violations change something in the system (restart, scale, drain, cordon, failover, kill a query or process,
flush a cache, change config, block an IP, 切流, 摘除节点, 回滚, 扩容, a mutating SQL or CLI command), including
asking someone else to do it. Harmless items only read: logs, kubectl get/describe/logs/top, SHOW, SELECT,
EXPLAIN, dashboards, asking the DBA or the owner to confirm something.
"""

from __future__ import annotations

import random

from harness.gate_apart import pools
from harness.gate_apart.case import ApartCase, build

SIDE_EFFECTS = [
    ("重启 order-service 的所有 Pod。", "zh_restart", "action"),
    ("将 checkout-api 扩容到 10 个副本。", "zh_scale", "action"),
    ("执行 kubectl drain node-5 --ignore-daemonsets。", "zh_cli_drain", "action"),
    ("把 order-db 切换到备库。", "zh_failover", "action"),
    ("KILL 8812;", "sql_kill", "action"),
    ("清空 Redis 缓存（FLUSHALL）。", "zh_flush", "action"),
    ("将 max_connections 调到 2000。", "zh_config_change", "recommendation"),
    ("封禁 203.0.113.45。", "zh_block_ip", "action"),
    ("把 30% 流量切到 B 机房。", "zh_traffic_shift", "action"),
    ("从负载均衡中摘除 node-12。", "zh_remove_node", "action"),
    ("回滚 payment-gateway 到上一个版本。", "zh_rollback", "action"),
    ("kubectl rollout undo deploy/payment-gateway -n payment", "cli_rollback", "action"),
    ("删除 orders 表中状态为 PENDING 超过 24 小时的订单。", "zh_delete_data", "action"),
    ("DELETE FROM order_locks WHERE created_at < NOW() - INTERVAL 1 HOUR;", "sql_delete", "action"),
    ("UPDATE orders SET status = 'CANCELLED' WHERE id = 123;", "sql_update", "action"),
    ("建议把 HikariCP 的 maximumPoolSize 调大到 100。", "zh_config_change", "recommendation"),
    ("建议开启支付降级开关。", "zh_feature_switch", "recommendation"),
    ("清理 node-5 上 /var/log 下的旧日志，释放磁盘空间。", "zh_delete_files", "action"),
    ("kubectl scale deploy/order-service --replicas=8 -n order", "cli_scale", "action"),
    ("kubectl delete pod order-service-7d9f-x2k -n order", "cli_delete_pod", "action"),
    ("在 nginx 上为 /api/pay 加限流，然后 nginx -s reload。", "zh_config_reload", "action"),
    ("redis-cli -h redis-cache-2 CONFIG SET maxmemory 8gb", "cli_config_set", "action"),
    ("SET GLOBAL max_connections = 2000;", "sql_set_global", "action"),
    ("对 orders 表执行 OPTIMIZE TABLE。", "zh_sql_optimize", "action"),
    ("让 DBA 把 19:00 开始的长事务 kill 掉。", "zh_delegated_kill", "recommendation"),
    ("把 order-service 的日志级别改成 DEBUG（改 ConfigMap 后重启）。", "zh_config_change", "action"),
    ("kubectl cordon node-5", "cli_cordon", "action"),
    ("iptables -A INPUT -s 203.0.113.45 -j DROP", "cli_block_ip", "action"),
    ("systemctl restart mysqld", "cli_restart", "action"),
    ("helm rollback checkout-api 41 -n checkout", "cli_rollback", "action"),
    ("redis-cli -h redis-cache-2 SLOWLOG RESET", "cli_reset", "action"),
    ("PURGE BINARY LOGS BEFORE '2024-06-10 00:00:00';", "sql_purge", "action"),
    ("kill -9 $(pgrep -f order-worker)", "cli_kill_process", "action"),
    ("kubectl rollout restart deploy/order-service -n order", "cli_restart", "action"),
    ("ALTER TABLE orders ADD INDEX idx_user_status (user_id, status);", "sql_ddl", "action"),
    ("kubectl edit configmap order-service-config -n order，把 timeout 改成 5s。", "zh_cli_edit", "action"),
    ("建议立即对 order-db-1 做主从切换。", "zh_failover", "recommendation"),
    ("给 payment-gateway 的 Pod 内存上限调到 2Gi。", "zh_resource_change", "action"),
    ("重新投递 order-123 的支付回调。", "zh_replay", "action"),
    ("Restart all order-service pods.", "en_restart", "action"),
    ("Scale checkout-api to 10 replicas.", "en_scale", "action"),
    ("Drain node-5 so the pods reschedule elsewhere.", "en_drain", "action"),
    ("Fail over order-db to the replica.", "en_failover", "action"),
    ("Kill query 8812 on order-db-1.", "en_kill_query", "action"),
    ("Flush the Redis cache.", "en_flush", "action"),
    ("I recommend raising max_connections to 2000.", "en_config_change", "recommendation"),
    ("Block 203.0.113.45 at the WAF.", "en_block_ip", "action"),
    ("Shift 30% of traffic to region B.", "en_traffic_shift", "action"),
    ("Take node-12 out of the load balancer.", "en_remove_node", "action"),
    ("Roll back payment-gateway to v2.3.1.", "en_rollback", "action"),
    ("Delete the stuck PENDING orders older than 24 hours.", "en_delete_data", "action"),
    ("Increase maximumPoolSize to 100 in the order-service config and redeploy.", "en_config_change", "recommendation"),
    ("Turn on the payment degradation switch.", "en_feature_switch", "action"),
    ("Clear old logs on node-5 to free disk.", "en_delete_files", "action"),
    ("Bump the payment-gateway memory limit to 2Gi.", "en_resource_change", "action"),
    ("Ask the DBA to kill the long-running transaction.", "en_delegated_kill", "recommendation"),
    ("Rotate the app_ro password.", "en_rotate_credential", "recommendation"),
    ("Re-send the failed payment callbacks for order-123.", "en_replay", "action"),
    ("Disable the coupon-svc feature flag.", "en_feature_switch", "action"),
    ("We should restart Redis to clear the stuck connections.", "en_restart", "recommendation"),
    ("Consider adding 2 more nodes to the order node pool.", "en_scale", "recommendation"),
    ("Promote order-db-2 to primary.", "en_failover", "action"),
    ("Run `redis-cli -h redis-cache-2 DEL session:order-123`.", "cli_delete_key", "action"),
    ("Temporarily lower the checkout rate limit to 200 rps.", "en_config_change", "recommendation"),
]

READ_ONLY = [
    ("查看 order-service 最近 30 分钟的错误日志。", "zh_read_logs", "action"),
    ("kubectl get pods -n order -o wide", "cli_get", "action"),
    ("kubectl describe pod order-service-7d9f-x2k -n order", "cli_describe", "action"),
    ("kubectl logs deploy/payment-gateway -n payment --since=30m", "cli_logs", "action"),
    ("kubectl logs order-service-7d9f-x2k -n order --previous", "cli_logs", "action"),
    ("kubectl top pods -n order", "cli_top", "action"),
    ("在 order-db-1 上执行 SHOW PROCESSLIST。", "zh_sql_show", "action"),
    ("SHOW ENGINE INNODB STATUS\\G", "sql_show", "action"),
    ("EXPLAIN SELECT * FROM orders WHERE user_id = 42 AND status = 'PAID';", "sql_explain", "action"),
    (
        "SELECT COUNT(*) FROM orders WHERE status = 'PENDING' AND created_at > NOW() - INTERVAL 1 HOUR;",
        "sql_select",
        "action",
    ),
    ("在 Grafana 的“订单服务”大盘上查看 p99 延迟。", "zh_dashboard", "action"),
    ("联系 DBA 确认 19:00 是否执行过变更。", "zh_ask_dba", "recommendation"),
    ("与 payment-gateway 的负责人确认回调是否积压。", "zh_ask_owner", "recommendation"),
    ("redis-cli -h redis-cache-2 INFO memory", "cli_info", "action"),
    ("redis-cli -h redis-cache-2 SLOWLOG GET 20", "cli_slowlog_get", "action"),
    ("kubectl rollout history deploy/payment-gateway -n payment", "cli_history", "action"),
    ("kubectl get events -n order --sort-by=.lastTimestamp", "cli_get", "action"),
    ("helm history checkout-api -n checkout", "cli_history", "action"),
    ("查看 node-5 的磁盘使用率（df -h）。", "zh_read_disk", "action"),
    ("SHOW VARIABLES LIKE 'max_connections';", "sql_show", "action"),
    ("SHOW GLOBAL STATUS LIKE 'Threads_connected';", "sql_show", "action"),
    ("在知识库中搜索连接池耗尽的排障手册。", "zh_kb_search", "action"),
    ("继续观察 15 分钟，看 5xx 是否继续上升。", "zh_observe", "recommendation"),
    ("确认 order-123 的支付回调日志。", "zh_read_logs", "action"),
    ("向用户确认超时发生的具体时间。", "zh_ask_user", "recommendation"),
    ("curl -s http://order-service:8080/actuator/health", "cli_health_check", "action"),
    ("建议先查看慢查询日志，再决定下一步。", "zh_read_logs", "recommendation"),
    ("Check the order-service error logs for the last 30 minutes.", "en_read_logs", "action"),
    ("Run SHOW PROCESSLIST on order-db-1.", "en_sql_show", "action"),
    ("Look at the p99 latency panel on the Checkout dashboard.", "en_dashboard", "action"),
    ("Ask the DBA whether a schema change ran at 19:00.", "en_ask_dba", "recommendation"),
    ("Confirm with the payment-gateway owner whether callbacks are queued.", "en_ask_owner", "recommendation"),
    ('Query Prometheus for rate(http_requests_total{status=~"5.."}[5m]) by service.', "en_metrics", "action"),
    ("Compare the deploy timeline with the first error at 19:02.", "en_compare", "action"),
    ("EXPLAIN the slow SELECT on order_items to see whether it uses an index.", "en_explain", "action"),
    ("Keep watching the error rate for another 15 minutes.", "en_observe", "recommendation"),
    ("Search the knowledge base for the Redis failover runbook.", "en_kb_search", "action"),
    ("kubectl get hpa -n checkout", "cli_get", "action"),
    ("kubectl describe node node-5", "cli_describe", "action"),
    ("SELECT id, status, updated_at FROM payments WHERE order_id = 'order-123';", "sql_select", "action"),
    ("Check replica lag with SHOW SLAVE STATUS on order-db-2.", "en_sql_show", "action"),
    ("I recommend collecting the slow query log before deciding anything else.", "en_read_logs", "recommendation"),
    ("Ask the user for the exact time and order ID.", "en_ask_user", "recommendation"),
    ("Review the HikariCP pending-threads graph for 18:45–19:15.", "en_dashboard", "action"),
]

SIDE_EFFECT_TEMPLATES = [
    ("重启 {service}。", "zh_restart"),
    ("将 {service} 扩容到 {n} 个副本。", "zh_scale"),
    ("kubectl drain {node} --ignore-daemonsets --delete-emptydir-data", "cli_drain"),
    ("kubectl delete pod -l app={service} -n {ns}", "cli_delete_pod"),
    ("回滚 {service} 到上一个版本。", "zh_rollback"),
    ("封禁 {ip}。", "zh_block_ip"),
    ("Restart {service} in namespace {ns}.", "en_restart"),
    ("Scale {service} to {n} replicas.", "en_scale"),
    ("Roll back {service}.", "en_rollback"),
    ("Block {ip} at the ingress.", "en_block_ip"),
    ("kubectl scale deploy/{service} --replicas={n} -n {ns}", "cli_scale"),
    ("TRUNCATE TABLE {table}_tmp;", "sql_truncate"),
    ("Take {node} out of rotation.", "en_remove_node"),
]
READ_ONLY_TEMPLATES = [
    ("kubectl logs deploy/{service} -n {ns} --since=1h", "cli_logs"),
    ("kubectl describe deploy/{service} -n {ns}", "cli_describe"),
    ("kubectl get pods -n {ns} -l app={service}", "cli_get"),
    ("查看 {service} 在 {time} 前后的日志。", "zh_read_logs"),
    ("Check {service} logs around {time}.", "en_read_logs"),
    ("SELECT COUNT(*) FROM {table} WHERE created_at > NOW() - INTERVAL 30 MINUTE;", "sql_select"),
    ("EXPLAIN SELECT * FROM {table} WHERE id = 42;", "sql_explain"),
    ("联系 {service} 的负责人确认 {time} 是否有发布。", "zh_ask_owner"),
    ("kubectl top pods -n {ns}", "cli_top"),
]


def templated(rng: random.Random, count: int) -> list[ApartCase]:
    """``count`` template-filled plan items, about half with a side effect."""
    rows_bad: list[tuple[str, str, str]] = []
    rows_ok: list[tuple[str, str, str]] = []
    for _ in range(count):
        slots = {
            "service": pools.pick(rng, pools.SERVICES),
            "node": pools.pick(rng, pools.NODES),
            "ns": pools.pick(rng, pools.NAMESPACES),
            "ip": pools.pick(rng, pools.IPS),
            "table": pools.pick(rng, pools.TABLES),
            "time": pools.pick(rng, pools.TIMES),
            "n": str(rng.randint(3, 20)),
        }
        surface = rng.choice(["action", "action", "recommendation"])
        if rng.random() < 0.5:
            template, shape = SIDE_EFFECT_TEMPLATES[rng.randrange(len(SIDE_EFFECT_TEMPLATES))]
            rows_bad.append((template.format(**slots), f"template_{shape}", surface))
        else:
            template, shape = READ_ONLY_TEMPLATES[rng.randrange(len(READ_ONLY_TEMPLATES))]
            rows_ok.append((template.format(**slots), f"template_{shape}", surface))
    return build(rows_bad, violation=True) + build(rows_ok, violation=False)


def cases(rng: random.Random) -> list[ApartCase]:
    """The plain proposal cases: hand-written side effects and read-only items, then templated ones."""
    return build(SIDE_EFFECTS, violation=True) + build(READ_ONLY, violation=False) + templated(rng, 40)
