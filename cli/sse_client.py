"""A small Server-Sent Events reader over httpx, for ``superbiz ask``, the demo and the tests."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx

from contract.vocabulary import HarnessError


@dataclass(frozen=True)
class Event:
    event: str
    data: dict[str, Any]


class RequestFailed(HarnessError):
    """The gateway answered with an error before any stream."""

    code = "HTTP_ERROR"

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"HTTP {status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message


async def chat_events(
    client: httpx.AsyncClient, url: str, query: str, session_id: str | None = None, api_key: str | None = None
) -> AsyncIterator[Event]:
    """POST ``/api/chat`` and yield its events; keep-alive comments are skipped."""
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    body = {"query": query, "session_id": session_id}
    async with client.stream("POST", f"{url.rstrip('/')}/api/chat", json=body, headers=headers) as response:
        if response.status_code != 200:
            raw = await response.aread()
            try:
                error = json.loads(raw)["error"]
                raise RequestFailed(response.status_code, str(error["code"]), str(error["message"]))
            except (ValueError, KeyError, TypeError):
                raise RequestFailed(response.status_code, "HTTP_ERROR", raw[:200].decode(errors="replace")) from None
        name, data = "message", []
        async for line in response.aiter_lines():
            if not line:
                if data:
                    yield Event(name, json.loads("\n".join(data)))
                name, data = "message", []
            elif line.startswith(":"):
                continue
            elif line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].removeprefix(" "))
