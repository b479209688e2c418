"""``POST /api/chat``: the answer to one question as Server-Sent Events.

Before any stream the route checks, in order, who asks (``gateway.auth``), that the gateway takes runs now, the
body, and that a session the caller named is theirs; a refusal is one of ``gateway.errors``. The stream then
carries exactly the run's events (metadata, status, content | failure, done) plus keep-alive comments; a client
that disconnects stops the stream, which cancels the run.
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime

from opentelemetry.trace import Span, SpanKind
from sse_starlette.sse import EventSourceResponse
from starlette.requests import Request
from starlette.responses import Response

from gateway.auth import ApiKeys
from gateway.backend import ChatBackend
from gateway.chat_request import ChatRequests
from gateway.errors import NOT_READY, SESSION_FORBIDDEN, STOPPING, RequestRejected
from gateway.request_body import read_chat_request
from gateway.services import GatewayServices
from harness.audit import AuditSink, RunFinished
from harness.events import LostRun
from harness.structured_logging import bound
from harness.tracing import parent_context, trace_id_of, traceparent_of, tracer, within

log = logging.getLogger(__name__)

SEND_TIMEOUT_S = 30
TRACE_ID_HEADER = "X-Trace-Id"
"""The run's trace id (32 hex digits), also in the metadata event."""
STREAM_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}


@dataclass(frozen=True)
class Accepted:
    """A question the gateway takes: whose it is, in which session, and the parts that will answer it."""

    principal: str
    session_id: str
    query: str
    backend: ChatBackend
    audit: AuditSink


class ChatRoute:
    def __init__(
        self,
        services: GatewayServices,
        keys: ApiKeys,
        requests: ChatRequests,
        max_body_bytes: int,
        ping_interval_s: float,
    ) -> None:
        self._services = services
        self._keys = keys
        self._requests = requests
        self._max_body_bytes = max_body_bytes
        self._ping_interval_s = ping_interval_s

    async def chat(self, request: Request) -> Response:
        try:
            accepted = await self._accept(request)
        except RequestRejected as rejected:
            return rejected.refusal.response()
        request_span = tracer().start_span(
            "POST /api/chat",
            context=parent_context(request.headers.get("traceparent")),
            kind=SpanKind.SERVER,
            attributes={
                "http.request.method": "POST",
                "http.route": "/api/chat",
                "superbiz.session_id": accepted.session_id,
            },
        )
        with bound(session_id=accepted.session_id), within(request_span):
            log.info("chat request accepted", extra={"principal": accepted.principal})
        return EventSourceResponse(
            _events(accepted, request_span),
            ping=self._ping_interval_s,
            headers={**STREAM_HEADERS, TRACE_ID_HEADER: str(trace_id_of(request_span))},
            send_timeout=SEND_TIMEOUT_S,
        )

    async def _accept(self, request: Request) -> Accepted:
        principal = self._keys.principal_of(request)
        backend, audit = self._services.backend, self._services.audit
        if self._services.stopping:
            raise RequestRejected(STOPPING)
        if self._services.waiting_for or backend is None or audit is None:
            raise RequestRejected(NOT_READY)
        body = await read_chat_request(request, self._requests, self._max_body_bytes)
        session_id = body.session_id or uuid.uuid4().hex
        # A session this request just named is new and the caller's (the run records it); one the caller named may
        # be someone else's.
        if body.session_id is not None and not await audit.claim_session(session_id, principal):
            raise RequestRejected(SESSION_FORBIDDEN)
        return Accepted(principal, session_id, body.query, backend, audit)


async def _events(accepted: Accepted, request_span: Span) -> AsyncIterator[dict[str, str]]:
    """The run's events; the request's span ends with the stream (the run's spans are its children)."""
    audit = accepted.audit
    with bound(session_id=accepted.session_id):
        stream = accepted.backend.chat(
            accepted.session_id,
            accepted.query,
            accepted.principal,
            on_lost=lambda lost: _record_lost(audit, lost),
            traceparent=traceparent_of(request_span),
        )
        try:
            async for event in stream:
                if event.event == "done":
                    request_span.set_attribute("superbiz.outcome", str(event.data.get("outcome")))
                yield {"event": event.event, "data": json.dumps(event.data, ensure_ascii=False)}
        finally:
            try:
                await stream.aclose()
            finally:
                request_span.end()


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
        await audit.record(record)
    except Exception as exc:
        log.error("audit write failed: %s", type(exc).__name__, extra={"run_id": lost.run_id})
