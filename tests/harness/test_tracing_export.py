"""The OTLP export on the real wire format: the official exporter posts protobuf to a receiver on a free loopback
port, decoded with the official ``opentelemetry-proto`` messages; headers come from ``${ENV}``; an unreachable
collector costs a counter."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2_grpc
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor

from config.loader import parse_config
from config.runtime import TelemetrySettings
from harness.tracing import GuardedExporter, otlp_exporter, parent_context, traceparent_of
from tests.otlp_receiver import Receiver


def settings(endpoint: str) -> TelemetrySettings:
    text = f"telemetry:\n  otlp-endpoint: {endpoint}\n  headers:\n    x-api-key: ${{OTLP_API_KEY}}\n"
    return parse_config(text, {"OTLP_API_KEY": "k-123"}).telemetry


def test_spans_reach_a_collector_as_otlp_protobuf(otlp_receiver: Receiver) -> None:
    receiver = otlp_receiver
    telemetry = settings(receiver.url)
    exporter = GuardedExporter(otlp_exporter(telemetry))
    provider = TracerProvider(resource=Resource.create({"service.name": telemetry.service_name}))
    provider.add_span_processor(BatchSpanProcessor(exporter))
    tracer = provider.get_tracer("test")
    with tracer.start_as_current_span("POST /api/chat") as root:
        header = traceparent_of(root)
    with tracer.start_as_current_span("run", context=parent_context(header), attributes={"superbiz.run_id": "r-1"}):
        pass
    provider.force_flush()
    provider.shutdown()
    assert exporter.failures == 0 and exporter.exported == 2
    spans = [
        (span, resource.resource)
        for _path, _headers, request in receiver.requests
        for resource in request.resource_spans
        for scope in resource.scope_spans
        for span in scope.spans
    ]
    by_name = {span.name: span for span, _ in spans}
    assert by_name["run"].parent_span_id == by_name["POST /api/chat"].span_id
    assert by_name["run"].trace_id == by_name["POST /api/chat"].trace_id
    assert {(a.key, a.value.string_value) for a in by_name["run"].attributes} == {("superbiz.run_id", "r-1")}
    path, headers, _ = receiver.requests[0]
    assert path == "/v1/traces" and headers["x-api-key"] == "k-123"
    assert headers["content-type"] == "application/x-protobuf"
    services = {a.value.string_value for _, resource in spans for a in resource.attributes if a.key == "service.name"}
    assert services == {"superbiz-harness"}


def test_an_unreachable_collector_is_counted_not_raised() -> None:
    telemetry = settings("http://127.0.0.1:9/v1/traces").model_copy(update={"export_timeout": 0.5})
    exporter = GuardedExporter(otlp_exporter(telemetry))
    provider = TracerProvider()
    provider.add_span_processor(BatchSpanProcessor(exporter))
    with provider.get_tracer("test").start_as_current_span("run"):
        pass
    provider.force_flush(timeout_millis=5000)
    provider.shutdown()
    assert exporter.failures >= 1 and exporter.exported == 0


def test_the_endpoint_must_be_a_url() -> None:
    with pytest.raises(Exception, match="otlp-endpoint"):
        parse_config("telemetry:\n  otlp-endpoint: collector:4318\n", {})


class _Collector(trace_service_pb2_grpc.TraceServiceServicer):
    def __init__(self) -> None:
        self.requests: list[tuple[dict[str, str], ExportTraceServiceRequest]] = []

    def Export(self, request: ExportTraceServiceRequest, context: grpc.ServicerContext) -> ExportTraceServiceResponse:
        self.requests.append((dict(context.invocation_metadata()), request))
        return ExportTraceServiceResponse()


def test_spans_reach_a_grpc_collector() -> None:
    collector = _Collector()
    server = grpc.server(ThreadPoolExecutor(max_workers=2))
    trace_service_pb2_grpc.add_TraceServiceServicer_to_server(collector, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        endpoint = f"http://127.0.0.1:{port}"
        text = f"telemetry:\n  otlp-endpoint: {endpoint}\n  protocol: grpc\n  headers:\n    x-api-key: ${{K}}\n"
        exporter = GuardedExporter(otlp_exporter(parse_config(text, {"K": "k-456"}).telemetry))
        provider = TracerProvider()
        provider.add_span_processor(BatchSpanProcessor(exporter))
        with provider.get_tracer("test").start_as_current_span("run"):
            pass
        provider.force_flush()
        provider.shutdown()
    finally:
        server.stop(None)
    assert exporter.failures == 0 and exporter.exported == 1
    ((metadata, request),) = collector.requests
    assert metadata["x-api-key"] == "k-456"
    assert [span.name for span in request.resource_spans[0].scope_spans[0].spans] == ["run"]
