"""Joining a cluster over Ray Client survives the client server failing to start once."""

from __future__ import annotations

import os
from typing import Any

import pytest
import ray

from cli import ray_cluster as serve
from config.loader import parse_config

FAILED_START = ConnectionAbortedError("Initialization failure from server: Starting Ray client server failed.")


class FlakyInit:
    """``ray.init`` that fails ``failures`` times the way the Ray Client proxy does, then connects."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.calls: list[dict[str, Any]] = []
        self.shutdowns = 0

    def init(self, **kwargs: Any) -> Any:
        self.calls.append(kwargs)
        if len(self.calls) <= self.failures:
            raise FAILED_START
        return object()

    def shutdown(self) -> None:
        self.shutdowns += 1


@pytest.fixture
def flaky(monkeypatch: pytest.MonkeyPatch) -> FlakyInit:
    flaky = FlakyInit(failures=0)
    monkeypatch.setattr(ray, "init", flaky.init)
    monkeypatch.setattr(ray, "shutdown", flaky.shutdown)
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(serve, "RAY_CLIENT_RETRY_DELAY_S", 0.0)
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")  # an explicit mode: joining changes no Ray setting here
    return flaky


def test_a_ray_client_server_that_fails_to_start_is_asked_again(flaky: FlakyInit) -> None:
    flaky.failures = serve.RAY_CLIENT_ATTEMPTS - 1
    serve.init_ray(parse_config("", {}), "ray://head:10001")
    assert [call["address"] for call in flaky.calls] == ["ray://head:10001"] * serve.RAY_CLIENT_ATTEMPTS
    assert flaky.shutdowns == serve.RAY_CLIENT_ATTEMPTS - 1


def test_the_last_failure_is_raised(flaky: FlakyInit) -> None:
    flaky.failures = serve.RAY_CLIENT_ATTEMPTS
    with pytest.raises(ConnectionAbortedError):
        serve.init_ray(parse_config("", {}), "ray://head:10001")
    assert len(flaky.calls) == serve.RAY_CLIENT_ATTEMPTS


def test_a_direct_cluster_address_is_not_retried(flaky: FlakyInit) -> None:
    flaky.failures = 1
    with pytest.raises(ConnectionAbortedError):
        serve.init_ray(parse_config("", {}), "10.0.0.5:6379")
    assert len(flaky.calls) == 1


def test_a_refused_join_is_one_error_naming_what_to_set(flaky: FlakyInit, monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(**kwargs: Any) -> Any:
        flaky.calls.append(kwargs)
        raise ConnectionError("Failed to connect to Ray cluster")

    monkeypatch.setattr(ray, "init", refused)
    with pytest.raises(serve.ClusterJoinError, match=r"ray\.auth-token: \$\{RAY_AUTH_TOKEN\}"):
        serve.init_ray(parse_config("", {}), "10.0.0.5:6379")
    assert len(flaky.calls) == 1


def test_a_configured_token_is_sent_without_showing_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAY_AUTH_TOKEN", raising=False)
    monkeypatch.setenv("RAY_AUTH_MODE", "token")  # explicit: Ray's own settings are left as they are
    config = parse_config("ray:\n  auth-token: ${CLUSTER_TOKEN}\n", {"CLUSTER_TOKEN": "t0ken-value"})
    assert serve.use_cluster_token(config.ray.auth_token) == "ray.auth-token"
    assert os.environ["RAY_AUTH_TOKEN"] == "t0ken-value"
    assert "t0ken-value" not in config.model_dump_json()
