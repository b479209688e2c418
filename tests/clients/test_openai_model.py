"""``OpenAIChatModel`` over real HTTP: against the scripted fake server, and a bare socket server where the test
needs to see connections or send what no well-behaved server would (an endless body, a redirect, a reset)."""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import json
import re
import socket
import ssl
import time
import traceback
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from datetime import UTC, datetime, timedelta
from ipaddress import IPv4Address
from pathlib import Path
from typing import Any

import pytest

from clients import openai_model
from clients.openai_model import MAX_ERROR_BODY_BYTES, MAX_REPLY_BYTES, OpenAIChatModel, parse_completion
from config.env_refs import Secret
from config.runtime import ModelSettings
from contract.clock import SystemClock
from harness.cancellation import CancellationToken
from harness.deadline import Deadline
from harness.errors import OperationFailed, RetriesExhausted
from harness.messages import ChatMessage, ModelRequest, Role, ToolCall
from harness.ports import ChatModel
from harness.retry import AttemptLog, FailureKind, HarnessRetryExecutor, RetryPolicy
from tests.fake_openai import (
    FakeOpenAI,
    Raw,
    Step,
    bad_tool_call_json,
    delay,
    hang,
    http_error,
    json_body,
    malformed_body,
    no_choices,
    reply,
    trickle,
    wrong_type_tool_call,
)

API_KEY = "sk-test-4f9c2a7e-never-in-errors"
PROMPT = "订单 20240611 支付后仍显示未支付 secret-prompt-marker"
QUERY_LOGS_TOOL = {
    "type": "function",
    "function": {
        "name": "query_logs",
        "description": "Search the service logs.",
        "parameters": {"type": "object", "properties": {"service": {"type": "string"}}, "required": ["service"]},
    },
}


def settings(base_url: str, **overrides: Any) -> ModelSettings:
    values: dict[str, Any] = {
        "provider": "openai",
        "base-url": base_url,
        "api-key": Secret(API_KEY, "${OPENAI_API_KEY}"),
        "name": "gpt-4o-mini",
        "timeout-s": 30,
        **overrides,
    }
    return ModelSettings.model_validate(values)


def request(role: Role = "agent", **fields: Any) -> ModelRequest:
    messages = (ChatMessage(role="system", content="You diagnose."), ChatMessage(role="user", content=PROMPT))
    return ModelRequest(role=role, messages=fields.pop("messages", messages), **fields)


@pytest.fixture(scope="module")
def fake_server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(api_key=API_KEY) as server:
        yield server


@pytest.fixture
def fake(fake_server: FakeOpenAI) -> FakeOpenAI:
    """The module's server, with no steps, handlers or records left by an earlier test."""
    fake_server.reset()
    return fake_server


@pytest.fixture
async def model(fake: FakeOpenAI) -> AsyncIterator[OpenAIChatModel]:
    chat_model = OpenAIChatModel(settings(fake.base_url))
    yield chat_model
    await chat_model.aclose()


async def eventually(condition: Callable[[], bool], timeout_s: float = 5.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.01)


async def failure_of(model: OpenAIChatModel, timeout_s: float = 10.0, **fields: Any) -> OperationFailed:
    with pytest.raises(OperationFailed) as caught:
        await model.complete(request(**fields), timeout_s=timeout_s)
    return caught.value


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


Answer = Callable[[asyncio.StreamWriter], Awaitable[None]]


class RawServer:
    """A bare HTTP/1.1 server on a free loopback port, in the test's event loop: it reads each request on a
    connection and lets ``answer`` write whatever it likes; it counts connections and keeps each request's head."""

    def __init__(self, answer: Answer, tls: ssl.SSLContext | None = None) -> None:
        self._answer = answer
        self._tls = tls
        self._handlers: set[asyncio.Task[None]] = set()
        self._writers: set[asyncio.StreamWriter] = set()
        self.connections = 0
        self.heads: list[bytes] = []
        self.closed = asyncio.Event()
        """Set when a connection has ended."""

    async def __aenter__(self) -> RawServer:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0, ssl=self._tls)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        self._server.close()
        for writer in self._writers:
            writer.close()  # each handler then reads the end of its stream and returns
        if self._handlers:
            await asyncio.wait(self._handlers, timeout=5)
        await self._server.wait_closed()

    @property
    def requests(self) -> int:
        return len(self.heads)

    @property
    def base_url(self) -> str:
        return f"{'https' if self._tls else 'http'}://127.0.0.1:{self.port}/v1"

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        handler = asyncio.current_task()
        assert handler is not None
        self._handlers.add(handler)
        self._writers.add(writer)
        self.connections += 1
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = re.search(rb"(?im)^content-length: *(\d+)", head)
                await reader.readexactly(int(length.group(1)) if length else 0)
                self.heads.append(head)
                await self._answer(writer)
        except (asyncio.IncompleteReadError, ConnectionError, ssl.SSLError):
            pass  # the client went away, or refused the certificate
        finally:
            writer.close()
            self.closed.set()


def answer(status: str, body: bytes, *headers: str) -> Answer:
    async def write(writer: asyncio.StreamWriter) -> None:
        head = [f"HTTP/1.1 {status}", f"Content-Length: {len(body)}", *headers]
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        await writer.drain()

    return write


def completion(content: str) -> bytes:
    return json.dumps(reply(content).render({"model": "gpt-4o-mini"}, 1)).encode()


async def endless_body(writer: asyncio.StreamWriter) -> None:
    """A 200 whose chunked body never ends: only a client that stops reading gets past it."""
    writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
    chunk = b" " * 65536
    while True:
        writer.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        await writer.drain()


async def hang_up(writer: asyncio.StreamWriter) -> None:
    raise ConnectionResetError  # closes the connection without a word


def raw(data: bytes) -> Answer:
    """An answer of ``data`` as it is, well-formed or not."""

    async def write(writer: asyncio.StreamWriter) -> None:
        writer.write(data)
        await writer.drain()

    return write


def untrusted_tls(directory: Path) -> ssl.SSLContext:
    """A server context whose certificate names 127.0.0.1 but is signed by nobody a trust store holds."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(x509.oid.NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.now(UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(minutes=1))
        .not_valid_after(now + timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(IPv4Address("127.0.0.1"))]), critical=False)
        .sign(key, hashes.SHA256())
    )
    (directory / "cert.pem").write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    (directory / "key.pem").write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(directory / "cert.pem", directory / "key.pem")
    return context


@contextlib.asynccontextmanager
async def model_for(base_url: str) -> AsyncIterator[OpenAIChatModel]:
    chat_model = OpenAIChatModel(settings(base_url))
    try:
        yield chat_model
    finally:
        await chat_model.aclose()


# -- the happy path --------------------------------------------------------------------------------------


def test_it_is_a_chat_model(model: OpenAIChatModel) -> None:
    chat_model: ChatModel = model

    assert chat_model.label == "gpt-4o-mini"


async def test_a_text_reply(fake: FakeOpenAI, model: OpenAIChatModel) -> None:
    fake.script("agent", reply("支付回调超时", usage=(120, 8), model="gpt-4o-mini-2024-07-18"))

    result = await model.complete(request(), timeout_s=10)

    assert result.content == "支付回调超时"
    assert result.tool_calls == ()
    assert (result.usage.input_tokens, result.usage.output_tokens) == (120, 8)
    assert result.model == "gpt-4o-mini-2024-07-18"


async def test_the_request_body_is_plain_chat_completions(fake: FakeOpenAI) -> None:
    fake.script("router", reply("ok"))
    chat_model = OpenAIChatModel(settings(fake.base_url, name="qwen2.5-72b-instruct", temperature=0.3))
    try:
        await chat_model.complete(request("router"), timeout_s=10)
    finally:
        await chat_model.aclose()

    [sent] = fake.requests
    assert sent.body["model"] == "qwen2.5-72b-instruct"
    assert sent.body["messages"] == [message.openai() for message in request().messages]
    assert sent.body["temperature"] == 0.3
    assert not {"tools", "tool_choice", "response_format", "stream"} & set(sent.body)


async def test_the_role_header_and_the_api_key_are_sent(fake: FakeOpenAI, model: OpenAIChatModel) -> None:
    fake.script("guard", reply("{}"))

    await model.complete(request("guard"), timeout_s=10)

    [sent] = fake.requests
    assert sent.role == "guard"
    assert sent.headers["x-superbiz-role"] == "guard"
    assert sent.headers["authorization"] == f"Bearer {API_KEY}"
    assert sent.headers["content-type"] == "application/json"
    assert sent.headers["accept-encoding"] == "identity"
    assert not [name for name in sent.headers if name.startswith("x-stainless")]
    assert fake.attempts("guard") == 1


async def test_tools_and_tool_choice_are_sent(fake: FakeOpenAI, model: OpenAIChatModel) -> None:
    fake.script("agent", reply("ok"))

    await model.complete(request(tools=(QUERY_LOGS_TOOL,), tool_choice="auto"), timeout_s=10)

    [sent] = fake.requests
    assert sent.body["tools"] == [QUERY_LOGS_TOOL]
    assert sent.body["tool_choice"] == "auto"


async def test_tool_choice_without_tools_is_not_sent(fake: FakeOpenAI, model: OpenAIChatModel) -> None:
    fake.script("agent", reply("ok"))

    await model.complete(request(tool_choice="none"), timeout_s=10)

    assert "tool_choice" not in fake.requests[0].body


async def test_json_output_asks_for_a_json_object(fake: FakeOpenAI, model: OpenAIChatModel) -> None:
    fake.script("router", reply('{"intent": "DIAGNOSIS"}'))

    result = await model.complete(request("router", json_output=True), timeout_s=10)

    assert fake.requests[0].body["response_format"] == {"type": "json_object"}
    assert result.content == '{"intent": "DIAGNOSIS"}'


async def test_tool_calls_are_kept_verbatim_and_their_ids_become_tool_call_ids(
    fake: FakeOpenAI, model: OpenAIChatModel
) -> None:
    arguments = '{"service":  "payment", "lookback": "15m", "note": "支付"}'  # odd spacing kept as written
    fake.script(
        "agent",
        reply(tool_calls=[("call_Ab1", "query_logs", arguments), ("call_Cd2", "lookup_knowledge", "{}")]),
        reply("done"),
    )

    first = await model.complete(request(tools=(QUERY_LOGS_TOOL,)), timeout_s=10)

    assert first.content is None
    assert first.tool_calls == (
        ToolCall(id="call_Ab1", name="query_logs", arguments=arguments),
        ToolCall(id="call_Cd2", name="lookup_knowledge", arguments="{}"),
    )
    follow_up = (
        *request().messages,
        first.message(),
        ChatMessage(role="tool", tool_call_id="call_Ab1", content='{"events": []}'),
        ChatMessage(role="tool", tool_call_id="call_Cd2", content='{"evidence": []}'),
    )
    await model.complete(request(messages=follow_up, tools=(QUERY_LOGS_TOOL,)), timeout_s=10)

    sent = fake.requests[1].body["messages"]
    assert sent[2]["tool_calls"] == [
        {"id": "call_Ab1", "type": "function", "function": {"name": "query_logs", "arguments": arguments}},
        {"id": "call_Cd2", "type": "function", "function": {"name": "lookup_knowledge", "arguments": "{}"}},
    ]
    assert [message.get("tool_call_id") for message in sent[3:]] == ["call_Ab1", "call_Cd2"]


async def test_missing_usage_counts_as_zero(fake: FakeOpenAI, model: OpenAIChatModel) -> None:
    fake.script("agent", json_body({"choices": [{"message": {"role": "assistant", "content": "hi"}}]}))

    result = await model.complete(request(), timeout_s=10)

    assert (result.content, result.usage.input_tokens, result.usage.output_tokens, result.model) == ("hi", 0, 0, "")


# -- the connection --------------------------------------------------------------------------------------


async def test_sequential_calls_share_one_connection() -> None:
    ok = answer("200 OK", completion("ok"), "Content-Type: application/json")
    async with RawServer(ok) as server, model_for(server.base_url) as chat_model:
        for _ in range(3):
            assert (await chat_model.complete(request(), timeout_s=10)).content == "ok"

    assert (server.connections, server.requests) == (1, 3)


async def test_concurrent_calls_run_side_by_side(fake: FakeOpenAI, model: OpenAIChatModel) -> None:
    fake.default("agent", lambda body: delay(0.2, reply("ok")))

    started = time.monotonic()
    replies = await asyncio.gather(*(model.complete(request(), timeout_s=10) for _ in range(20)))

    assert time.monotonic() - started < 1.5  # one after another would take 4 s
    assert [reply_.content for reply_ in replies] == ["ok"] * 20
    assert fake.attempts("agent") == 20


async def test_a_redirect_is_not_followed() -> None:
    """Following it would be a second request the Harness never made; its status is reported instead."""
    redirect = answer("307 Temporary Redirect", b"", "Location: http://127.0.0.1:9/v1/chat/completions")
    async with RawServer(redirect) as server, model_for(server.base_url) as chat_model:
        failure = await failure_of(chat_model)

    assert (failure.kind, failure.detail) == (FailureKind.TRANSPORT, "HTTP 307 from the model endpoint")
    assert server.requests == 1


async def test_the_environment_configures_nothing(fake: FakeOpenAI, monkeypatch: pytest.MonkeyPatch) -> None:
    nowhere = f"http://127.0.0.1:{free_port()}"
    for name in ("OPENAI_BASE_URL", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "all_proxy"):
        monkeypatch.setenv(name, nowhere)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-from-the-environment")
    for name in ("NO_PROXY", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
    fake.script("agent", reply("configured endpoint"))

    async with model_for(fake.base_url) as chat_model:
        result = await chat_model.complete(request(), timeout_s=10)

    assert result.content == "configured endpoint"
    assert fake.requests[0].headers["authorization"] == f"Bearer {API_KEY}"


async def test_no_cookie_is_kept() -> None:
    ok = answer("200 OK", completion("ok"), "Content-Type: application/json", "Set-Cookie: session=abc; Path=/")
    async with RawServer(ok) as server, model_for(f"http://localhost:{server.port}/v1") as chat_model:
        for _ in range(2):  # a host name: a cookie jar takes no cookie from an IP address
            await chat_model.complete(request(), timeout_s=10)

    assert [re.search(rb"(?im)^cookie:", head) for head in server.heads] == [None, None]


async def test_a_call_may_wait_for_a_pooled_connection_longer_than_a_connect_may_take(
    fake: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The wait for a free connection has the call's whole time limit, not ``MAX_CONNECT_TIMEOUT_S``."""
    monkeypatch.setattr(openai_model, "MAX_CONNECTIONS", 1)
    monkeypatch.setattr(openai_model, "MAX_CONNECT_TIMEOUT_S", 0.1)
    fake.default("agent", lambda body: delay(0.3, reply("ok")))

    async with model_for(fake.base_url) as chat_model:
        started = time.monotonic()
        replies = await asyncio.gather(*(chat_model.complete(request(), timeout_s=5) for _ in range(2)))

    assert [reply_.content for reply_ in replies] == ["ok", "ok"]
    assert time.monotonic() - started >= 0.6  # one connection: the second call waited for the first


def test_a_model_built_outside_any_loop_serves_each_loop_it_is_used_in(fake: FakeOpenAI) -> None:
    fake.default("agent", lambda body: reply("ok"))
    chat_model = OpenAIChatModel(settings(fake.base_url))

    async def call_and_close() -> str | None:
        try:
            return (await chat_model.complete(request(), timeout_s=10)).content
        finally:
            await chat_model.aclose()

    assert [asyncio.run(call_and_close()) for _ in range(2)] == ["ok", "ok"]


async def test_loops_in_two_threads_each_have_their_own_session(fake: FakeOpenAI, model: OpenAIChatModel) -> None:
    fake.default("agent", lambda body: delay(0.2, reply("ok")))

    async def call_and_close() -> str | None:
        try:
            return (await model.complete(request(), timeout_s=10)).content
        finally:
            await model.aclose()

    elsewhere = asyncio.to_thread(asyncio.run, call_and_close())
    here = model.complete(request(), timeout_s=10)
    other, this = await asyncio.gather(elsewhere, here)

    assert (other, this.content) == ("ok", "ok")


async def test_aclose_closes_the_connections_and_a_later_call_opens_new_ones() -> None:
    ok = answer("200 OK", completion("ok"), "Content-Type: application/json")
    async with RawServer(ok) as server, model_for(server.base_url) as chat_model:
        await chat_model.complete(request(), timeout_s=10)
        await chat_model.aclose()
        await asyncio.wait_for(server.closed.wait(), 5)

        assert (await chat_model.complete(request(), timeout_s=10)).content == "ok"

    assert (server.connections, server.requests) == (2, 2)


# -- transport failures: one attempt, never a retry ------------------------------------------------------


@pytest.mark.parametrize("status", [500, 502, 503, 429, 408, 409, 400, 401])
async def test_an_http_error_is_transport_after_exactly_one_attempt(
    fake: FakeOpenAI, model: OpenAIChatModel, status: int
) -> None:
    fake.script("agent", http_error(status), reply("a retry would get this"))

    failure = await failure_of(model)

    assert failure.kind == FailureKind.TRANSPORT
    assert f"HTTP {status}" in failure.detail
    assert fake.attempts("agent") == 1
    assert fake.pending("agent") == 1


async def test_a_429_with_retry_after_is_still_one_attempt(fake: FakeOpenAI, model: OpenAIChatModel) -> None:
    error = {"error": {"message": "Rate limit reached", "type": "requests", "code": "rate_limit_exceeded"}}
    fake.script("agent", http_error(429, error), reply("a retry would get this"))

    failure = await failure_of(model)

    assert (failure.kind, failure.detail) == (
        FailureKind.TRANSPORT,
        "HTTP 429 from the model endpoint (rate_limit_exceeded)",
    )
    assert fake.attempts("agent") == 1


async def test_only_the_harness_retries(fake: FakeOpenAI, model: OpenAIChatModel) -> None:
    """Two attempts allowed by the policy are exactly two hits at the server."""
    fake.script("router", http_error(500), http_error(500), reply("never reached"))
    clock = SystemClock()
    executor = HarnessRetryExecutor(AttemptLog(), clock, CancellationToken(), Deadline.after(clock, 60))
    policy = RetryPolicy(2, frozenset(FailureKind))

    with pytest.raises(RetriesExhausted):
        await executor.run("intent_router", policy, lambda attempt: model.complete(request("router"), timeout_s=10))

    assert fake.attempts("router") == 2


async def test_connection_refused_is_transport() -> None:
    port = free_port()  # nothing listens there any more
    chat_model = OpenAIChatModel(settings(f"http://127.0.0.1:{port}/v1"))
    try:
        failure = await failure_of(chat_model)
    finally:
        await chat_model.aclose()

    assert failure.kind == FailureKind.TRANSPORT
    assert f"127.0.0.1:{port}" in failure.detail


async def test_a_connection_closed_without_an_answer_is_transport_after_one_request() -> None:
    async with RawServer(hang_up) as server, model_for(server.base_url) as chat_model:
        failure = await failure_of(chat_model)

    assert failure.kind == FailureKind.TRANSPORT
    assert failure.detail == f"cannot reach 127.0.0.1:{server.port} (ServerDisconnectedError)"
    assert server.requests == 1


async def test_a_tls_failure_is_transport() -> None:
    """``https://`` to a server that answers the TLS hello in plain HTTP: the handshake fails."""

    async def plain_http(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(plain_http, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        async with model_for(f"https://127.0.0.1:{port}/v1") as chat_model:
            failure = await failure_of(chat_model)
    finally:
        server.close()
        await server.wait_closed()

    assert failure.kind == FailureKind.TRANSPORT
    assert failure.detail == f"cannot reach 127.0.0.1:{port} (ClientConnectorSSLError)"


async def test_a_certificate_no_trust_store_holds_is_transport(tmp_path: Path) -> None:
    ok = answer("200 OK", completion("ok"), "Content-Type: application/json")
    async with RawServer(ok, untrusted_tls(tmp_path)) as server, model_for(server.base_url) as chat_model:
        failure = await failure_of(chat_model)

    assert (failure.kind, failure.detail) == (
        FailureKind.TRANSPORT,
        f"cannot reach 127.0.0.1:{server.port} (ClientConnectorCertificateError)",
    )
    assert server.requests == 0


NOT_QUITE_HTTP: dict[str, tuple[bytes, str]] = {
    "not HTTP": (b"garbage\r\n\r\n", "ClientResponseError"),
    "a body cut short": (
        b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n{}",
        "ClientPayloadError",
    ),
    "a broken chunk": (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n", "ClientResponseError"),
}


@pytest.mark.parametrize(("data", "error"), NOT_QUITE_HTTP.values(), ids=NOT_QUITE_HTTP.keys())
async def test_a_reply_that_is_not_quite_http_is_transport(data: bytes, error: str) -> None:
    async def write_and_close(writer: asyncio.StreamWriter) -> None:
        await raw(data)(writer)
        writer.close()

    async with RawServer(write_and_close) as server, model_for(server.base_url) as chat_model:
        failure = await failure_of(chat_model)

    assert (failure.kind, failure.detail) == (FailureKind.TRANSPORT, f"cannot reach 127.0.0.1:{server.port} ({error})")
    assert failure.__context__ is None


ERROR_CODES: dict[str, tuple[Any, str]] = {
    "OpenAI's shape": ({"error": {"code": "model_not_found"}}, " (model_not_found)"),
    "a bare code": ({"code": "overloaded"}, " (overloaded)"),
    "a numeric code": ({"error": {"code": 1301}}, " (1301)"),
    "a trailing newline": ({"error": {"code": "rate_limit_exceeded\n"}}, ""),
    "a sentence": ({"error": {"code": "the model said no"}}, ""),
    "no code": ({"error": {"message": "overloaded"}}, ""),
    "a string error": ({"error": "overloaded"}, ""),
    "a JSON list": ([{"code": "x"}], ""),
    "text": ("Bad Gateway", ""),
    "a body past MAX_ERROR_BODY_BYTES": (
        {"error": {"code": "server_error", "message": "x" * MAX_ERROR_BODY_BYTES}},
        "",
    ),
}


@pytest.mark.parametrize(("body", "shown"), ERROR_CODES.values(), ids=ERROR_CODES.keys())
async def test_only_a_short_code_like_error_code_is_kept(
    fake: FakeOpenAI, model: OpenAIChatModel, body: Any, shown: str
) -> None:
    fake.script("agent", http_error(503, body) if isinstance(body, dict | str) else json_body(body, status=503))

    failure = await failure_of(model)

    assert (failure.kind, failure.detail) == (FailureKind.TRANSPORT, f"HTTP 503 from the model endpoint{shown}")


async def test_a_reply_slower_than_the_timeout_is_timeout_after_about_the_timeout(
    fake: FakeOpenAI, model: OpenAIChatModel
) -> None:
    fake.script("agent", delay(5.0, reply("too late")))

    started = time.monotonic()
    failure = await failure_of(model, timeout_s=0.5)
    elapsed = time.monotonic() - started

    assert failure.kind == FailureKind.TIMEOUT
    assert 0.45 <= elapsed < 1.5
    assert fake.attempts("agent") == 1
    assert await asyncio.to_thread(fake.wait_for_disconnects, 1, 2.0), "the request was not aborted"


async def test_a_reply_that_trickles_in_is_timeout_after_the_whole_call_timeout(
    fake: FakeOpenAI, model: OpenAIChatModel
) -> None:
    """Each read is quick (the SDK's read timeout never fires); the call as a whole is still bounded."""
    fake.script("agent", trickle(0.05, reply("slow " * 40), chunk_bytes=4))

    started = time.monotonic()
    failure = await failure_of(model, timeout_s=0.5)

    assert failure.kind == FailureKind.TIMEOUT
    assert time.monotonic() - started < 1.5


async def test_the_configured_timeout_caps_the_call_timeout(fake: FakeOpenAI) -> None:
    fake.script("agent", delay(5.0, reply("too late")))
    chat_model = OpenAIChatModel(settings(fake.base_url, **{"timeout-s": 0.5}))
    try:
        started = time.monotonic()
        failure = await failure_of(chat_model, timeout_s=30)
    finally:
        await chat_model.aclose()

    assert failure.kind == FailureKind.TIMEOUT
    assert time.monotonic() - started < 1.5


async def test_a_reply_within_the_timeout_is_fine(fake: FakeOpenAI, model: OpenAIChatModel) -> None:
    fake.script("agent", delay(0.2, reply("in time")))

    assert (await model.complete(request(), timeout_s=2)).content == "in time"


@pytest.mark.parametrize("timeout_s", [0.0, -1.0, float("nan")])
async def test_no_time_left_is_timeout_without_a_request(
    fake: FakeOpenAI, model: OpenAIChatModel, timeout_s: float
) -> None:
    failure = await failure_of(model, timeout_s=timeout_s)

    assert failure.kind == FailureKind.TIMEOUT
    assert fake.requests == []


# -- invalid output --------------------------------------------------------------------------------------

INVALID_REPLIES: dict[str, Step] = {
    "malformed JSON body": malformed_body(),
    "malformed text/plain body": malformed_body("text/plain"),
    "empty body": json_body(None),
    "no choices": no_choices(),
    "choices not a list": json_body({"choices": "x"}),
    "message missing": json_body({"choices": [{"index": 0}]}),
    "content not a string": json_body({"choices": [{"message": {"content": 5}}]}),
    "arguments an object, not a string": reply(
        tool_calls=[{"id": "call_1", "type": "function", "function": {"name": "query_logs", "arguments": {}}}]
    ),
    "wrong tool call type": wrong_type_tool_call(),
    "empty tool name": reply(tool_calls=[("call_1", "", "{}")]),
    "tool call without function": reply(tool_calls=[{"id": "call_1", "type": "function"}]),
    "negative usage": reply("hi", usage=(-1, 0)),
}


@pytest.mark.parametrize("step", INVALID_REPLIES.values(), ids=INVALID_REPLIES.keys())
async def test_invalid_output(fake: FakeOpenAI, model: OpenAIChatModel, step: Step) -> None:
    fake.script("agent", step)

    failure = await failure_of(model)

    assert failure.kind == FailureKind.INVALID_OUTPUT
    assert failure.detail
    assert fake.attempts("agent") == 1


async def test_a_body_past_the_limit_is_not_read_to_its_end() -> None:
    async with RawServer(endless_body) as server, model_for(server.base_url) as chat_model:
        started = time.monotonic()
        failure = await failure_of(chat_model, timeout_s=30)
        elapsed = time.monotonic() - started
        await asyncio.wait_for(server.closed.wait(), 5)

    assert (failure.kind, failure.detail) == (FailureKind.INVALID_OUTPUT, "the reply is larger than 4096 KB")
    assert elapsed < 10


async def test_a_body_one_byte_past_the_limit_is_invalid_output(fake: FakeOpenAI, model: OpenAIChatModel) -> None:
    body = completion("ok")
    fake.script("agent", Raw(200, body + b" " * (MAX_REPLY_BYTES + 1 - len(body))))

    failure = await failure_of(model)

    assert (failure.kind, failure.detail) == (FailureKind.INVALID_OUTPUT, "the reply is larger than 4096 KB")


async def test_a_body_of_exactly_the_limit_is_read(fake: FakeOpenAI, model: OpenAIChatModel) -> None:
    body = completion("ok")
    fake.script("agent", Raw(200, body + b" " * (MAX_REPLY_BYTES - len(body))))

    assert (await model.complete(request(), timeout_s=10)).content == "ok"


@pytest.mark.parametrize("body", [gzip.compress(completion("ok")), b"not gzip at all"], ids=["gzip", "broken gzip"])
async def test_a_compressed_body_is_invalid_output_and_never_inflated(body: bytes) -> None:
    """A server that compresses although asked not to: inflating would let a small body grow past the limit."""
    compressed = answer("200 OK", body, "Content-Type: application/json", "Content-Encoding: gzip")
    async with RawServer(compressed) as server, model_for(server.base_url) as chat_model:
        failure = await failure_of(chat_model)

    assert (failure.kind, failure.detail) == (FailureKind.INVALID_OUTPUT, "the reply body is compressed")


@pytest.mark.parametrize("arguments", ['{"password": "model-wrote-this', "[1, 2]", '"service=order"', ""])
async def test_malformed_tool_arguments_reach_the_tool_boundary_verbatim(
    fake: FakeOpenAI, model: OpenAIChatModel, arguments: str
) -> None:
    fake.script("agent", bad_tool_call_json(arguments=arguments))

    reply_ = await model.complete(ModelRequest(role="agent", messages=(ChatMessage(role="user", content="x"),)), 5)

    assert [call.arguments for call in reply_.tool_calls] == [arguments]


@pytest.mark.parametrize("tool_call_id", ["", "x\n", "call 1"])
async def test_a_bad_tool_call_id_reaches_the_tool_boundary_verbatim(
    fake: FakeOpenAI, model: OpenAIChatModel, tool_call_id: str
) -> None:
    """The tool boundary answers it with a Tool ERROR INVALID_TOOL_CALL_ID; the whole turn is not lost."""
    fake.script("agent", reply(tool_calls=[(tool_call_id, "query_logs", "{}")]))

    reply_ = await model.complete(ModelRequest(role="agent", messages=(ChatMessage(role="user", content="x"),)), 5)

    assert [call.id for call in reply_.tool_calls] == [tool_call_id]


def test_parse_completion_names_the_bad_field_without_its_value() -> None:
    body = json.dumps({"choices": [{"message": {"content": ["model-wrote-this"]}}]}).encode()

    with pytest.raises(OperationFailed) as caught:
        parse_completion(body)

    assert caught.value.kind == FailureKind.INVALID_OUTPUT
    assert "choices.0.message.content" in caught.value.detail
    assert "model-wrote-this" not in caught.value.detail


# -- cancellation ----------------------------------------------------------------------------------------


async def test_cancelling_the_caller_aborts_the_request(fake: FakeOpenAI, model: OpenAIChatModel) -> None:
    fake.script("agent", hang())
    task = asyncio.create_task(model.complete(request(), timeout_s=30))
    await eventually(lambda: fake.attempts("agent") == 1)

    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    cancelled_at = time.monotonic()

    assert await asyncio.to_thread(fake.wait_for_disconnects, 1, 1.0), "the server never saw the client go"
    assert time.monotonic() - cancelled_at < 1.0
    assert task.cancelled()


async def test_the_model_is_usable_after_a_cancelled_call(fake: FakeOpenAI, model: OpenAIChatModel) -> None:
    fake.script("agent", hang(), reply("next"))
    task = asyncio.create_task(model.complete(request(), timeout_s=30))
    await eventually(lambda: fake.attempts("agent") == 1)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task

    assert (await model.complete(request(), timeout_s=10)).content == "next"


async def test_cancelling_the_caller_while_the_body_arrives_closes_the_connection() -> None:
    half = raw(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
    async with RawServer(half) as server, model_for(server.base_url) as chat_model:
        task = asyncio.create_task(chat_model.complete(request(), timeout_s=30))
        await eventually(lambda: server.requests == 1)
        await asyncio.sleep(0.1)  # the head is in; the call waits for the rest of the body

        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await asyncio.wait_for(server.closed.wait(), 1)


# -- secrets ---------------------------------------------------------------------------------------------

FAILURES: dict[str, Step] = {
    "HTTP 500": http_error(500),
    "HTTP 401 echoing the key": http_error(
        401, {"error": {"message": f"Incorrect API key provided: {API_KEY} for {PROMPT}", "code": "invalid_api_key"}}
    ),
    "HTTP 400 echoing the prompt": http_error(400, {"error": {"message": PROMPT, "code": PROMPT}}),
    "HTTP 500 with a text body": http_error(500, f"{API_KEY} {PROMPT}"),
    "timeout": delay(5.0, reply("late")),
    "malformed body": malformed_body(),
    "bad content": json_body({"choices": [{"message": {"content": [API_KEY, PROMPT]}}]}),
}


@pytest.mark.parametrize("step", FAILURES.values(), ids=FAILURES.keys())
async def test_no_failure_carries_the_api_key_or_the_prompt(
    fake: FakeOpenAI, model: OpenAIChatModel, step: Step
) -> None:
    fake.script("agent", step)

    failure = await failure_of(model, timeout_s=0.5)

    shown = "".join(traceback.format_exception(failure)) + repr(failure)
    assert API_KEY not in shown
    assert "secret-prompt-marker" not in shown
    assert failure.__cause__ is None
    assert failure.__context__ is None


async def test_a_refused_connection_does_not_carry_the_api_key() -> None:
    chat_model = OpenAIChatModel(settings(f"http://127.0.0.1:{free_port()}/v1"))
    try:
        failure = await failure_of(chat_model)
    finally:
        await chat_model.aclose()

    assert API_KEY not in "".join(traceback.format_exception(failure))


def test_an_offline_configuration_is_refused() -> None:
    with pytest.raises(ValueError, match="provider openai"):
        OpenAIChatModel(ModelSettings())
