"""The gateway's OpenAPI description (served at /openapi.json; the fuzz tests read it)."""

from __future__ import annotations

from typing import Any, get_args

from harness.events import FAILURE_MESSAGES, STATUS_MESSAGES, ContentType, Outcome


def _json_object(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required}


EVENT_DATA: dict[str, dict[str, Any]] = {
    "metadata": _json_object(
        {
            "session_id": {"type": "string"},
            "run_id": {"type": "string"},
            "model": {"type": "string"},
            "trace_id": {"type": "string", "pattern": "^[0-9a-f]{32}$"},
        },
        ["session_id", "run_id"],
    ),
    "status": _json_object(
        {"code": {"enum": sorted(STATUS_MESSAGES)}, "message": {"type": "string"}}, ["code", "message"]
    ),
    "content": _json_object(
        {"content_type": {"enum": list(get_args(ContentType))}, "payload": {"type": "object"}},
        ["content_type", "payload"],
    ),
    "failure": _json_object(
        {"code": {"enum": sorted(FAILURE_MESSAGES)}, "message": {"type": "string"}}, ["code", "message"]
    ),
    "done": _json_object({"outcome": {"enum": list(get_args(Outcome))}}, ["outcome"]),
}
"""Each event's ``data``, a JSON object (the event contract: metadata, status*, content | failure, done)."""


def sse_event_schema() -> dict[str, Any]:
    """One Server-Sent Event of ``/api/chat``: its name, and its ``data`` as JSON of that event's schema."""
    return {
        "oneOf": [
            {
                "type": "object",
                "properties": {
                    "event": {"const": name},
                    "data": {"type": "string", "contentMediaType": "application/json", "contentSchema": data},
                },
                "required": ["event", "data"],
            }
            for name, data in EVENT_DATA.items()
        ]
    }


def openapi_document(chat_request: dict[str, Any], auth_required: bool) -> dict[str, Any]:
    """``chat_request``: the JSON Schema of the chat request body (``ChatRequests.json_schema``); the bearer
    scheme is declared only when the gateway asks for keys (``gateway.auth: api-keys``)."""
    error = {
        "type": "object",
        "properties": {
            "error": {
                "type": "object",
                "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
                "required": ["code", "message"],
            }
        },
        "required": ["error"],
    }
    errors = {
        str(status): {"description": "rejected before any stream", "content": {"application/json": {"schema": error}}}
        for status in (400, 401, 403, 413, 415, 422, 503)
    }
    chat: dict[str, Any] = {
        "summary": "Ask a question; the answer streams as Server-Sent Events",
        "requestBody": {"required": True, "content": {"application/json": {"schema": chat_request}}},
        "responses": {
            "200": {
                "description": "metadata, status*, content | failure, done (the schema describes one event)",
                "content": {"text/event-stream": {"schema": sse_event_schema()}},
            },
            **errors,
        },
    }
    document: dict[str, Any] = {
        "openapi": "3.1.0",
        "info": {"title": "superbiz-harness gateway", "version": "1"},
        "paths": {
            "/api/chat": {"post": chat},
            "/api/info": {"get": {"summary": "Whether a key is needed, the model, the query limit", "responses": {
                "200": {"description": "gateway facts", "content": {"application/json": {"schema": {
                    "type": "object",
                    "properties": {
                        "auth_required": {"type": "boolean"},
                        "model": {"type": "string"},
                        "max_query_chars": {"type": "integer"},
                    },
                    "required": ["auth_required", "model", "max_query_chars"],
                }}}}}}},
            "/healthz": {"get": {"responses": {"200": {"description": "the process serves"}}}},
            "/readyz": {"get": {"responses": {"200": {"description": "ready"}, "503": {"description": "not ready"}}}},
            "/openapi.json": {"get": {"responses": {"200": {"description": "this document"}}}},
            "/": {"get": {"responses": {"200": {"description": "the chat page", "content": {"text/html": {}}}}}},
        },
    }  # fmt: skip
    if auth_required:
        chat["security"] = [{"bearer": []}]
        document["components"] = {"securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}}
    return document
