"""The fixed fallbacks over real HTTP, with a scripted OpenAI-compatible model (issue 18 items 3 and 6).

The fallback says what really happened: a report whose citations held but whose words a claim rule refused again
after the repair is SEMANTIC_UNSUPPORTED with the sources really looked at, and the run records the rule; a broken
citation shows no source; a spent model-call budget and the run's time limit say so. An English question gets the
English fallback, capability text and generic plan; a Chinese one the spec's texts, byte for byte.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cli.main import main
from cli.sse_client import Event
from config.wording import DEFAULT_CAPABILITIES_EN
from harness.fixed_texts import EN
from tests.actors.runtime_support import arguments, ray_config
from tests.fake_openai import FakeOpenAI, delay, reply
from tests.gateway.e2e_support import SUPPORTED, UNSUPPORTED, Running, ask, assert_well_formed, started, with_sections
from tests.gateway.test_release_gate_e2e import LOG_ITEM, ROW_ITEM, content, diagnosis, report, stream_text
from tests.harness.run_support import KNOWLEDGE, LOGS, MYSQL, PLAN, QUERY
from tests.services import RedisServer

MAX_MODEL_CALLS = 5
"""The plan, two tool turns, the draft and its repair: one more agent call is over the budget."""
AGENT_MAX_DURATION_S = 15
"""Long enough for a first run on a cold gateway on a busy machine, short enough to wait for once."""
ENGLISH = "Why does the payment of order-123 keep timing out? Please investigate."
SPEC_NEXT_STEPS = [
    "补充当前缺失的数据后重新发起诊断",
    "缩小查询范围（服务、时间窗口或数据范围）后重新发起诊断",
    "稍后重试",
]


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
    agent = {"max-model-calls": MAX_MODEL_CALLS, "max-duration": f"{AGENT_MAX_DURATION_S}s"}
    model = {"timeout-s": AGENT_MAX_DURATION_S * 2}  # the agent's time runs out before a model call's own
    config = ray_config(redis_url=redis_server.url, base_url=fake.base_url, harness={"agent": agent}, model=model)
    with started(with_sections(config, tmp_path_factory.mktemp("fallbacks"))) as gateway:
        yield gateway


async def fallback(running: Running, query: str = QUERY) -> tuple[dict[str, Any], dict[str, Any], list[Event]]:
    """The FALLBACK payload of one question, its audit row and its events."""
    events = await ask(running.url, query)
    assert_well_formed(events)
    assert events[-1].data == {"outcome": "FALLBACK"}, stream_text(events)
    assert content(events)["content_type"] == "FALLBACK"
    row = await running.parts.audit.run(events[0].data["run_id"])
    assert row is not None and row["status"] == "FALLBACK"
    return content(events)["payload"], row, events


async def shown_by_runs_show(running: Running, run_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """What ``superbiz runs show`` prints for the run, from the gateway's audit database (the command runs its own
    event loop, so in a thread)."""
    config = tmp_path / "superbiz.yaml"
    config.write_text(f"audit:\n  url: {running.config.audit.url}\n")
    capsys.readouterr()
    assert await asyncio.to_thread(main, ["--config", str(config), "runs", "show", run_id]) == 0
    return capsys.readouterr().out


UNGROUNDED = {**LOG_ITEM, "text": "order-service 出现 987 次连接池超时日志"}
"""Cites a call that returned evidence (the citation holds) and states a count it does not hold."""


async def test_a_held_citation_with_an_ungrounded_value_shows_the_sources_really_looked_at(
    running: Running, fake: FakeOpenAI, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    diagnosis(fake, report(UNGROUNDED, ROW_ITEM))
    payload, row, events = await fallback(running)
    assert payload["type"] == "SEMANTIC_UNSUPPORTED"
    assert {source["source_type"] for source in payload["verified_sources"]} == {"LOG", "MYSQL"}, row["fallback_reason"]
    assert payload["limitations"] == ["诊断报告中有数值或标识无法在已验证的证据中找到"]
    assert payload["message"] == "当前证据不足，无法确认根因" and payload["next_steps"] == SPEC_NEXT_STEPS
    assert (row["fallback_type"], row["fallback_reason"]) == ("SEMANTIC_UNSUPPORTED", "CLAIM_UNGROUNDED_VALUE")
    assert fake.attempts("repair") == 1 and fake.attempts("guard") == 0
    assert "987 次" not in stream_text(events)
    shown = await shown_by_runs_show(running, events[0].data["run_id"], tmp_path, capsys)
    assert "fallback type SEMANTIC_UNSUPPORTED" in shown and "reason CLAIM_UNGROUNDED_VALUE" in shown


async def test_a_broken_citation_shows_no_source(running: Running, fake: FakeOpenAI) -> None:
    broken = {**ROW_ITEM, "tool_call_ids": ["call_made_up"]}
    diagnosis(fake, report(UNGROUNDED, broken))
    payload, row, _ = await fallback(running)
    assert (payload["type"], payload["verified_sources"]) == ("EVIDENCE_VALIDATION_FAILED", [])
    assert payload["limitations"] == ["诊断报告未通过证据引用校验"]
    assert (row["fallback_type"], row["fallback_reason"]) == ("EVIDENCE_VALIDATION_FAILED", "EVIDENCE_CHECK_FAILED")


async def test_a_spent_model_call_budget_says_so(running: Running, fake: FakeOpenAI) -> None:
    calls = iter(range(100))
    fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"})))
    fake.script("agent", reply(json.dumps(PLAN, ensure_ascii=False)))
    fake.default("agent", lambda body: reply(None, [(f"call_{next(calls)}", KNOWLEDGE[1], arguments(KNOWLEDGE[2]))]))
    payload, row, _ = await fallback(running)
    assert payload["type"] == "SEMANTIC_UNSUPPORTED"
    assert payload["limitations"] == ["诊断在用完模型调用预算前未能完成报告"]
    assert [source["source_type"] for source in payload["verified_sources"]] == ["KNOWLEDGE"]
    assert row["fallback_reason"] == "BUDGET_MODEL_CALLS"
    assert fake.attempts("agent") == MAX_MODEL_CALLS


async def test_the_run_time_limit_says_so(running: Running, fake: FakeOpenAI) -> None:
    fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"})))
    fake.script(
        "agent",
        reply(json.dumps(PLAN, ensure_ascii=False)),
        reply(None, [(LOGS[0], LOGS[1], arguments(LOGS[2]))]),
        delay(AGENT_MAX_DURATION_S * 3, reply(json.dumps(report(LOG_ITEM), ensure_ascii=False))),
    )
    payload, row, _ = await fallback(running)
    assert payload["type"] == "SEMANTIC_UNSUPPORTED"
    assert payload["limitations"] == ["诊断超过了运行时限，未能完成报告"]
    assert [source["source_type"] for source in payload["verified_sources"]] == ["LOG"]
    assert row["fallback_reason"] == "BUDGET_DEADLINE"


# -- the language of the question -------------------------------------------------------------------------------


def scripted(fake: FakeOpenAI, guard: str, plan: dict[str, Any] = PLAN) -> None:
    """A diagnosis whose draft holds (knowledge and logs, then MySQL), judged by ``guard``."""
    fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"})))
    fake.script(
        "agent",
        reply(json.dumps(plan, ensure_ascii=False)),
        reply(None, [(call[0], call[1], arguments(call[2])) for call in (KNOWLEDGE, LOGS)]),
        reply(None, [(MYSQL[0], MYSQL[1], arguments(MYSQL[2]))]),
        reply(json.dumps(report(LOG_ITEM, ROW_ITEM), ensure_ascii=False)),
    )
    fake.script("guard", reply(guard))


async def test_an_english_question_gets_the_english_fallback(running: Running, fake: FakeOpenAI) -> None:
    scripted(fake, UNSUPPORTED)
    payload, row, _ = await fallback(running, ENGLISH)
    assert payload == {
        "type": "SEMANTIC_UNSUPPORTED",
        "conclusion": None,
        "message": EN.fallback_message,
        "verified_sources": payload["verified_sources"],
        "limitations": [EN.limitations["SEMANTIC_UNSUPPORTED"]],
        "next_steps": list(EN.fallback_next_steps),
    }
    assert payload["verified_sources"] and row["fallback_reason"] == "GUARD_UNSUPPORTED"
    agent = next(r for r in fake.requests if r.role == "agent").body["messages"][0]["content"]
    assert "问题是英文就用英文写" in agent


async def test_an_english_claim_fallback_names_the_rule_in_english(running: Running, fake: FakeOpenAI) -> None:
    diagnosis(fake, report(UNGROUNDED, ROW_ITEM))
    payload, row, _ = await fallback(running, ENGLISH)
    assert payload["limitations"] == [EN.limitations["CLAIM_UNGROUNDED_VALUE"]]
    assert payload["message"] == EN.fallback_message and row["fallback_reason"] == "CLAIM_UNGROUNDED_VALUE"


async def test_a_chinese_question_gets_the_spec_fallback_byte_for_byte(running: Running, fake: FakeOpenAI) -> None:
    scripted(fake, UNSUPPORTED)
    payload, _, _ = await fallback(running, QUERY)
    assert payload["message"] == "当前证据不足，无法确认根因"
    assert payload["limitations"] == ["已验证证据不足以支持诊断结论"]
    assert payload["next_steps"] == SPEC_NEXT_STEPS


async def test_an_english_question_gets_the_english_generic_plan(running: Running, fake: FakeOpenAI) -> None:
    scripted(fake, SUPPORTED, plan={"plan": ["Root cause: the pool is exhausted", "SELECT 1"]})
    events = await ask(running.url, ENGLISH)
    assert_well_formed(events)
    steps = next(e.data["steps"] for e in events if e.event == "status" and e.data["code"] == "PLANNING")
    assert steps == list(EN.generic_plan)


async def test_an_english_greeting_gets_the_english_capability_text(running: Running, fake: FakeOpenAI) -> None:
    fake.script("router", reply(json.dumps({"intent": "SYSTEM_CHAT"})))
    fake.script("system_chat", reply("Hello! It turns out your payment service is down."))
    events = await ask(running.url, "Hello, what can you do?")
    assert_well_formed(events)
    assert events[-1].data == {"outcome": "FALLBACK"}
    assert content(events) == {"content_type": "SYSTEM_ANSWER", "payload": {"answer": DEFAULT_CAPABILITIES_EN}}
    prompt = next(r for r in fake.requests if r.role == "system_chat").body["messages"][0]["content"]
    assert EN.answer_in in prompt and DEFAULT_CAPABILITIES_EN in prompt
