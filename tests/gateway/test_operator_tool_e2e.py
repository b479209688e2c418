"""An operator's own evidence tool, added by configuration only: a kind that lives under ``tests/`` is offered to
the agent, runs in its own tool actor, is cited, audited and expanded in the released report, over HTTP."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from tests.actors.runtime_support import arguments, ray_config
from tests.fake_openai import FakeOpenAI, reply
from tests.gateway.e2e_support import SUPPORTED, Running, ask, assert_well_formed, started, with_sections
from tests.harness.run_support import PLAN, QUERY
from tests.services import RedisServer

TICKETS = {"query_tickets": {"kind": "tests.kinds.tickets:KIND", "concurrency": 1, "max-pending": 2}}


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server


@pytest.fixture(scope="module")
def running(
    ray_session: None, redis_server: RedisServer, fake: FakeOpenAI, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Running]:
    base = ray_config(redis_url=redis_server.url, base_url=fake.base_url, tools=TICKETS)
    config = with_sections(
        base, tmp_path_factory.mktemp("tickets"), harness={"agent": {"max-tool-calls-per-tool": {"query_tickets": 2}}}
    )
    with started(config) as gateway:
        yield gateway


async def test_a_configured_tool_is_offered_cited_audited_and_referenced(running: Running, fake: FakeOpenAI) -> None:
    final = {
        "conclusion": {"text": "order-service 有一张未关闭的 P1 事故单 INC-4711", "based_on_analysis_ids": ["a1"]},
        "analysis": [
            {
                "analysis_id": "a1",
                "kind": "NORMAL",
                "text": "order-service 的事故单 INC-4711（OPEN）：order-service HikariPool exhausted",
                "tool_call_ids": ["call_t1"],
            }
        ],
        "action_plan": [],
        "recommendations": [],
        "limitations": {"scope": "order-service 的事故单", "missing_info": []},
    }
    fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"})))
    fake.script(
        "agent",
        reply(json.dumps(PLAN, ensure_ascii=False)),
        reply(None, [("call_t1", "query_tickets", arguments({"service": "order-service"}))]),
        reply(json.dumps(final, ensure_ascii=False)),
    )
    fake.script("guard", reply(SUPPORTED))
    events = await ask(running.url, QUERY)
    assert_well_formed(events)
    assert events[-1].data == {"outcome": "SUCCESS"}
    offered = [tool["function"]["name"] for tool in fake.requests[1].body["tools"]]
    assert "query_tickets" in offered
    report = next(event.data for event in events if event.event == "content")["payload"]
    [reference] = report["references"]
    assert (reference["source_type"], reference["source"]) == ("TICKET", "incident tickets")
    assert reference["evidence"][0]["ticket_id"] == "INC-4711"
    guard = json.loads(fake.requests[-1].body["messages"][-1]["content"])
    assert guard["verified_evidence"][0]["verified_evidence"][0]["source_type"] == "TICKET"
    rows = await running.parts.audit.tool_invocations(events[0].data["run_id"])
    assert [(row["tool_name"], row["evidence_status"]) for row in rows] == [("query_tickets", "EVIDENCE_FOUND")]
