"""A steady load of concurrent chat clients, and what each stream they read showed.

Each client asks one question after another through one of the two gateways (the other when one refuses or
is down) and keeps, per stream, the run id, the event names, the ``content`` data, the ``done`` outcome, the
TOOL_FINISHED statuses and how the stream ended. ``cut(n)`` makes the next ``n`` clients that are reading a
stream close their connection mid-stream, as a user closing the tab does.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from tests.harness.run_support import QUERY

STREAM_TIMEOUT_S = 300.0
"""Longer than any run may last (the run deadline, 240 s, plus the gateway's grace): a stream still open after
this hangs."""
RETRY_AFTER_S = 0.5


@dataclass
class Stream:
    client: int
    gateway: str
    started: float
    ended: float = 0.0
    run_id: str | None = None
    events: list[str] = field(default_factory=list)
    content: Any = None
    outcome: str | None = None
    code: str | None = None
    """The failure's code, or the fallback's type."""
    tools: list[tuple[str, str]] = field(default_factory=list)
    cut: bool = False
    refused: str | None = None
    """Why no stream began: the HTTP status, or the connection error's kind."""
    broken: str | None = None
    """Why the stream stopped before ``done`` when the client did not cut it."""

    @property
    def well_formed(self) -> bool:
        """metadata → status* → content|failure → done, once."""
        names = self.events
        if len(names) < 3 or names[0] != "metadata" or names[-1] != "done" or names.count("done") != 1:
            return False
        final = names[-2]
        return final in ("content", "failure") and names.count("content") + names.count("failure") == 1

    def overlaps(self, start: float, end: float) -> bool:
        return self.started <= end and self.ended >= start


class Load:
    """``clients`` loops over ``urls`` until ``stop()``; ``streams`` holds every attempt, in start order."""

    def __init__(self, urls: Sequence[str], keys: Sequence[str], clients: int) -> None:
        self._urls = list(urls)
        self._keys = list(keys)
        self._clients = clients
        self._stopping = asyncio.Event()
        self._cuts = 0
        self.streams: list[Stream] = []

    def cut(self, count: int) -> None:
        self._cuts += count

    def stop(self) -> None:
        self._stopping.set()

    async def run(self) -> None:
        timeout = aiohttp.ClientTimeout(total=STREAM_TIMEOUT_S, sock_connect=5)
        async with aiohttp.ClientSession(timeout=timeout) as session:
            await asyncio.gather(*(self._client(session, index) for index in range(self._clients)))

    async def _client(self, session: aiohttp.ClientSession, index: int) -> None:
        turn = index
        while not self._stopping.is_set():
            gateway = turn % len(self._urls)
            stream = Stream(client=index, gateway="ab"[gateway], started=time.monotonic())
            self.streams.append(stream)
            await self._ask(session, self._urls[gateway], self._keys[index % len(self._keys)], stream)
            stream.ended = time.monotonic()
            turn += 1
            if stream.refused is not None:
                await asyncio.sleep(RETRY_AFTER_S)

    async def _ask(self, session: aiohttp.ClientSession, url: str, key: str, stream: Stream) -> None:
        headers = {"Authorization": f"Bearer {key}"}
        try:
            async with session.post(f"{url}/api/chat", json={"query": QUERY}, headers=headers) as response:
                if response.status != 200:
                    stream.refused = f"HTTP {response.status}"
                    return
                await self._read(response, stream)
        except (aiohttp.ClientConnectorError, aiohttp.ServerDisconnectedError) as error:
            if stream.events:
                stream.broken = type(error).__name__
            else:
                stream.refused = type(error).__name__
        except TimeoutError:
            stream.broken = "timeout"
        except aiohttp.ClientError as error:
            stream.broken = type(error).__name__

    async def _read(self, response: aiohttp.ClientResponse, stream: Stream) -> None:
        name, data = "message", []
        async for raw in response.content:
            line = raw.decode().rstrip("\r\n")
            if line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].removeprefix(" "))
            elif not line and data:
                self._take(stream, name, json.loads("\n".join(data)))
                name, data = "message", []
                if stream.outcome is not None:
                    return
                if self._cuts > 0 and len(stream.events) >= 2:
                    self._cuts -= 1
                    stream.cut = True
                    response.close()
                    return
        stream.broken = "closed before done"

    @staticmethod
    def _take(stream: Stream, name: str, data: Any) -> None:
        stream.events.append(name)
        if name == "metadata":
            stream.run_id = data.get("run_id")
        elif name == "content":
            stream.content = data
            if data.get("content_type") == "FALLBACK":
                stream.code = data["payload"].get("type")
        elif name == "failure":
            stream.code = data.get("code")
        elif name == "done":
            stream.outcome = data.get("outcome")
        elif name == "status" and data.get("code") == "TOOL_FINISHED":
            stream.tools.append((data["tool"], data["evidence_status"]))
