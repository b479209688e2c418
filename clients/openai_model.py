"""``OpenAIChatModel``: the ``ChatModel`` boundary over an OpenAI-compatible chat completions endpoint.

Each model instance holds one ``aiohttp.ClientSession`` per event loop it is used in (opened there on the first
call: a connection belongs to the loop that opened it), whose keep-alive connections every call in that loop shares
(at most ``MAX_CONNECTIONS`` at once); the body is encoded with orjson and the reply parsed here with pydantic. The
official SDK is not on this path: it cost 1.1 ms of CPU per call against 0.3 ms here, 0.2 ms at 50 concurrent calls
(``bench/model_client.py``), and filled a ``ChatCompletion`` from any JSON without validating it. aiohttp rather
than httpx2: this client on httpx2 cost 0.7 ms per call, 0.6 ms at 50 concurrent calls.

One ``complete`` is one HTTP request: the transport retries nothing (aiohttp retries only idempotent methods, and
this is a POST) and a redirect is reported as its status, not followed, so every attempt is the Harness's.
Configuration comes from ``config/`` only: no ``OPENAI_*`` variable, proxy or ``.netrc`` from the environment, no
cookies kept; TLS is verified against the system's trust store. Failures become ``OperationFailed(kind, detail)``:

=====================================================  ==============
no reply within the call's time limit (to connect, to   TIMEOUT
read, to get a pooled connection, or the whole call)
connection refused, reset or closed, TLS, a reply       TRANSPORT
that is not HTTP or is cut short: ``cannot reach
host:port (ClientConnectorError)``
any status but 2xx (429 included): ``HTTP 503 from      TRANSPORT
the model endpoint (code)``, with only a short,
code-like ``error.code`` of the body
a body that is not a chat completion, no choices,       INVALID_OUTPUT
a compressed body (``identity`` is asked for, so the
size limit counts the bytes received), a body larger
than ``MAX_REPLY_BYTES`` (reading stops there), a tool
call that is not a function call with a name and a
string of arguments (its id and arguments are checked
by the tool boundary: a bad one is a Tool ERROR)
=====================================================  ==============

A ``detail`` never holds the API key, the prompt or the model's output, and no failure carries aiohttp's
exception (whose request information holds the key) as its context. ``asyncio.CancelledError`` propagates
untouched; cancelling the awaiting task closes the connection.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import orjson
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from config.runtime import ModelSettings
from harness.errors import OperationFailed
from harness.messages import ModelReply, ModelRequest, ToolCall, Usage
from harness.retry import FailureKind

OPENAI_API_URL = "https://api.openai.com/v1"
ROLE_HEADER = "X-Superbiz-Role"
MAX_CONNECT_TIMEOUT_S = 10.0
MAX_CONNECTIONS = 1000
"""Connections to the endpoint per model instance and event loop; a call beyond them waits for a free one within
its own time limit."""
KEEPALIVE_S = 4.0
"""How long an idle connection is kept: under the 5 s after which uvicorn (and so vLLM) closes one, so a request is
not sent on a connection the server is closing."""
MAX_REPLY_BYTES = 4 * 1024 * 1024
"""A completion body beyond this is not read: a reply the Harness could use is a small fraction of it."""
MAX_ERROR_BODY_BYTES = 64 * 1024
"""Of an error answer only its ``error.code`` is used; a longer body is not read."""
_SAFE_ERROR_CODE = re.compile(r"[A-Za-z0-9_.\-]{1,64}")


def http_timeout(seconds: float) -> aiohttp.ClientTimeout:
    """``seconds`` for the whole request and for each read, at most ``MAX_CONNECT_TIMEOUT_S`` to connect (TCP and
    TLS). aiohttp's ``connect`` would also count the wait for a free pooled connection, which has the whole
    ``seconds``, so the connect bound is ``sock_connect``."""
    return aiohttp.ClientTimeout(total=seconds, sock_connect=min(MAX_CONNECT_TIMEOUT_S, seconds), sock_read=seconds)


class OpenAIChatModel:
    """A chat model behind an OpenAI-compatible endpoint. ``settings.provider`` must be ``openai``.

    Built anywhere (no event loop is needed); ``aclose()`` in each event loop that used it, before that loop ends.
    """

    def __init__(self, settings: ModelSettings) -> None:
        if settings.provider != "openai" or settings.api_key is None:
            raise ValueError("OpenAIChatModel needs model.provider openai and an api-key")
        self._settings = settings
        base_url = settings.base_url or OPENAI_API_URL
        self._url = f"{base_url.rstrip('/')}/chat/completions"
        self._headers = {
            "Authorization": f"Bearer {settings.api_key.reveal()}",
            "Content-Type": "application/json",
            "Accept": "application/json",
            # MAX_REPLY_BYTES counts the bytes received: a compressed reply is refused, never inflated.
            "Accept-Encoding": "identity",
        }
        self._sessions: dict[asyncio.AbstractEventLoop, aiohttp.ClientSession] = {}
        parts = urlsplit(base_url)
        self._endpoint = f"{parts.hostname}:{parts.port}" if parts.port else str(parts.hostname)

    @property
    def label(self) -> str:
        return self._settings.name

    async def complete(self, request: ModelRequest, timeout_s: float) -> ModelReply:
        """One request, bounded by ``timeout_s`` (and by ``model.timeout-s``) from start to last byte."""
        limit_s = min(timeout_s, self._settings.timeout_s)
        if not limit_s > 0:
            raise OperationFailed(FailureKind.TIMEOUT, "no time left for the model call")
        outcome = await self._send(request, limit_s)
        if isinstance(outcome, OperationFailed):
            # Raised outside the handler: aiohttp's error holds the request information, whose headers carry the
            # API key, and must not ride along as __context__.
            raise outcome
        return parse_completion(outcome)

    async def _send(self, request: ModelRequest, limit_s: float) -> bytes | OperationFailed:
        content = orjson.dumps(self._body(request))
        try:
            # aiohttp's timeouts bound each phase and each read (rounded up to whole seconds past 5 s);
            # asyncio.timeout bounds the whole exchange to the exact limit.
            async with (
                asyncio.timeout(limit_s),
                self._session().post(
                    self._url,
                    data=content,
                    headers={ROLE_HEADER: request.role},
                    timeout=http_timeout(limit_s),
                    allow_redirects=False,
                ) as response,
            ):
                if not 200 <= response.status < 300:
                    error_body = await _read(response.content, MAX_ERROR_BODY_BYTES)
                    return OperationFailed(FailureKind.TRANSPORT, _status_detail(response.status, error_body))
                if response.headers.get("Content-Encoding", "identity").lower() != "identity":
                    return OperationFailed(FailureKind.INVALID_OUTPUT, "the reply body is compressed")
                body = await _read(response.content, MAX_REPLY_BYTES)
        except TimeoutError:  # aiohttp's own timeouts (ServerTimeoutError, ...) are TimeoutErrors too
            return OperationFailed(FailureKind.TIMEOUT, f"no reply from the model within {limit_s:g}s")
        except aiohttp.ClientError as error:
            return OperationFailed(FailureKind.TRANSPORT, f"cannot reach {self._endpoint} ({type(error).__name__})")
        if body is None:
            return OperationFailed(FailureKind.INVALID_OUTPUT, f"the reply is larger than {MAX_REPLY_BYTES // 1024} KB")
        return body

    def _session(self) -> aiohttp.ClientSession:
        """The running loop's session, opened on its first call there."""
        loop = asyncio.get_running_loop()
        session = self._sessions.get(loop)
        if session is None:
            session = self._sessions[loop] = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=MAX_CONNECTIONS, keepalive_timeout=KEEPALIVE_S),
                headers=self._headers,
                cookie_jar=aiohttp.DummyCookieJar(),
                auto_decompress=False,
                trust_env=False,
            )
        return session

    async def aclose(self) -> None:
        """Closes the running loop's session and its connections; the next call there opens a new one."""
        session = self._sessions.pop(asyncio.get_running_loop(), None)
        if session is not None:
            await session.close()

    def _body(self, request: ModelRequest) -> dict[str, Any]:
        arguments: dict[str, Any] = {
            "model": self._settings.name,
            "messages": [message.openai() for message in request.messages],
            "temperature": self._settings.temperature,
        }
        if request.tools:
            arguments["tools"] = request.tools
            if request.tool_choice is not None:
                arguments["tool_choice"] = request.tool_choice
        if request.json_output:
            arguments["response_format"] = {"type": "json_object"}
        return arguments


async def _read(content: aiohttp.StreamReader, limit: int) -> bytes | None:
    """The body, or ``None`` as soon as it is longer than ``limit`` bytes (the rest is never read)."""
    chunks: list[bytes] = []
    room = limit + 1  # reading one byte past the limit tells a body of exactly the limit from a longer one
    while room > 0 and (chunk := await content.read(room)):
        chunks.append(chunk)
        room -= len(chunk)
    return None if room == 0 else b"".join(chunks)


def _status_detail(status: int, body: bytes | None) -> str:
    # The body is the server's text and may echo the prompt; only a short, code-like error code is kept.
    code = _error_code(body) if body else None
    shown = f" ({code})" if code is not None and _SAFE_ERROR_CODE.fullmatch(code) else ""
    return f"HTTP {status} from the model endpoint{shown}"


def _error_code(body: bytes) -> str | None:
    """``error.code`` of OpenAI's ``{"error": {...}}`` (or a bare ``code``), as the SDK read it."""
    try:
        parsed = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    error = parsed.get("error", parsed) if isinstance(parsed, dict) else None
    code = error.get("code") if isinstance(error, dict) else None
    return None if code is None else str(code)


# -- the reply -------------------------------------------------------------------------------------------


class _Wire(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)


class _Function(_Wire):
    name: str = Field(min_length=1)
    arguments: str


class _ToolCall(_Wire):
    id: str = ""
    """Checked by the tool boundary: a missing or malformed id is a Tool ERROR the agent can act on."""
    type: str
    function: _Function | None = None


class _Message(_Wire):
    content: str | None = None
    tool_calls: list[_ToolCall] | None = None


class _Choice(_Wire):
    message: _Message


class _Usage(_Wire):
    prompt_tokens: int | None = Field(default=None, ge=0)
    completion_tokens: int | None = Field(default=None, ge=0)


class _Completion(_Wire):
    choices: list[_Choice]
    usage: _Usage | None = None
    model: str | None = None


def parse_completion(body: bytes) -> ModelReply:
    """A ``chat.completion`` body as a ``ModelReply``; anything else is INVALID_OUTPUT."""
    if len(body) > MAX_REPLY_BYTES:
        raise OperationFailed(FailureKind.INVALID_OUTPUT, f"the reply is larger than {MAX_REPLY_BYTES // 1024} KB")
    try:
        completion = _Completion.model_validate_json(body)
    except ValidationError as error:
        invalid = OperationFailed(FailureKind.INVALID_OUTPUT, _validation_detail(error))
    else:
        return _reply(completion)
    raise invalid  # outside the handler: the pydantic error quotes the model's output


def _reply(completion: _Completion) -> ModelReply:
    if not completion.choices:
        raise OperationFailed(FailureKind.INVALID_OUTPUT, "the reply has no choices")
    message = completion.choices[0].message
    usage = completion.usage or _Usage()
    return ModelReply(
        content=message.content,
        tool_calls=tuple(_tool_call(index, call) for index, call in enumerate(message.tool_calls or ())),
        usage=Usage(input_tokens=usage.prompt_tokens or 0, output_tokens=usage.completion_tokens or 0),
        model=completion.model or "",
    )


def _tool_call(index: int, call: _ToolCall) -> ToolCall:
    """The call as the model wrote it. Arguments that are not a JSON object still come through: the Harness's tool
    boundary answers them with a Tool ERROR the agent can act on, instead of failing the whole model call."""
    if call.type != "function" or call.function is None:
        raise OperationFailed(FailureKind.INVALID_OUTPUT, f"tool call {index} is not a function call")
    return ToolCall(id=call.id, name=call.function.name, arguments=call.function.arguments)


def _validation_detail(error: ValidationError) -> str:
    # Locations and error types only: pydantic's own message would quote the model's output.
    first = error.errors(include_url=False, include_input=False, include_context=False)[0]
    if first["type"] == "json_invalid":
        return "the reply body is not JSON"
    where = ".".join(str(part) for part in first["loc"]) or "body"
    return f"the reply is not a chat completion ({where}: {first['type']})"
