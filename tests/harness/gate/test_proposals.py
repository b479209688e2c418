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
