"""The actor runtime on a real Ray: supervisor, agent, tool actors and guard pool, with a fake OpenAI endpoint
reached over HTTP by the real SDK, and the invocation store on a real Redis."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import ray
import yaml

from actors.names import guard_name, pick, supervisor_name
from actors.runtime import HarnessClient, RuntimeMismatch, runtime_actor_names
from cli.main import main
from harness.messages import StartRun
from stores.audit.store import SqlAuditStore
from tests.actors.runtime_support import (
    FAKE_KEY,
    SUPPORTED,
    collect,
    names,
    payload,
    ray_config,
    script_diagnosis,
)
from tests.fake_openai import FakeOpenAI, hang, reply
from tests.harness.run_support import PLAN, QUERY


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server


async def test_a_diagnosis_runs_across_the_actors(
    ray_session: None, redis_url: str, fake: FakeOpenAI, runtimes: list
) -> None:
    script_diagnosis(fake)
    fake.script("guard", reply(SUPPORTED))
    config = ray_config(redis_url=redis_url, base_url=fake.base_url)
    runtimes.append(config)
    client = HarnessClient(config)
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
    ray_session: None, redis_url: str, fake: FakeOpenAI, runtimes: list
) -> None:
    fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"})))
    fake.script("agent", reply(json.dumps(PLAN, ensure_ascii=False)), hang())
    config = ray_config(redis_url=redis_url, base_url=fake.base_url)
    runtimes.append(config)
    client = HarnessClient(config)
    stream = client.chat("s-1", QUERY)
    async for event in stream:
        if event.event == "status" and event.data["code"] == "PLANNING":
            break
    while fake.attempts("agent") < 2:
        await asyncio.sleep(0.05)
    await stream.aclose()
    assert await asyncio.to_thread(fake.wait_for_disconnects, 1, 10)
    assert fake.attempts("agent") == 2


async def test_a_run_whose_client_stops_fetching_is_cancelled_after_the_lease(
    ray_session: None, redis_url: str, fake: FakeOpenAI, runtimes: list
) -> None:
    fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"})))
    fake.script("agent", reply(json.dumps(PLAN, ensure_ascii=False)), hang())
    config = ray_config(redis_url=redis_url, base_url=fake.base_url, ray={"client-lease": "1s"})
    runtimes.append(config)
    HarnessClient(config)
    supervisor = ray.get_actor(supervisor_name(0), namespace=config.ray.namespace)
    run_id = "run-lost-client"
    await supervisor.open.remote(StartRun(session_id="s-lost", query=QUERY, run_id=run_id), "reader-lost")
    while fake.attempts("agent") < 2:  # a client that reads for a while, then vanishes without closing
        await supervisor.poll.remote("reader-lost", [run_id], 0.1)
    audit = SqlAuditStore(config.audit)
    try:
        row = None
        for _ in range(100):
            row = await audit.run(run_id)
            if row is not None and row["status"] is not None and row["status"] != "RUNNING":
                break
            await asyncio.sleep(0.1)
        assert row is not None and (row["status"], row["release_outcome"]) == ("CANCELLED", "CANCELLED")
        assert await asyncio.to_thread(fake.wait_for_disconnects, 1, 10)
        assert await supervisor.poll.remote("reader-lost", [run_id], 0) == {run_id: None}
    finally:
        audit.close()


def test_actors_of_another_configuration_are_refused_until_stopped(
    ray_session: None, redis_url: str, runtimes: list, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = ray_config(redis_url=redis_url)
    runtimes.append(first)
    HarnessClient(first)
    namespace = {"namespace": first.ray.namespace}
    changed = ray_config(redis_url=redis_url, ray=namespace, harness={"run": {"deadline": "999s"}})
    with pytest.raises(RuntimeMismatch, match="superbiz runtime stop"):
        HarnessClient(changed)
    gateway_only = first.model_copy(update={"gateway": first.gateway.model_copy(update={"port": 9999})})
    HarnessClient(gateway_only)

    path = tmp_path / "changed.yaml"
    path.write_text(yaml.safe_dump(changed.model_dump(mode="json")))
    assert main(["runtime", "stop", "--config", str(path)]) == 0
    actors = runtime_actor_names(first)
    assert {"tool:query_metrics", "tool:query_logs"} <= set(actors)
    assert f"stopped {len(actors)} actor(s)" in capsys.readouterr().out
    HarnessClient(changed)


async def test_a_dead_guard_replica_is_retried_on_another(
    ray_session: None, redis_url: str, fake: FakeOpenAI, runtimes: list
) -> None:
    script_diagnosis(fake)
    fake.script("guard", hang(), reply(SUPPORTED))
    config = ray_config(redis_url=redis_url, base_url=fake.base_url)
    runtimes.append(config)
    client = HarnessClient(config)
    run = asyncio.create_task(collect(client, QUERY))
    while fake.attempts("guard") < 1:
        await asyncio.sleep(0.05)
    first_replica = guard_name(pick(QUERY, config.ray.guard_pool))
    ray.kill(ray.get_actor(first_replica, namespace=config.ray.namespace), no_restart=True)
    events = await asyncio.wait_for(run, 30)
    assert events[-1].data == {"outcome": "SUCCESS"}
    assert fake.attempts("guard") == 2


async def test_offline_model_diagnosis_on_ray_cites_all_four_tools(
    ray_session: None, redis_url: str, runtimes: list
) -> None:
    config = ray_config(redis_url=redis_url)
    runtimes.append(config)
    client = HarnessClient(config)
    events = await collect(client, QUERY)
    assert events[0].data["model"] == "offline deterministic model (not an LLM)"
    assert events[-1].data == {"outcome": "SUCCESS"}
    content = payload(events)
    assert content["content_type"] == "DIAGNOSIS_REPORT"
    report = content["payload"]
    assert report["conclusion"] is not None
    assert {ref["source_type"] for ref in report["references"]} == {"LOG", "MYSQL", "KNOWLEDGE", "METRIC"}
    codes = [event.data["code"] for event in events if event.event == "status"]
    assert "PLANNING" in codes and "SEMANTIC_VALIDATING" in codes


@pytest.mark.parametrize(
    ("close", "recorded"),
    [
        ((), ("CANCELLED", "CANCELLED", None)),
        # The soak found a gateway's shutdown recorded CANCELLED while the stream said done(FAILED).
        (("SERVICE_STOPPING",), ("FAILED", "FAILED", "SERVICE_STOPPING")),
    ],
)
async def test_a_run_cancelled_while_queued_is_recorded_cancelled_once(
    ray_session: None,
    redis_url: str,
    fake: FakeOpenAI,
    runtimes: list,
    close: tuple[str, ...],
    recorded: tuple[str, str, str | None],
) -> None:
    """Issue 19: its client was shown the run id, so a run that never got a slot still has its one terminal row:
    CANCELLED when its client left, FAILED for SERVICE_STOPPING when its gateway shut down (as its stream ended)."""
    fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"})))
    fake.script("agent", reply(json.dumps(PLAN, ensure_ascii=False)), hang())
    config = ray_config(redis_url=redis_url, base_url=fake.base_url, ray={"max-active-runs": 1})
    runtimes.append(config)
    HarnessClient(config)
    supervisor = ray.get_actor(supervisor_name(0), namespace=config.ray.namespace)
    await supervisor.open.remote(StartRun(session_id="s-busy", query=QUERY, run_id="run-busy"), "reader-q")
    while fake.attempts("agent") < 2:  # the only slot is held by a run waiting on its model
        await supervisor.poll.remote("reader-q", ["run-busy"], 0.1)
    queued = "run-queued"
    await supervisor.open.remote(StartRun(session_id="s-queued", query=QUERY, run_id=queued), "reader-q")
    polled = await supervisor.poll.remote("reader-q", [queued], 1)
    assert [event.data.get("code") for event in polled[queued]] == ["QUEUED"]
    await supervisor.close.remote(queued, *close)
    audit = SqlAuditStore(config.audit)
    try:
        row = None
        for _ in range(100):
            row = await audit.run(queued)
            if row is not None and row["status"] not in (None, "RUNNING"):
                break
            await asyncio.sleep(0.1)
        assert row is not None and (row["status"], row["release_outcome"], row["fallback_reason"]) == recorded
        assert row["session_id"] == "s-queued" and fake.attempts("router") == 1  # it never routed
    finally:
        audit.close()
        await supervisor.close.remote("run-busy")
