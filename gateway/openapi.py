"""The gateway's OpenAPI description (served at /openapi.json; the fuzz tests read it)."""

from __future__ import annotations

from typing import Any


def openapi_document(max_query_chars: int) -> dict[str, Any]:
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
        for status in (400, 401, 403, 413, 415, 422)
    }
    return {
        "openapi": "3.0.3",
        "info": {"title": "superbiz-harness gateway", "version": "1"},
        "paths": {
            "/api/chat": {
                "post": {
                    "summary": "Ask a question; the answer streams as Server-Sent Events",
                    "security": [{"bearer": []}],
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "additionalProperties": False,
                                    "required": ["query"],
                                    "properties": {
                                        "query": {"type": "string", "minLength": 1, "maxLength": max_query_chars},
                                        "session_id": {
                                            "type": "string",
                                            "nullable": True,
                                            "pattern": "^[A-Za-z0-9_\\-]{8,64}$",
                                        },
                                    },
                                }
                            }
                        },
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
