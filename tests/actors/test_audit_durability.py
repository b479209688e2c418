"""The audit under the actor runtime (group commit, issue 11): a run's rows are durable before its client hears
``done``, and a supervisor killed mid-run leaves every row its Harness wrote before the kill."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator

import pytest
import ray

from actors.names import supervisor_name
from actors.runtime import HarnessClient
from harness.messages import RunEvent
from stores.audit.store import SqlAuditStore
from tests.actors.runtime_support import SUPPORTED, arguments, diagnosis_turn, ray_config
from tests.fake_openai import FakeOpenAI, hang, reply
from tests.harness.run_support import KNOWLEDGE, LOGS, PLAN, QUERY

RUNS = 8
WRITE_GRACE_S = 0.5
"""How long the test waits, after the Harness issued its last write, before it kills the supervisor."""


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server


async def test_done_never_precedes_the_rows_of_its_run(
    ray_session: None, redis_url: str, fake: FakeOpenAI, runtimes: list
) -> None:
    fake.default("router", lambda body: reply(json.dumps({"intent": "DIAGNOSIS"})))
    fake.default("agent", diagnosis_turn)
    fake.default("guard", lambda body: reply(SUPPORTED))
    config = ray_config(redis_url=redis_url, base_url=fake.base_url)
    runtimes.append(config)
    client = HarnessClient(config)
    audit = SqlAuditStore(config.audit)  # a reader of its own: it sees only what is committed

    async def at_done(session: str) -> tuple[dict, list[dict], list[dict], list[dict]]:
        events: list[RunEvent] = []
        async for event in client.chat(session, QUERY):
            events.append(event)
            if event.event == "done":  # read at once, before the stream is even closed
                run_id = events[0].data["run_id"]
                row = await audit.run(run_id)
                steps, tools = await audit.steps(run_id), await audit.tool_invocations(run_id)
                return row or {}, steps, tools, await audit.guard_checks(run_id)
        raise AssertionError("no done event")

    try:
        seen = await asyncio.gather(*(at_done(f"s-{n}") for n in range(RUNS)))
    finally:
        audit.close()
    for row, steps, tools, checks in seen:
        assert (row["status"], row["release_outcome"]) == ("SUCCESS", "SUCCESS")
        assert row["model_calls"] == 6 and row["tool_call_count"] == 3
        assert (len(steps), len(tools)) == (6, 3)  # router, 4 agent turns, guard; knowledge, logs, mysql
        asking = {step["id"] for step in steps if step["has_tool_call"]}
        assert {tool["step_id"] for tool in tools} <= asking and len(asking) == 2  # each call names its turn
        assert [(check["guard"], check["verdict"]) for check in checks] == [
            ("evidence", "PASS"),
            ("semantic", "SUPPORTED"),
        ]


async def test_a_supervisor_killed_mid_run_leaves_every_row_written_before_the_kill(
    ray_session: None, redis_url: str, fake: FakeOpenAI, runtimes: list
) -> None:
    fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"})))
    fake.script(
        "agent",
        reply(json.dumps(PLAN, ensure_ascii=False)),
        reply(None, [(KNOWLEDGE[0], KNOWLEDGE[1], arguments(KNOWLEDGE[2])), (LOGS[0], LOGS[1], arguments(LOGS[2]))]),
        hang(),
    )
    config = ray_config(redis_url=redis_url, base_url=fake.base_url, ray={"max-restarts": 0})
    runtimes.append(config)
    client = HarnessClient(config)
    stream = client.chat("s-kill", QUERY)
    metadata = await anext(stream)
    reading = asyncio.ensure_future(_drain(stream))
    while fake.attempts("agent") < 3:  # the third turn hangs: both tool calls of the second are done
        await asyncio.sleep(0.02)
    await asyncio.sleep(WRITE_GRACE_S)
    ray.kill(ray.get_actor(supervisor_name(0), namespace=config.ray.namespace), no_restart=True)
    ended = await asyncio.wait_for(reading, 30)
    assert [event.event for event in ended[-2:]] == ["failure", "done"] and ended[-1].data == {"outcome": "FAILED"}
    run_id = metadata.data["run_id"]
    audit = SqlAuditStore(config.audit)
    try:
        row = await audit.run(run_id)
        steps = await audit.steps(run_id)
        tools = await audit.tool_invocations(run_id)
    finally:
        audit.close()
    assert row is not None and row["query"] == QUERY
    assert [(step["agent_name"], step["outcome"]) for step in steps] == [
        ("router", "OK"),
        ("agent", "OK"),
        ("agent", "OK"),
    ]
    assert sorted(tool["tool_name"] for tool in tools) == ["lookup_knowledge", "query_logs"]
    assert all(tool["success"] for tool in tools)


async def _drain(stream: AsyncIterator[RunEvent]) -> list[RunEvent]:
    return [event async for event in stream]
