"""§14 over real HTTP: a run's SSE stream and its audit rows agree, event for event.

For a released report, a fallback, a knowledge answer and a system answer, the stream is read raw (each event's
data line as the client received it) and the run's rows are read back from the audit database the gateway wrote:
the ids, the outcome, the content byte for byte, the tool calls (each TOOL_FINISHED against a ``tool_invocation``
row, each reference of the report against the call behind it) and the steps (each model request the endpoint
received against an ``agent_step`` row) must all say the same thing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from stores.audit.trail import released_content
from tests.actors.runtime_support import ray_config
from tests.fake_openai import FakeOpenAI, reply
from tests.gateway.e2e_support import SUPPORTED, UNSUPPORTED, Running, script_agent, started, with_sections
from tests.harness.run_support import GOOD_DRAFT, QUERY
from tests.services import RedisServer

SOURCE_TYPES = {"lookup_knowledge": "KNOWLEDGE", "query_logs": "LOG", "query_mysql": "MYSQL"}
ROLES = ("router", "agent", "repair", "guard", "knowledge", "system_chat")


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
        ray_config(redis_url=redis_server.url, base_url=fake.base_url), tmp_path_factory.mktemp("agreement")
    )
    with started(config) as gateway:
        yield gateway


@dataclass(frozen=True)
class RawEvent:
    event: str
    raw: str
    """The data line exactly as received."""

    @property
    def data(self) -> dict[str, Any]:
        return json.loads(self.raw)


async def raw_events(url: str, query: str) -> list[RawEvent]:
    events: list[RawEvent] = []
    async with (
        httpx.AsyncClient(timeout=httpx.Timeout(10, read=60)) as client,
        client.stream("POST", f"{url}/api/chat", json={"query": query}) as response,
    ):
        assert response.status_code == 200
        name, data = "message", []
        async for line in response.aiter_lines():
            if not line:
                if data:
                    events.append(RawEvent(name, "\n".join(data)))
                name, data = "message", []
            elif line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].removeprefix(" "))
    return events


def script(fake: FakeOpenAI, scenario: str) -> str:
    """Script the endpoint for ``scenario``; returns the question to ask."""
    if scenario in ("report", "fallback"):
        script_agent(fake, GOOD_DRAFT)
        fake.script("guard", reply(SUPPORTED if scenario == "report" else UNSUPPORTED))
        return QUERY
    if scenario == "knowledge":
        fake.script("router", reply(json.dumps({"intent": "KNOWLEDGE_QUERY"})))

        def answer(body: dict[str, Any]) -> Any:
            evidence = json.loads(body["messages"][-1]["content"])["evidence"]
            text = {
                "answer": "ERR_TIMEOUT 表示请求超时。",
                "references": [evidence[0]["document_id"]],
                "limitations": [],
            }
            return reply(json.dumps(text, ensure_ascii=False))

        fake.default("knowledge", answer)
        return "ERR_TIMEOUT 是什么意思？"
    fake.script("router", reply(json.dumps({"intent": "SYSTEM_CHAT"})))
    fake.script("system_chat", reply("你好，我可以帮你排查订单和支付问题。"))
    return "你好，你能做什么？"


@pytest.mark.parametrize(
    ("scenario", "outcome", "content_type"),
    [
        ("report", "SUCCESS", "DIAGNOSIS_REPORT"),
        ("fallback", "FALLBACK", "FALLBACK"),
        ("knowledge", "SUCCESS", "KNOWLEDGE_ANSWER"),
        ("system", "SUCCESS", "SYSTEM_ANSWER"),
    ],
)
async def test_the_stream_and_the_audit_rows_agree_event_for_event(
    running: Running, fake: FakeOpenAI, scenario: str, outcome: str, content_type: str
) -> None:
    events = await raw_events(running.url, script(fake, scenario))
    assert events[0].event == "metadata" and events[-1].event == "done"
    metadata = events[0].data
    audit = running.parts.audit
    run_id = metadata["run_id"]
    run = await audit.run(run_id)
    steps, tools = await audit.steps(run_id), await audit.tool_invocations(run_id)
    assert run is not None

    # One run, one session: every row of the run carries the ids the stream announced.
    assert (run["run_id"], run["session_id"]) == (run_id, metadata["session_id"])
    assert {(row["run_id"], row["session_id"]) for row in [*steps, *tools]} <= {(run_id, metadata["session_id"])}

    # The outcome.
    assert events[-1].data == {"outcome": outcome}
    assert run["status"] == run["release_outcome"] == outcome
    routed = [event.data["intent"] for event in events if event.event == "status" and event.data["code"] == "ROUTED"]
    assert routed == [run["intent"]]

    # The content, byte for byte: the stored text is the data line the client received.
    [sent] = [event for event in events if event.event == "content"]
    assert sent.data["content_type"] == content_type
    assert run["released_content"] == sent.raw
    assert released_content(run) == sent.data

    # The tool calls: each TOOL_FINISHED is one row, with the same tool and evidence status.
    finished = [event.data for event in events if event.event == "status" and event.data["code"] == "TOOL_FINISHED"]
    assert sorted((e["tool"], e["evidence_status"]) for e in finished) == sorted(
        (row["tool_name"], row["evidence_status"]) for row in tools
    )
    assert run["tool_call_count"] == len(tools) == len(finished)
    by_id = {row["tool_call_id"]: row for row in tools}
    step_by_id = {step["id"]: step for step in steps}
    payload = sent.data["payload"]
    if content_type == "DIAGNOSIS_REPORT":
        # Each reference names the call behind it: a recorded call of this run that found evidence, asked for by
        # an agent step whose reply had tool calls, of the source type the reference shows.
        cited = run["cited_tool_calls"]
        assert [item["ref"] for item in cited] == [reference["ref"] for reference in payload["references"]]
        assert [item["tool_call_id"] for item in cited] == ["call_l1", "call_m1", "call_k1"]  # GOOD_DRAFT's order
        for reference, item in zip(payload["references"], cited, strict=True):
            row = by_id[item["tool_call_id"]]
            assert row["evidence_status"] == "EVIDENCE_FOUND" and row["success"]
            assert SOURCE_TYPES[row["tool_name"]] == reference["source_type"]
            assert step_by_id[row["step_id"]]["agent_name"] == "agent" and step_by_id[row["step_id"]]["has_tool_call"]
        labels = {reference["ref"] for reference in payload["references"]}
        assert {label for item in payload["analysis"] for label in item["references"]} <= labels
    else:
        assert run["cited_tool_calls"] is None
    if content_type == "FALLBACK":
        found = {SOURCE_TYPES[row["tool_name"]] for row in tools if row["evidence_status"] == "EVIDENCE_FOUND"}
        assert {source["source_type"] for source in payload["verified_sources"]} == found
        assert run["fallback_type"] == payload["type"] == "SEMANTIC_UNSUPPORTED"
    if content_type == "KNOWLEDGE_ANSWER":
        [lookup] = tools
        assert (lookup["tool_name"], lookup["step_id"]) == ("lookup_knowledge", None)
        assert "KNOWLEDGE_SEARCHING" in [event.data["code"] for event in events if event.event == "status"]
    if content_type == "SYSTEM_ANSWER":
        assert tools == [] and payload["answer"] == "你好，我可以帮你排查订单和支付问题。"

    # The steps: each model request the endpoint received is one agent_step row of its role, and the run's
    # counters are the rows'.
    assert {role: fake.attempts(role) for role in ROLES} == {
        role: sum(1 for step in steps if step["agent_name"] == role) for role in ROLES
    }
    assert run["model_calls"] == len(steps) and [step["step_index"] for step in steps] == list(range(1, len(steps) + 1))
    assert run["total_tokens"] == sum(step["token_count"] for step in steps)
    if content_type in ("DIAGNOSIS_REPORT", "FALLBACK"):
        checks = await audit.guard_checks(run_id)
        assert [(check["guard"], check["verdict"]) for check in checks] == [
            ("evidence", "PASS"),
            ("semantic", "SUPPORTED" if outcome == "SUCCESS" else "UNSUPPORTED"),
        ]
        assert run["guard_verdict"] == checks[-1]["verdict"]
