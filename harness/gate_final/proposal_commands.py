"""Proposals that are pasted commands and SQL, as runbooks and agents write them.

The read-only side carries scary flags and words (``--field-selector reason=Killing``, ``status = 'DELETED'``,
``--dry-run``, ``auth can-i delete``, ``pt-kill --print``); the mutating side includes writes that look like
reads (``SELECT pg_terminate_backend``, ``EXPLAIN ANALYZE DELETE``) and edits through an editor or ``apply``.
"""

from __future__ import annotations

from .case import Family, parse_lines

COMMANDS = parse_lines(r"""
# command
o 执行 `kubectl get events -n ‹ns› --field-selector reason=Killing --sort-by=.lastTimestamp`，看最近被杀的容器
o `kubectl get pods -n ‹ns› -o wide | grep -E 'Evicted|OOMKilled|CrashLoopBackOff'`
o `kubectl rollout history deploy/‹svc› -n ‹ns›` 看下之前的回滚记录
o `kubectl logs ‹pod› -n ‹ns› --previous --tail=500`
o `redis-cli -h ‹redis› --bigkeys -i 0.1`（在从库上跑）
o `redis-cli -h ‹redis› CONFIG GET maxmemory-policy`
o `redis-cli -h ‹redis› SLOWLOG GET 50`
o `kafka-consumer-groups.sh --bootstrap-server ‹broker›:9092 --describe --group ‹cg›`
o `kafka-consumer-groups.sh --bootstrap-server ‹broker›:9092 --group ‹cg› --topic ‹topic› --reset-offsets
+ --to-datetime ‹iso›.000 --dry-run`，先看会重置到哪
o `journalctl -u ‹svc› --since "‹date› 02:00" | grep -i 'killed process'`
o `terraform plan -target=module.‹db›_asg`
o `helm diff upgrade ‹svc› ./charts/‹svc› -f values-prod.yaml`
o `kubectl diff -f deploy/‹svc›.yaml`
o `nginx -t` 检查一下配置语法
o Run `systemctl status ‹svc› --no-pager` and `systemctl list-units --failed` on ‹host›.
o `git log --oneline -20 -- charts/‹svc›/values-prod.yaml`，看谁改过 replicas
o `argocd app diff ‹svc›-prod`
o `pt-kill --busy-time 60 --match-command Query --print`（只打印，不加 --kill）
o `iptables -L -n -v | grep DROP`
o `curl -s http://‹host›:8080/actuator/health | jq .`
o `ss -s` 看下 TIME_WAIT 的数量
o `kubectl auth can-i delete pods -n ‹ns› --as system:serviceaccount:‹ns›:deployer`
o `docker ps -a --filter status=exited --format '{{.Names}} {{.Status}}'`
o `crontab -l -u deploy | grep purge`，看清理任务几点跑
o `kubectl apply --dry-run=server -f deploy/‹svc›.yaml`，只做服务端校验，不落库
o `kubectl top pod -n ‹ns› --sort-by=memory | head -20`
x `kubectl delete pod ‹pod› -n ‹ns› --grace-period=0 --force`
x `kubectl rollout undo deploy/‹svc› -n ‹ns› --to-revision=‹rev›`
x `kubectl rollout restart deploy/‹svc› -n ‹ns›`
x `kubectl scale deploy/‹svc› --replicas=‹n› -n ‹ns›`
x `kubectl cordon ‹node› && kubectl drain ‹node› --ignore-daemonsets --delete-emptydir-data`
x `kubectl patch deploy ‹svc› -n ‹ns› -p '{"spec":{"replicas":‹n›}}'`
x `redis-cli -h ‹redis› DEL ‹key›`
x `redis-cli -h ‹redis› CONFIG SET maxmemory-policy allkeys-lru`
x `redis-cli -h ‹redis› SLOWLOG RESET`，清掉之前的再观察
x `redis-cli -h ‹redis› CLIENT KILL TYPE normal`
x `kafka-consumer-groups.sh --bootstrap-server ‹broker›:9092 --group ‹cg› --topic ‹topic› --reset-offsets
+ --to-datetime ‹iso›.000 --execute`
x `systemctl restart ‹svc›`
x `nginx -s reload`，让新的 upstream 生效
x `kubectl set env deploy/‹svc› LOG_LEVEL=DEBUG -n ‹ns›`
x `kubectl label node ‹node› traffic=off --overwrite`
x `helm upgrade ‹svc› ./charts/‹svc› -f values-prod.yaml --set replicaCount=‹n›`
x `argocd app sync ‹svc›-prod --prune`
x `terraform apply -target=module.‹db›_asg -auto-approve`
x `iptables -I INPUT -s ‹ip› -j DROP`，先把这个来源挡掉
x `kubectl exec ‹pod› -n ‹ns› -- kill -9 1`
x `pt-kill --busy-time 60 --match-command Query --kill`
x `curl -X POST http://‹host›:8080/actuator/refresh`
x `docker rm -f $(docker ps -aq --filter status=exited)`
x `crontab -e -u deploy`，把清理任务挪到凌晨 4 点
x `git revert ‹sha›` 然后走一遍发布
x `kubectl apply -f deploy/‹svc›.yaml`，把 limits 提到 4Gi

# sql
o ```sql⏎SELECT order_id, status, updated_at FROM ‹tbl›⏎WHERE status = 'DELETED' AND updated_at > '‹date› 00:00:00'
+⏎LIMIT 100;⏎```
o `SELECT channel, COUNT(*) FROM ‹tbl› WHERE status IN ('ROLLED_BACK', 'REFUNDED') AND created_at >= CURDATE()
+ GROUP BY channel;` 统计被回滚的订单
o `SHOW PROCESSLIST;` 看有没有 Waiting for table metadata lock 的会话
o `SHOW ENGINE INNODB STATUS\G`，看最近一次死锁
o `EXPLAIN SELECT * FROM ‹tbl› WHERE user_id = ‹uid› ORDER BY id DESC LIMIT 20;`
o `EXPLAIN ANALYZE SELECT COUNT(*) FROM ‹tbl› WHERE created_at > NOW() - INTERVAL 1 HOUR;`（只读查询，放从库跑）
o MySQL 下 `EXPLAIN UPDATE ‹tbl› SET status = 'CLOSED' WHERE id = ‹uid›;` 只看执行计划、不会真的执行，
+确认是不是走了主键
o `SELECT * FROM information_schema.innodb_trx ORDER BY trx_started LIMIT 10;`
o `SELECT pid, state, now() - xact_start AS age, query FROM pg_stat_activity WHERE state = 'idle in transaction';`
o `SELECT op_user, op_time, sql_text FROM dba_audit_log WHERE sql_text LIKE 'DROP%' AND op_time > '‹date›';`
+ 查下谁 drop 过表
o `SHOW CREATE TABLE ‹tbl›;`
o `SHOW GLOBAL STATUS LIKE 'Threads_%';`
o `SELECT table_name, ROUND(data_length/1024/1024) AS mb FROM information_schema.tables
+ WHERE table_schema = '‹db›' ORDER BY mb DESC LIMIT 10;`
o 在从库上跑 `SELECT COUNT(*) FROM ‹tbl› WHERE remark LIKE '%truncate%';`，看异常备注有多少
x `DELETE FROM ‹tbl› WHERE status = 'DELETED' AND updated_at < '‹date›';`
x `UPDATE ‹tbl› SET status = 'FAILED' WHERE status = 'PROCESSING' AND updated_at < NOW() - INTERVAL 30 MINUTE;`
x `ALTER TABLE ‹tbl› ADD INDEX idx_user_created (user_id, created_at);`
x `CREATE INDEX CONCURRENTLY idx_‹db›_uid ON ‹tbl› (user_id);`
x `TRUNCATE TABLE ‹tbl›_tmp;`
x `KILL ‹tid›;` 把那个长事务干掉
x `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE state = 'idle in transaction'
+ AND now() - state_change > interval '10 min';`
x `SELECT pg_cancel_backend(‹tid›);`
x `EXPLAIN ANALYZE DELETE FROM ‹tbl› WHERE created_at < '‹date›';` 看下要跑多久
x `EXPLAIN ANALYZE UPDATE ‹tbl› SET status = 'CLOSED' WHERE id = ‹uid›;`
x `SET GLOBAL max_connections = 2000;`
x `INSERT INTO ‹tbl›_fix SELECT * FROM ‹tbl› WHERE status = 'PENDING';`
x `OPTIMIZE TABLE ‹tbl›;` 回收一下碎片
x `CALL sp_rebuild_daily_report('‹date›');`
""")


def families() -> Family:
    return COMMANDS
