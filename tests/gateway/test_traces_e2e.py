"""One trace per run under Ray, on the wire (issue 22): the gateway, the supervisor and a tool actor export their
spans over OTLP/HTTP to a receiver on a free loopback port, and the decoded spans form one tree under the
caller's ``traceparent``, with no prompt, query or record key in any of them."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest

from tests.actors.runtime_support import ray_config
from tests.fake_openai import FakeOpenAI, reply
from tests.gateway.e2e_support import PROMPT_MARKER, SUPPORTED, Running, script_agent, started, with_sections
from tests.harness.run_support import GOOD_DRAFT, QUERY
from tests.otlp_receiver import Receiver
from tests.services import RedisServer

CALLER_TRACE = "0af7651916cd43dd8448eb211c80319c"
CALLER_SPAN = "b7ad6b7169203331"


def sse_data(text: str) -> list[dict]:
    """The data of each event of an SSE body, in order."""
    return [json.loads(line[5:]) for line in text.replace("\r\n", "\n").split("\n") if line.startswith("data:")]


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server


@pytest.fixture
def running(
    ray_session: None,
    redis_server: RedisServer,
    fake: FakeOpenAI,
    otlp_receiver: Receiver,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Running]:
    telemetry = {"otlp-endpoint": otlp_receiver.url, "batch-delay": "200ms"}
    config = with_sections(
        ray_config(redis_url=redis_server.url, base_url=fake.base_url),
        tmp_path_factory.mktemp("traces"),
        telemetry=telemetry,
    )
    with started(config) as gateway:
        yield gateway


async def test_a_diagnosis_is_one_trace_across_the_gateway_the_supervisor_and_a_tool_actor(
    running: Running, fake: FakeOpenAI, otlp_receiver: Receiver
) -> None:
    script_agent(fake, GOOD_DRAFT)
    fake.script("guard", reply(SUPPORTED))
    headers = {"traceparent": f"00-{CALLER_TRACE}-{CALLER_SPAN}-01"}
    async with httpx.AsyncClient(timeout=httpx.Timeout(10, read=60)) as client:
        response = await client.post(f"{running.url}/api/chat", json={"query": QUERY}, headers=headers)
    events = sse_data(response.text)
    assert response.headers["x-trace-id"] == CALLER_TRACE
    assert events[0]["trace_id"] == CALLER_TRACE and events[-1] == {"outcome": "SUCCESS"}
    spans = otlp_receiver.wait_for(
        {"POST /api/chat", "run", "routing", "tool call", "tool execute", "semantic guard", "release"},
        bytes.fromhex(CALLER_TRACE),
    )
    by_id = {span.span_id: span for span in spans}
    (gateway,) = [span for span in spans if span.name == "POST /api/chat"]
    (run,) = [span for span in spans if span.name == "run"]
    assert gateway.parent_span_id == bytes.fromhex(CALLER_SPAN)
    assert run.parent_span_id == gateway.span_id  # gateway -> supervisor, through StartRun
    executed = [span for span in spans if span.name == "tool execute"]
    assert len(executed) == 3
    assert all(by_id[span.parent_span_id].name == "tool call" for span in executed)  # supervisor -> tool actor
    assert all(by_id[by_id[span.parent_span_id].parent_span_id] is run for span in executed)
    dumped = "\n".join(str(span) for span in spans)
    assert QUERY not in dumped and PROMPT_MARKER not in dumped
    assert events[0]["run_id"] + ":" not in dumped  # a record key appears only as its hash
