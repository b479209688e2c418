"""Fuzzing POST /api/chat (hypothesis): whatever arrives, the answer is a well-formed stream or a JSON error
with a stable code — never a 500, a stack trace or a partial stream."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from gateway.app import create_app
from gateway.services import GatewayServices
from harness.audit import MemoryAudit
from tests.gateway.fake_backend import FakeBackend
from tests.gateway.test_app import config, sse

ALLOWED = {200, 400, 401, 403, 413, 415, 422}
CODES = {
    "INVALID_JSON",
    "INVALID_REQUEST",
    "QUERY_EMPTY",
    "QUERY_TOO_LONG",
    "INVALID_SESSION_ID",
    "BODY_TOO_LARGE",
    "UNSUPPORTED_MEDIA_TYPE",
    "UNAUTHORIZED",
    "SESSION_FORBIDDEN",
}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=50),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=12,
)
requests = st.fixed_dictionaries(
    {},
    optional={
        "query": st.one_of(st.text(max_size=300), json_values),
        "session_id": st.one_of(
            st.none(), st.text(max_size=80), st.from_regex(r"[A-Za-z0-9_\-]{8,64}", fullmatch=True), json_values
        ),
        "extra": json_values,
    },
)
bodies = st.one_of(
    requests.map(lambda body: json.dumps(body).encode()),
    json_values.map(lambda value: json.dumps(value).encode()),
    st.binary(max_size=300),
    st.text(max_size=200).map(str.encode),
)
content_types = st.sampled_from(
    ["application/json", "application/json; charset=utf-8", "APPLICATION/JSON", "text/plain", "", "multipart/form-data"]
)
authorizations = st.one_of(
    st.none(),
    st.sampled_from(["Bearer ops-secret-key-1", "Bearer dev-secret-key-2", "Bearer nope", "Basic x"]),
    st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=40),
)


@pytest.fixture(scope="module", params=[False, True], ids=["auth-off", "api-keys"])
def client(request: pytest.FixtureRequest) -> Iterator[TestClient]:
    configured = config(auth=request.param, **{"max-body-bytes": "2KB", "max-query-chars": 200})
    app = create_app(configured, GatewayServices.ready(FakeBackend(), MemoryAudit()))
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=bodies, content_type=content_types, authorization=authorizations)
def test_every_input_gets_a_stream_or_a_stable_error(
    client: TestClient, body: bytes, content_type: str, authorization: str | None
) -> None:
    headers = {"content-type": content_type} if content_type else {}
    if authorization is not None:
        headers["authorization"] = authorization
    response = client.post("/api/chat", content=body, headers=headers)
    assert response.status_code in ALLOWED, response.text
    assert "Traceback" not in response.text and 'File "' not in response.text
    if response.status_code == 200:
        events = sse(response.text)
        assert events[0][0] == "metadata" and events[-1][0] == "done"
    else:
        assert response.headers["content-type"].startswith("application/json")
        assert response.json()["error"]["code"] in CODES
