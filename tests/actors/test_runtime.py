"""The actor runtime on a real Ray: supervisor, agent, tool actors and guard pool, with a fake OpenAI endpoint
reached over HTTP by the real SDK, and the invocation store on a real Redis."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import pytest
import ray

from actors.names import guard_name, pick
from actors.runtime import HarnessClient
from tests.actors.runtime_support import FAKE_KEY, arguments, collect, names, payload, ray_config
from tests.fake_openai import FakeOpenAI, hang, reply
from tests.harness.run_support import GOOD_DRAFT, KNOWLEDGE, LOGS, MYSQL, PLAN, QUERY

SUPPORTED = json.dumps({"verdict": "SUPPORTED", "reason": "ok"})


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server


def script_diagnosis(fake: FakeOpenAI) -> None:
    fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"})))
    fake.script(
        "agent",
        reply(json.dumps(PLAN, ensure_ascii=False)),
        reply(None, [(KNOWLEDGE[0], KNOWLEDGE[1], arguments(KNOWLEDGE[2])), (LOGS[0], LOGS[1], arguments(LOGS[2]))]),
        reply(None, [(MYSQL[0], MYSQL[1], arguments(MYSQL[2]))]),
        reply(json.dumps(GOOD_DRAFT, ensure_ascii=False), usage=(120, 80)),
    )


async def test_a_diagnosis_runs_across_the_actors(ray_session: None, redis_url: str, fake: FakeOpenAI) -> None:
    script_diagnosis(fake)
    fake.script("guard", reply(SUPPORTED))
    client = HarnessClient(ray_config(redis_url=redis_url, base_url=fake.base_url))
    events = await collect(client, QUERY)
    assert names(events)[0] == "metadata" and names(events)[-2:] == ["content", "done"]
    assert events[-1].data == {"outcome": "SUCCESS"}
    report = payload(events)["payload"]
    assert [ref["source_type"] for ref in report["references"]] == ["LOG", "MYSQL", "KNOWLEDGE"]
    assert (fake.attempts("router"), fake.attempts("agent"), fake.attempts("guard")) == (1, 4, 1)
    guard_request = next(r for r in fake.requests if r.role == "guard")
    sent = json.dumps(guard_request.body["messages"], ensure_ascii=False)
    assert "call_k1" not in sent and "call_l1" not in sent and "raw_response" not in sent
    assert "tools" not in guard_request.body
    agent_text = json.dumps([r.body for r in fake.requests if r.role == "agent"], ensure_ascii=False)
    assert "Sup3rS3cret" not in agent_text and "raw_response" not in agent_text
    assert all(FAKE_KEY not in json.dumps(e.data) for e in events)


async def test_a_client_that_goes_away_aborts_the_model_request(
    ray_session: None, redis_url: str, fake: FakeOpenAI
) -> None:
    fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"})))
    fake.script("agent", reply(json.dumps(PLAN, ensure_ascii=False)), hang())
    client = HarnessClient(ray_config(redis_url=redis_url, base_url=fake.base_url))
    stream = client.chat("s-1", QUERY)
    async for event in stream:
        if event.event == "status" and event.data["code"] == "PLANNING":
            break
    while fake.attempts("agent") < 2:
        await asyncio.sleep(0.05)
    await stream.aclose()
    assert await asyncio.to_thread(fake.wait_for_disconnects, 1, 10)
    assert fake.attempts("agent") == 2


async def test_a_dead_guard_replica_is_retried_on_another(ray_session: None, redis_url: str, fake: FakeOpenAI) -> None:
    script_diagnosis(fake)
    fake.script("guard", hang(), reply(SUPPORTED))
    config = ray_config(redis_url=redis_url, base_url=fake.base_url)
    client = HarnessClient(config)
    run = asyncio.create_task(collect(client, QUERY))
    while fake.attempts("guard") < 1:
        await asyncio.sleep(0.05)
    first_replica = guard_name(pick(QUERY, config.ray.guard_pool))
    ray.kill(ray.get_actor(first_replica, namespace=config.ray.namespace), no_restart=True)
    events = await asyncio.wait_for(run, 30)
    assert events[-1].data == {"outcome": "SUCCESS"}
    assert fake.attempts("guard") == 2


async def test_offline_model_diagnosis_on_ray_cites_all_three_tools(ray_session: None, redis_url: str) -> None:
    client = HarnessClient(ray_config(redis_url=redis_url))
    events = await collect(client, QUERY)
    assert events[0].data["model"] == "offline deterministic model (not an LLM)"
    assert events[-1].data == {"outcome": "SUCCESS"}
    content = payload(events)
    assert content["content_type"] == "DIAGNOSIS_REPORT"
    report = content["payload"]
    assert report["conclusion"] is not None
    assert {ref["source_type"] for ref in report["references"]} == {"LOG", "MYSQL", "KNOWLEDGE"}
    codes = [event.data["code"] for event in events if event.event == "status"]
    assert "PLANNING" in codes and "SEMANTIC_VALIDATING" in codes
