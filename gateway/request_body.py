"""Reading the body of ``POST /api/chat``: ``application/json`` of at most ``gateway.max-body-bytes`` (counted as
it arrives, whatever ``Content-Length`` claims), then a chat request (``gateway.chat_request``)."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request

from gateway.chat_request import ChatRequest, ChatRequests, Rejection
from gateway.errors import BODY_TOO_LARGE, INVALID_JSON, NOT_JSON, RequestRejected, invalid_body


async def read_chat_request(request: Request, requests: ChatRequests, max_body_bytes: int) -> ChatRequest:
    """The request's chat request, or ``RequestRejected`` naming what is wrong with its body."""
    data = await read_json(request, max_body_bytes)
    try:
        return requests.parse(data)
    except Rejection as rejection:
        raise RequestRejected(invalid_body(rejection)) from None


async def read_json(request: Request, max_body_bytes: int) -> Any:
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type != "application/json":
        raise RequestRejected(NOT_JSON)
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > max_body_bytes):
        raise RequestRejected(BODY_TOO_LARGE.filled(max_body_bytes=max_body_bytes))
    body = bytearray()
    async for chunk in request.stream():
        body.extend(chunk)
        if len(body) > max_body_bytes:
            raise RequestRejected(BODY_TOO_LARGE.filled(max_body_bytes=max_body_bytes))
    try:
        return json.loads(body)
    except (ValueError, RecursionError):
        raise RequestRejected(INVALID_JSON) from None
