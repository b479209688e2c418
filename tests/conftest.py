"""Shared pytest fixtures.

Services: ``redis_server``, ``mariadb_server`` and ``prometheus_server`` are private servers from
``tests/services.py``, started lazily (only when a test asks for them), at most once per session, on free
loopback ports, and closed at session end. A missing binary or a server that does not start FAILS the
requesting tests; it never skips them. ``redis_url`` gives each test an empty private Redis;
``prometheus_server`` holds the bundled demo metrics ending at ``prometheus_demo_now``.

Ray: ``ray_session`` starts one local Ray for the whole session (``address="local"``, never an existing
cluster), its metrics exported as Prometheus text at ``ray_metrics_url``. Any other test that calls
``ray.init`` fails: unit tests run without Ray.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import ray

from tests.mysql_fixtures import order_db  # noqa: F401  (a fixture: the demo order_db on the private MariaDB)
from tests.otlp_receiver import Receiver
from tests.services import MariaDBServer, PrometheusServer, RedisServer, ServiceUnavailable, free_port

PROMETHEUS_DEMO_HISTORY_S = 2 * 3600
"""How much of the demo metrics the private Prometheus holds, back from ``prometheus_demo_now``."""


def _start(server: RedisServer | MariaDBServer | PrometheusServer) -> None:
    """Start ``server`` (no-op if running); if it cannot start, fail the test, never skip it."""
    try:
        server.start()
        return
    except ServiceUnavailable as exc:
        failure = str(exc)
    server.close()
    pytest.fail(failure, pytrace=False)


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    server = RedisServer()
    _start(server)
    yield server
    server.close()


@pytest.fixture(scope="session")
def mariadb_server() -> Iterator[MariaDBServer]:
    server = MariaDBServer()
    _start(server)
    yield server
    server.close()


@pytest.fixture(scope="session")
def prometheus_demo_now() -> datetime:
    """Where the private Prometheus's demo series end: a whole second, so its samples fall on query steps."""
    return datetime.now(UTC).replace(microsecond=0) - timedelta(seconds=1)


@pytest.fixture(scope="session")
def prometheus_server(prometheus_demo_now: datetime) -> Iterator[PrometheusServer]:
    from tests.tools.metrics.openmetrics import demo_openmetrics

    server = PrometheusServer(demo_openmetrics(prometheus_demo_now, PROMETHEUS_DEMO_HISTORY_S))
    _start(server)
    yield server
    server.close()


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    """URL of the private Redis, restarted if a test stopped it, with every key flushed."""
    _start(redis_server)
    with redis_server.client() as client:
        client.flushall()
    return redis_server.url


_REAL_RAY_INIT = ray.init


@pytest.fixture(scope="session")
def ray_metrics_port() -> int:
    """The port of the session Ray's Prometheus export (``ray.init(_metrics_export_port=...)``)."""
    return free_port()


@pytest.fixture(scope="session")
def ray_session(ray_metrics_port: int) -> Iterator[None]:
    # Read by Ray's processes at start: application metrics reach the export within ~1 s instead of ~10 s.
    os.environ.setdefault("RAY_metrics_report_interval_ms", "1000")
    _REAL_RAY_INIT(
        address="local",
        num_cpus=4,
        include_dashboard=False,
        log_to_driver=False,
        configure_logging=False,
        _metrics_export_port=ray_metrics_port,
    )
    yield
    ray.shutdown()


@pytest.fixture(scope="session")
def ray_metrics_url(ray_session: None, ray_metrics_port: int) -> str:
    """Prometheus text of the session Ray (Ray's own metrics and ``ray.util.metrics``, names prefixed ``ray_``)."""
    return f"http://127.0.0.1:{ray_metrics_port}/metrics"


@pytest.fixture(autouse=True)
def _no_ray_init_in_unit_tests(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if "ray_session" in request.fixturenames:
        return

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("unit tests must not start Ray; request the ray_session fixture")

    monkeypatch.setattr(ray, "init", refuse)


@pytest.fixture(scope="session")
def gateway(
    ray_session: None, redis_server: RedisServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[RunningGateway]:
    """The real gateway (uvicorn in a thread, a real Ray runtime, real Redis, SQLite audit) with the offline
    model and auth off, shared by the end-to-end and browser tests."""
    from actors.runtime import shutdown_runtime
    from cli.serve import GatewayThread, build_gateway
    from tests.actors.runtime_support import ray_config

    _start(redis_server)
    config = ray_config(redis_url=redis_server.url)
    config = config.model_copy(
        update={"audit": config.audit.model_copy(update={"url": f"sqlite:///{tmp_path_factory.mktemp('audit')}/a.db"})}
    )
    built = build_gateway(config)
    server = GatewayThread(built.app).start()
    yield RunningGateway(built, server.url)
    server.stop()
    built.audit.close()
    shutdown_runtime(config)


@dataclass(frozen=True)
class RunningGateway:
    parts: Any
    """The ``cli.serve.Gateway`` (app, client, audit store)."""
    url: str


@pytest.fixture
def gateway_url(gateway: RunningGateway) -> str:
    return gateway.url


@pytest.fixture
def runtimes(ray_session: None) -> Iterator[list[Any]]:
    """Configurations whose Ray actors are killed when the test ends (append each one the test starts)."""
    from actors.runtime import shutdown_runtime

    started: list[Any] = []
    yield started
    for config in started:
        shutdown_runtime(config)


@pytest.fixture(scope="module")
def otlp_receiver() -> Iterator[Receiver]:
    """An OTLP/HTTP trace receiver on a free loopback port (``tests.otlp_receiver``), one per test module."""
    server = Receiver()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()
