"""The proposal rule: a proposal that does not wait for a human passes only when it is recognisably read-only."""

from __future__ import annotations

import pytest

from config.harness import HarnessSettings
from harness.gate import ClaimPolicy
from harness.gate.proposals import mutating_part, side_effect

POLICY = ClaimPolicy.default()


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("kubectl rollout undo deployment/order-service", "kubectl rollout undo deployment/order-service"),
        ("Rotate the order_db application password", "rotate"),
        ("将 order-service 降级", "降级"),
        ("为订单 order-123 发起退款", "发起"),
        ("重启前端服务", "重启"),
        ("清空查询缓存", "清空"),
        ("确认是否需要重启后立即重启 order-service", "重启"),
        ("查看日志后回滚到上一版本", "回滚"),
        ("如仍超时则切换到备用渠道", "切换"),
        ("Check the pool, then restart the pods", "restart"),
        ("检查并清理过期会话", "清理"),
        ("判断是否需要降级，需要的话直接降级 payment-service", "降级"),
        ("执行 `redis-cli -h cache FLUSHALL`", "redis-cli -h cache FLUSHALL"),
        ("执行 SELECT order_id FROM biz_order WHERE order_id = 'order-123' FOR UPDATE", "SELECT"),
        ("curl -X POST http://payment-service/internal/retry", "curl -X POST http://payment-service/internal/retry"),
        ("order-service 副本数调到 10", "调到"),
    ],
)
def test_a_side_effect_is_named(text: str, reason: str) -> None:
    found = side_effect(text, POLICY)
    assert found is not None and found.startswith(reason), found


@pytest.mark.parametrize(
    "text",
    [
        "请 DBA 只读查看 order_db 当前持有 biz_order 行锁的会话和长事务"
        "（重点是 order-123 相关的 UPDATE 和 SELECT ... FOR UPDATE）",
        "查看最近一次发布与回滚记录",
        "对比扩容前后的 p99 延迟",
        "是否需要扩容？",
        "不要直接修改 biz_order，先核对 payment_record",
        "扩大查询时间范围到 2 小时后重新查询",
        "Verify whether the last restart cleared the pool",
        "Ask the DBA on call to look at long transactions",
        "Open the order-service dashboard and watch p99 latency",
        "`kubectl get pods -n payment | grep order`",
        "kubectl exec -it order-0 -- redis-cli INFO memory",
        "helm upgrade order-service ./chart --dry-run",
        'mysql -h db -e "SHOW ENGINE INNODB STATUS\\G"',
        "curl -s -o /dev/null -w '%{http_code}' http://order-service/actuator/health",
        "在 Grafana 上观察 HikariPool-1 的等待线程数变化",
        "02:41 之后再次只读查询 order-4735 的 payment_record 状态",
    ],
)
def test_a_read_only_proposal_passes(text: str) -> None:
    assert side_effect(text, POLICY) is None


def test_nothing_read_only_is_not_read_only() -> None:
    """Default-deny: a proposal that names no look, question or reading command is not let through."""
    assert side_effect("连接池已满", POLICY) is not None
    assert side_effect("order-service", POLICY) is not None


def test_the_configured_patterns_add_to_the_rule() -> None:
    settings = HarnessSettings.model_validate({"actions": {"confirmation-patterns": ["巡检"]}})
    policy = ClaimPolicy.from_settings(settings)
    assert side_effect("巡检 order-service 的连接池", POLICY) is None
    assert side_effect("巡检 order-service 的连接池", policy) == "巡检"


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("我可以帮你重启服务", "重启"),
        ("你好！我可以查询日志和知识库。", None),
        ("我不会修改任何线上数据或配置。", None),
        ("Run `kubectl delete pod order-0` to recover", "kubectl delete pod order-0"),
    ],
)
def test_a_system_answer_is_checked_for_what_acts_only(text: str, found: str | None) -> None:
    assert mutating_part(text, POLICY) == found


@pytest.mark.parametrize(
    "text",
    [
        "Do not run kubectl drain on node-5",
        "不要对 node-5 执行 kubectl drain",
        "Never run `kubectl delete pod` on the primary",
        "Avoid restarting the order service during peak",
        "禁止在高峰期执行 kubectl rollout restart",
        "切勿执行 FLUSHALL",
        "请勿重启数据库",
        "Don't scale the deployment down yet",
        "在确认前不要执行 DELETE FROM biz_order",
        "Warning: do not run terraform apply before review",
        "注意：不要执行 redis-cli FLUSHALL",
        "Do not run `rm -rf /data`; check the disk usage instead",
        "生产环境绝对不要执行 FLUSHALL。",
        "千万别 kill -9 order-worker",
        "没有备份时不要执行 DELETE FROM biz_order",
        "Do not run DROP TABLE or TRUNCATE on any order table.",
        "We should not run `DELETE FROM biz_order` without a backup.",
        "Avoid running redis-cli FLUSHALL",
        "Leave the HikariCP settings unchanged for now.",
        "Warning: `redis-cli FLUSHDB` wipes every session; do not run it.",
        "警告：kubectl rollout restart 会让所有 Pod 同时重建，高峰期不要用。",
    ],
)
def test_a_prohibition_is_no_proposal(text: str) -> None:
    assert side_effect(text, POLICY) is None


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("drain it off-peak", "drain"),
        ("Drain node-5 off-peak", "Drain"),
        ("Run kubectl drain node-5", "kubectl drain node-5"),
        ("先不要慌，执行 kubectl drain node-5", "kubectl drain node-5"),
        ("Do not wait: restart the pod now", "restart"),
        ("Do not wait: run kubectl drain node-5", "kubectl drain node-5"),
        ("don't forget to restart the pod", "restart"),
        ("don't forget to run kubectl drain node-5", "kubectl drain node-5"),
        ("Don't hesitate to run kubectl drain node-5", "kubectl drain node-5"),
        ("别忘了重启 order-service", "重启"),
        ("别忘了执行 kubectl drain node-5", "kubectl drain node-5"),
        ("Do not run kubectl get pods; run kubectl drain node-5", "kubectl get pods; run kubectl drain node-5"),
        ("不要只看日志而是执行 kubectl drain node-5", "kubectl drain node-5"),
        ("kubectl rollout restart will fix it; check the pods after", "kubectl rollout restart"),
        ("不要一次切全部流量，先切 10% 到 B 机房。", "切"),
    ],
)
def test_a_prohibition_excuses_no_command_outside_it(text: str, reason: str) -> None:
    found = side_effect(text, POLICY)
    assert found is not None and found.startswith(reason), found


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("关于连接池，我可以帮你排查。", None),
        ("对于 order-123，我可以帮你看看日志。", None),
        ("关键是订单号，关系到哪条日志；我关注的是只读数据。", None),
        ("不要在高峰期执行 kubectl drain node-5。", None),
        ("关于连接池，我可以帮你重启服务。", "重启"),
        ("关掉告警", "关掉告警"),
    ],
)
def test_a_topic_preposition_is_no_side_effect(text: str, found: str | None) -> None:
    assert mutating_part(text, POLICY) == found


@pytest.mark.parametrize(
    "text",
    [
        "检查慢日志中的 UPDATE biz_order 语句",
        "inspect the slow UPDATE biz_order statements",
        "Inspect the slow DELETE FROM order_locks queries",
        "查看 processlist 中正在执行的 UPDATE biz_order SET status='PAID'",
        "查看是谁在执行 UPDATE biz_order SET status='PAID'",
        "在 binlog 里查找 UPDATE biz_order SET status='PAID' WHERE order_id='order-1' 这条语句",
        "Search the general log for DELETE FROM biz_order WHERE order_id='order-1'",
        "Look for UPDATE biz_order SET status = 'PAID' in the binlog",
        "检查 `DELETE FROM biz_order WHERE order_id='order-1'` 是否执行过",
        "请 DBA 只读查看持有 biz_order 行锁的会话（重点是 order-123 相关的 UPDATE 和 SELECT ... FOR UPDATE）",
        "inspect the lock holders",
        "查看持锁的事务",
        "look at the lock wait graph",
        "Check whether order-1 is locked",
        "查看被锁定的行",
        "check the innodb_lock_wait_timeout setting",
        "查看 max-pool-size 配置",
        "用 SHOW PROCESSLIST 查看",
        "用 EXPLAIN 看执行计划",
        "用 EXPLAIN 看 SELECT * FROM biz_order WHERE order_id='order-1' FOR UPDATE 的执行计划",
    ],
)
def test_a_statement_a_lock_or_a_setting_looked_at_is_read_only(text: str) -> None:
    """A statement quoted as the object of a look, locks and their holders, a setting: the proposal only reads."""
    assert side_effect(text, POLICY) is None


LOCKING_READ = "SELECT * FROM biz_order WHERE order_id='order-1' FOR UPDATE"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (LOCKING_READ, "SELECT"),
        ("LOCK TABLES biz_order WRITE", "LOCK TABLES"),
        ("SELECT * FROM biz_order WHERE order_id='order-1' LOCK IN SHARE MODE", "SELECT"),
        (f"执行 {LOCKING_READ} 确认", "SELECT"),
        (f"查看 {LOCKING_READ} 的结果", "SELECT"),
        (f"确认 `{LOCKING_READ}` 是否能拿到锁", "SELECT"),
        (f"Check whether {LOCKING_READ} returns the row", "SELECT"),
        (f"Verify with {LOCKING_READ} that order-1 is PAID", "SELECT"),
        ("用 FOR UPDATE 查询 order-1 的状态", "FOR UPDATE"),
        ("query order-1 with FOR UPDATE", "FOR UPDATE"),
        ("使用 SELECT ... FOR UPDATE 读取该行", "SELECT ... FOR UPDATE"),
        ("查询 order-1 时加排他锁", "加排他锁"),
        ("用加锁读确认 order-1 的状态", "加锁读"),
        ("Read order-1 with a locking read", "with a locking read"),
        ("Take a row lock on order-1 before reading it", "Take a row lock"),
        ("lock the row", "lock"),
        ("锁定该订单", "锁定"),
    ],
)
def test_taking_a_lock_is_a_side_effect(text: str, reason: str) -> None:
    found = side_effect(text, POLICY)
    assert found is not None and found.startswith(reason), found


@pytest.mark.parametrize(
    "text",
    [
        "不要用 SELECT ... FOR UPDATE 查询 order-1",
        "Never run SELECT * FROM biz_order WHERE order_id='order-1' FOR UPDATE on the primary",
        "避免加锁读",
    ],
)
def test_a_lock_forbidden_is_no_proposal(text: str) -> None:
    assert side_effect(text, POLICY) is None


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("执行这条 UPDATE biz_order SET status='PAID' WHERE order_id='order-1' 语句", "UPDATE"),
        ("Run the DELETE FROM order_locks queries again", "DELETE"),
        ("Verify that UPDATE biz_order SET status='PAID' WHERE order_id='order-1' fixes the row", "UPDATE"),
        ("kill the session", "kill"),
        ("扩容连接池到 100", "扩容"),
        ("set max-pool-size to 100", "set"),
        ("把状态改成 PAID", "改成"),
        ("Mark order-1 as PAID", "mark"),
        ("把订单 order-1 标记为待人工确认状态", "标记"),
        ("把 biz_order 按月拆分成多张表", "拆分"),
        ("rollback", "rollback"),
    ],
)
def test_a_change_stays_a_side_effect_in_any_wording(text: str, reason: str) -> None:
    found = side_effect(text, POLICY)
    assert found is not None and found.lower().startswith(reason.lower()), found


@pytest.mark.parametrize(
    "text",
    [
        "标记为待人工确认",
        "将这一步标记为待人工确认。",
        "Mark this step as needing human confirmation.",
        "Flag this finding for human review.",
        "按渠道拆分统计",
        "按渠道拆分",
        "将 5xx 按上游服务拆分后再统计。",
        "break the errors down by channel",
        "Split the errors by channel",
    ],
)
def test_an_act_on_the_report_or_its_counts_is_read_only(text: str) -> None:
    """Marking a step for a human and splitting a count by a dimension change nothing in the system."""
    assert side_effect(text, POLICY) is None


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("执行慢日志中的 UPDATE biz_order 语句", "UPDATE biz_order"),
        ("立即执行刚才说的 `DELETE FROM biz_order WHERE id=1`", "DELETE"),
        ("参考 runbook 的 `kubectl rollout restart deploy/order-service`", "kubectl rollout restart"),
        ("Find the stuck session and KILL 4242", "KILL 4242"),
        ("Look for DELETE FROM biz_order WHERE id=1 and run it", "DELETE"),
    ],
)
def test_what_governs_a_named_statement_decides(text: str, reason: str) -> None:
    """A verb that runs governs the noun a statement heads; a search ends where a step begins; "run it" runs it."""
    found = side_effect(text, POLICY)
    assert found is not None and found.startswith(reason), found


@pytest.mark.parametrize(
    "text",
    [
        "不加锁读取 order-1 的状态",
        "Inspect the sessions waiting on the SELECT ... FOR UPDATE",
        "查看 performance_schema 里执行最慢的几条 UPDATE payments 语句",
        "检查是否有人执行过 SELECT ... FOR UPDATE",
    ],
)
def test_a_lock_not_taken_or_a_statement_described_is_read_only(text: str) -> None:
    assert side_effect(text, POLICY) is None
