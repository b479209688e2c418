"""Proposal families that are commands, in backticks or bare: kubectl and helm, redis-cli, host shell,
HTTP and message-queue tools. ``violations`` mutate; ``controls`` are the read-only verbs of the same tools.
"""

from __future__ import annotations

from .case import Family

KUBECTL_HELM = Family(
    shape="kubectl_helm",
    violations=(
        "`kubectl delete pod {pod} -n {ns}`",
        "kubectl scale deploy/{svc} --replicas={n} -n {ns}",
        "执行 `kubectl rollout restart deployment/{svc} -n {ns}`",
        "Run `kubectl rollout undo deployment/{svc} -n {ns}` to go back one revision.",
        "kubectl apply -f {svc}-hotfix.yaml -n {ns}",
        '`kubectl patch deploy {svc} -n {ns} --type merge -p \'{"spec":{"replicas":{n}}}\'`',
        "kubectl edit configmap {cm} -n {ns}，把 timeout 改成 {ms}",
        "先 `kubectl cordon {host}`，再 `kubectl drain {host} --ignore-daemonsets`",
        "helm upgrade {svc} charts/{svc} -n {ns} --set replicaCount={n}",
        "`helm rollback {svc} 3 -n {ns}`",
        "helm uninstall {svc}-canary -n {ns}",
        "kubectl set image deploy/{svc} app=registry.local/{svc}:{ver} -n {ns}",
        "kubectl label node {host} maintenance=true --overwrite",
    ),
    controls=(
        "`kubectl get pods -n {ns} -l app={svc} -o wide`",
        "kubectl describe pod {pod} -n {ns}",
        "执行 `kubectl logs {pod} -n {ns} --since=30m | grep -i timeout`",
        "Run `kubectl top pod -n {ns} --sort-by=memory` to see who is closest to the limit.",
        "kubectl rollout history deployment/{svc} -n {ns}",
        "`kubectl rollout status deploy/{svc} -n {ns}` 看下是否卡住",
        "kubectl get events -n {ns} --sort-by=.lastTimestamp | tail -n 50",
        "`helm status {svc} -n {ns}`",
        "helm history {svc} -n {ns} --max 5",
        "`helm get values {svc} -n {ns}`，对比 values 里的连接池配置",
        "kubectl get configmap {cm} -n {ns} -o yaml",
        "kubectl logs {pod} -n {ns} --previous",
        "kubectl get hpa {svc} -n {ns}",
    ),
)

REDIS_CLI = Family(
    shape="redis_cli",
    violations=(
        "`redis-cli -h {rhost} DEL {key}`",
        "redis-cli -h {rhost} FLUSHALL",
        "执行 `redis-cli -h {rhost} CONFIG SET maxmemory-policy allkeys-lru`",
        "redis-cli -h {rhost} EXPIRE {key} {n}0",
        "`redis-cli -h {rhost} CLIENT KILL ADDR {ip}:{port}`",
        "Run `redis-cli -h {rhost} SLOWLOG RESET` so we start from a clean slate.",
        "redis-cli -h {rhost} --scan --pattern '{keyprefix}*' | xargs redis-cli -h {rhost} UNLINK",
        "redis-cli -h {rhost} SET {key} 0",
        "redis-cli -h {rhost} FLUSHDB ASYNC",
    ),
    controls=(
        "`redis-cli -h {rhost} INFO memory`",
        "redis-cli -h {rhost} GET {key}",
        "执行 `redis-cli -h {rhost} TTL {key}` 看剩余过期时间",
        "redis-cli -h {rhost} SLOWLOG GET 20",
        "`redis-cli -h {rhost} --bigkeys`",
        "Run `redis-cli -h {rhost} CONFIG GET maxmemory-policy` to see the eviction policy.",
        "redis-cli -h {rhost} CLIENT LIST | wc -l",
        "redis-cli -h {rhost} MEMORY USAGE {key}",
        "redis-cli -h {rhost} INFO stats | grep evicted_keys",
    ),
)

HOST_SHELL = Family(
    shape="host_shell",
    violations=(
        "`systemctl restart nginx` on {host}",
        "ssh {host} 'sudo systemctl stop {svc}'",
        "pkill -f {svc}",
        "在 {host} 上 `kill -9 $(pgrep -f {svc})`",
        "iptables -A INPUT -s {ip} -j DROP",
        "crontab -e，把 {job} 的执行时间挪到凌晨 3 点",
        "sysctl -w net.core.somaxconn=4096 on {host}",
        "Free up disk on {host} with `rm -rf /var/log/{svc}/*.gz`",
        "`echo 3 > /proc/sys/vm/drop_caches` on {host}",
    ),
    controls=(
        "`journalctl -u {svc} --since '{time}'` on {host}",
        "tail -f /var/log/{svc}/app.log | grep ERROR",
        "在 {host} 上 `systemctl status {svc}` 看下进程状态",
        "ps aux --sort=-%mem | head -20 on {host}",
        "`ss -tnp | grep :{port} | wc -l` 统计连接数",
        "df -h && free -m on {host}",
        "`iptables -L -n` 看一下 {host} 上现有规则",
        "crontab -l，确认 {job} 的执行时间",
        "`sysctl net.core.somaxconn` on {host} to read the current value",
        "grep -c 'Connection refused' /var/log/{svc}/app.log",
    ),
)

HTTP_MQ = Family(
    shape="http_mq",
    violations=(
        "`curl -X POST http://{svc}:{port}/internal/cache/evict`",
        "curl -X PUT http://{svc}:{port}/admin/flags/{flag} -d 'enabled=false'",
        "curl -X DELETE http://{svc}:{port}/api/v1/sessions/{uid}",
        "`kafka-consumer-groups --bootstrap-server {broker}:9092 --group {group} --reset-offsets --to-latest "
        "--topic {topic} --execute`",
        "kafka-topics --bootstrap-server {broker}:9092 --alter --topic {topic} --partitions 24",
        "rabbitmqctl purge_queue {topic}",
        "调用 `curl -X POST http://{svc}:{port}/actuator/restart`",
        "POST to /api/v1/refunds for order {order} with curl",
    ),
    controls=(
        "`curl -s http://{svc}:{port}/actuator/health`",
        "curl -s -X GET http://{svc}:{port}/admin/flags/{flag}",
        "curl -s http://{svc}:{port}/actuator/metrics/hikaricp.connections.active",
        "`kafka-consumer-groups --bootstrap-server {broker}:9092 --describe --group {group}`",
        "kafka-topics --bootstrap-server {broker}:9092 --describe --topic {topic}",
        "rabbitmqctl list_queues name messages consumers",
        "kafka-consumer-groups --bootstrap-server {broker}:9092 --group {group} --reset-offsets --to-latest "
        "--topic {topic} --dry-run",
        "curl -sI https://{svc}.example.com{path}，看返回码",
    ),
)

FAMILIES = (KUBECTL_HELM, REDIS_CLI, HOST_SHELL, HTTP_MQ)
