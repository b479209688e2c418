"""``PrometheusSource``: ``GET {url}/api/v1/query_range`` over httpx, read-only by construction.

One request per call: no retries (httpx's transport retries none), no redirects followed (a redirect would carry
the credentials elsewhere), no proxy or ``.netrc`` from the environment. The query's ``timeout`` parameter asks
Prometheus to stop evaluating after ``harness.metrics.query-timeout``; the client waits ``CLIENT_GRACE_S`` more,
so the server's timeout fires first. The answer is read as a stream and refused beyond
``harness.metrics.max-response-bytes``. Credentials come from ``${ENV}`` Secrets: basic auth or a bearer token.

| what happened                                          | code                       |
| ------------------------------------------------------ | -------------------------- |
| connection refused, DNS, TLS, reset, HTTP 401/403/5xx  | ``METRICS_UNAVAILABLE``    |
| client timeout; ``errorType: timeout`` (HTTP 503) or    | ``METRICS_TIMEOUT``        |
| "context deadline exceeded" (HTTP 422)                 |                            |
| HTTP 400 / 422 (``bad_data``, ``execution``)           | ``METRICS_QUERY_REJECTED`` |
| body larger than max-response-bytes                    | ``METRICS_RESULT_TOO_LARGE`` |
| any other status, not JSON, not a matrix               | ``METRICS_BAD_RESPONSE``   |

The detail (status, Prometheus's ``errorType`` and ``error``, clipped; an exception's class) is for the audit record.
"""

from __future__ import annotations

import json
from typing import Any

import httpx

from config.tool_budgets import MetricsBudget
from tools.metrics.query import RangeQuery
from tools.metrics.settings import MetricsToolSettings
from tools.metrics.source import (
    METRICS_BAD_RESPONSE,
    METRICS_QUERY_REJECTED,
    METRICS_RESULT_TOO_LARGE,
    METRICS_TIMEOUT,
    METRICS_UNAVAILABLE,
    MetricsSourceError,
)

CLIENT_GRACE_S = 2.0
CONNECT_TIMEOUT_S = 5.0
MAX_DETAIL_CHARS = 500


class _Bearer(httpx.Auth):
    def __init__(self, token: str) -> None:
        self._token = token

    def auth_flow(self, request: httpx.Request) -> Any:
        request.headers["Authorization"] = f"Bearer {self._token}"
        yield request


class PrometheusSource:
    """A Prometheus HTTP API (or one that speaks it: Thanos, VictoriaMetrics, Mimir)."""

    kind = "PROMETHEUS"

    def __init__(self, settings: MetricsToolSettings, budget: MetricsBudget) -> None:
        if settings.url is None:
            raise ValueError("PrometheusSource needs tools.query_metrics.url")
        auth: httpx.Auth | None = None
        if settings.username is not None and settings.password is not None:
            auth = httpx.BasicAuth(settings.username.reveal(), settings.password.reveal())
        elif settings.bearer_token is not None:
            auth = _Bearer(settings.bearer_token.reveal())
        self._query_timeout_s = budget.query_timeout
        self._max_bytes = budget.max_response_bytes
        wait_s = budget.query_timeout + CLIENT_GRACE_S
        self._client = httpx.Client(
            base_url=settings.url,
            auth=auth,
            timeout=httpx.Timeout(wait_s, connect=min(CONNECT_TIMEOUT_S, wait_s)),
            follow_redirects=False,
            trust_env=False,
            transport=httpx.HTTPTransport(retries=0),
        )

    def query_range(self, query: RangeQuery) -> dict[str, Any]:
        params = {
            "query": query.promql(),
            "start": str(query.start_s),
            "end": str(query.end_s),
            "step": str(query.step_s),
            "timeout": f"{self._query_timeout_s:g}",  # seconds; Prometheus reads a bare number as such
        }
        try:
            with self._client.stream("GET", "api/v1/query_range", params=params) as response:
                body = self._read(response)
                status = response.status_code
        except httpx.TimeoutException as exc:
            raise MetricsSourceError(METRICS_TIMEOUT, f"client timeout: {type(exc).__name__}") from None
        except httpx.HTTPError as exc:
            raise MetricsSourceError(METRICS_UNAVAILABLE, f"request failed: {type(exc).__name__}") from None
        if status == 200:
            return _json(body)
        raise MetricsSourceError(*_failure(status, body))

    def close(self) -> None:
        self._client.close()

    def _read(self, response: httpx.Response) -> bytes:
        chunks: list[bytes] = []
        received = 0
        for chunk in response.iter_bytes():
            received += len(chunk)
            if received > self._max_bytes:
                raise MetricsSourceError(METRICS_RESULT_TOO_LARGE, f"answer above {self._max_bytes} bytes")
            chunks.append(chunk)
        return b"".join(chunks)


def _json(body: bytes) -> Any:
    try:
        return json.loads(body)
    except (ValueError, RecursionError) as exc:
        raise MetricsSourceError(METRICS_BAD_RESPONSE, f"not JSON: {type(exc).__name__}") from None


def _failure(status: int, body: bytes) -> tuple[str, str]:
    """(code, detail) of a non-200 answer."""
    error_type, error = "", ""
    try:
        parsed = json.loads(body)
        if isinstance(parsed, dict):
            error_type, error = str(parsed.get("errorType", "")), str(parsed.get("error", ""))
    except (ValueError, RecursionError):
        pass  # a proxy's HTML page: the status decides
    detail = f"HTTP {status} {error_type}: {error}"[:MAX_DETAIL_CHARS]
    if error_type == "timeout" or "deadline exceeded" in error:
        return METRICS_TIMEOUT, detail
    if status in (400, 422):
        return METRICS_QUERY_REJECTED, detail
    if status in (401, 403) or status >= 500:
        return METRICS_UNAVAILABLE, detail
    return METRICS_BAD_RESPONSE, detail
