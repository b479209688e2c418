"""A scripted OpenAI-compatible server for tests: real HTTP on a free loopback port, no network beyond it.

``POST /v1/chat/completions`` answers from a FIFO queue of steps per role (the ``X-Superbiz-Role`` header;
``default`` without it). When a role's queue is empty, the role's default handler answers, else HTTP 500.
Everything is recorded: the requests, the attempts per role, and the clients that went away before their
answer (``disconnects``, seen as ``http.disconnect`` while a ``delay`` or ``hang`` step waits).

    with FakeOpenAI() as fake:
        fake.script("agent", reply(tool_calls=[("call_1", "query_logs", '{"service": "order"}')]), hang())
        model = OpenAIChatModel(settings)  # provider openai, base-url: fake.base_url
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import socket
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

ROLE_HEADER = "x-superbiz-role"
DEFAULT_ROLE = "default"
ANY_ROLE = "*"
"""``fake.default(ANY_ROLE, handler)`` answers every role that has neither steps nor its own handler."""

_STARTUP_TIMEOUT_S = 10.0
_SHUTDOWN_TIMEOUT_S = 10.0


# -- steps -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reply:
    """A ``chat.completion``. ``tool_calls`` are raw OpenAI tool-call objects, so tests can send bad ones."""

    content: str | None = None
    tool_calls: tuple[dict[str, Any], ...] = ()
    usage: tuple[int, int] = (0, 0)
    model: str | None = None
    """The ``model`` field of the answer; the request's model when absent."""

    def render(self, body: dict[str, Any], number: int) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": self.content}
        if self.tool_calls:
            message["tool_calls"] = list(self.tool_calls)
        prompt_tokens, completion_tokens = self.usage
        return {
            "id": f"chatcmpl-fake-{number}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": self.model if self.model is not None else str(body.get("model", "fake-model")),
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": "tool_calls" if self.tool_calls else "stop",
                    "logprobs": None,
                }
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }


@dataclass(frozen=True)
class Raw:
    """Any HTTP answer, byte for byte."""

    status: int
    body: bytes
    content_type: str = "application/json"


@dataclass(frozen=True)
class Delay:
    """Wait ``seconds``, then play ``then``; a client that leaves meanwhile is counted as a disconnect."""

    seconds: float
    then: Step


@dataclass(frozen=True)
class Hang:
    """Never answer: wait until the client goes away (a disconnect) or the fake stops."""


@dataclass(frozen=True)
class Trickle:
    """Answer ``then`` a few bytes at a time, one chunk every ``interval_s``: slow, but never silent."""

    interval_s: float
    then: Reply | Raw
    chunk_bytes: int = 8


Step = Reply | Raw | Delay | Hang | Trickle
Handler = Callable[[dict[str, Any]], Step]
ToolCallSpec = tuple[str, str, str]
"""``(id, name, arguments)``: a well-formed function tool call."""


def function_call(call_id: str, name: str, arguments: str) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def reply(
    content: str | None = None,
    tool_calls: Iterable[ToolCallSpec | dict[str, Any]] = (),
    usage: tuple[int, int] = (0, 0),
    model: str | None = None,
) -> Reply:
    calls = tuple(call if isinstance(call, dict) else function_call(*call) for call in tool_calls)
    return Reply(content=content, tool_calls=calls, usage=usage, model=model)


def delay(seconds: float, step: Step) -> Delay:
    return Delay(seconds, step)


def hang() -> Hang:
    return Hang()


def trickle(interval_s: float, step: Reply | Raw, chunk_bytes: int = 8) -> Trickle:
    return Trickle(interval_s, step, chunk_bytes)


def http_error(status: int, body: dict[str, Any] | str | None = None) -> Raw:
    """An HTTP error; the body defaults to OpenAI's ``{"error": {...}}`` shape."""
    if body is None:
        body = {"error": {"message": f"fake-openai: scripted HTTP {status}", "type": "fake_error", "code": None}}
    if isinstance(body, str):
        return Raw(status, body.encode(), "text/plain")
    return Raw(status, json.dumps(body).encode())


def malformed_body(content_type: str = "application/json") -> Raw:
    """HTTP 200 whose body is not JSON at all."""
    return Raw(200, b'{"id": "chatcmpl-fake", "choices": [', content_type)


def json_body(payload: Any, status: int = 200) -> Raw:
    """Any JSON document, e.g. a completion without choices."""
    return Raw(status, json.dumps(payload).encode())


def no_choices() -> Raw:
    return json_body({"id": "chatcmpl-fake", "object": "chat.completion", "model": "fake", "choices": []})


def bad_tool_call_json(
    call_id: str = "call_bad", name: str = "query_logs", arguments: str = '{"service": "order'
) -> Reply:
    """A tool call whose ``arguments`` are not JSON (here: cut off mid-string)."""
    return reply(tool_calls=[(call_id, name, arguments)])


def wrong_type_tool_call(call_id: str = "call_custom", name: str = "query_logs") -> Reply:
    """A ``custom`` tool call (free-text input), not the ``function`` call the Harness asked for."""
    return reply(tool_calls=[{"id": call_id, "type": "custom", "custom": {"name": name, "input": "service=order"}}])


# -- the server ------------------------------------------------------------------------------------------


class RecordedRequest(NamedTuple):
    """``role, body, headers = fake.requests[0]`` works, and so does ``.role``."""

    role: str
    body: dict[str, Any]
    headers: dict[str, str]
    """Lower-case header names, as received."""


@dataclass
class _Script:
    steps: dict[str, deque[Step]] = field(default_factory=dict)
    defaults: dict[str, Handler] = field(default_factory=dict)


class FakeOpenAI:
    """The scripted server. Start it with ``with FakeOpenAI() as fake:``; every method is thread-safe.

    ``api_key``, when given, is required as ``Authorization: Bearer …`` (HTTP 401 otherwise).
    """

    def __init__(self, api_key: str | None = None) -> None:
        self._api_key = api_key
        self._lock = threading.Condition()
        self._script = _Script()
        self._requests: list[RecordedRequest] = []
        self._disconnects = 0
        self._in_flight = 0
        self._numbers = itertools.count(1)
        # Set (from the server's loop) to end every waiting step at once; replaced by reset().
        self._release = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._port = 0

    # -- scripting --

    def script(self, role: str, *steps: Step) -> None:
        """Append ``steps`` to ``role``'s queue; each request of that role takes the next one."""
        with self._lock:
            self._script.steps.setdefault(role, deque()).extend(steps)

    def default(self, role: str, handler: Handler) -> None:
        """Answer ``role`` with ``handler(body)`` once its queue is empty (``ANY_ROLE`` for every role)."""
        with self._lock:
            self._script.defaults[role] = handler

    def pending(self, role: str) -> int:
        """Steps of ``role`` not yet played."""
        with self._lock:
            return len(self._script.steps.get(role, ()))

    def reset(self) -> None:
        """End every request in flight, then forget all steps, handlers and records (one server, many tests)."""
        self._release_waiters()
        with self._lock:
            if not self._lock.wait_for(lambda: self._in_flight == 0, timeout=_SHUTDOWN_TIMEOUT_S):
                raise RuntimeError("FakeOpenAI: requests still in flight after reset")
            self._script = _Script()
            self._requests.clear()
            self._disconnects = 0

    # -- records --

    @property
    def base_url(self) -> str:
        if not self._port:
            raise RuntimeError("FakeOpenAI is not running")
        return f"http://127.0.0.1:{self._port}/v1"

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests)

    def attempts(self, role: str) -> int:
        with self._lock:
            return sum(1 for request in self._requests if request.role == role)

    @property
    def disconnects(self) -> int:
        with self._lock:
            return self._disconnects

    def wait_for_disconnects(self, count: int, timeout_s: float) -> bool:
        """Block until at least ``count`` disconnects were seen; never call it on the client's event loop."""
        with self._lock:
            return self._lock.wait_for(lambda: self._disconnects >= count, timeout=timeout_s)

    # -- lifecycle --

    def start(self) -> FakeOpenAI:
        if self._thread is not None:
            raise RuntimeError("FakeOpenAI is already running")
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        # Accepted sockets inherit this. Without it (asyncio sets it only on sockets it creates itself) every
        # keep-alive answer waited ~40 ms for the client's delayed ACK.
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind(("127.0.0.1", 0))
        self._port = sock.getsockname()[1]
        config = uvicorn.Config(
            self._app(),
            lifespan="on",
            ws="none",
            http="h11",
            loop="asyncio",
            log_config=None,
            log_level="warning",
            access_log=False,
            timeout_graceful_shutdown=5,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [sock]}, name="fake-openai", daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + _STARTUP_TIMEOUT_S
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self._server.should_exit = True
                self._thread.join(timeout=_SHUTDOWN_TIMEOUT_S)
                sock.close()
                self._server = self._thread = None
                raise RuntimeError("FakeOpenAI did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        """End every waiting step, stop the server and join its thread."""
        if self._server is None or self._thread is None:
            return
        self._release_waiters()
        self._server.should_exit = True
        self._thread.join(timeout=_SHUTDOWN_TIMEOUT_S)
        if self._thread.is_alive():
            raise RuntimeError("FakeOpenAI did not stop")
        self._server = self._thread = None
        self._loop = None

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def _release_waiters(self) -> None:
        with self._lock:
            release, self._release = self._release, asyncio.Event()
        loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop has already closed: nothing is waiting
                loop.call_soon_threadsafe(release.set)

    # -- the app --

    def _app(self) -> ASGIApp:
        @contextlib.asynccontextmanager
        async def lifespan(app: Starlette) -> AsyncIterator[None]:
            self._loop = asyncio.get_running_loop()
            yield

        routes = [Route("/v1/chat/completions", self._chat_completions, methods=["POST"])]
        starlette = Starlette(routes=routes, lifespan=lifespan)

        async def app(scope: Scope, receive: Receive, send: Send) -> None:
            # Counted around the whole exchange, streamed bodies included, so reset() knows when it is quiet.
            if scope["type"] != "http":
                await starlette(scope, receive, send)
                return
            with self._lock:
                self._in_flight += 1
            try:
                await starlette(scope, receive, send)
            finally:
                with self._lock:
                    self._in_flight -= 1
                    self._lock.notify_all()

        return app

    async def _chat_completions(self, request: Request) -> Response:
        try:
            body = json.loads(await request.body())
        except ValueError:
            return JSONResponse({"error": {"message": "fake-openai: request body is not JSON"}}, status_code=400)
        role = request.headers.get(ROLE_HEADER, DEFAULT_ROLE)
        with self._lock:
            self._requests.append(RecordedRequest(role, body, dict(request.headers)))
            if self._api_key is not None and request.headers.get("authorization") != f"Bearer {self._api_key}":
                return JSONResponse({"error": {"message": "fake-openai: bad api key", "type": "auth"}}, status_code=401)
            number = next(self._numbers)
            release = self._release
            queue = self._script.steps.get(role)
            step = queue.popleft() if queue else None
            handler = self._script.defaults.get(role) or self._script.defaults.get(ANY_ROLE)
        if step is None and handler is not None:
            step = handler(body)
        if step is None:
            message = f"fake-openai: nothing scripted for role {role!r} (no step left, no default handler)"
            return JSONResponse({"error": {"message": message, "type": "fake_unscripted"}}, status_code=500)
        return await self._play(step, body, number, request.receive, release)

    async def _play(
        self, step: Step, body: dict[str, Any], number: int, receive: Receive, release: asyncio.Event
    ) -> Response:
        while isinstance(step, Delay | Hang):
            seconds = step.seconds if isinstance(step, Delay) else None
            outcome = await _wait(receive, release, seconds)
            if outcome == "disconnected":
                with self._lock:
                    self._disconnects += 1
                    self._lock.notify_all()
                return Response(status_code=499)  # nobody reads it
            if outcome == "released" or isinstance(step, Hang):
                return JSONResponse({"error": {"message": "fake-openai: reset or stopped"}}, status_code=503)
            step = step.then
        if isinstance(step, Trickle):
            return _trickle(step, body, number, release)
        if isinstance(step, Raw):
            return Response(step.body, status_code=step.status, media_type=step.content_type)
        return JSONResponse(step.render(body, number))


async def _wait(receive: Receive, release: asyncio.Event, seconds: float | None) -> str:
    """Wait ``seconds`` (``None``: forever): ``elapsed``, or ``disconnected`` / ``released`` if that came first."""

    async def disconnected() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass

    watcher = asyncio.ensure_future(disconnected())
    released = asyncio.ensure_future(release.wait())
    try:
        await asyncio.wait({watcher, released}, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (watcher, released):
            task.cancel()
        await asyncio.gather(watcher, released, return_exceptions=True)
    if watcher.done() and not watcher.cancelled() and watcher.exception() is None:
        return "disconnected"
    return "released" if release.is_set() else "elapsed"


def _trickle(step: Trickle, body: dict[str, Any], number: int, release: asyncio.Event) -> Response:
    then = step.then
    raw = then if isinstance(then, Raw) else Raw(200, json.dumps(then.render(body, number)).encode())

    async def chunks() -> AsyncIterator[bytes]:
        for start in range(0, len(raw.body), step.chunk_bytes):
            if release.is_set():
                return
            yield raw.body[start : start + step.chunk_bytes]
            await asyncio.sleep(step.interval_s)

    return StreamingResponse(chunks(), status_code=raw.status, media_type=raw.content_type)
