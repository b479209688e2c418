"""The HTTP gateway in front of a fake backend: validation, authentication, sessions, SSE framing, health."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
import yaml
from starlette.testclient import TestClient

from config.app import AppConfig
from config.loader import parse_config
from config.runtime import GatewaySettings
from gateway.app import create_app
from gateway.services import GatewayServices
from harness.audit import MemoryAudit
from harness.messages import StartRun
from tests.gateway.fake_backend import FakeBackend

KEYS = {"KEY_OPS": "ops-secret-key-1", "KEY_DEV": "dev-secret-key-2"}


def config(auth: bool = False, **gateway: object) -> AppConfig:
    settings: dict[str, object] = dict(gateway)
    if auth:
        settings.update({"auth": "api-keys", "api-keys": {"ops": "${KEY_OPS}", "dev": "${KEY_DEV}"}})
    return parse_config(yaml.safe_dump({"gateway": settings}), KEYS)


@pytest.fixture
def backend() -> FakeBackend:
    return FakeBackend()


@pytest.fixture
def client(backend: FakeBackend) -> Iterator[TestClient]:
    with TestClient(
        create_app(config(), GatewayServices.ready(backend, MemoryAudit())), raise_server_exceptions=False
    ) as test_client:
        yield test_client


def sse(text: str) -> list[tuple[str, dict]]:
    events = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        lines = [line for line in block.split("\n") if line and not line.startswith(":")]
        if not lines:
            continue
        name = next(line[6:].strip() for line in lines if line.startswith("event:"))
        data = "\n".join(line[5:].strip() for line in lines if line.startswith("data:"))
        events.append((name, json.loads(data)))
    return events


def post(client: TestClient, body: object, **headers: str) -> object:
    return client.post("/api/chat", content=json.dumps(body), headers={"content-type": "application/json", **headers})


def error(response: object, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    assert response.json()["error"]["code"] == code
    assert "Traceback" not in response.text


def test_a_question_streams_the_runs_events(client: TestClient, backend: FakeBackend) -> None:
    response = post(client, {"query": "  你好  ", "session_id": "session-0001"})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    events = sse(response.text)
    assert [name for name, _ in events] == ["metadata", "status", "content", "done"]
    assert events[0][1]["session_id"] == "session-0001"
    assert backend.calls == [("session-0001", "你好", "anonymous")]


def test_a_new_session_is_created_when_absent(client: TestClient, backend: FakeBackend) -> None:
    events = sse(post(client, {"query": "hi"}).text)
    session_id = events[0][1]["session_id"]
    assert len(session_id) == 32 and backend.calls[0][0] == session_id
    events = sse(post(client, {"query": "hi", "session_id": None}).text)
    assert events[0][1]["session_id"] != session_id


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ("{not json", 400, "INVALID_JSON"),
        ("[1, 2]", 422, "INVALID_REQUEST"),
        ('"query"', 422, "INVALID_REQUEST"),
        ("{}", 422, "INVALID_REQUEST"),
        ('{"query": 42}', 422, "INVALID_REQUEST"),
        ('{"query": null}', 422, "INVALID_REQUEST"),
        ('{"query": "x", "extra": 1}', 422, "INVALID_REQUEST"),
        ('{"query": "   "}', 422, "QUERY_EMPTY"),
        ('{"query": "x", "session_id": "short"}', 422, "INVALID_SESSION_ID"),
        ('{"query": "x", "session_id": "../../etc/passwd-xx"}', 422, "INVALID_SESSION_ID"),
        ('{"query": "x", "session_id": 12345678}', 422, "INVALID_SESSION_ID"),
    ],
)
def test_bad_bodies_are_refused_before_any_stream(
    client: TestClient, backend: FakeBackend, body: str, status: int, code: str
) -> None:
    response = client.post("/api/chat", content=body, headers={"content-type": "application/json"})
    error(response, status, code)
    assert backend.calls == []


def test_query_length_limit_is_the_one_the_openapi_document_states(backend: FakeBackend) -> None:
    with TestClient(
        create_app(config(**{"max-query-chars": 10}), GatewayServices.ready(backend, MemoryAudit()))
    ) as client:
        schema = client.get("/openapi.json").json()["paths"]["/api/chat"]["post"]["requestBody"]
        limit = schema["content"]["application/json"]["schema"]["properties"]["query"]["maxLength"]
        assert limit == 10
        error(post(client, {"query": "x" * (limit + 1)}), 422, "QUERY_TOO_LONG")
        assert post(client, {"query": "x" * limit}).status_code == 200


def test_the_largest_configurable_query_is_accepted_by_the_run_too() -> None:
    """The run has no limit of its own that a valid request could exceed after its stream has started."""
    rules = GatewaySettings.model_fields["max_query_chars"].metadata
    ceiling = next(rule.le for rule in rules if getattr(rule, "le", None) is not None)
    assert StartRun(session_id="s-1", query="x" * ceiling).query == "x" * ceiling


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", ""])
def test_wrong_content_type_is_415(client: TestClient, content_type: str) -> None:
    headers = {"content-type": content_type} if content_type else {}
    error(client.post("/api/chat", content=b'{"query": "x"}', headers=headers), 415, "UNSUPPORTED_MEDIA_TYPE")


def test_body_too_large_is_413(backend: FakeBackend) -> None:
    with TestClient(
        create_app(config(**{"max-body-bytes": "1KB"}), GatewayServices.ready(backend, MemoryAudit()))
    ) as client:
        error(post(client, {"query": "x" * 2000}), 413, "BODY_TOO_LARGE")

        def chunks() -> Iterator[bytes]:
            yield b'{"query": "'
            yield b"x" * 3000
            yield b'"}'

        chunked = client.post("/api/chat", content=chunks(), headers={"content-type": "application/json"})
        error(chunked, 413, "BODY_TOO_LARGE")
    assert backend.calls == []


@pytest.fixture
def secured(backend: FakeBackend) -> Iterator[TestClient]:
    with TestClient(create_app(config(auth=True), GatewayServices.ready(backend, MemoryAudit()))) as test_client:
        yield test_client


@pytest.mark.parametrize(
    "header", [None, "", "Bearer", "Bearer wrong-key", "Basic b3BzLXNlY3JldC1rZXktMQ==", "ops-secret-key-1"]
)
def test_missing_or_wrong_key_is_401_before_any_work(
    secured: TestClient, backend: FakeBackend, header: str | None
) -> None:
    headers = {"authorization": header} if header is not None else {}
    response = post(secured, {"query": "hi"}, **headers)
    error(response, 401, "UNAUTHORIZED")
    assert response.headers["www-authenticate"] == "Bearer"
    assert backend.calls == []


def test_a_session_belongs_to_the_key_that_created_it(secured: TestClient, backend: FakeBackend) -> None:
    ops = {"authorization": "Bearer ops-secret-key-1"}
    dev = {"authorization": "Bearer dev-secret-key-2"}
    events = sse(post(secured, {"query": "hi", "session_id": "shared-session-1"}, **ops).text)
    assert events[0][1]["session_id"] == "shared-session-1"
    error(post(secured, {"query": "hi again", "session_id": "shared-session-1"}, **dev), 403, "SESSION_FORBIDDEN")
    assert post(secured, {"query": "again", "session_id": "shared-session-1"}, **ops).status_code == 200
    assert [principal for _, _, principal in backend.calls] == ["ops", "ops"]


def test_health_readiness_info_page_and_openapi(client: TestClient, backend: FakeBackend) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    ready = client.get("/readyz")
    assert ready.status_code == 200 and ready.json()["ready"] is True
    backend.ready["redis"] = False
    not_ready = client.get("/readyz")
    assert not_ready.status_code == 503 and not_ready.json()["checks"]["redis"] is False
    assert client.get("/api/info").json() == {"auth_required": False, "model": "fake backend", "max_query_chars": 2000}
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    document = client.get("/openapi.json").json()
    assert set(document["paths"]) == {"/api/chat", "/api/info", "/healthz", "/readyz", "/openapi.json", "/"}
    assert "security" not in document["paths"]["/api/chat"]["post"] and "components" not in document


def test_the_bearer_scheme_is_declared_only_when_keys_are_asked_for(backend: FakeBackend) -> None:
    with TestClient(create_app(config(auth=True), GatewayServices.ready(backend, MemoryAudit()))) as client:
        document = client.get("/openapi.json").json()
    assert document["paths"]["/api/chat"]["post"]["security"] == [{"bearer": []}]
    assert document["components"]["securitySchemes"] == {"bearer": {"type": "http", "scheme": "bearer"}}


def test_only_post_is_a_chat_and_routing_errors_use_the_envelope(client: TestClient) -> None:
    wrong_method = client.get("/api/chat")
    error(wrong_method, 405, "METHOD_NOT_ALLOWED")
    assert wrong_method.headers["allow"] == "POST"
    error(client.post("/api/chat_stream", json={"query": "x"}), 404, "NOT_FOUND")


def test_a_run_whose_supervisor_was_lost_after_its_content_is_recorded_as_its_client_saw_it() -> None:
    """Issue 19: a supervisor lost between the content and its finish record left the run RUNNING for good; the
    gateway records it, with the outcome and the content its client was sent."""
    audit = MemoryAudit()
    backend = FakeBackend(lost_after_content=True)
    with TestClient(create_app(config(), GatewayServices.ready(backend, audit))) as test_client:
        events = sse(post(test_client, {"query": "hi"}).text)
    assert [name for name, _ in events] == ["metadata", "status", "content", "done"]
    [record] = audit.finished
    assert (record.run_id, record.status, record.fallback_reason) == ("run-fake-1", "SUCCESS", "SUPERVISOR_LOST")
    assert record.released_content == events[2][1]
    assert record.model_calls is None  # counted by the store from the rows the supervisor wrote


def test_a_callers_traceparent_is_continued_and_its_trace_id_returned(client: TestClient, backend: FakeBackend) -> None:
    caller = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
    response = post(client, {"query": "你好"}, traceparent=caller)
    assert response.headers["x-trace-id"] == "4bf92f3577b34da6a3ce929d0e0e4736"
    assert sse(response.text)[0][1]["trace_id"] == "4bf92f3577b34da6a3ce929d0e0e4736"
    (sent,) = backend.traceparents
    assert sent is not None and sent.startswith("00-4bf92f3577b34da6a3ce929d0e0e4736-")
    assert "00f067aa0ba902b7" not in sent  # the run's parent is the gateway's span, a child of the caller's


def test_without_a_traceparent_each_request_starts_its_own_trace(client: TestClient, backend: FakeBackend) -> None:
    first, second = post(client, {"query": "你好"}), post(client, {"query": "你好", "session_id": "session-0002"})
    ids = [response.headers["x-trace-id"] for response in (first, second)]
    assert all(re.fullmatch(r"[0-9a-f]{32}", each) for each in ids) and ids[0] != ids[1]
    assert [sse(response.text)[0][1]["trace_id"] for response in (first, second)] == ids
