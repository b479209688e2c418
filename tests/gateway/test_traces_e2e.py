"""One trace per run under Ray, on the wire (issue 22): the gateway, the supervisor and the tool actors export
their spans over OTLP/HTTP to a receiver on a free loopback port, and the decoded spans of each intent form one
tree under the request (and the caller's ``traceparent`` when sent), with the failure kinds of a faulted run and
no prompt, query or record key in any of them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from config.runtime import TelemetrySettings
from harness.tracing import configure_tracing
from tests.actors.runtime_support import arguments, ray_config
from tests.fake_openai import FakeOpenAI, delay, reply
from tests.gateway.e2e_support import PROMPT_MARKER, SLOW_SQL, SUPPORTED, Running, script_agent, started, with_sections
from tests.harness.run_support import GOOD_DRAFT, PLAN, QUERY
from tests.mysql_fixtures import OrderDb
from tests.otlp_receiver import Receiver
from tests.services import RedisServer
from tests.tools.logs.mock_logs_dataset import SEEDED_SECRETS

CALLER_TRACE = "0af7651916cd43dd8448eb211c80319c"
CALLER_SPAN = "b7ad6b7169203331"


def sse_data(text: str) -> list[dict]:
    """The data of each event of an SSE body, in order."""
    return [json.loads(line[5:]) for line in text.replace("\r\n", "\n").split("\n") if line.startswith("data:")]


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server


@pytest.fixture(autouse=True)
def _reset_fake(fake: FakeOpenAI) -> None:
    fake.reset()


@pytest.fixture(scope="module", autouse=True)
def _export_off_afterwards(otlp_receiver: Receiver) -> Iterator[None]:
    """This process's later runs (other modules' in-process tests) export nowhere once the receiver is gone: an
    exporter retrying a dead endpoint would draw its backoff jitter from the global ``random`` in the background."""
    yield
    configure_tracing(TelemetrySettings(), "gateway")


@pytest.fixture(scope="module")
def running(
    ray_session: None,
    redis_server: RedisServer,
    fake: FakeOpenAI,
    otlp_receiver: Receiver,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Running]:
    telemetry = {"otlp-endpoint": otlp_receiver.url, "batch-delay": "200ms"}
    guard = {"semantic-guard": {"attempt-timeout": "1s", "total-timeout": "3s"}}
    config = with_sections(
        ray_config(redis_url=redis_server.url, base_url=fake.base_url, harness=guard),
        tmp_path_factory.mktemp("traces"),
        telemetry=telemetry,
    )
    with started(config) as gateway:
        yield gateway


async def post(running: Running, query: str, headers: dict[str, str] | None = None) -> tuple[str, list[dict]]:
    """The trace id the gateway returned, and the data of each event."""
    async with httpx.AsyncClient(timeout=httpx.Timeout(10, read=60)) as client:
        response = await client.post(f"{running.url}/api/chat", json={"query": query}, headers=headers or {})
    return response.headers["x-trace-id"], sse_data(response.text)


async def test_a_diagnosis_is_one_trace_across_the_gateway_the_supervisor_and_a_tool_actor(
    running: Running, fake: FakeOpenAI, otlp_receiver: Receiver
) -> None:
    script_agent(fake, GOOD_DRAFT)
    fake.script("guard", reply(SUPPORTED))
    trace_id, events = await post(running, QUERY, {"traceparent": f"00-{CALLER_TRACE}-{CALLER_SPAN}-01"})
    assert trace_id == CALLER_TRACE
    assert events[0]["trace_id"] == CALLER_TRACE and events[-1] == {"outcome": "SUCCESS"}
    expected = {"POST /api/chat": 1, "run": 1, "routing": 1, "plan": 1, "agent turn": 3, "tool call": 3}
    expected |= {"tool execute": 3, "semantic guard": 1, "release": 1}  # each tool actor exports on its own
    spans = otlp_receiver.wait_for(expected, bytes.fromhex(CALLER_TRACE))
    by_id = {span.span_id: span for span in spans}
    (gateway,) = [span for span in spans if span.name == "POST /api/chat"]
    (run,) = [span for span in spans if span.name == "run"]
    assert gateway.parent_span_id == bytes.fromhex(CALLER_SPAN)
    assert run.parent_span_id == gateway.span_id  # gateway -> supervisor, through StartRun
    executed = [span for span in spans if span.name == "tool execute"]
    assert len(executed) == 3
    assert all(by_id[span.parent_span_id].name == "tool call" for span in executed)  # supervisor -> tool actor
    turns = [by_id[by_id[span.parent_span_id].parent_span_id] for span in executed]
    assert {turn.name for turn in turns} == {"agent turn"} and all(turn.parent_span_id == run.span_id for turn in turns)
    dumped = "\n".join(str(span) for span in spans)
    assert QUERY not in dumped and PROMPT_MARKER not in dumped
    assert [secret for secret in SEEDED_SECRETS if secret in dumped] == []  # the demo data's secrets
    assert events[0]["run_id"] + ":" not in dumped  # a record key appears only as its hash


def script_other(fake: FakeOpenAI, intent: str) -> str:
    """Script a KNOWLEDGE_QUERY or SYSTEM_CHAT run; returns its question."""
    fake.script("router", reply(json.dumps({"intent": intent})))
    if intent == "SYSTEM_CHAT":
        fake.script("system_chat", reply("你好，我可以帮你排查订单和支付问题。"))
        return "你好，你能做什么？"

    def answer(body: dict[str, Any]) -> Any:
        evidence = json.loads(body["messages"][-1]["content"])["evidence"]
        text = {"answer": "ERR_TIMEOUT 表示请求超时。", "references": [evidence[0]["document_id"]], "limitations": []}
        return reply(json.dumps(text, ensure_ascii=False))

    fake.default("knowledge", answer)
    return "ERR_TIMEOUT 是什么意思？"


@pytest.mark.parametrize(
    ("intent", "content_type", "expected"),
    [
        ("KNOWLEDGE_QUERY", "KNOWLEDGE_ANSWER", {"model call knowledge", "tool call", "tool execute"}),
        ("SYSTEM_CHAT", "SYSTEM_ANSWER", {"model call system_chat"}),
    ],
)
async def test_every_intent_is_one_trace_rooted_at_the_request(
    running: Running, fake: FakeOpenAI, otlp_receiver: Receiver, intent: str, content_type: str, expected: set[str]
) -> None:
    trace_id, events = await post(running, script_other(fake, intent))
    assert events[0]["trace_id"] == trace_id and events[-1] == {"outcome": "SUCCESS"}
    spans = otlp_receiver.wait_for({"POST /api/chat", "run", "routing", "release", *expected}, bytes.fromhex(trace_id))
    by_name = {span.name: span for span in spans}
    assert by_name["POST /api/chat"].parent_span_id == b""  # no traceparent sent: the request is the root
    assert by_name["run"].parent_span_id == by_name["POST /api/chat"].span_id
    attributes = {span.name: {a.key: a.value.string_value for a in span.attributes} for span in spans}
    assert attributes["routing"]["superbiz.intent"] == intent
    assert attributes["release"]["superbiz.content_type"] == content_type
    assert expected <= set(by_name)


async def test_a_guard_that_times_out_twice_is_on_the_wire(
    running: Running, fake: FakeOpenAI, otlp_receiver: Receiver
) -> None:
    script_agent(fake, GOOD_DRAFT)
    fake.script("guard", delay(3, reply(SUPPORTED)), delay(3, reply(SUPPORTED)))
    trace_id, events = await post(running, QUERY)
    assert events[-1] == {"outcome": "FALLBACK"}
    spans = otlp_receiver.wait_for({"semantic guard", "release"}, bytes.fromhex(trace_id))
    guards = [span for span in spans if span.name == "semantic guard"]
    assert len(guards) == 2
    for span in guards:
        outcome = next(a.value.string_value for a in span.attributes if a.key == "superbiz.outcome")
        assert outcome == "TIMEOUT" and span.status.code == span.status.STATUS_CODE_ERROR
    release = next(span for span in spans if span.name == "release")
    fallback = next(a.value.string_value for a in release.attributes if a.key == "superbiz.fallback_type")
    assert fallback == "SEMANTIC_UNAVAILABLE"


async def test_a_tool_that_times_out_is_on_the_wire(
    ray_session: None,
    redis_server: RedisServer,
    fake: FakeOpenAI,
    otlp_receiver: Receiver,
    order_db: OrderDb,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    base = ray_config(redis_url=redis_server.url, base_url=fake.base_url)
    config = with_sections(
        base,
        tmp_path_factory.mktemp("tool-timeout"),
        telemetry={"otlp-endpoint": otlp_receiver.url, "batch-delay": "200ms"},
    )
    mysql = order_db.config(database="slow_db", timeout="1s").harness.mysql_tools
    config = config.model_copy(update={"harness": config.harness.model_copy(update={"mysql_tools": mysql})})
    slow = {"data_source": "order_readonly", "sql": SLOW_SQL, "params": []}
    fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"})))
    fake.script(
        "agent",
        reply(json.dumps(PLAN, ensure_ascii=False)),
        reply(None, [("call_slow", "query_mysql", arguments(slow))]),
        reply(json.dumps(GOOD_DRAFT, ensure_ascii=False)),
    )
    with started(config) as gateway:
        trace_id, events = await post(gateway, QUERY)
    assert events[-1]["outcome"] in ("FALLBACK", "FAILED")
    spans = otlp_receiver.wait_for({"tool call", "tool execute", "release"}, bytes.fromhex(trace_id))
    for name in ("tool call", "tool execute"):
        (span,) = [span for span in spans if span.name == name]
        assert span.status.code == span.status.STATUS_CODE_ERROR and span.status.message == "TOOL_TIMEOUT", name
