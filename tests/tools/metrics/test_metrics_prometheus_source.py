"""``PrometheusSource`` against a scripted HTTP server on loopback: the request it sends, credentials, and how each
kind of answer maps to a code (the real Prometheus is in test_metrics_prometheus.py)."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from config.env_refs import Secret
from config.tool_budgets import MetricsBudget
from tests.services import free_port
from tests.tools.metrics.conftest import matrix
from tools.metrics.prometheus import PrometheusSource
from tools.metrics.query import RangeQuery, plan
from tools.metrics.settings import MetricsToolSettings
from tools.metrics.source import (
    METRICS_BAD_RESPONSE,
    METRICS_QUERY_REJECTED,
    METRICS_RESULT_TOO_LARGE,
    METRICS_TIMEOUT,
    METRICS_UNAVAILABLE,
    MetricsSourceError,
)

QUERY = plan(
    "hikaricp_connections_active",
    "gauge",
    "max",
    None,
    {"service": "order-service"},
    datetime(2026, 7, 21, 2, 30, tzinfo=UTC),
    1800,
    15,
    15,
)


class Scripted(ThreadingHTTPServer):
    """Answers each request with the next scripted (status, body, headers, delay) and records the request."""

    daemon_threads = True
    block_on_close = False

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", free_port()), _Handler)
        self.answers: list[tuple[int, bytes, dict[str, str], float]] = []
        self.requests: list[dict[str, Any]] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def answer(self, status: int, body: Any, delay: float = 0.0, **headers: str) -> None:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.answers.append((status, data, headers, delay))


class _Handler(BaseHTTPRequestHandler):
    server: Scripted

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        self.server.requests.append(
            {"path": parts.path, "params": parse_qs(parts.query), "headers": dict(self.headers.items())}
        )
        status, body, headers, delay = self.server.answers.pop(0) if self.server.answers else (200, b"{}", {}, 0.0)
        time.sleep(delay)
        self.send_response(status)
        for name, value in {"Content-Type": "application/json", **headers}.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout test)
            self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def server() -> Iterator[Scripted]:
    scripted = Scripted()
    thread = threading.Thread(target=scripted.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    yield scripted
    scripted.shutdown()
    scripted.server_close()


def _source(url: str, budget: MetricsBudget | None = None, **settings: Any) -> PrometheusSource:
    return PrometheusSource(MetricsToolSettings(url=url, **settings), budget or MetricsBudget())


def _failure(source: PrometheusSource, query: RangeQuery = QUERY) -> MetricsSourceError:
    with pytest.raises(MetricsSourceError) as raised:
        source.query_range(query)
    return raised.value


def test_one_get_of_query_range_with_the_query_window_step_and_timeout(server: Scripted) -> None:
    body = matrix([{"metric": {}, "values": [[QUERY.end_s, "50"]]}])
    server.answer(200, body)
    assert _source(server.url + "/prometheus").query_range(QUERY) == body
    (request,) = server.requests
    assert request["path"] == "/prometheus/api/v1/query_range"
    assert request["params"] == {
        "query": ['max(hikaricp_connections_active{service="order-service"})'],
        "start": [str(QUERY.start_s)],
        "end": [str(QUERY.end_s)],
        "step": ["30"],
        "timeout": ["10"],
    }
    assert "authorization" not in {name.lower() for name in request["headers"]}


def test_basic_auth_and_bearer_token_come_from_the_secrets(server: Scripted) -> None:
    server.answer(200, matrix([]))
    server.answer(200, matrix([]))
    basic = _source(
        server.url, username=Secret("reader", "${PROM_USER}"), password=Secret("s3cret", "${PROM_PASSWORD}")
    )
    basic.query_range(QUERY)
    _source(server.url, bearer_token=Secret("tok-123", "${PROM_TOKEN}")).query_range(QUERY)
    assert server.requests[0]["headers"]["Authorization"] == "Basic cmVhZGVyOnMzY3JldA=="
    assert server.requests[1]["headers"]["Authorization"] == "Bearer tok-123"


def test_the_environment_chooses_no_proxy(server: Scripted, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")
    monkeypatch.setenv("ALL_PROXY", "http://127.0.0.1:9")
    server.answer(200, matrix([]))
    assert _source(server.url).query_range(QUERY) == matrix([])


@pytest.mark.parametrize(
    ("status", "body", "code", "detail"),
    [
        (400, {"status": "error", "errorType": "bad_data", "error": "parse error"}, METRICS_QUERY_REJECTED, "bad_data"),
        (
            422,
            {"status": "error", "errorType": "execution", "error": "too many samples"},
            METRICS_QUERY_REJECTED,
            "too",
        ),
        (
            422,
            {"status": "error", "errorType": "execution", "error": "expanding series: context deadline exceeded"},
            METRICS_TIMEOUT,
            "deadline",
        ),
        (503, {"status": "error", "errorType": "timeout", "error": "query timed out"}, METRICS_TIMEOUT, "timed out"),
        (503, {"status": "error", "errorType": "unavailable", "error": "x"}, METRICS_UNAVAILABLE, "HTTP 503"),
        (500, b"<html>internal</html>", METRICS_UNAVAILABLE, "HTTP 500"),
        (401, b"Unauthorized", METRICS_UNAVAILABLE, "HTTP 401"),
        (403, b"Forbidden", METRICS_UNAVAILABLE, "HTTP 403"),
        (404, b"not found", METRICS_BAD_RESPONSE, "HTTP 404"),
        (200, b"<html>a login page</html>", METRICS_BAD_RESPONSE, "not JSON"),
        (200, b"[" * 100000, METRICS_BAD_RESPONSE, "not JSON"),
    ],
)
def test_each_answer_maps_to_a_stable_code(server: Scripted, status: int, body: Any, code: str, detail: str) -> None:
    server.answer(status, body)
    failure = _failure(_source(server.url))
    assert failure.code == code
    assert detail in failure.detail
    assert len(server.requests) == 1  # never retried


def test_a_redirect_is_not_followed(server: Scripted) -> None:
    server.answer(302, b"", Location="http://127.0.0.1:9/elsewhere")
    failure = _failure(_source(server.url, bearer_token=Secret("tok-123", "${PROM_TOKEN}")))
    assert failure.code == METRICS_BAD_RESPONSE
    assert len(server.requests) == 1


def test_an_answer_above_the_byte_cap_is_refused(server: Scripted) -> None:
    budget = MetricsBudget.model_validate({"max-response-bytes": "1KB"})
    server.answer(200, matrix([{"metric": {"uri": "x" * 2000}, "values": []}]))
    assert _failure(_source(server.url, budget)).code == METRICS_RESULT_TOO_LARGE


def test_a_server_that_does_not_answer_in_time_is_a_timeout(server: Scripted) -> None:
    budget = MetricsBudget.model_validate({"query-timeout": "10ms"})
    server.answer(200, matrix([]), delay=2.5)
    started = time.monotonic()
    failure = _failure(_source(server.url, budget))
    assert failure.code == METRICS_TIMEOUT
    assert failure.detail == "client timeout: ReadTimeout"
    assert time.monotonic() - started < 2.4


def test_nothing_listening_is_unavailable() -> None:
    with socket.socket() as probe:  # a port that refuses connections
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    failure = _failure(_source(f"http://127.0.0.1:{port}"))
    assert failure.code == METRICS_UNAVAILABLE
    assert failure.detail == "request failed: ConnectError"


def test_it_needs_a_url() -> None:
    with pytest.raises(ValueError, match=r"needs tools\.query_metrics\.url"):
        PrometheusSource(MetricsToolSettings(), MetricsBudget())
