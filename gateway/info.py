"""What the gateway tells about itself: the chat page (``/``, its files under ``/static``), ``/api/info`` (whether
a key is needed, the model, the query limit) and ``/openapi.json``."""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse

from actors.model_factory import model_label
from config.app import AppConfig
from gateway.chat_request import ChatRequests
from gateway.openapi import openapi_document
from gateway.services import GatewayServices

STATIC = Path(__file__).with_name("static")
CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:"
"""The page loads nothing but its own files, and tool data can never run as script."""


class GatewayInfo:
    def __init__(self, config: AppConfig, services: GatewayServices, requests: ChatRequests) -> None:
        self._config = config
        self._services = services
        self._requests = requests
        self._auth_required = config.gateway.auth != "off"

    async def info(self, request: Request) -> JSONResponse:
        backend = self._services.backend
        return JSONResponse(
            {
                "auth_required": self._auth_required,
                "model": backend.model_label if backend else model_label(self._config.model),
                "max_query_chars": self._config.gateway.max_query_chars,
            }
        )

    async def index(self, request: Request) -> FileResponse:
        return FileResponse(
            STATIC / "index.html", headers={"Cache-Control": "no-store", "Content-Security-Policy": CSP}
        )

    async def openapi(self, request: Request) -> JSONResponse:
        return JSONResponse(openapi_document(self._requests.json_schema(), self._auth_required))
