"""A spent budget still ends in a report (issue 18), over real HTTP with a scripted OpenAI-compatible model.

The model asks for more tool calls in parallel than the run's tool budget allows, as a real model did on the demo
question (4, then 8, then 3 against a budget of 12). The calls over the budget are refused as Tool ERRORs and
recorded; the next turn offers no tool and asks for the draft; the draft passes through the guards like any
other and is released (or the guards decide the fallback). The SSE stream stays well formed throughout.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from harness.turn_budget import final_instruction
from tests.actors.runtime_support import arguments, ray_config
from tests.fake_openai import FakeOpenAI, RecordedRequest, reply
from tests.gateway.e2e_support import SUPPORTED, UNSUPPORTED, Running, ask, assert_well_formed, started, with_sections
from tests.harness.run_support import GOOD_DRAFT, KNOWLEDGE, LOGS, MYSQL, PLAN, QUERY
from tests.services import RedisServer

TOOL_BUDGET = 3
EXTRA_LOGS = ("call_l2", "query_logs", {"topic": "APPLICATION", "query": "payment-service timeout"})
EXTRA_KNOWLEDGE = ("call_k2", "lookup_knowledge", {"query": "支付回调超时"})
PARALLEL = (KNOWLEDGE, LOGS, MYSQL, EXTRA_LOGS, EXTRA_KNOWLEDGE)
"""Five calls in one reply; the budget admits the first three."""


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
        ray_config(redis_url=redis_server.url, base_url=fake.base_url),
        tmp_path_factory.mktemp("budget"),
        harness={"agent": {"max-tool-calls": TOOL_BUDGET}},
    )
    with started(config) as gateway:
        yield gateway


def script(fake: FakeOpenAI, guard: str) -> None:
    fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"})))
    fake.script(
        "agent",
        reply(json.dumps(PLAN, ensure_ascii=False)),
        reply(None, [(call_id, name, arguments(args)) for call_id, name, args in PARALLEL]),
        reply(json.dumps(GOOD_DRAFT, ensure_ascii=False), usage=(3000, 900)),
    )
    fake.script("guard", reply(guard))


def agent_requests(fake: FakeOpenAI) -> list[dict[str, Any]]:
    return [
        request.body for request in fake.requests if isinstance(request, RecordedRequest) and request.role == "agent"
    ]


def statuses(events: list[Any], code: str) -> list[dict[str, Any]]:
    return [event.data for event in events if event.event == "status" and event.data["code"] == code]


@pytest.mark.parametrize(
    ("guard", "outcome", "content_type"),
    [(SUPPORTED, "SUCCESS", "DIAGNOSIS_REPORT"), (UNSUPPORTED, "FALLBACK", "FALLBACK")],
    ids=["released", "guard-decides-the-fallback"],
)
async def test_a_run_whose_tool_budget_runs_out_with_model_calls_left_ends_in_its_draft(
    running: Running, fake: FakeOpenAI, guard: str, outcome: str, content_type: str
) -> None:
    script(fake, guard)
    events = await ask(running.url, QUERY)
    assert_well_formed(events)
    assert events[-1].data == {"outcome": outcome}
    content = next(event.data for event in events if event.event == "content")
    assert content["content_type"] == content_type
    if content_type == "FALLBACK":  # the SemanticGuard decided: real evidence, words it did not find supported
        assert content["payload"]["type"] == "SEMANTIC_UNSUPPORTED" and content["payload"]["verified_sources"]
    else:
        assert [ref["source_type"] for ref in content["payload"]["references"]] == ["LOG", "MYSQL", "KNOWLEDGE"]
    assert fake.attempts("guard") == 1 and fake.attempts("repair") == 0

    # The stream shows the three calls that ran and the two refused, which never ran.
    assert len(statuses(events, "TOOL_RUNNING")) == TOOL_BUDGET
    finished = [status["evidence_status"] for status in statuses(events, "TOOL_FINISHED")]
    assert len(finished) == len(PARALLEL) and finished.count("ERROR") == len(PARALLEL) - TOOL_BUDGET

    plan, investigating, final = agent_requests(fake)
    assert plan["tool_choice"] == "none"
    assert investigating["tools"] and investigating["messages"][-1]["content"].startswith(
        f"剩余预算：工具调用 {TOOL_BUDGET}/{TOOL_BUDGET}（"
    )
    # The final call: no tool offered (so no tool_choice either), a JSON reply, told why and what to write.
    assert "tools" not in final and "tool_choice" not in final
    assert final["response_format"] == {"type": "json_object"}
    assert final["messages"][-1] == {"role": "user", "content": final_instruction("TOOL_CALLS")}
    results = {m["tool_call_id"]: json.loads(m["content"]) for m in final["messages"] if m["role"] == "tool"}
    assert set(results) == {call[0] for call in PARALLEL}
    for call_id in (EXTRA_LOGS[0], EXTRA_KNOWLEDGE[0]):
        assert results[call_id]["evidence_status"] == "ERROR"
        assert results[call_id]["error"]["code"] == "BUDGET_EXHAUSTED"

    audit = running.parts.audit
    run_id = events[0].data["run_id"]
    rows = {row["tool_call_id"]: row for row in await audit.tool_invocations(run_id)}
    assert set(rows) == {call[0] for call in PARALLEL}
    assert sorted(call for call, row in rows.items() if row["error_code"] == "BUDGET_EXHAUSTED") == [
        "call_k2",
        "call_l2",
    ]
    run = await audit.run(run_id)
    assert run is not None and (run["status"], run["tool_call_count"]) == (outcome, len(PARALLEL))
    assert run["fallback_reason"] == (None if outcome == "SUCCESS" else "GUARD_UNSUPPORTED")
