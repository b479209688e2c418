"""The HTTP gateway (Starlette): ``POST /api/chat`` as Server-Sent Events, health, and the chat page.

Every bad request is answered *before* any stream, as JSON ``{"error": {"code", "message"}}`` with a stable
code; the stream itself carries exactly the run's events (metadata, status, content | failure, done) plus
keep-alive comments. A client that disconnects stops the stream, which cancels the run.
"""

from __future__ import annotations

import hmac
import json
import logging
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from actors.model_factory import model_label
from config.schema import AppConfig
from gateway.backend import ChatBackend
from gateway.chat_request import ChatRequest, ChatRequests, Rejection
from gateway.openapi import openapi_document
from gateway.services import GatewayServices
from harness.audit import AuditSink, RunFinished
from harness.events import LostRun
from harness.logs import bound

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
ANONYMOUS = "anonymous"
CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:"
"""The page loads nothing but its own files, and tool data can never run as script."""


NOT_READY_RETRY_AFTER_S = 2


class RequestRejected(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(code)
        self.status = status
        self.code = code
        self.message = message

    def response(self) -> JSONResponse:
        headers = {}
        if self.status == 401:
            headers["WWW-Authenticate"] = "Bearer"
        if self.status == 503:
            headers["Retry-After"] = str(NOT_READY_RETRY_AFTER_S)
        return JSONResponse({"error": {"code": self.code, "message": self.message}}, self.status, headers=headers)


def create_app(config: AppConfig, services: GatewayServices) -> Starlette:
    """The gateway's routes over ``services``, which may still be starting (see ``gateway.services``)."""
    settings = config.gateway
    requests = ChatRequests(settings.max_query_chars)
    keys = {principal: secret.reveal().encode() for principal, secret in settings.api_keys.items()}

    def principal_of(request: Request) -> str:
        if settings.auth == "off":
            return ANONYMOUS
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token:
            raise RequestRejected(401, "UNAUTHORIZED", "缺少有效的 API Key（Authorization: Bearer <key>）")
        presented = token.strip().encode()
        matched = [name for name, key in keys.items() if hmac.compare_digest(presented, key)]
        if not matched:
            raise RequestRejected(401, "UNAUTHORIZED", "API Key 无效")
        return matched[0]

    async def read_body(request: Request) -> Any:
        media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if media_type != "application/json":
            raise RequestRejected(415, "UNSUPPORTED_MEDIA_TYPE", "请求体必须是 application/json")
        declared = request.headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > settings.max_body_bytes):
            raise RequestRejected(413, "BODY_TOO_LARGE", f"请求体不能超过 {settings.max_body_bytes} 字节")
        body = bytearray()
        async for chunk in request.stream():
            body.extend(chunk)
            if len(body) > settings.max_body_bytes:
                raise RequestRejected(413, "BODY_TOO_LARGE", f"请求体不能超过 {settings.max_body_bytes} 字节")
        try:
            return json.loads(body)
        except (ValueError, RecursionError):
            raise RequestRejected(400, "INVALID_JSON", "请求体不是合法的 JSON") from None

    def validated(data: Any) -> ChatRequest:
        try:
            return requests.parse(data)
        except Rejection as rejection:
            raise RequestRejected(422, rejection.code, rejection.message) from None

    async def chat(request: Request) -> Response:
        try:
            principal = principal_of(request)
            backend, audit = services.backend, services.audit
            if services.stopping:
                raise RequestRejected(503, "STOPPING", "服务正在停止，请稍后重试")
            if services.waiting_for or backend is None or audit is None:
                raise RequestRejected(503, "NOT_READY", "服务正在启动，请稍后重试")
            body = validated(await read_body(request))
            query, session_id = body.query, body.session_id or uuid.uuid4().hex
            # A session this request just named is new and the caller's (the run records it); one the caller
            # named may be someone else's.
            if body.session_id is not None and not await audit.claim_session(session_id, principal):
                raise RequestRejected(403, "SESSION_FORBIDDEN", "该会话属于其他调用方")
        except RequestRejected as rejected:
            return rejected.response()
        with bound(session_id=session_id):
            log.info("chat request accepted", extra={"principal": principal})
        return EventSourceResponse(
            _events(backend, audit, session_id, query, principal),
            ping=settings.ping_interval,
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
            send_timeout=30,
        )

    async def healthz(request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok"})

    async def readyz(request: Request) -> JSONResponse:
        waiting = services.waiting_for
        if services.stopping:
            return JSONResponse({"ready": False, "stopping": True, "waiting_for": waiting}, status_code=503)
        if waiting or services.backend is None or services.audit is None:
            checks = {"ray": "ray" in services.started, "supervisors": False, "redis": False}
            checks["audit"] = "audit" in services.started
            return JSONResponse({"ready": False, "waiting_for": waiting, "checks": checks}, status_code=503)
        checks = {**await services.backend.readiness(), "audit": await services.audit.ping()}
        ready = all(checks.values())
        body = {"ready": ready, "waiting_for": [name for name, ok in checks.items() if not ok], "checks": checks}
        return JSONResponse(body, status_code=200 if ready else 503)

    async def info(request: Request) -> JSONResponse:
        return JSONResponse(
            {
                "auth_required": settings.auth != "off",
                "model": services.backend.model_label if services.backend else model_label(config.model),
                "max_query_chars": settings.max_query_chars,
            }
        )

    async def index(request: Request) -> FileResponse:
        return FileResponse(
            STATIC / "index.html", headers={"Cache-Control": "no-store", "Content-Security-Policy": CSP}
        )

    async def openapi(request: Request) -> JSONResponse:
        return JSONResponse(openapi_document(requests.json_schema(), settings.auth != "off"))

    routes = [
        Route("/api/chat", chat, methods=["POST"]),
        Route("/api/info", info, methods=["GET"]),
        Route("/healthz", healthz, methods=["GET"]),
        Route("/readyz", readyz, methods=["GET"]),
        Route("/openapi.json", openapi, methods=["GET"]),
        Route("/", index, methods=["GET"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, exception_handlers={HTTPException: _http_error, Exception: _internal_error})


async def _events(
    backend: ChatBackend, audit: AuditSink, session_id: str, query: str, principal: str
) -> AsyncIterator[dict[str, str]]:
    with bound(session_id=session_id):
        stream = backend.chat(session_id, query, principal, on_lost=lambda lost: _record_lost(audit, lost))
        try:
            async for event in stream:
                yield {"event": event.event, "data": json.dumps(event.data, ensure_ascii=False)}
        finally:
            await stream.aclose()


async def _record_lost(audit: AuditSink, lost: LostRun) -> None:
    """The run's supervisor died before it recorded the run's end: the gateway records it as its client saw it,
    FAILED when it died before the run's content or failure, else the outcome that content released."""
    log.warning("run lost with its supervisor", extra={"run_id": lost.run_id, "code": "SUPERVISOR_LOST"})
    content = lost.content
    fallback = content["payload"].get("type") if content and content.get("content_type") == "FALLBACK" else None
    record = RunFinished(
        run_id=lost.run_id,
        session_id=lost.session_id,
        intent=None,
        status=lost.outcome,
        fallback_type=fallback,
        fallback_reason="SUPERVISOR_LOST",
        published_result=None,
        model_calls=None,  # counted by the store from the rows the supervisor wrote before it died
        input_tokens=None,
        output_tokens=None,
        tool_calls=None,
        duration_ms=0,
        finished_at=datetime.now(UTC),
        released_content=content,
    )
    try:
        await audit.run_finished(record)
    except Exception as exc:
        log.error("audit write failed: %s", type(exc).__name__, extra={"run_id": lost.run_id})


HTTP_ERROR_CODES = {404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED"}


async def _http_error(request: Request, exc: HTTPException) -> JSONResponse:
    """Routing errors (an unknown path, a method a route does not take) in the error envelope."""
    code = HTTP_ERROR_CODES.get(exc.status_code, "HTTP_ERROR")
    body = {"error": {"code": code, "message": str(exc.detail)}}
    return JSONResponse(body, status_code=exc.status_code, headers=exc.headers)


async def _internal_error(request: Request, exc: Exception) -> JSONResponse:
    log.error("unhandled error", exc_info=exc, extra={"path": request.url.path})
    return JSONResponse({"error": {"code": "INTERNAL_ERROR", "message": "服务内部错误，请稍后重试"}}, status_code=500)
