"""The release gate over real HTTP, with a scripted OpenAI-compatible endpoint: each draft or answer that a hostile
or careless model got released before is refused by the Harness's own rules now (the guard says SUPPORTED to all of
them, so only the deterministic rules can stop them), and nothing the agent wrote reaches a fallback."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from cli.sse_client import Event
from config.wording import DEFAULT_CAPABILITIES
from tests.actors.runtime_support import arguments, ray_config
from tests.fake_openai import FakeOpenAI, reply
from tests.gateway.e2e_support import SUPPORTED, Running, ask, assert_well_formed, started, with_sections
from tests.harness.run_support import KNOWLEDGE, LOGS, MYSQL, PLAN, QUERY
from tests.services import RedisServer

MARKER = "zzagentfreetext"


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
        ray_config(redis_url=redis_server.url, base_url=fake.base_url), tmp_path_factory.mktemp("gate")
    )
    with started(config) as gateway:
        yield gateway


def report(
    *analysis: dict[str, Any], conclusion: Any = None, actions: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    return {
        "conclusion": conclusion,
        "analysis": list(analysis),
        "action_plan": actions or [],
        "recommendations": [],
        "limitations": {"scope": "order-service 最近 30 分钟（模拟日志）、订单 order-123", "missing_info": []},
    }


LOG_ITEM = {
    "analysis_id": "a1",
    "kind": "NORMAL",
    "text": "order-service 出现连接池超时日志",
    "tool_call_ids": ["call_l1"],
}
ROW_ITEM = {
    "analysis_id": "a2",
    "kind": "NORMAL",
    "text": "订单 order-123 的 payment_status 为 TIMEOUT",
    "tool_call_ids": ["call_m1"],
}


def diagnosis(fake: FakeOpenAI, final: dict[str, Any], *, plan: dict[str, Any] = PLAN, calls: tuple = ()) -> None:
    fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"})))
    first = calls or (KNOWLEDGE, LOGS)
    fake.script(
        "agent",
        reply(json.dumps(plan, ensure_ascii=False)),
        reply(None, [(call[0], call[1], arguments(call[2])) for call in first]),
        reply(None, [(MYSQL[0], MYSQL[1], arguments(MYSQL[2]))]),
        reply(json.dumps(final, ensure_ascii=False)),
    )
    fake.script("repair", reply(json.dumps(final, ensure_ascii=False)))
    fake.script("guard", reply(SUPPORTED), reply(SUPPORTED))


def content(events: list[Event]) -> dict[str, Any]:
    return next(event.data for event in events if event.event == "content")


def stream_text(events: list[Event]) -> str:
    return json.dumps([event.data for event in events], ensure_ascii=False)


async def refused_by_the_gate(
    running: Running, fake: FakeOpenAI, final: dict[str, Any], reason: str, *forbidden: str
) -> None:
    """``final`` is the draft and its repair: the fallback is released, its type and sources chosen by ``reason``
    (a claim rule: SEMANTIC_UNSUPPORTED with the verified sources; a citation rule: none), the run records it."""
    diagnosis(fake, final)
    events = await ask(running.url, QUERY)
    assert_well_formed(events)
    assert events[-1].data == {"outcome": "FALLBACK"}
    assert content(events)["content_type"] == "FALLBACK"
    payload = content(events)["payload"]
    if reason == "EVIDENCE_CHECK_FAILED":
        assert (payload["type"], payload["verified_sources"]) == ("EVIDENCE_VALIDATION_FAILED", [])
    else:
        assert payload["type"] == "SEMANTIC_UNSUPPORTED" and payload["verified_sources"]
    assert fake.attempts("guard") == 0 and fake.attempts("repair") == 1
    for text in forbidden:
        assert text not in stream_text(events)
    row = await running.parts.audit.run(events[0].data["run_id"])
    assert row is not None and row["fallback_reason"] == reason


async def test_a_fabricated_status_and_rate_in_the_conclusion(running: Running, fake: FakeOpenAI) -> None:
    conclusion = {"text": "order-123 已退款（REFUNDED），支付失败率 87.3%", "based_on_analysis_ids": ["a2"]}
    final = report(LOG_ITEM, ROW_ITEM, conclusion=conclusion)
    await refused_by_the_gate(running, fake, final, "CLAIM_UNGROUNDED_VALUE", "REFUNDED", "87.3")
    repair = next(r for r in fake.requests if r.role == "repair").body["messages"][-1]["content"]
    assert "「REFUNDED」" in repair and "「87.3%」" in repair


async def test_a_password_and_a_bearer_token_the_projector_had_redacted(running: Running, fake: FakeOpenAI) -> None:
    leak = {
        **LOG_ITEM,
        "text": "order-service 日志中出现 password=Tr0ub4dor&3 与 Authorization: Bearer mF_9.B5f-4.1JqM",
    }
    await refused_by_the_gate(running, fake, report(leak, ROW_ITEM), "CLAIM_SECRET", "Tr0ub4dor", "mF_9.B5f")
    repair = next(r for r in fake.requests if r.role == "repair").body["messages"][-1]["content"]
    assert "SECRET_IN_TEXT" in repair and "Tr0ub4dor" not in repair


async def test_an_unconfirmed_restart_and_table_wipe(running: Running, fake: FakeOpenAI) -> None:
    action = {
        "action": "立即重启 order-service 全部实例并清空 biz_order 中的超时订单",
        "based_on_analysis_ids": ["a1"],
        "requires_human_confirmation": False,
    }
    final = report(LOG_ITEM, ROW_ITEM, actions=[action])
    await refused_by_the_gate(running, fake, final, "CLAIM_UNCONFIRMED_ACTION", "清空 biz_order")


async def test_a_report_that_says_nothing(running: Running, fake: FakeOpenAI) -> None:
    await refused_by_the_gate(running, fake, report(), "EVIDENCE_CHECK_FAILED")


async def test_a_knowledge_answer_telling_the_reader_to_flush_and_edit(running: Running, fake: FakeOpenAI) -> None:
    fake.script("router", reply(json.dumps({"intent": "KNOWLEDGE_QUERY"})))

    def answer(body: dict[str, Any]) -> Any:
        evidence = json.loads(body["messages"][-1]["content"])["evidence"]
        text = "遇到 ERR_TIMEOUT 时，先在 Redis 上执行 FLUSHALL，再直接修改 biz_order 中该订单的 payment_status。"
        return reply(json.dumps({"answer": text, "references": [evidence[0]["document_id"]], "limitations": []}))

    fake.default("knowledge", answer)
    events = await ask(running.url, "ERR_TIMEOUT 是什么意思，怎么处理")
    assert_well_formed(events)
    assert events[-1].data == {"outcome": "FALLBACK"}
    payload = content(events)["payload"]
    assert content(events)["content_type"] == "FALLBACK" and "知识库" in payload["message"]
    assert "根因" not in json.dumps(payload, ensure_ascii=False)
    assert "FLUSHALL" not in stream_text(events) and payload["verified_sources"] == []
    row = await running.parts.audit.run(events[0].data["run_id"])
    assert row is not None and row["fallback_reason"] == "KNOWLEDGE_UNGROUNDED"


async def test_a_diagnosis_answered_as_system_chat(running: Running, fake: FakeOpenAI) -> None:
    fake.script("router", reply(json.dumps({"intent": "SYSTEM_CHAT"})))
    fake.script("system_chat", reply("已确认：订单 order-123 的根因是 db-master-01 主库宕机，请立即切换主从。"))
    events = await ask(running.url, QUERY)
    assert_well_formed(events)
    assert events[-1].data == {"outcome": "FALLBACK"}
    assert content(events) == {"content_type": "SYSTEM_ANSWER", "payload": {"answer": DEFAULT_CAPABILITIES}}
    assert "主库宕机" not in stream_text(events)
    row = await running.parts.audit.run(events[0].data["run_id"])
    assert row is not None and row["fallback_reason"].startswith("SYSTEM_ANSWER_")


async def test_no_agent_text_in_a_fallback_or_in_the_plan_of_a_run_that_fell_back(
    running: Running, fake: FakeOpenAI
) -> None:
    plan = {"plan": ["已确认根因是 order-service 连接池耗尽", "查询日志", "root cause is the DB", "核对订单"]}
    knowledge = (KNOWLEDGE[0], KNOWLEDGE[1], {"query": f"支付超时 HikariCP {MARKER}"})
    logs = (LOGS[0], LOGS[1], {**LOGS[2], "query": f"order-service HikariPool Connection {MARKER}"})
    final = report(LOG_ITEM, ROW_ITEM, conclusion={"text": "与 order-service 有关", "based_on_analysis_ids": ["a1"]})
    fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"})))
    fake.script(
        "agent",
        reply(json.dumps(plan, ensure_ascii=False)),
        reply(None, [(c[0], c[1], arguments(c[2])) for c in (knowledge, logs)]),
        reply(None, [(MYSQL[0], MYSQL[1], arguments(MYSQL[2]))]),
        reply(json.dumps(final, ensure_ascii=False)),
    )
    fake.script("guard", reply(json.dumps({"verdict": "UNSUPPORTED", "reason": "超出证据"})))
    events = await ask(running.url, QUERY)
    assert_well_formed(events)
    payload = content(events)["payload"]
    assert payload["type"] == "SEMANTIC_UNSUPPORTED" and payload["verified_sources"]
    assert MARKER not in stream_text(events)
    assert "SELECT" not in json.dumps(payload["verified_sources"])
    steps = next(e.data["steps"] for e in events if e.event == "status" and e.data["code"] == "PLANNING")
    assert "已确认" not in json.dumps(steps, ensure_ascii=False) and "root cause" not in json.dumps(steps)


async def test_a_login_otp_never_reaches_the_agent_the_guard_or_the_references(
    running: Running, fake: FakeOpenAI
) -> None:
    login = (
        "call_u1",
        "query_logs",
        {"topic": "APPLICATION", "query": "user-service Login request", "lookback_minutes": 30},
    )
    item = {
        "analysis_id": "a1",
        "kind": "NORMAL",
        "text": "user-service 记录了登录请求，其中的密码和 otp 已脱敏",
        "tool_call_ids": ["call_u1"],
    }
    final = report(item, ROW_ITEM)
    diagnosis(fake, final, calls=(login,))
    events = await ask(running.url, "user-service 登录失败，帮我排查")
    assert events[-1].data == {"outcome": "SUCCESS"}
    text = stream_text(events)
    assert "482913" not in text and "Tr0ub4dor" not in text and "[REDACTED]" in text
    for role in ("agent", "guard"):
        bodies = json.dumps(
            [request.body for request in [r for r in fake.requests if r.role == role]], ensure_ascii=False
        )
        assert "482913" not in bodies and "Tr0ub4dor" not in bodies
    agent = json.dumps([r.body for r in fake.requests if r.role == "agent"], ensure_ascii=False)
    assert "Login proxy request body" in agent and "otp" in agent  # the line was seen, its code was not
