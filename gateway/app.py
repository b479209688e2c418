"""The HTTP gateway (Starlette): ``POST /api/chat`` as Server-Sent Events (``gateway.chat``), health
(``gateway.health``), and what the gateway tells about itself, the chat page among it (``gateway.info``).

Every bad request is answered *before* any stream, as JSON ``{"error": {"code", "message"}}`` with a stable
code (``gateway.errors``); routing errors and unhandled ones use the same envelope.
"""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from config.app import AppConfig
from gateway.auth import ApiKeys
from gateway.chat import ChatRoute
from gateway.chat_request import ChatRequests
from gateway.errors import http_error, internal_error
from gateway.health import Health
from gateway.info import STATIC, GatewayInfo
from gateway.services import GatewayServices
from harness.tracing import configure_tracing


def create_app(config: AppConfig, services: GatewayServices) -> Starlette:
    """The gateway's routes over ``services``, which may still be starting (see ``gateway.services``)."""
    configure_tracing(config.telemetry, "gateway")
    settings = config.gateway
    requests = ChatRequests(settings.max_query_chars)
    keys = ApiKeys(settings.auth != "off", settings.api_keys)
    chat = ChatRoute(services, keys, requests, settings.max_body_bytes, settings.ping_interval)
    health = Health(services)
    info = GatewayInfo(config, services, requests)
    routes = [
        Route("/api/chat", chat.chat, methods=["POST"]),
        Route("/api/info", info.info, methods=["GET"]),
        Route("/healthz", health.healthz, methods=["GET"]),
        Route("/readyz", health.readyz, methods=["GET"]),
        Route("/openapi.json", info.openapi, methods=["GET"]),
        Route("/", info.index, methods=["GET"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, exception_handlers={HTTPException: http_error, Exception: internal_error})
