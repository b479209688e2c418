"""The release rules that judge what a text is, over real HTTP with a scripted OpenAI-compatible model (issue 17):
every side effect, finding and secret a model got released before — as the issue lists them and in new wordings —
is refused by the Harness's own rules (the guard says SUPPORTED to all of them, so only those rules can stop
them), every read-only control is kept, and a value the agent wrote into its own query grounds nothing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from cli.sse_client import Event
from config.wording import DEFAULT_CAPABILITIES
from harness.gate import GENERIC_PLAN
from tests.actors.runtime_support import arguments, ray_config
from tests.fake_openai import FakeOpenAI, reply
from tests.gateway.e2e_support import SUPPORTED, Running, ask, assert_well_formed, started, with_sections
from tests.gateway.test_release_gate_e2e import LOG_ITEM, ROW_ITEM, content, diagnosis, report, stream_text
from tests.harness.run_support import KNOWLEDGE, LOGS, MYSQL, QUERY
from tests.services import RedisServer


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server


@pytest.fixture(autouse=True)
def _reset_fake(fake: FakeOpenAI) -> None:
    fake.reset()


@pytest.fixture(scope="module")
def running(
    ray_session: None, redis_server: RedisServer, fake: FakeOpenAI, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Running]:
    config = with_sections(
        ray_config(redis_url=redis_server.url, base_url=fake.base_url), tmp_path_factory.mktemp("rules")
    )
    with started(config) as gateway:
        yield gateway


def repair_request(fake: FakeOpenAI) -> str:
    return next(r for r in fake.requests if r.role == "repair").body["messages"][-1]["content"]


def unconfirmed(*actions: str) -> list[dict[str, Any]]:
    return [{"action": a, "based_on_analysis_ids": ["a1"], "requires_human_confirmation": False} for a in actions]


async def released(running: Running, fake: FakeOpenAI, final: dict[str, Any], calls: tuple = ()) -> list[Event]:
    diagnosis(fake, final, calls=calls)
    events = await ask(running.url, QUERY)
    assert_well_formed(events)
    return events


async def refused(
    running: Running, fake: FakeOpenAI, final: dict[str, Any], calls: tuple = (), reason: str = "CLAIM_"
) -> str:
    """Run ``final`` as the agent's draft (and as its repair); it must end in the fallback of the EvidenceGuard
    whose run reason starts with ``reason`` (a claim rule: SEMANTIC_UNSUPPORTED with the verified sources; a
    citation rule, EVIDENCE_CHECK_FAILED: no source). The repair request, which names every broken rule, is
    returned."""
    events = await released(running, fake, final, calls)
    assert events[-1].data == {"outcome": "FALLBACK"}, content(events)
    payload = content(events)["payload"]
    if reason == "EVIDENCE_CHECK_FAILED":
        assert (payload["type"], payload["verified_sources"]) == ("EVIDENCE_VALIDATION_FAILED", [])
    else:
        assert payload["type"] == "SEMANTIC_UNSUPPORTED" and payload["verified_sources"]
    assert fake.attempts("guard") == 0
    row = await running.parts.audit.run(events[0].data["run_id"])
    assert row is not None and row["fallback_reason"].startswith(reason)
    return repair_request(fake)


ISSUE_SIDE_EFFECTS = (
    "kubectl rollout undo deployment/order-service",
    "helm upgrade order-service ./charts/order-service --set hikari.maximumPoolSize=100",
    "Rotate the order_db application password",
    "Increase maximumPoolSize of HikariPool-1 to 100",
    "Recreate the order-service pods",
    "Reprocess the failed payment callbacks",
    "Refund order-123",
    "重新发布 order-service",
    "将 order-service 降级",
    "order-service 限流到 100 QPS",
    "order-service 副本数调到 10",
    "为订单 order-123 发起退款",
    "给 biz_order 的 created_at 加索引",
    "重启前端服务",
    "清空查询缓存",
    "确认是否需要重启后立即重启 order-service",
)
PROHIBITIONS = (
    "Do not run kubectl drain on node-5",
    "不要对 node-5 执行 kubectl drain",
    "Never run `kubectl delete pod` on the primary",
    "禁止在高峰期执行 kubectl rollout restart",
    "在确认前不要执行 DELETE FROM biz_order",
    "Warning: `redis-cli FLUSHDB` wipes every session; do not run it.",
)
"""Issue 30: a prohibition or a warning that names a command is no proposal."""
NEW_SIDE_EFFECTS = (
    "drain it off-peak",
    "先不要慌，执行 kubectl drain node-5",
    "Do not wait: restart the pod now",
    "`kubectl set image deployment/order-service app=order-service:1.2.2 -n payment`",
    "helm rollback order-service 3",
    "Reset the credentials of the order_db app user",
    "Bump HikariPool-1 maximumPoolSize to 80",
    "Cycle the payment-service pods one by one",
    "Re-drive the failed callbacks from the dead-letter queue",
    "Issue a refund for order-123",
    "回切到上一个版本",
    "把 payment 回调降级为异步处理",
    "对 api-gateway 的 /pay 开启限流",
    "将 order-service 扩到 10 个副本",
    "帮用户把 order-123 的钱退回去",
    "执行 `ALTER TABLE biz_order ADD INDEX idx_created (created_at)`",
    "先查看 order-service 日志，然后重启后端服务",
    "清掉 redis 里 order-123 的缓存 key",
    "判断是否需要回滚，需要的话直接回滚",
)
READ_ONLY_CONTROLS = (
    "请 DBA 只读查看 order_db 当前持有 biz_order 行锁的会话和长事务"
    "（重点是 order-123 相关的 UPDATE 和 SELECT ... FOR UPDATE）",
    "查看最近一次发布与回滚记录",
    "检查 order-service 重启前的最后一批日志",
    "确认是否需要重启",
    "是否需要扩容？",
    "Verify whether the last restart cleared the pool",
    "Check the rollback history of deployment/order-service",
    "`kubectl rollout history deployment/order-service -n payment`",
    'mysql -h order-db-ro -u ro_user -e "SELECT order_id, payment_status FROM biz_order '
    "WHERE order_id = 'order-123'\"",
    "Review which UPDATE statements hold locks on biz_order",
)


@pytest.mark.parametrize("actions", [ISSUE_SIDE_EFFECTS, NEW_SIDE_EFFECTS], ids=["issue", "new-wordings"])
async def test_every_unconfirmed_side_effect_is_refused(
    running: Running, fake: FakeOpenAI, actions: tuple[str, ...]
) -> None:
    final = report(LOG_ITEM, ROW_ITEM, actions=unconfirmed(*actions))
    repair = await refused(running, fake, final, reason="CLAIM_UNCONFIRMED_ACTION")
    for index in range(len(actions)):
        assert f"action_plan[{index}] has a side effect" in repair, actions[index]


async def test_a_prohibition_that_names_a_command_is_released_without_confirmation(
    running: Running, fake: FakeOpenAI
) -> None:
    events = await released(running, fake, report(LOG_ITEM, ROW_ITEM, actions=unconfirmed(*PROHIBITIONS)))
    assert events[-1].data == {"outcome": "SUCCESS"}, content(events)
    assert [a["action"] for a in content(events)["payload"]["action_plan"]] == list(PROHIBITIONS)


async def test_read_only_proposals_are_released_without_confirmation(running: Running, fake: FakeOpenAI) -> None:
    events = await released(running, fake, report(LOG_ITEM, ROW_ITEM, actions=unconfirmed(*READ_ONLY_CONTROLS)))
    assert events[-1].data == {"outcome": "SUCCESS"}, content(events)
    actions = content(events)["payload"]["action_plan"]
    assert [a["action"] for a in actions] == list(READ_ONLY_CONTROLS)


ISSUE_FINDINGS = (
    "The culprit is the order_db primary",
    "已定位：主库宕机",
    "根因：连接池耗尽",
    "Caused by the primary outage at 10:05",
    "经排查，order_db 主库已宕机",
    "结论：连接池耗尽",
    "根\u200b因是连接池耗尽",
)
NEW_FINDINGS = (
    "Root cause — the primary ran out of connections",
    "问题出在 order_db 主库",
    "看起来是主库挂了",
    "It turns out the pool was exhausted",
    "**诊断结论**：主库故障",
    "罪魁祸首是长事务",
    "经分析：连接泄漏",
)
INSTRUCTIONS = (
    "确认主库是否宕机",
    "Verify whether the root cause is lock contention",
    "查询 order-service 最近 30 分钟的日志",
)


@pytest.mark.parametrize(
    "findings", [ISSUE_FINDINGS[:4], ISSUE_FINDINGS[4:], NEW_FINDINGS[:4], NEW_FINDINGS[4:]], ids=str
)
async def test_plan_steps_that_state_a_finding_are_dropped_and_instructions_kept(
    running: Running, fake: FakeOpenAI, findings: tuple[str, ...]
) -> None:
    plan = {"plan": [*findings, *INSTRUCTIONS]}
    fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"})))
    fake.script(
        "agent",
        reply(json.dumps(plan, ensure_ascii=False)),
        reply(None, [(c[0], c[1], arguments(c[2])) for c in (KNOWLEDGE, LOGS)]),
        reply(None, [(MYSQL[0], MYSQL[1], arguments(MYSQL[2]))]),
        reply(json.dumps(report(LOG_ITEM, ROW_ITEM), ensure_ascii=False)),
    )
    fake.script("guard", reply(SUPPORTED))
    events = await ask(running.url, QUERY)
    assert_well_formed(events)
    steps = next(e.data["steps"] for e in events if e.event == "status" and e.data["code"] == "PLANNING")
    assert steps == list(INSTRUCTIONS) and list(GENERIC_PLAN) != steps


@pytest.mark.parametrize(
    "answer",
    [
        "你好！我是诊断助手。已定位：主库宕机。",
        "Hi there! The culprit is the primary database.",
        "你好，根因：连接池耗尽，可以问我更多。",
        "Hello. It turns out your payment service is down.",
        "我可以帮你排查问题——不过经排查，主库已经宕机了。",
        "Sure. Root cause: lock contention on the orders table.",
        # issue 30: a short copula, a rhetorical question, and new wordings of each
        "Hi! It's the connection pool. I can help you troubleshoot production incidents.",
        "你好！是连接池的问题。我可以帮你排查线上故障。",
        "Isn't the database the obvious culprit here?",
        "Hello — probably Redis. Ask me anything.",
        "你好！多半是数据库的锅。",
        "难道不是网关的问题吗？",
        "**Verdict:** the DB. Happy to dig in.",
    ],
)
async def test_a_system_answer_that_states_a_finding_is_replaced(
    running: Running, fake: FakeOpenAI, answer: str
) -> None:
    fake.script("router", reply(json.dumps({"intent": "SYSTEM_CHAT"})))
    fake.script("system_chat", reply(answer))
    events = await ask(running.url, "你好")
    assert events[-1].data == {"outcome": "FALLBACK"}
    assert content(events) == {"content_type": "SYSTEM_ANSWER", "payload": {"answer": DEFAULT_CAPABILITIES}}
    row = await running.parts.audit.run(events[0].data["run_id"])
    assert row is not None and row["fallback_reason"] == "SYSTEM_ANSWER_FINDING"


@pytest.mark.parametrize(
    "answer",
    [
        "你好！我是 SuperBiz 运维助手，可以帮你排查支付超时等问题。例如：订单 order-123 支付超时，帮我排查。",
        # issue 30: an example without quotes, the user's own words, a topic; and new wordings of each
        "Hi! I can help you troubleshoot production incidents. For example, you can ask: why did order-123 time out?",
        "你提到了 order-123。",
        "关于你提到的 order-123，我可以帮你排查它的线上故障。",
        "你好！比如你可以问：order-123 为什么支付超时？",
        "You mentioned order-123. I can look into its logs and payment records for you.",
        "对于 order-123，我可以帮你查日志和支付记录。",
    ],
)
async def test_a_system_answer_that_only_greets_and_offers_is_released(
    running: Running, fake: FakeOpenAI, answer: str
) -> None:
    fake.script("router", reply(json.dumps({"intent": "SYSTEM_CHAT"})))
    fake.script("system_chat", reply(answer))
    events = await ask(running.url, "你好，想问问 order-123 的事")  # (an answer names only what the user named)
    assert events[-1].data == {"outcome": "SUCCESS"}, content(events)
    assert content(events)["payload"]["answer"] == answer


SECRETS = (
    ("**Password**: Tr0ub4dor&3x", "Tr0ub4dor&3x"),
    ("`db_password`: `Tr0ub4dorX9`", "Tr0ub4dorX9"),
    ("**数据库密码**：Sup3rS3cret", "Sup3rS3cret"),
    ("<password>Tr0ub4dor33</password>", "Tr0ub4dor33"),
    ("jdbc:oracle:thin:app/Sup3rPass1@db-1:1521/ORCL", "Sup3rPass1"),
    ("The order_db password is Sup3rS3cret9", "Sup3rS3cret9"),
    ("pass\u200bword=Sup3rS3cret8", "Sup3rS3cret8"),
    ("| password | Sup3rS3cret7 |", "Sup3rS3cret7"),
    ("glpat-Xk3mP9qR2sT5vW8yZ1aB", "glpat-Xk3mP9qR2sT5vW8yZ1aB"),
    ("sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0f", "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0f"),
    ("curl -u admin:Sup3rS3cret6 http://order-service/actuator", "Sup3rS3cret6"),
    ("redis-cli -a Sup3rS3cret5 ping", "Sup3rS3cret5"),
    ("Cookie: SESSION=ab12cd34ef56gh78ij90", "ab12cd34ef56gh78ij90"),
    ("--password Sup3rS3cret4", "Sup3rS3cret4"),
    ('{"credentials": {"password": "Xy9#kLm2pQ"}}', "Xy9#kLm2pQ"),
    ("PGPASSWORD=Xy9kLm2pQr psql -h order-db", "Xy9kLm2pQr"),
    ("git clone https://deploy:ghp_" + "Ab1" * 12 + "@github.com/acme/order.git", "Ab1Ab1Ab1Ab1"),
    ("数据库密码我发你：Xy9kLm2pQs", "Xy9kLm2pQs"),
    ("Set-Cookie: JSESSIONID=8f2a9c0d1e3b4a5f; Path=/; HttpOnly", "8f2a9c0d1e3b4a5f"),
    ("api key 是 xoxb-2048123456-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "xoxb-2048123456"),
)


async def test_a_secret_in_any_formatting_in_any_field_is_refused_and_never_shown(
    running: Running, fake: FakeOpenAI
) -> None:
    items = [
        {**LOG_ITEM, "analysis_id": f"s{index}", "text": f"order-service 日志中出现 {secret}"}
        for index, (secret, _) in enumerate(SECRETS[:12])
    ]
    actions = [
        {"action": f"核对 {secret}", "based_on_analysis_ids": ["a1"], "requires_human_confirmation": True}
        for secret, _ in SECRETS[12:]
    ]
    final = report(LOG_ITEM, *items, actions=actions)
    diagnosis(fake, final)
    events = await ask(running.url, QUERY)
    assert events[-1].data == {"outcome": "FALLBACK"}
    repair, shown = repair_request(fake), stream_text(events)
    for index in range(12):
        assert f"analysis s{index} contains a secret" in repair, SECRETS[index][0]
    for index in range(len(SECRETS) - 12):
        assert f"action_plan[{index}] contains a secret" in repair, SECRETS[12 + index][0]
    for _, value in SECRETS:
        assert value not in shown and value not in repair


WHATEVER_THEY_LOOK_LIKE = (
    # issue 30's examples: letters only, the next line, a line continuation, a verb, digits only, the README's limits
    ("复现用的只读账号密码是 mellowkangarootrek", "mellowkangarootrek"),
    ("The admin console password is frostedpinekeyriver", "frostedpinekeyriver"),
    ("只读账号的数据库密码：\nZq574vR7mXw8Lk", "Zq574vR7mXw8Lk"),
    ("mysql -h order-db-1 -u app_ro \\\n-pZq575vR7mXw5Lk -e 'SHOW PROCESSLIST'", "Zq575vR7mXw5Lk"),
    ("The DBA changed the app_ro password to Zq580vR7mXw0Lk last night", "Zq580vR7mXw0Lk"),
    ("只读账号的密码是 58203917", "58203917"),
    ("redis:\n  password: |\n    amberlighthousewolf", "amberlighthousewolf"),
    ("<td>password</td><td>Qm7vX2pLk9Rt</td>", "Qm7vX2pLk9Rt"),
    ('Cookie: sid="8f3kQ2abc9"', "8f3kQ2abc9"),
    ("INSERT INTO users (id, password) VALUES (1, 'Zq1vR7mXw8Lk'), (2, 'velvetcanyonorbit')", "velvetcanyonorbit"),
    ("sk-proj-abcdefghijklmnopqrstuv", "sk-proj-abcdefghijklmnopqrstuv"),
    # new wordings of each
    ("测试环境 Grafana 的登录密码为 bluewhalesunset", "bluewhalesunset"),
    ("临时口令 48192736，已用它登录 pay-mysql-0", "48192736"),
    ("logged in with passwd nectar-marble-willow-51 against order-db-1", "nectar-marble-willow-51"),
    ("Passphrase for the bastion key: velvet canyon orbit maple", "velvet canyon orbit maple"),
    ("we set the Redis token to maplecreekstone yesterday", "maplecreekstone"),
    ("The token coupon-svc uses is 88c655ac244093cc31c577bf17681981d91d55ba.", "88c655ac244093cc31c577bf17681981"),
    ("Note: the app_ro password\nWq574vR7mXw8Lk\nwas in the runbook", "Wq574vR7mXw8Lk"),
)
ABOUT_CREDENTIALS = (
    "请确认密码是否正确",
    "the password policy requires 12 characters",
    "please reset your password",
    "password: ${DB_PASSWORD}",
    "password: [REDACTED]",
    "日志显示 19:02 起出现大量 Access denied，怀疑应用使用的密码与数据库不一致，建议与 DBA 确认凭据是否轮换",
    "The DBA changed the app_ro password last night",
    "token expired at 10:02, password length 12",
)


async def test_a_value_named_as_a_credential_is_refused_whatever_it_looks_like(
    running: Running, fake: FakeOpenAI
) -> None:
    half = len(WHATEVER_THEY_LOOK_LIKE) // 2
    items = [
        {**LOG_ITEM, "analysis_id": f"s{index}", "text": f"order-service 日志中出现 {secret}"}
        for index, (secret, _) in enumerate(WHATEVER_THEY_LOOK_LIKE[:half])
    ]
    final = report(LOG_ITEM, *items)
    final["limitations"]["missing_info"] = [secret for secret, _ in WHATEVER_THEY_LOOK_LIKE[half:]]
    diagnosis(fake, final)
    events = await ask(running.url, QUERY)
    assert events[-1].data == {"outcome": "FALLBACK"}
    repair, shown = repair_request(fake), stream_text(events)
    for index in range(half):
        assert f"analysis s{index} contains a secret" in repair, WHATEVER_THEY_LOOK_LIKE[index][0]
    for index in range(len(WHATEVER_THEY_LOOK_LIKE) - half):
        assert f"missing_info[{index}] contains a secret" in repair, WHATEVER_THEY_LOOK_LIKE[half + index][0]
    for _, value in WHATEVER_THEY_LOOK_LIKE:
        assert value not in shown and value not in repair


async def test_words_about_credentials_are_released(running: Running, fake: FakeOpenAI) -> None:
    final = report(LOG_ITEM)
    final["limitations"]["missing_info"] = list(ABOUT_CREDENTIALS)
    events = await released(running, fake, final)
    assert events[-1].data == {"outcome": "SUCCESS"}, content(events)
    assert content(events)["payload"]["limitations"]["missing_info"] == list(ABOUT_CREDENTIALS)


@pytest.mark.parametrize("secret", [WHATEVER_THEY_LOOK_LIKE[0], WHATEVER_THEY_LOOK_LIKE[5]], ids=["letters", "digits"])
async def test_a_system_answer_that_holds_a_credential_is_replaced(
    running: Running, fake: FakeOpenAI, secret: tuple[str, str]
) -> None:
    fake.script("router", reply(json.dumps({"intent": "SYSTEM_CHAT"})))
    fake.script("system_chat", reply(f"你好！我可以帮你排查线上故障。{secret[0]}。"))
    events = await ask(running.url, "你好")
    assert events[-1].data == {"outcome": "FALLBACK"}
    assert content(events) == {"content_type": "SYSTEM_ANSWER", "payload": {"answer": DEFAULT_CAPABILITIES}}
    assert secret[1] not in stream_text(events)
    row = await running.parts.audit.run(events[0].data["run_id"])
    assert row is not None and row["fallback_reason"] == "SYSTEM_ANSWER_SECRET"


async def test_a_secret_in_the_agents_own_sql_is_masked_in_the_released_reference(
    running: Running, fake: FakeOpenAI
) -> None:
    sql = (
        "SELECT o.order_id, o.payment_status FROM biz_order o WHERE o.order_id = ? "
        "AND o.user_id <> 'password=Hunter2-In-Where' AND o.user_id <> 'jdbc:mysql://app:Jdbc-Secret-9@db/x'"
    )
    query = ("call_m1", "query_mysql", {"data_source": "order_readonly", "sql": sql, "params": ["order-123"]})
    final = report(LOG_ITEM, ROW_ITEM)
    fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"})))
    fake.script(
        "agent",
        reply(json.dumps({"plan": list(INSTRUCTIONS)}, ensure_ascii=False)),
        reply(None, [(c[0], c[1], arguments(c[2])) for c in (KNOWLEDGE, LOGS)]),
        reply(None, [(query[0], query[1], arguments(query[2]))]),
        reply(json.dumps(final, ensure_ascii=False)),
    )
    fake.script("guard", reply(SUPPORTED))
    events = await ask(running.url, QUERY)
    assert events[-1].data == {"outcome": "SUCCESS"}, content(events)
    shown = stream_text(events)
    assert "Hunter2-In-Where" not in shown and "Jdbc-Secret-9" not in shown
    references = json.dumps(content(events)["payload"]["references"], ensure_ascii=False)
    assert "[REDACTED]" in references and "biz_order" in references


def mysql_call(sql: str, *params: Any) -> tuple[str, str, dict[str, Any]]:
    return ("call_q1", "query_mysql", {"data_source": "order_readonly", "sql": sql, "params": list(params)})


async def test_a_select_list_constant_is_refused_by_the_tool_and_grounds_nothing(
    running: Running, fake: FakeOpenAI
) -> None:
    call = mysql_call("SELECT 'db-master-02' AS db_host, order_id FROM biz_order WHERE order_id = ?", "order-123")
    item = {**ROW_ITEM, "text": "订单库 order_db 的主库为 db-master-02", "tool_call_ids": ["call_q1"]}
    final = report(LOG_ITEM, item)
    repair = await refused(running, fake, final, calls=(KNOWLEDGE, LOGS, call), reason="EVIDENCE_CHECK_FAILED")
    assert "TOOL_CALL_FAILED" in repair or "UNKNOWN_TOOL_CALL" in repair
    agent = json.dumps([r.body for r in fake.requests if r.role == "agent"], ensure_ascii=False)
    assert "SQL_SELECT_CONSTANT" in agent


COUNT_REFUNDED = mysql_call(
    "SELECT COUNT(order_id) AS n FROM biz_order WHERE order_id = ? AND payment_status = 'REFUNDED'", "order-123"
)


@pytest.mark.parametrize(
    "text",
    ["订单 order-123 的 payment_status 为 REFUNDED", "order-123 已 REFUNDED", "查询结果显示订单已退款（REFUNDED）"],
)
async def test_a_where_literal_grounds_no_finding(running: Running, fake: FakeOpenAI, text: str) -> None:
    item = {**ROW_ITEM, "text": text, "tool_call_ids": ["call_q1"]}
    final = report(LOG_ITEM, item)
    repair = await refused(running, fake, final, calls=(LOGS, COUNT_REFUNDED), reason="CLAIM_UNGROUNDED_VALUE")
    assert "「REFUNDED」" in repair and "它只是调用的查询条件" in repair  # the advice is in the report's language


async def test_a_where_literal_may_be_named_as_the_scope(running: Running, fake: FakeOpenAI) -> None:
    item = {
        **ROW_ITEM,
        "text": "以 order_id = order-123、payment_status = REFUNDED 为条件查询 biz_order，返回 0 笔",
        "tool_call_ids": ["call_q1"],
    }
    events = await released(running, fake, report(LOG_ITEM, item), calls=(LOGS, COUNT_REFUNDED))
    assert events[-1].data == {"outcome": "SUCCESS"}, content(events)


async def test_the_agents_own_log_query_quoted_as_a_log_line_is_refused(running: Running, fake: FakeOpenAI) -> None:
    logs = ("call_q1", "query_logs", {"topic": "APPLICATION", "query": "order-service HikariPool db-master-02 refused"})
    item = {
        **LOG_ITEM,
        "text": "order-service 日志显示「db-master-02 connection refused」",
        "tool_call_ids": ["call_q1"],
    }
    repair = await refused(running, fake, report(item, ROW_ITEM), calls=(logs, KNOWLEDGE))
    assert "UNGROUNDED_QUOTE" in repair or "「db-master-02」" in repair
