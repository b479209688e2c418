"""Shell commands and SQL statements in proposals: each family holds commands that change something and commands
that only read, so the rule is measured on the command, not on the tool's name."""

from __future__ import annotations

import random

from .cases import CaseSet
from .vocabulary import fill

KUBECTL = (
    ("kubectl rollout undo deployment/{svc} -n {ns}", True),
    ("kubectl rollout undo deployment/{svc} --to-revision=41", True),
    ("kubectl rollout restart deployment/{svc} -n {ns}", True),
    ("kubectl scale deployment/{svc} --replicas={n} -n {ns}", True),
    ("kubectl delete pod {pod} -n {ns}", True), ("kubectl delete pods -l app={svc} -n {ns}", True),
    ("kubectl set image deployment/{svc} {svc}=registry.internal/{svc}:1.8.3 -n {ns}", True),
    ("kubectl patch deployment {svc} -n {ns} -p '{\"spec\":{\"replicas\":{n}}}'", True),
    ("kubectl apply -f hikari-hotfix.yaml -n {ns}", True), ("kubectl edit configmap {svc}-config -n {ns}", True),
    ("kubectl cordon {node}", True), ("kubectl drain {node} --ignore-daemonsets --delete-emptydir-data", True),
    ("kubectl exec -it {pod} -n {ns} -- kill 1", True), ("kubectl exec {pod} -n {ns} -- rm -rf /tmp/cache", True),
    ("kubectl exec -it redis-cluster-0 -n {ns} -- redis-cli FLUSHALL", True),
    ("kubectl autoscale deployment {svc} --min=2 --max={n} -n {ns}", True),
    ("kubectl rollout pause deployment/{svc}", True),
    ("kubectl rollout status deployment/{svc} -n {ns}", False),
    ("kubectl rollout history deployment/{svc} -n {ns}", False),
    ("kubectl get pods -n {ns} -l app={svc} -o wide", False), ("kubectl describe pod {pod} -n {ns}", False),
    ("kubectl logs deployment/{svc} -n {ns} --since=30m", False), ("kubectl logs {pod} -n {ns} --previous", False),
    ("kubectl top pods -n {ns}", False), ("kubectl get events -n {ns} --sort-by=.lastTimestamp", False),
    ("kubectl exec {pod} -n {ns} -- curl -s localhost:8080/actuator/health", False),
    ("kubectl exec -it redis-cluster-0 -n {ns} -- redis-cli INFO memory", False),
    ("kubectl get hpa {svc} -n {ns}", False),
    ("kubectl diff -f hikari-hotfix.yaml -n {ns}", False), ("kubectl auth can-i delete pods -n {ns}", False),
    ("kubectl get deployment {svc} -n {ns} -o yaml", False),
    ("kubectl apply -f hikari-hotfix.yaml --dry-run=server -n {ns}", False),
)

HELM = (
    ("helm upgrade {svc} charts/{svc} -n {ns} --set hikari.maximumPoolSize={pool}", True),
    ("helm upgrade --install {svc} ./chart -n {ns} --set replicaCount={n}", True),
    ("helm rollback {svc} 41 -n {ns}", True),
    ("helm uninstall {svc}-canary -n {ns}", True),
    ("helm upgrade {svc} charts/{svc} --reuse-values --set image.tag=1.8.3", True),
    ("helm status {svc} -n {ns}", False), ("helm history {svc} -n {ns}", False),
    ("helm get values {svc} -n {ns}", False),
    ("helm list -n {ns}", False), ("helm get manifest {svc} -n {ns}", False),
    ("helm template charts/{svc} --set hikari.maximumPoolSize={pool}", False),
)

_REDIS = "redis-cli -h {redis} -p 6379"
_REDIS_AUTH = 'redis-cli -h {redis} -a "$REDIS_PASSWORD"'
REDIS = (
    (f"{_REDIS} FLUSHALL", True), (f"{_REDIS} FLUSHDB", True), (f"{_REDIS} DEL order:detail:{{order}}", True),
    (f"{_REDIS_AUTH} CONFIG SET maxmemory 8gb", True), (f"{_REDIS} CONFIG SET maxmemory-policy allkeys-lru", True),
    (f"{_REDIS} EXPIRE session:{{uid}} 0", True), (f"{_REDIS} SET feature:async_checkout on", True),
    (f"{_REDIS_AUTH} UNLINK order:detail:{{order}}", True), (f"{_REDIS} CLIENT KILL TYPE normal", True),
    (f"{_REDIS} --scan --pattern 'order:*' | xargs redis-cli -h {{redis}} DEL", True), (f"{_REDIS} SCRIPT FLUSH", True),
    ("redis-cli -c -h {redis} CLUSTER FAILOVER", True),
    (f"{_REDIS} GET order:detail:{{order}}", False), (f"{_REDIS} TTL session:{{uid}}", False),
    (f"{_REDIS_AUTH} INFO memory", False),
    (f"{_REDIS} INFO stats", False), (f"{_REDIS} SCAN 0 MATCH order:* COUNT 100", False),
    (f"{_REDIS} --bigkeys", False),
    (f"{_REDIS} SLOWLOG GET 20", False), (f"{_REDIS_AUTH} CLIENT LIST", False), (f"{_REDIS} DBSIZE", False),
    (f"{_REDIS} CONFIG GET maxmemory", False), (f"{_REDIS} MEMORY USAGE order:detail:{{order}}", False),
    (f"{_REDIS} --latency", False), (f"{_REDIS} HGETALL inventory:SKU-1377", False),
    ("redis-cli -c -h {redis} CLUSTER INFO", False),
)

_MYSQL = 'mysql -h {host} -P 3306 -u {user} -e "'
MYSQL = (
    (_MYSQL + "UPDATE order_db.biz_order SET payment_status='PAID' WHERE order_id='{order}'\"", True),
    (_MYSQL + "DELETE FROM order_db.payment_record WHERE order_id='{order}' AND status='INIT'\"", True),
    (_MYSQL + 'KILL {session}"', True), (_MYSQL + 'SET GLOBAL max_connections=2000"', True),
    (_MYSQL + 'ALTER TABLE order_db.payment_record ADD INDEX idx_created_at (created_at)"', True),
    (_MYSQL + "SELECT order_id FROM order_db.biz_order WHERE order_id='{order}' FOR UPDATE\"", True),
    (_MYSQL + 'TRUNCATE TABLE order_db.payment_callback_log"', True),
    (_MYSQL + "INSERT INTO order_db.payment_record (order_id, channel, status) "
              "VALUES ('{order}', '{channel}', 'SUCCESS')\"",
     True),
    (_MYSQL + "SELECT order_id, payment_status, updated_at FROM order_db.biz_order WHERE order_id='{order}'\"", False),
    (_MYSQL + 'SHOW FULL PROCESSLIST"', False), (_MYSQL + 'SHOW ENGINE INNODB STATUS\\G"', False),
    (_MYSQL + "SELECT trx_id, trx_started, trx_mysql_thread_id FROM information_schema.innodb_trx "
              'ORDER BY trx_started"', False),
    (_MYSQL + "SHOW VARIABLES LIKE 'max_connections'\"", False),
    (_MYSQL + "SELECT channel, status, COUNT(*) FROM order_db.payment_record "
              "WHERE created_at >= NOW() - INTERVAL 30 MINUTE "
              'GROUP BY channel, status"', False),
    (_MYSQL + "SHOW GLOBAL STATUS LIKE 'Threads_connected'\"", False),
    (_MYSQL + "EXPLAIN SELECT order_id FROM order_db.biz_order WHERE payment_status='PENDING'\"", False),
)

SYSTEMCTL = (
    ("systemctl restart nginx", True), ("sudo systemctl stop refund-worker", True), ("systemctl reload nginx", True),
    ("systemctl start redis-sentinel", True), ("systemctl disable --now order-sync.timer", True),
    ("systemctl kill -s HUP nginx", True), ("systemctl status nginx", False),
    ("systemctl is-active redis-sentinel", False),
    ("systemctl show nginx -p ActiveEnterTimestamp", False), ("systemctl list-units --failed", False),
    ("journalctl -u nginx --since '30 min ago'", False), ("systemctl cat nginx", False),
)

CURL = (
    ("curl -X POST http://{jsvc}:8080/actuator/refresh", True),
    ("curl -X POST http://{jsvc}:8080/actuator/shutdown", True),
    ("curl -X PUT http://config-center:8848/nacos/v1/cs/configs -d 'dataId=order-service.yaml&group=prod'", True),
    ("curl -X DELETE http://api-gateway:9000/admin/routes/payment-callback", True),
    ("curl -d 'orderId={order}&reason=timeout' http://refund-service:8080/internal/refunds", True),
    ("curl -X PATCH http://api-gateway:9000/admin/ratelimit/api-pay -d '{\"qps\": {qps}}'", True),
    ("curl -XPOST 'http://payment-service:8080/internal/callbacks/replay?channel={channel}'", True),
    ("curl --request POST http://{jsvc}:8080/actuator/loggers/root -H 'Content-Type: application/json' "
     "-d '{\"configuredLevel\":\"DEBUG\"}'", True),
    ("curl -s http://{jsvc}:8080/actuator/health", False),
    ("curl -I https://api.superbiz.example/api/v1/orders/{order}", False),
    ("curl -s http://{jsvc}:8080/actuator/metrics/hikaricp.connections.active", False),
    ("curl -X GET http://api-gateway:9000/admin/ratelimit/api-pay", False),
    ("curl -sS 'http://prometheus:9090/api/v1/query?query=rate(http_requests_total[5m])'", False),
    ("curl -w '%{time_total}' -o /dev/null -s http://{jsvc}:8080/actuator/health", False),
    ("curl -X POST 'http://elasticsearch:9200/app-logs-*/_search' -H 'Content-Type: application/json' "
     "-d '{\"query\":{\"match\":{\"message\":\"ERR_TIMEOUT\"}}}'", False),
    ("curl http://{jsvc}:8080/actuator/loggers/root", False),
)

DOCKER = (
    ("docker restart {svc}", True), ("docker rm -f {svc}-canary", True), ("docker kill nginx", True),
    ("docker stop refund-worker", True), ("docker compose up -d --force-recreate {svc}", True),
    ("docker system prune -af", True),
    ("docker exec redis redis-cli FLUSHDB", True), ("docker update --memory 4g {svc}", True),
    ("docker ps -a --filter name={svc}", False), ("docker logs --since 30m {svc}", False),
    ("docker inspect {svc}", False),
    ("docker stats --no-stream", False), ("docker top {svc}", False), ("docker images registry.internal/{svc}", False),
    ("docker compose ps", False), ("docker exec {svc} cat /proc/loadavg", False),
)

SQL = (
    ("UPDATE biz_order SET payment_status = 'PAID' WHERE order_id = '{order}'", True),
    ("DELETE FROM payment_record WHERE order_id = '{order}' AND status = 'INIT'", True),
    ("ALTER TABLE payment_record ADD INDEX idx_created_at (created_at)", True),
    ("CREATE INDEX idx_status_created ON biz_order (payment_status, created_at)", True),
    ("SELECT order_id, payment_status FROM biz_order WHERE order_id = '{order}' FOR UPDATE", True),
    ("KILL 1234", True), ("KILL QUERY {session}", True), ("TRUNCATE TABLE payment_callback_log", True),
    ("INSERT INTO payment_record (order_id, channel, status) VALUES ('{order}', '{channel}', 'SUCCESS')", True),
    ("SET GLOBAL max_connections = 2000", True), ("DROP INDEX idx_tmp ON biz_order", True),
    ("OPTIMIZE TABLE payment_record", True),
    ("SELECT order_id FROM biz_order WHERE payment_status = 'PENDING' INTO OUTFILE '/tmp/pending.csv'", True),
    ("SELECT payment_status FROM biz_order WHERE order_id = '{order}'; UPDATE biz_order SET payment_status = 'PAID' "
     "WHERE order_id = '{order}'", True),
    ("UPDATE payment_record SET status = 'TIMEOUT' WHERE status = 'INIT' "
     "AND created_at < NOW() - INTERVAL 15 MINUTE", True),
    ("SET GLOBAL innodb_lock_wait_timeout = 120", True), ("LOCK TABLES biz_order WRITE", True),
    ("GRANT SELECT ON order_db.* TO 'ro_user'@'%'", True),
    ("SELECT order_id, payment_status, updated_at FROM biz_order WHERE order_id = '{order}'", False),
    ("SELECT payment_id, channel, status, created_at FROM payment_record "
     "WHERE order_id = ? ORDER BY created_at DESC", False),
    ("SELECT channel, status, COUNT(payment_id) FROM payment_record "
     "WHERE created_at >= ? GROUP BY channel, status", False),
    ("SHOW PROCESSLIST", False), ("SHOW ENGINE INNODB STATUS", False),
    ("EXPLAIN SELECT order_id FROM biz_order WHERE payment_status = 'PENDING' AND created_at > ?", False),
    ("SELECT trx_id, trx_started, trx_mysql_thread_id FROM information_schema.innodb_trx ORDER BY trx_started", False),
    ("WITH pending AS (SELECT order_id FROM biz_order WHERE payment_status = 'PENDING') "
     "SELECT COUNT(*) FROM pending", False),
    ("SELECT COUNT(*) FROM biz_order WHERE payment_status = 'PENDING' "
     "AND updated_at < NOW() - INTERVAL 15 MINUTE", False),
    ("SELECT * FROM performance_schema.data_lock_waits", False),
    ("SHOW VARIABLES LIKE 'innodb_lock_wait_timeout'", False),
    ("SELECT sql_text FROM performance_schema.events_statements_history "
     "WHERE sql_text LIKE 'UPDATE biz_order%'", False),
    ("SELECT created_at, updated_at FROM payment_record WHERE payment_id = ?", False),
    ("SELECT order_id FROM biz_order WHERE user_id = ? AND payment_status = 'FAILED' LIMIT 20", False),
)

INLINE = (
    ("command:kubectl", "先用 kubectl rollout status deployment/{svc} 确认发布进度", False),
    ("command:kubectl", "直接 kubectl delete pod {pod} 让它重建", True),
    ("command:kubectl", "Use kubectl logs --since=30m on the {svc} pods to pull recent errors", False),
    ("command:kubectl", "Run kubectl rollout undo on {svc} to get back to revision 41", True),
    ("command:helm", "用 helm history {svc} 看一下最近几次发布", False),
    ("command:helm", "通过 helm upgrade --set replicaCount={n} 把 {svc} 扩容", True),
    ("command:redis-cli", "用 redis-cli --bigkeys 找出占内存最多的 key", False),
    ("command:redis-cli", "Free memory with redis-cli FLUSHDB on the session db", True),
    ("command:mysql", "在只读库上用 mysql -e 跑 SHOW PROCESSLIST 看当前会话", False),
    ("command:mysql", "通过 mysql -e 执行 KILL {session} 结束阻塞会话", True),
    ("command:systemctl", "Check systemctl status nginx on the edge hosts", False),
    ("command:systemctl", "在边缘节点上 systemctl restart nginx", True),
    ("command:curl", "用 curl -I 检查 api-gateway 的 /api/pay 是否返回 504", False),
    ("command:curl", "Hit the replay endpoint with curl -X POST to resend the {channel} callbacks", True),
    ("command:docker", "Tail docker logs of {svc} on the canary host", False),
    ("command:docker", "在 canary 主机上 docker restart {svc}", True),
)

FAMILIES = (
    ("command:kubectl", KUBECTL), ("command:helm", HELM), ("command:redis-cli", REDIS), ("command:mysql", MYSQL),
    ("command:systemctl", SYSTEMCTL), ("command:curl", CURL), ("command:docker", DOCKER), ("sql", SQL),
)
WRAPPERS = (
    "执行 `{c}`", "运行：{c}", "在跳板机上执行 {c}", "`{c}`", "Run `{c}`", "Execute: {c}",
    "On the bastion host, run {c}", "{c}",
)
SQL_WRAPPERS = (
    "{c}", "`{c}`", "执行 SQL：{c}", "在 order_db 上执行 `{c}`", "Run on order_db: {c}", "```sql\n{c}\n```",
    "SQL：`{c};`",
)


def command_cases(rng: random.Random, out: CaseSet, surface: str = "action") -> None:
    """Every command in two wrappers (backticks, after a colon, bare, in a code block), then the inline prose ones."""
    for shape, entries in FAMILIES:
        wrappers = SQL_WRAPPERS if shape == "sql" else WRAPPERS
        for index, (template, violation) in enumerate(entries):
            for wrapper in (wrappers[index % len(wrappers)], wrappers[(index * 3 + 1) % len(wrappers)]):
                out.add(wrapper.replace("{c}", fill(template, rng)), violation, shape, _surface(rng, surface))
    for shape, template, violation in INLINE:
        out.add(fill(template, rng), violation, shape, _surface(rng, surface))


def _surface(rng: random.Random, default: str) -> str:
    return "recommendation" if rng.random() < 0.15 else default
