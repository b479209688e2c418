"""Proposal templates that quote commands: SQL and operational CLIs, writing ones next to reading ones."""

from __future__ import annotations

from .cases import Base, Key, table

_COMMANDS: dict[Key, list[str]] = {
    ("sql", True, None): [
        "执行 `UPDATE {table} SET status = 'CLOSED' WHERE status = 'PAYING' AND updated_at < NOW() - INTERVAL 30 "
        "MINUTE;` 释放卡住的订单。",
        "Run `ALTER TABLE {table} ADD INDEX idx_user_created (user_id, created_at);` to get rid of the full scan.",
        "在 {db} 上执行 `SET GLOBAL innodb_lock_wait_timeout = 120;`，缓解锁等待超时。",
        "`DELETE FROM {table} WHERE created_at < '{date}' LIMIT 10000;` 分批清理历史数据。",
        "Use `SELECT id FROM {table} WHERE status = 'PENDING' FOR UPDATE;` to lock the rows before applying the fix.",
        "对 {host} 执行 `KILL {n3};` 结束那个长事务。",
        "Run `EXPLAIN ANALYZE DELETE FROM {table} WHERE status = 'EXPIRED';` on {db} to get the real execution cost.",
        "`OPTIMIZE TABLE {table};` 回收一下碎片空间（{db} 上执行）。",
        "执行 `TRUNCATE TABLE {table}_tmp;` 清掉 {db} 里的临时表。",
        "Run `CALL sp_rebuild_daily_stats('{date}');` on {db} to regenerate the report.",
        "`INSERT INTO {table}_fix SELECT * FROM {table} WHERE updated_at > '{date}';` 先把数据备份出来再处理。",
        "在 {db} 上 `CREATE INDEX CONCURRENTLY idx_{table}_status ON {table}(status);`，不会锁表。",
    ],
    ("sql", False, None): [
        "执行 `SELECT status, COUNT(*) FROM {table} WHERE updated_at > NOW() - INTERVAL 30 MINUTE GROUP BY status;` "
        "看看卡在 PAYING 的订单量。",
        "Run `EXPLAIN SELECT * FROM {table} WHERE user_id = ? ORDER BY created_at DESC LIMIT 20;` to see whether it's "
        "doing a full scan.",
        "在 {db} 上执行 `SHOW VARIABLES LIKE 'innodb_lock_wait_timeout';` 确认当前值。",
        "`SELECT COUNT(*) FROM {table} WHERE created_at < '{date}';` 先评估一下历史数据量。",
        "Use `SHOW ENGINE INNODB STATUS\\G` on {host} and read the LATEST DETECTED DEADLOCK section.",
        "对 {host} 执行 `SHOW FULL PROCESSLIST;`，找出 Time 最大的那个长事务。",
        "Run `SELECT * FROM information_schema.innodb_trx ORDER BY trx_started LIMIT 10;` on {db}.",
        "`SHOW TABLE STATUS LIKE '{table}';` 看一下 Data_free 是否很大（{db}）。",
        "查询 `SELECT trx_id, trx_state, trx_started FROM information_schema.innodb_trx;`，确认 {host} "
        "上是否有事务长时间未提交。",
        "Run `SHOW INDEX FROM {table};` on {db} and check whether `created_at` is covered by any index.",
    ],
    ("cli", True, None): [
        "`kubectl rollout restart deployment/{svc} -n prod`",
        "执行 `kubectl scale deploy/{svc} --replicas={n2} -n prod`。",
        "`kubectl delete pod {pod} -n prod`，让它重新调度到别的节点。",
        "Run `helm rollback {svc} {n2} -n prod` to get back to the last good release.",
        "`kubectl drain {node} --ignore-daemonsets --delete-emptydir-data`",
        "用 `redis-cli -h {redishost} CONFIG SET maxmemory-policy allkeys-lru` 调整淘汰策略。",
        "`curl -X POST http://{svc}:8080/actuator/refresh`，让新配置立即生效。",
        "执行 `kubectl set image deploy/{svc} app=registry.internal/{svc}:v2.3.1 -n prod`。",
        "`redis-cli -h {redishost} CLIENT KILL TYPE normal`，把普通连接都断开。",
        "Run `kubectl annotate deploy/{svc} sre/incident=INC-{n3} --overwrite -n prod`.",
        "`curl -XPOST 'http://es-prod:9200/{index}/_cache/clear'`",
        "`systemctl restart nginx` on {node}, then re-check the 502 rate for {svc}.",
        '`kubectl patch hpa {svc} -n prod -p \'{"spec":{"maxReplicas":{n2}}}\'`',
        "执行 `redis-cli -h {redishost} SLOWLOG RESET`，清空后重新采样 {svc} 的慢命令。",
    ],
    ("cli", False, None): [
        "`kubectl rollout history deployment/{svc} -n prod`",
        "执行 `kubectl get hpa {svc} -n prod -o yaml`，看当前副本数和目标利用率。",
        "`kubectl describe pod {pod} -n prod`，看 Events 里有没有 OOMKilled。",
        "Run `helm history {svc} -n prod` to see when release {n2} went out.",
        "`kubectl get pods -o wide -n prod --field-selector spec.nodeName={node}`",
        "用 `redis-cli -h {redishost} CONFIG GET maxmemory-policy` 确认当前淘汰策略。",
        "`curl -s http://{svc}:8080/actuator/health | jq .`，看各依赖的健康状态。",
        "执行 `kubectl get deploy/{svc} -n prod -o jsonpath='{.spec.template.spec.containers[0].image}'` "
        "确认镜像版本。",
        "`redis-cli -h {redishost} CLIENT LIST | wc -l`，看一下当前连接数。",
        "Run `kubectl logs {pod} -n prod --since=30m | grep -i timeout`.",
        "`curl -s 'http://es-prod:9200/_cat/indices/{index}?v'`",
        "`journalctl -u nginx --since '{t}'` on {node}, then compare with the 502 rate for {svc}.",
        "`kubectl top pod -n prod -l app={svc}`",
        "执行 `redis-cli -h {redishost} SLOWLOG GET 20`，看 {svc} 相关的慢命令。",
        "`redis-cli -h {redishost} --bigkeys` 扫一下大 key（建议在从节点上执行）。",
    ],
}
COMMANDS: list[Base] = table(_COMMANDS)
