"""The gateway's OpenAPI description (served at /openapi.json; the fuzz tests read it)."""

from __future__ import annotations

from typing import Any


def openapi_document(chat_request: dict[str, Any]) -> dict[str, Any]:
    """``chat_request``: the JSON Schema of the chat request body (``ChatRequests.json_schema``)."""
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
    return {
        "openapi": "3.1.0",
        "info": {"title": "superbiz-harness gateway", "version": "1"},
        "paths": {
            "/api/chat": {
                "post": {
                    "summary": "Ask a question; the answer streams as Server-Sent Events",
                    "security": [{"bearer": []}],
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": chat_request}},
                    },
                    "responses": {
                        "200": {
                            "description": "metadata, status*, content | failure, done",
                            "content": {"text/event-stream": {"schema": {"type": "string"}}},
                        },
                        **errors,
                    },
                }
            },
            "/healthz": {"get": {"responses": {"200": {"description": "process up"}}}},
            "/readyz": {"get": {"responses": {"200": {"description": "ready"}, "503": {"description": "not ready"}}}},
        },
        "components": {"securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}},
    }
