"""An OTLP/HTTP trace receiver on a free loopback port: it decodes every export request with the official
``opentelemetry-proto`` messages and keeps the spans, for tests of the real wire format."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.trace.v1.trace_pb2 import Span


class Receiver(ThreadingHTTPServer):
    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.requests: list[tuple[str, dict[str, str], ExportTraceServiceRequest]] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1/traces"

    def spans(self) -> list[Span]:
        return [
            span
            for _path, _headers, request in list(self.requests)
            for resource in request.resource_spans
            for scope in resource.scope_spans
            for span in scope.spans
        ]

    def wait_for(self, names: Mapping[str, int] | set[str], trace_id: bytes, timeout_s: float = 30.0) -> list[Span]:
        """The spans of ``trace_id`` once each of ``names`` has arrived (as many times as a mapping says), or what
        came by ``timeout_s``: each process exports its own batches, so one process's spans can come later."""
        wanted = names if isinstance(names, Mapping) else dict.fromkeys(names, 1)
        deadline = time.monotonic() + timeout_s
        while True:
            spans = [span for span in self.spans() if span.trace_id == trace_id]
            arrived = Counter(span.name for span in spans)
            if all(arrived[name] >= count for name, count in wanted.items()) or time.monotonic() > deadline:
                return spans
            time.sleep(0.1)


class _Handler(BaseHTTPRequestHandler):
    server: Receiver

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        headers = {name.lower(): value for name, value in self.headers.items()}
        self.server.requests.append((self.path, headers, ExportTraceServiceRequest.FromString(body)))
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.end_headers()

    def log_message(self, *_: object) -> None:
        pass
