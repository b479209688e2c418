"""The gateway's OpenAPI description (served at /openapi.json; the fuzz tests read it)."""

from __future__ import annotations

from typing import Any


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
                "description": "metadata, status*, content | failure, done",
                "content": {"text/event-stream": {"schema": {"type": "string"}}},
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
