"""``OpenAIChatModel``: the ``ChatModel`` boundary over the official OpenAI SDK (chat completions).

One ``complete`` is one HTTP request: the SDK's own retries are off (``max_retries=0``), every attempt is the
Harness's. Failures become ``OperationFailed(kind, detail)``:

=====================================================  ==============
``openai.APITimeoutError``, the call's time limit       TIMEOUT
``openai.APIConnectionError`` (refused, reset, TLS)     TRANSPORT
``openai.APIStatusError`` (any 4xx/5xx, 429 included)   TRANSPORT, with the status code
a body that is not a chat completion, no choices,       INVALID_OUTPUT
a body larger than ``MAX_REPLY_BYTES``,
a tool call that is not a function call with a name and
a string of arguments (its id and arguments are checked
by the tool boundary: a bad one is a Tool ERROR)
=====================================================  ==============

The reply body is parsed here, not by the SDK: the SDK returns a non-JSON 200 body as a plain ``str`` (or
raises a bare ``JSONDecodeError``) and fills a ``ChatCompletion`` from any JSON without validating it.
A ``detail`` never holds the API key, the prompt or the model's output. ``asyncio.CancelledError``
propagates untouched; cancelling the awaiting task closes the connection.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any
from urllib.parse import urlsplit

import httpx2
import openai
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from config.schema import ModelSettings
from harness.errors import OperationFailed
from harness.model import ModelReply, ModelRequest, ToolCall, Usage
from harness.retry import FailureKind

OPENAI_API_URL = "https://api.openai.com/v1"
ROLE_HEADER = "X-Superbiz-Role"
MAX_CONNECT_TIMEOUT_S = 10.0
MAX_REPLY_BYTES = 4 * 1024 * 1024
"""A completion body beyond this is not read: a reply the Harness could use is a small fraction of it."""
_SAFE_ERROR_CODE = re.compile(r"^[A-Za-z0-9_.\-]{1,64}$")


def http_timeout(seconds: float) -> openai.Timeout:
    """``seconds`` for each phase of a request, at most ``MAX_CONNECT_TIMEOUT_S`` to connect."""
    return openai.Timeout(seconds, connect=min(MAX_CONNECT_TIMEOUT_S, seconds))


class OpenAIChatModel:
    """A chat model behind an OpenAI-compatible endpoint. ``settings.provider`` must be ``openai``."""

    def __init__(self, settings: ModelSettings) -> None:
        if settings.provider != "openai" or settings.api_key is None:
            raise ValueError("OpenAIChatModel needs model.provider openai and an api-key")
        self._settings = settings
        base_url = settings.base_url or OPENAI_API_URL
        # Without an explicit base_url the SDK would read OPENAI_BASE_URL: configuration comes from config/ only.
        self._client = openai.AsyncOpenAI(
            base_url=base_url,
            api_key=settings.api_key.reveal(),
            max_retries=0,
            timeout=http_timeout(settings.timeout_s),
        )
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
            # Raised outside the handler: the SDK error holds the request, whose headers carry the API key,
            # and must not ride along as __context__.
            raise outcome
        return parse_completion(outcome)

    async def _send(self, request: ModelRequest, limit_s: float) -> bytes | OperationFailed:
        try:
            # The SDK's timeouts bound each phase and each read; asyncio.timeout bounds the whole exchange (a
            # server that trickles bytes cannot stretch it).
            async with asyncio.timeout(limit_s):
                # client.post sends the body as given; chat.completions.create would first walk every message
                # and tool schema against the SDK's TypedDicts (measured: a quarter of a run's CPU).
                response = await self._client.post(
                    "/chat/completions",
                    cast_to=httpx2.Response,
                    body=self._body(request),
                    options={"headers": {ROLE_HEADER: request.role}, "timeout": http_timeout(limit_s)},
                )
                return response.content
        except (openai.APITimeoutError, TimeoutError):
            return OperationFailed(FailureKind.TIMEOUT, f"no reply from the model within {limit_s:g}s")
        except openai.APIConnectionError as error:
            cause = type(error.__cause__).__name__ if error.__cause__ is not None else "connection error"
            return OperationFailed(FailureKind.TRANSPORT, f"cannot reach {self._endpoint} ({cause})")
        except openai.APIStatusError as error:
            return OperationFailed(FailureKind.TRANSPORT, _status_detail(error))

    async def aclose(self) -> None:
        await self._client.close()

    def _body(self, request: ModelRequest) -> dict[str, Any]:
        arguments: dict[str, Any] = {
            "model": self._settings.name,
            "messages": [message.openai() for message in request.messages],
            "temperature": self._settings.temperature,
        }
        if request.tools:
            arguments["tools"] = list(request.tools)
            if request.tool_choice is not None:
                arguments["tool_choice"] = request.tool_choice
        if request.json_output:
            arguments["response_format"] = {"type": "json_object"}
        return arguments


def _status_detail(error: openai.APIStatusError) -> str:
    # The body is the server's text and may echo the prompt; only a short, code-like error code is kept.
    code = f" ({error.code})" if error.code and _SAFE_ERROR_CODE.match(error.code) else ""
    return f"HTTP {error.status_code} from the model endpoint{code}"


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
