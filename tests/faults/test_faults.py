"""Faults on real services, over real HTTP. For each: the stream is well-formed (metadata … done, at most one
content/failure), the run has exactly one terminal state in the audit store, no raw tool data or exception text
reaches the client, and the system serves the next request."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
import ray

from actors.names import guard_name, pick, supervisor_name
from cli.sse_client import Event, chat_events
from tests.actors.runtime_support import arguments, ray_config
from tests.fake_openai import FakeOpenAI, delay, hang, http_error, reply
from tests.gateway.e2e_support import SUPPORTED, Running, ask, assert_well_formed, script_agent, started, with_sections
from tests.harness.run_support import GOOD_DRAFT, KNOWLEDGE, PLAN, QUERY, draft
from tests.mysql_fixtures import OrderDb
from tests.services import MariaDBServer, RedisServer, free_port

FORBIDDEN = (
    "Traceback", "Sup3rS3cret", "raw_response", "RayActorError", "ActorDied", "ActorUnavailable", "ConnectionError",
    "OperationalError", "pymysql", "redis.exceptions", "TimeoutError",
)  # fmt: skip
KNOWLEDGE_ONLY = draft(("a1", "NORMAL", ["call_k1"]), conclusion=["a1"], scope="知识库（支付超时排障手册）")


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
        tmp_path_factory.mktemp("faults"),
        model={"timeout-s": 2},
        harness={"agent": {"max-tool-calls": 6, "max-model-calls": 8}},
    )
    with started(config) as gateway:
        yield gateway


async def check(running: Running, events: list[Event], outcome: str | None = None) -> dict[str, Any]:
    """The common assertions; returns the run's audit row."""
    assert_well_formed(events)
    text = json.dumps([event.data for event in events], ensure_ascii=False)
    for forbidden in FORBIDDEN:
        assert forbidden not in text, forbidden
    if outcome is not None:
        assert events[-1].data == {"outcome": outcome}
    row = await wait_for_row(running, events[0].data["run_id"])
    assert row["release_outcome"] == row["status"] == (outcome or events[-1].data["outcome"])
    # Whatever broke, the run's counters agree with the rows it left (a lost supervisor's counted by the store).
    audit = running.parts.audit
    steps, tools = await audit.steps(row["run_id"]), await audit.tool_invocations(row["run_id"])
    assert (row["model_calls"], row["tool_call_count"]) == (len(steps), len(tools))
    assert row["total_tokens"] == sum(step["token_count"] for step in steps)
    return row


async def wait_for_row(running: Running, run_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        row = await running.parts.audit.run(run_id)
        if row is not None and row["release_outcome"] is not None:
            return row
        await asyncio.sleep(0.1)
    raise AssertionError(f"run {run_id} has no terminal state")


async def serves_the_next_request(running: Running, fake: FakeOpenAI) -> None:
    fake.reset()
    script_agent(fake, GOOD_DRAFT)
    fake.script("guard", reply(SUPPORTED))
    events = await ask(running.url, QUERY)
    assert events[-1].data == {"outcome": "SUCCESS"}, [event.data for event in events[-3:]]


def knowledge_turns(*before: Any) -> list[Any]:
    """The agent's turns: plan, ``before`` (the fault), a knowledge lookup, a draft citing it."""
    lookup = reply(None, [(KNOWLEDGE[0], KNOWLEDGE[1], arguments(KNOWLEDGE[2]))])
    return [
        reply(json.dumps(PLAN, ensure_ascii=False)),
        *before,
        lookup,
        reply(json.dumps(KNOWLEDGE_ONLY, ensure_ascii=False)),
    ]


async def test_model_endpoint_http_500(running: Running, fake: FakeOpenAI) -> None:
    fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"})))
    fake.script("agent", reply(json.dumps(PLAN, ensure_ascii=False)), http_error(500))
    events = await ask(running.url, QUERY)
    row = await check(running, events, "FAILED")
    assert events[-2].data["code"] == "MODEL_UNAVAILABLE" and fake.attempts("agent") == 2
    assert row["fallback_reason"] == "MODEL_TRANSPORT"
    await serves_the_next_request(running, fake)


async def test_model_endpoint_timeout(running: Running, fake: FakeOpenAI) -> None:
    fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"})))
    fake.script("agent", reply(json.dumps(PLAN, ensure_ascii=False)), delay(10, reply("late")))
    events = await ask(running.url, QUERY)
    row = await check(running, events, "FAILED")
    assert row["fallback_reason"] == "MODEL_TIMEOUT"
    await serves_the_next_request(running, fake)


async def test_model_endpoint_connection_refused(
    ray_session: None, redis_server: RedisServer, tmp_path_factory: pytest.TempPathFactory
) -> None:
    closed = f"http://127.0.0.1:{free_port()}/v1"
    config = with_sections(ray_config(redis_url=redis_server.url, base_url=closed), tmp_path_factory.mktemp("refused"))
    with started(config) as gateway:
        for _ in range(2):
            events = await ask(gateway.url, QUERY)
            await check(gateway, events, "FAILED")
            assert events[-2].data["code"] == "ROUTING_UNAVAILABLE"


async def test_malformed_tool_call_json_is_a_tool_error_the_agent_recovers_from(
    running: Running, fake: FakeOpenAI
) -> None:
    fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"})))
    fake.script("agent", *knowledge_turns(reply(None, [("call_bad", "query_logs", '{"topic": "APPLICATION", ')])))
    fake.script("guard", reply(SUPPORTED))
    events = await ask(running.url, QUERY)
    await check(running, events, "SUCCESS")
    tools = await running.parts.audit.tool_invocations(events[0].data["run_id"])
    assert ("query_logs", "INVALID_ARGUMENTS") in [(t["tool_name"], t["error_code"]) for t in tools]


async def test_a_call_to_an_unknown_tool(running: Running, fake: FakeOpenAI) -> None:
    fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"})))
    fake.script("agent", *knowledge_turns(reply(None, [("call_x", "drop_database", "{}")])))
    fake.script("guard", reply(SUPPORTED))
    events = await ask(running.url, QUERY)
    await check(running, events, "SUCCESS")
    tools = await running.parts.audit.tool_invocations(events[0].data["run_id"])
    assert ("unknown_tool", "TOOL_NOT_ALLOWED") in [(t["tool_name"], t["error_code"]) for t in tools]


async def test_an_endless_tool_loop_is_stopped_by_the_budget(running: Running, fake: FakeOpenAI) -> None:
    counter = iter(range(1000))
    fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"})))
    fake.script("agent", reply(json.dumps(PLAN, ensure_ascii=False)))
    fake.default("agent", lambda body: reply(None, [(f"call_{next(counter)}", KNOWLEDGE[1], arguments(KNOWLEDGE[2]))]))
    events = await ask(running.url, QUERY)
    row = await check(running, events, "FALLBACK")
    assert row["fallback_reason"] in ("BUDGET_TOOL_CALLS", "BUDGET_MODEL_CALLS", "BUDGET_TOOL_CALLS:lookup_knowledge")
    payload = next(e.data for e in events if e.event == "content")["payload"]
    assert payload["type"] == "SEMANTIC_UNSUPPORTED"  # the evidence found is real and supports no report yet
    assert payload["limitations"][0].startswith("诊断在用完") and payload["verified_sources"]
    await serves_the_next_request(running, fake)


async def test_redis_stopped_mid_run(running: Running, fake: FakeOpenAI, redis_server: RedisServer) -> None:
    fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"})))
    fake.script(
        "agent",
        reply(json.dumps(PLAN, ensure_ascii=False)),
        delay(1.0, reply(None, [(KNOWLEDGE[0], KNOWLEDGE[1], arguments(KNOWLEDGE[2]))])),
        reply(json.dumps(KNOWLEDGE_ONLY, ensure_ascii=False)),
    )
    fake.script("repair", reply(json.dumps(KNOWLEDGE_ONLY, ensure_ascii=False)))
    run = asyncio.create_task(ask(running.url, QUERY))
    while fake.attempts("agent") < 2:
        await asyncio.sleep(0.02)
    redis_server.stop()
    try:
        events = await run
        row = await check(running, events, "FALLBACK")
        assert row["fallback_type"] == "EVIDENCE_VALIDATION_FAILED"
    finally:
        redis_server.start()
    await serves_the_next_request(running, fake)


async def test_a_tool_actor_killed_mid_call(running: Running, fake: FakeOpenAI) -> None:
    slow = {
        "data_source": "order_readonly",
        "params": [],
        "sql": (
            "SELECT COUNT(*) FROM biz_order a JOIN biz_order b ON b.order_id <> a.order_id "
            "JOIN biz_order c ON c.order_id <> b.order_id JOIN biz_order d ON d.order_id <> c.order_id "
            "JOIN biz_order e ON e.order_id <> d.order_id JOIN biz_order f ON f.order_id <> e.order_id"
        ),
    }
    fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"})))
    fake.script("agent", *knowledge_turns(reply(None, [("call_slow", "query_mysql", arguments(slow))])))
    fake.script("guard", reply(SUPPORTED))
    run = asyncio.create_task(ask(running.url, QUERY))
    actor = ray.get_actor("tool:query_mysql", namespace=running.config.ray.namespace)
    deadline = time.monotonic() + 20
    while (await actor.stats.remote())["in_flight"] < 1:
        assert time.monotonic() < deadline
        await asyncio.sleep(0.05)
    ray.kill(actor, no_restart=False)
    events = await run
    await check(running, events, "SUCCESS")
    tools = await running.parts.audit.tool_invocations(events[0].data["run_id"])
    assert ("query_mysql", "TOOL_UNAVAILABLE") in [(t["tool_name"], t["error_code"]) for t in tools]
    # Until Ray has restarted the actor, a call fails at once as TOOL_UNAVAILABLE: a tool call is never retried
    # (seed §4.2), and the scripted agent of the next request cites its MySQL call whatever it returns.
    assert (await restarted(actor))["in_flight"] == 0
    await serves_the_next_request(running, fake)


async def restarted(actor: ray.actor.ActorHandle, deadline_s: float = 60.0) -> dict[str, Any]:
    """The actor's stats once it answers again after a restart."""
    deadline = time.monotonic() + deadline_s
    while True:
        try:
            return dict(await actor.stats.remote())
        except ray.exceptions.ActorUnavailableError:
            assert time.monotonic() < deadline, "the tool actor did not come back"
            await asyncio.sleep(0.2)


async def test_a_guard_replica_killed_mid_evaluation(running: Running, fake: FakeOpenAI) -> None:
    script_agent(fake, GOOD_DRAFT)
    fake.script("guard", hang(), reply(SUPPORTED))
    run = asyncio.create_task(ask(running.url, QUERY))
    while fake.attempts("guard") < 1:
        await asyncio.sleep(0.02)
    config = running.config.ray
    replica = ray.get_actor(guard_name(pick(QUERY, config.guard_pool)), namespace=config.namespace)
    ray.kill(replica, no_restart=False)
    events = await run
    await check(running, events, "SUCCESS")
    assert fake.attempts("guard") == 2
    await serves_the_next_request(running, fake)


async def test_a_supervisor_killed_mid_run(running: Running, fake: FakeOpenAI) -> None:
    fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"})))
    fake.script("agent", reply(json.dumps(PLAN, ensure_ascii=False)), hang())
    run = asyncio.create_task(ask(running.url, QUERY))
    while fake.attempts("agent") < 2:
        await asyncio.sleep(0.02)
    config = running.config.ray
    for index in range(config.supervisor_pool):
        ray.kill(ray.get_actor(supervisor_name(index), namespace=config.namespace), no_restart=False)
    events = await asyncio.wait_for(run, 30)
    row = await check(running, events, "FAILED")
    assert events[-2].data["code"] == "RUN_UNAVAILABLE"
    assert row["fallback_reason"] == "SUPERVISOR_LOST"
    await serves_the_next_request(running, fake)


@pytest.mark.parametrize(
    ("stage", "script", "until"),
    [
        ("routing", lambda fake: fake.script("router", hang()), lambda e: e.data.get("code") == "ROUTING"),
        (
            "planning",
            lambda fake: (
                fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"}))),
                fake.script("agent", hang()),
            ),
            lambda e: e.data.get("code") == "ROUTED",
        ),
        (
            "tool",
            lambda fake: (
                fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"}))),
                fake.script("agent", *knowledge_turns(hang())),
            ),
            lambda e: e.data.get("code") == "PLANNING",
        ),
        (
            "repair",
            lambda fake: (script_agent(fake, draft(("a1", "NORMAL", ["call_nope"]))), fake.script("repair", hang())),
            lambda e: e.data.get("code") == "EVIDENCE_REPAIRING",
        ),
        (
            "semantic",
            lambda fake: (script_agent(fake, GOOD_DRAFT), fake.script("guard", hang())),
            lambda e: e.data.get("code") == "SEMANTIC_VALIDATING",
        ),
    ],
)
async def test_a_client_disconnect_at_each_stage(
    running: Running, fake: FakeOpenAI, stage: str, script: Callable[[FakeOpenAI], Any], until: Callable[[Event], bool]
) -> None:
    script(fake)
    run_id = None
    async with httpx.AsyncClient(timeout=httpx.Timeout(10, read=30)) as client:
        stream = chat_events(client, running.url, QUERY)
        async for event in stream:
            run_id = run_id or event.data.get("run_id")
            if until(event):
                break
        await asyncio.sleep(0.3)
        await stream.aclose()
    row = await wait_for_row(running, str(run_id))
    assert (row["status"], row["release_outcome"]) == ("CANCELLED", "CANCELLED"), stage
    await serves_the_next_request(running, fake)


async def test_mysql_stopped_mid_run(
    ray_session: None,
    redis_server: RedisServer,
    fake: FakeOpenAI,
    order_db: OrderDb,
    mariadb_server: MariaDBServer,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    base = with_sections(
        ray_config(redis_url=redis_server.url, base_url=fake.base_url), tmp_path_factory.mktemp("mysql-down")
    )
    mysql_tools = order_db.config().harness.mysql_tools
    config = base.model_copy(update={"harness": base.harness.model_copy(update={"mysql_tools": mysql_tools})})
    order = {
        "data_source": "order_readonly",
        "sql": "SELECT order_id, payment_status FROM biz_order WHERE order_id = ?",
        "params": ["order-123"],
    }
    with started(config) as gateway:
        fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"})))
        fake.script("agent", *knowledge_turns(delay(1.0, reply(None, [("call_m", "query_mysql", arguments(order))]))))
        fake.script("guard", reply(SUPPORTED))
        run = asyncio.create_task(ask(gateway.url, QUERY))
        while fake.attempts("agent") < 2:
            await asyncio.sleep(0.02)
        mariadb_server.stop()
        try:
            events = await run
            await check(gateway, events, "SUCCESS")
            tools = await gateway.parts.audit.tool_invocations(events[0].data["run_id"])
            assert ("query_mysql", "TOOL_UNAVAILABLE") in [(t["tool_name"], t["error_code"]) for t in tools]
        finally:
            mariadb_server.start()
        fake.reset()
        fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"})))
        fake.script(
            "agent",
            reply(json.dumps(PLAN, ensure_ascii=False)),
            reply(None, [("call_m", "query_mysql", arguments(order))]),
            reply(json.dumps(draft(("a1", "NORMAL", ["call_m"])), ensure_ascii=False)),
        )
        fake.script("guard", reply(SUPPORTED))
        events = await ask(gateway.url, QUERY)
        await check(gateway, events, "SUCCESS")
