"""The scripted fake OpenAI server itself, driven with a plain HTTP client."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.fake_openai import (
    ANY_ROLE,
    FakeOpenAI,
    bad_tool_call_json,
    delay,
    hang,
    http_error,
    malformed_body,
    reply,
    wrong_type_tool_call,
)

BODY = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hi"}]}


@pytest.fixture(scope="module")
def fake_server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server


@pytest.fixture
def fake(fake_server: FakeOpenAI) -> FakeOpenAI:
    fake_server.reset()
    return fake_server


def post(fake: FakeOpenAI, role: str | None = None, timeout_s: float = 5.0, **body: Any) -> httpx.Response:
    headers = {"X-Superbiz-Role": role} if role is not None else {}
    return httpx.post(f"{fake.base_url}/chat/completions", json={**BODY, **body}, headers=headers, timeout=timeout_s)


def test_a_reply_is_a_chat_completion(fake: FakeOpenAI) -> None:
    fake.script("agent", reply("hello", tool_calls=[("call_1", "query_logs", '{"a": 1}')], usage=(10, 2)))

    answer = post(fake, "agent").json()

    assert answer["object"] == "chat.completion"
    assert answer["model"] == "gpt-4o-mini"
    [choice] = answer["choices"]
    assert choice["finish_reason"] == "tool_calls"
    assert choice["message"] == {
        "role": "assistant",
        "content": "hello",
        "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "query_logs", "arguments": '{"a": 1}'}}
        ],
    }
    assert answer["usage"] == {"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12}


def test_each_role_has_its_own_fifo_queue(fake: FakeOpenAI) -> None:
    fake.script("agent", reply("a1"), reply("a2"))
    fake.script("router", reply("r1"))

    contents = [post(fake, role).json()["choices"][0]["message"]["content"] for role in ("agent", "router", "agent")]

    assert contents == ["a1", "r1", "a2"]
    assert (fake.attempts("agent"), fake.attempts("router"), fake.pending("agent")) == (2, 1, 0)


def test_a_request_without_the_role_header_is_role_default(fake: FakeOpenAI) -> None:
    fake.script("default", reply("d"))

    assert post(fake).json()["choices"][0]["message"]["content"] == "d"
    assert fake.requests[0].role == "default"


def test_an_empty_queue_without_a_handler_is_a_clear_http_500(fake: FakeOpenAI) -> None:
    answer = post(fake, "guard")

    assert answer.status_code == 500
    assert "nothing scripted for role 'guard'" in answer.json()["error"]["message"]


def test_default_handlers_answer_once_the_queue_is_empty(fake: FakeOpenAI) -> None:
    fake.script("agent", reply("scripted"))
    fake.default("agent", lambda body: reply(f"echo {body['messages'][0]['content']}"))
    fake.default(ANY_ROLE, lambda body: reply("anyone"))

    contents = [post(fake, role).json()["choices"][0]["message"]["content"] for role in ("agent", "agent", "repair")]

    assert contents == ["scripted", "echo hi", "anyone"]


def test_requests_are_recorded_with_body_and_headers(fake: FakeOpenAI) -> None:
    fake.script("repair", reply("ok"))

    post(fake, "repair", temperature=0.5)

    [recorded] = fake.requests
    assert recorded.role == "repair"
    assert recorded.body == {**BODY, "temperature": 0.5}
    assert recorded.headers["x-superbiz-role"] == "repair"


def test_http_errors_and_malformed_bodies(fake: FakeOpenAI) -> None:
    fake.script("agent", http_error(429), http_error(502, "upstream down"), malformed_body())

    rate_limited, bad_gateway, malformed = (post(fake, "agent") for _ in range(3))

    assert rate_limited.status_code == 429
    assert "error" in rate_limited.json()
    assert (bad_gateway.status_code, bad_gateway.text) == (502, "upstream down")
    assert malformed.status_code == 200
    with pytest.raises(json.JSONDecodeError):
        malformed.json()


def test_bad_tool_calls(fake: FakeOpenAI) -> None:
    fake.script("agent", bad_tool_call_json(), wrong_type_tool_call())

    not_json = post(fake, "agent").json()["choices"][0]["message"]["tool_calls"][0]
    custom = post(fake, "agent").json()["choices"][0]["message"]["tool_calls"][0]

    with pytest.raises(json.JSONDecodeError):
        json.loads(not_json["function"]["arguments"])
    assert custom["type"] == "custom"


def test_a_delay_answers_late(fake: FakeOpenAI) -> None:
    fake.script("agent", delay(0.3, reply("late")))

    started = time.monotonic()
    answer = post(fake, "agent")

    assert answer.json()["choices"][0]["message"]["content"] == "late"
    assert time.monotonic() - started >= 0.3
    assert fake.disconnects == 0


def test_a_client_that_gives_up_during_a_delay_is_a_disconnect(fake: FakeOpenAI) -> None:
    fake.script("agent", delay(5.0, reply("too late")))

    with pytest.raises(httpx.ReadTimeout):
        post(fake, "agent", timeout_s=0.2)

    assert fake.wait_for_disconnects(1, timeout_s=1.0)


def test_a_client_that_gives_up_during_a_hang_is_a_disconnect(fake: FakeOpenAI) -> None:
    fake.script("agent", hang())

    with pytest.raises(httpx.ReadTimeout):
        post(fake, "agent", timeout_s=0.2)

    assert fake.wait_for_disconnects(1, timeout_s=1.0)
    assert fake.attempts("agent") == 1


def test_reset_ends_a_hang_and_forgets_everything(fake: FakeOpenAI) -> None:
    fake.script("agent", hang(), reply("left over"))
    answers: list[httpx.Response] = []
    client = threading.Thread(target=lambda: answers.append(post(fake, "agent")))
    client.start()
    while fake.attempts("agent") < 1:
        time.sleep(0.01)

    fake.reset()
    client.join(timeout=5)

    assert [answer.status_code for answer in answers] == [503]
    assert (fake.requests, fake.pending("agent"), fake.disconnects) == ([], 0, 0)


def test_the_api_key_is_checked_when_given() -> None:
    with FakeOpenAI(api_key="sk-fake") as fake:
        fake.script("default", reply("ok"))
        url = f"{fake.base_url}/chat/completions"

        assert httpx.post(url, json=BODY, headers={"Authorization": "Bearer wrong"}).status_code == 401
        assert httpx.post(url, json=BODY, headers={"Authorization": "Bearer sk-fake"}).status_code == 200
        assert fake.attempts("default") == 2


def test_stop_ends_a_hang_and_frees_the_port() -> None:
    fake = FakeOpenAI().start()
    fake.script("agent", hang())
    answers: list[httpx.Response] = []
    client = threading.Thread(target=lambda: answers.append(post(fake, "agent")))
    client.start()
    while fake.attempts("agent") < 1:
        time.sleep(0.01)

    started = time.monotonic()
    fake.stop()
    client.join(timeout=5)

    assert time.monotonic() - started < 3.0
    assert [answer.status_code for answer in answers] == [503]
    with pytest.raises(httpx.ConnectError):
        httpx.post(f"{fake.base_url}/chat/completions", json=BODY)
