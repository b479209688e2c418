"""End to end over real HTTP: uvicorn on a free loopback port, the Ray runtime, real Redis, the SQLite audit
store, and a fake OpenAI endpoint reached by the real SDK. Every outcome, auth, audit rows, previous_turn, and a
client disconnect that kills a running MariaDB query."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import ray

from actors.runtime import shutdown_runtime
from cli.serve import GatewayThread, build_gateway
from cli.sse_client import RequestFailed, chat_events
from tests.actors.runtime_support import FAKE_KEY, arguments, ray_config
from tests.fake_openai import FakeOpenAI, http_error, reply
from tests.gateway.e2e_support import (
    KEYS,
    PROMPT_MARKER,
    SLOW_SQL,
    SQL_SECRET,
    SUPPORTED,
    UNSUPPORTED,
    Running,
    ask,
    assert_well_formed,
    script_agent,
    started,
    with_sections,
)
from tests.harness.run_support import GOOD_DRAFT, KNOWLEDGE, LOGS, MYSQL, PLAN, QUERY, draft
from tests.mysql_fixtures import OrderDb
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
    tmp = tmp_path_factory.mktemp("e2e")
    config = with_sections(ray_config(redis_url=redis_server.url, base_url=fake.base_url), tmp)
    with started(config) as gateway:
        yield gateway


FABRICATED = draft(("a1", "NORMAL", ["call_made_up"]), conclusion=["a1"])


@pytest.mark.parametrize(
    ("scenario", "outcome", "content_type", "fallback_type"),
    [
        ("supported", "SUCCESS", "DIAGNOSIS_REPORT", None),
        ("evidence-fails-twice", "FALLBACK", "FALLBACK", "EVIDENCE_VALIDATION_FAILED"),
        ("guard-unsupported", "FALLBACK", "FALLBACK", "SEMANTIC_UNSUPPORTED"),
        ("guard-invalid-twice", "FALLBACK", "FALLBACK", "SEMANTIC_UNAVAILABLE"),
        ("router-down", "FAILED", None, None),
    ],
)
async def test_every_outcome_streams_well_formed(
    running: Running, fake: FakeOpenAI, scenario: str, outcome: str, content_type: str | None, fallback_type: str | None
) -> None:
    if scenario == "router-down":
        fake.script("router", http_error(500), http_error(500))
    else:
        script_agent(fake, FABRICATED if scenario == "evidence-fails-twice" else GOOD_DRAFT)
        fake.script("repair", reply(json.dumps(FABRICATED, ensure_ascii=False)))
        guard = {
            "supported": [SUPPORTED],
            "guard-unsupported": [UNSUPPORTED],
            "guard-invalid-twice": ["not json", "still not json"],
        }.get(scenario, [])
        fake.script("guard", *(reply(text) for text in guard))
    events = await ask(running.url, QUERY)
    assert_well_formed(events)
    assert events[-1].data == {"outcome": outcome}
    if content_type is None:
        assert events[-2].event == "failure" and events[-2].data["code"] == "ROUTING_UNAVAILABLE"
        assert fake.attempts("router") == 2
    else:
        content = next(e.data for e in events if e.event == "content")
        assert content["content_type"] == content_type
        if fallback_type:
            assert content["payload"]["type"] == fallback_type
            text = json.dumps(content, ensure_ascii=False)
            assert "连接池耗尽有关" not in text and "审计" not in text
            if fallback_type == "EVIDENCE_VALIDATION_FAILED":
                assert content["payload"]["verified_sources"] == []
            else:
                assert content["payload"]["verified_sources"]
    run_id = events[0].data["run_id"]
    row = await running.parts.audit.run(run_id)
    assert row is not None and row["release_outcome"] == outcome and row["status"] == outcome
    assert row["fallback_type"] == fallback_type


async def test_audit_rows_and_no_raw_data_or_prompt_anywhere(running: Running, fake: FakeOpenAI) -> None:
    secret_sql = (
        "call_m2",
        "query_mysql",
        {**MYSQL[2], "sql": MYSQL[2]["sql"] + " AND o.user_id <> ?", "params": ["order-123", SQL_SECRET]},
    )
    fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"})))
    fake.script(
        "agent",
        reply(json.dumps(PLAN, ensure_ascii=False)),
        reply(None, [(KNOWLEDGE[0], KNOWLEDGE[1], arguments(KNOWLEDGE[2])), (LOGS[0], LOGS[1], arguments(LOGS[2]))]),
        reply(None, [(secret_sql[0], secret_sql[1], arguments(secret_sql[2]))]),
        reply(
            json.dumps(
                draft(("a1", "NORMAL", ["call_l1"]), ("a2", "NORMAL", ["call_k1"]), conclusion=["a1"]),
                ensure_ascii=False,
            ),
            usage=(120, 60),
        ),
    )
    fake.script("guard", reply(SUPPORTED))
    events = await ask(running.url, QUERY)
    assert events[-1].data == {"outcome": "SUCCESS"}
    run_id = events[0].data["run_id"]
    audit = running.parts.audit
    run = await audit.run(run_id)
    assert run["intent"] == "DIAGNOSIS" and run["tool_call_count"] == 3
    assert (run["model_calls"], run["input_tokens"], run["output_tokens"], run["total_tokens"]) == (6, 120, 60, 180)
    assert set(run["published_result"]) == {
        "user_query",
        "published_conclusion",
        "scope",
        "limitations",
        "source_documents",
    }
    tools = await audit.tool_invocations(run_id)
    assert sorted(t["tool_name"] for t in tools) == ["lookup_knowledge", "query_logs", "query_mysql"]
    mysql = next(t for t in tools if t["tool_name"] == "query_mysql")
    assert SQL_SECRET not in json.dumps(mysql["input_params"]) and "[REDACTED]" in json.dumps(mysql["input_params"])
    steps = await audit.steps(run_id)
    assert [s["agent_name"] for s in steps].count("agent") == 4
    database = Path(running.config.audit.url.removeprefix("sqlite:///")).read_bytes()
    for forbidden in (b"Sup3rS3cret", SQL_SECRET.encode(), "你是 SuperBiz".encode(), b"raw_response"):
        assert forbidden not in database
    logs = Path(ray._private.worker.global_worker.node.get_logs_dir_path())
    lines = [line for path in logs.glob("worker-*") for line in path.read_text(errors="replace").splitlines()]
    assert any(run_id in line and '"session_id"' in line for line in lines), "no structured line for the run"
    text = "\n".join(lines)
    for forbidden in ("Sup3rS3cret", SQL_SECRET, PROMPT_MARKER, FAKE_KEY):
        assert forbidden not in text


async def test_previous_turn_across_turns_and_its_exclusion_after_a_fallback(
    running: Running, fake: FakeOpenAI
) -> None:
    def agent_task(index: int) -> dict[str, Any]:
        requests = [r for r in fake.requests if r.role == "agent"]
        return json.loads(requests[index].body["messages"][1]["content"])

    script_agent(fake, GOOD_DRAFT)
    fake.script("guard", reply(SUPPORTED))
    first = await ask(running.url, QUERY)
    session_id = first[0].data["session_id"]
    assert agent_task(0)["previous_turn"] is None

    script_agent(fake, GOOD_DRAFT)
    fake.script("guard", reply(UNSUPPORTED))
    second = await ask(running.url, "那退款服务呢？", session_id)
    previous = agent_task(4)["previous_turn"]
    assert previous["user_query"] == QUERY
    assert previous["published_conclusion"] == GOOD_DRAFT["conclusion"]["text"]
    assert second[-1].data == {"outcome": "FALLBACK"}
    router_input = json.loads([r for r in fake.requests if r.role == "router"][1].body["messages"][1]["content"])
    assert router_input == {"query": "那退款服务呢？", "last_intent": "DIAGNOSIS", "last_user_query": QUERY}

    script_agent(fake, GOOD_DRAFT)
    fake.script("guard", reply(SUPPORTED))
    await ask(running.url, "继续", session_id)
    assert agent_task(8)["previous_turn"] is None


@pytest.fixture(scope="module")
def secured(
    ray_session: None, redis_server: RedisServer, fake: FakeOpenAI, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Running]:
    tmp = tmp_path_factory.mktemp("secured")
    gateway = {"auth": "api-keys", "api-keys": {"ops": "${E2E_KEY_OPS}", "dev": "${E2E_KEY_DEV}"}}
    config = with_sections(ray_config(redis_url=redis_server.url, base_url=fake.base_url), tmp, gateway=gateway)
    with started(config) as running:
        yield running


async def test_keys_sessions_and_bad_requests_over_http(secured: Running, fake: FakeOpenAI) -> None:
    with pytest.raises(RequestFailed) as missing:
        await ask(secured.url, QUERY)
    assert (missing.value.status, missing.value.code) == (401, "UNAUTHORIZED")
    with pytest.raises(RequestFailed) as wrong:
        await ask(secured.url, QUERY, key="not-a-key")
    assert wrong.value.status == 401
    assert fake.requests == []
    fake.script("router", reply(json.dumps({"intent": "SYSTEM_CHAT"})))
    fake.script("system_chat", reply("你好"))
    events = await ask(secured.url, "你好", key=KEYS["E2E_KEY_OPS"])
    session_id = events[0].data["session_id"]
    with pytest.raises(RequestFailed) as forbidden:
        await ask(secured.url, "继续", session_id, key=KEYS["E2E_KEY_DEV"])
    assert (forbidden.value.status, forbidden.value.code) == (403, "SESSION_FORBIDDEN")
    async with httpx.AsyncClient() as client:
        headers = {"Authorization": f"Bearer {KEYS['E2E_KEY_OPS']}"}
        cases = [
            (b"{", "application/json", 400),
            (b'{"query": ""}', "application/json", 422),
            (b'{"query": "x", "session_id": "bad"}', "application/json", 422),
            (b'{"query": "x"}', "text/plain", 415),
            (json.dumps({"query": "x" * 40000}).encode(), "application/json", 413),
        ]
        for body, content_type, status in cases:
            response = await client.post(
                f"{secured.url}/api/chat", content=body, headers={**headers, "content-type": content_type}
            )
            assert response.status_code == status and response.json()["error"]["code"]
        assert (await client.get(f"{secured.url}/healthz")).json() == {"status": "ok"}
        ready = await client.get(f"{secured.url}/readyz")
        assert ready.status_code == 200 and all(ready.json()["checks"].values())


async def test_a_disconnect_mid_tool_kills_the_query_and_records_cancelled(
    ray_session: None,
    redis_server: RedisServer,
    fake: FakeOpenAI,
    order_db: OrderDb,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    base = ray_config(redis_url=redis_server.url, base_url=fake.base_url)
    mysql_source = order_db.config(database="slow_db", timeout="60s").harness.mysql_tools
    config = with_sections(base, tmp_path_factory.mktemp("cancel"))
    config = config.model_copy(update={"harness": config.harness.model_copy(update={"mysql_tools": mysql_source})})
    parts = build_gateway(config)
    thread = GatewayThread(parts.app).start()
    try:
        fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"})))
        slow = {"data_source": "order_readonly", "sql": SLOW_SQL, "params": []}
        fake.script(
            "agent",
            reply(json.dumps(PLAN, ensure_ascii=False)),
            reply(None, [("call_slow", "query_mysql", arguments(slow))]),
        )
        run_id = None
        async with httpx.AsyncClient(timeout=httpx.Timeout(10, read=60)) as client:
            stream = chat_events(client, thread.url, QUERY)
            async for event in stream:
                if event.event == "metadata":
                    run_id = event.data["run_id"]
                if event.event == "status" and event.data.get("tool") == "query_mysql":
                    break
            deadline = time.monotonic() + 20
            while not order_db.running_queries("p.channel <> o.payment_status") and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert order_db.running_queries("p.channel <> o.payment_status"), "the slow query never started"
            await stream.aclose()
        deadline = time.monotonic() + 20
        row = None
        while time.monotonic() < deadline:
            row = await parts.audit.run(run_id)
            if row and row["release_outcome"] and not order_db.running_queries("p.channel <> o.payment_status"):
                break
            await asyncio.sleep(0.1)
        assert order_db.running_queries("p.channel <> o.payment_status") == []
        assert row is not None and (row["status"], row["release_outcome"]) == ("CANCELLED", "CANCELLED")
        tools = await parts.audit.tool_invocations(run_id)
        assert [(t["tool_name"], t["error_code"]) for t in tools] == [("query_mysql", "TOOL_CANCELLED")]
    finally:
        thread.stop()
        parts.audit.close()
        shutdown_runtime(config)
