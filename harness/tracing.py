"""One trace per run (OpenTelemetry): the spans of the gateway, the supervisor and the tool actors, joined by the
W3C ``traceparent`` their messages carry. No ambient context crosses an actor boundary: a message names its
parent span, like everything else here.

Each process configures its tracer once (:func:`configure_tracing`): an SDK tracer provider that always makes
real trace and span ids (the trace id goes to the client and into the logs even when nothing is exported) and,
when ``telemetry.otlp-endpoint`` is set, a batch span processor whose exporter runs in its own thread, off the
request path. An export that fails costs a counter (``superbiz_trace_export_failures_total`` in an actor) and one
log line a minute (:class:`GuardedExporter`).

No span or attribute carries a prompt, a tool request, a raw response or a secret: call sites set codes,
counts, names and durations only, as in the logs; a Redis record's key appears only as a hash
(:func:`hashed`).
"""

from __future__ import annotations

import hashlib
import logging
import random
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from opentelemetry import trace
from opentelemetry.context import Context
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan, SpanProcessor, TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter, SpanExportResult
from opentelemetry.sdk.trace.id_generator import IdGenerator
from opentelemetry.trace import Span, SpanKind, Status, StatusCode, format_trace_id
from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator
from opentelemetry.util.types import Attributes

from config.runtime import TelemetrySettings

log = logging.getLogger(__name__)

TRACER_NAME = "superbiz"
FAILURE_LOG_INTERVAL_S = 60.0
_PROPAGATOR = TraceContextTextMapPropagator()
_LOCK = threading.Lock()
_PROVIDER: TracerProvider | None = None


def configure_tracing(
    settings: TelemetrySettings, component: str, on_failure: Callable[[], None] | None = None
) -> TracerProvider:
    """This process's tracer provider, made on the first call; a later call with other settings (a test's second
    gateway) replaces where spans are exported, never the provider. ``on_failure`` counts each batch that could not
    be exported (a Ray metric in an actor)."""
    global _PROVIDER
    with _LOCK:
        if _PROVIDER is None:
            resource = Resource.create({"service.name": settings.service_name, "superbiz.component": component})
            _PROVIDER = TracerProvider(resource=resource, id_generator=PrivateIdGenerator())
            _PROVIDER.add_span_processor(_EXPORT)
        _EXPORT.use(settings, on_failure)
        return _PROVIDER


def tracer_provider() -> TracerProvider:
    """The process's provider; one that exports nothing when the process never configured tracing."""
    return _PROVIDER if _PROVIDER is not None else configure_tracing(TelemetrySettings(), "process")


def tracer() -> trace.Tracer:
    return tracer_provider().get_tracer(TRACER_NAME)


def otlp_exporter(settings: TelemetrySettings) -> SpanExporter:
    """The official OTLP exporter for ``settings.protocol``."""
    headers = {name: secret.reveal() for name, secret in settings.headers.items()}
    if settings.protocol == "grpc":
        from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter as GrpcExporter

        insecure = str(settings.otlp_endpoint).startswith("http://")
        return GrpcExporter(
            endpoint=settings.otlp_endpoint, headers=headers, timeout=settings.export_timeout, insecure=insecure
        )
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter as HttpExporter

    return HttpExporter(endpoint=settings.otlp_endpoint, headers=headers, timeout=settings.export_timeout)


class PrivateIdGenerator(IdGenerator):
    """Trace and span ids from a generator of its own, seeded from the OS. The SDK's default draws from the global
    ``random``, so every span would move the sequence of whatever in the process seeded it (a property test's
    strategies, a seeded generator of test data)."""

    def __init__(self) -> None:
        self._random = random.Random()

    def generate_span_id(self) -> int:
        return self._nonzero(64)

    def generate_trace_id(self) -> int:
        return self._nonzero(128)

    def _nonzero(self, bits: int) -> int:
        value = self._random.getrandbits(bits)
        while value == 0:  # the invalid id
            value = self._random.getrandbits(bits)
        return value


class _Export(SpanProcessor):
    """The process's export: a batch span processor over the configured exporter, or nothing while export is
    off. Configured again with other settings, it flushes and replaces its processor."""

    def __init__(self) -> None:
        self._settings: TelemetrySettings | None = None
        self._batch: BatchSpanProcessor | None = None

    def use(self, settings: TelemetrySettings, on_failure: Callable[[], None] | None = None) -> None:
        if settings == self._settings:
            return
        previous, self._settings = self._batch, settings
        self._batch = (
            BatchSpanProcessor(
                GuardedExporter(otlp_exporter(settings), on_failure=on_failure),
                schedule_delay_millis=settings.batch_delay * 1000,
            )
            if settings.otlp_endpoint
            else None
        )
        if previous is not None:
            previous.shutdown()

    def on_start(self, span: Span, parent_context: Context | None = None) -> None:
        batch = self._batch
        if batch is not None:
            batch.on_start(span, parent_context)

    def on_end(self, span: ReadableSpan) -> None:
        batch = self._batch
        if batch is not None:
            batch.on_end(span)

    def shutdown(self) -> None:
        if self._batch is not None:
            self._batch.shutdown()

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return self._batch.force_flush(timeout_millis) if self._batch is not None else True


_EXPORT = _Export()


class GuardedExporter(SpanExporter):
    """An exporter whose failures are counted and logged at most once a ``FAILURE_LOG_INTERVAL_S``; the
    exporter's own log lines (one per failed batch, with the collector's answer) are silenced."""

    def __init__(
        self,
        inner: SpanExporter,
        clock: Callable[[], float] = time.monotonic,
        on_failure: Callable[[], None] | None = None,
    ) -> None:
        self._inner = inner
        self._now = clock
        self._on_failure = on_failure
        self.failures = 0
        self.exported = 0
        self._logged_at: float | None = None
        logging.getLogger("opentelemetry.exporter").setLevel(logging.CRITICAL + 1)

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        try:
            result = self._inner.export(spans)
        except Exception:
            result = SpanExportResult.FAILURE
        if result is SpanExportResult.SUCCESS:
            self.exported += len(spans)
            return result
        self.failures += 1
        if self._on_failure is not None:
            self._on_failure()
        now = self._now()
        if self._logged_at is None or now - self._logged_at >= FAILURE_LOG_INTERVAL_S:
            self._logged_at = now
            log.warning("trace export failed (%d batches so far)", self.failures, extra={"code": "TRACE_EXPORT_FAILED"})
        return result

    def shutdown(self) -> None:
        self._inner.shutdown()

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return self._inner.force_flush(timeout_millis)


def parent_context(traceparent: str | None) -> Context | None:
    """The context a W3C ``traceparent`` names, or None when it is absent or malformed (a new trace starts)."""
    if not traceparent:
        return None
    context = _PROPAGATOR.extract({"traceparent": traceparent})
    return context if trace.get_current_span(context).get_span_context().is_valid else None


def traceparent_of(span: Span) -> str | None:
    """The W3C ``traceparent`` that makes a span in another process a child of ``span``."""
    carrier: dict[str, str] = {}
    _PROPAGATOR.inject(carrier, context=trace.set_span_in_context(span))
    return carrier.get("traceparent")


def current_traceparent() -> str | None:
    span = trace.get_current_span()
    return traceparent_of(span) if span.get_span_context().is_valid else None


def trace_id_in(traceparent: str | None) -> str | None:
    """The trace id (32 hex digits) a valid ``traceparent`` names."""
    context = parent_context(traceparent)
    return trace_id_of(trace.get_current_span(context)) if context is not None else None


def trace_id_of(span: Span) -> str | None:
    span_context = span.get_span_context()
    return format_trace_id(span_context.trace_id) if span_context.is_valid else None


def current_trace_id() -> str | None:
    return trace_id_of(trace.get_current_span())


@contextmanager
def span(
    name: str, attributes: Attributes = None, *, parent: Context | None = None, kind: SpanKind = SpanKind.INTERNAL
) -> Iterator[Span]:
    """A span, current in the block; a child of the current span, or of ``parent`` (another process's). An
    exception ends it without a recorded message (a message can quote data): call sites say what failed with
    :func:`failed_with`."""
    with tracer().start_as_current_span(
        name, context=parent, kind=kind, attributes=attributes, record_exception=False, set_status_on_exception=False
    ) as current:
        yield current


def failed_with(current: Span, code: str) -> None:
    current.set_attribute("superbiz.outcome", code)
    current.set_status(Status(StatusCode.ERROR, code))


@contextmanager
def within(span: Span | None) -> Iterator[None]:
    """Make ``span`` the current one in the block (a callback from another actor re-entering its run); an
    exception leaves no mark on it (its message can quote data)."""
    if span is None:
        yield
        return
    with trace.use_span(span, end_on_exit=False, record_exception=False, set_status_on_exception=False):
        yield


def hashed(value: str) -> str:
    """A stable, non-reversible stand-in for an identifier that must not appear in a span (a Redis key)."""
    return hashlib.sha256(value.encode()).hexdigest()[:16]
