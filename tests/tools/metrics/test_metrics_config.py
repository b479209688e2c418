"""The configuration of query_metrics, through the loader as a YAML file would give it: the demo by default,
Prometheus with ``${ENV}`` credentials in production, and every refused shape."""

from __future__ import annotations

import json
from typing import Any

import pytest

from config.app import AppConfig
from config.loader import ConfigError, dump_config, parse_config
from tools.metrics.settings import DEFAULT_METRICS

ENV = {"PROM_USER": "reader", "PROM_PASSWORD": "pr0m-Secret", "PROM_TOKEN": "tok-abc", "EMPTY": ""}


def _load(tool: dict[str, Any] | None = None, metrics: dict[str, Any] | None = None) -> AppConfig:
    data: dict[str, Any] = {}
    if tool is not None:
        data["tools"] = {"query_metrics": tool}
    if metrics is not None:
        data["harness"] = {"metrics": metrics}
    return parse_config(json.dumps(data), ENV)  # JSON is YAML


def _refused(tool: dict[str, Any] | None = None, metrics: dict[str, Any] | None = None) -> str:
    with pytest.raises(ConfigError) as raised:
        _load(tool, metrics)
    return str(raised.value)


def test_the_default_is_the_demo_with_its_allowlist() -> None:
    config = _load()
    settings = config.tools.query_metrics
    assert settings.url is None and settings.dataset is None
    assert (settings.concurrency, settings.max_pending, settings.name) == (4, 16, "prometheus")
    assert {name: (d.type, d.labels) for name, d in settings.metrics.items()} == {
        name: (spec["type"], spec["labels"]) for name, spec in DEFAULT_METRICS.items()
    }
    budget = config.harness.metrics
    assert (budget.default_lookback, budget.max_lookback, budget.min_step) == (1800, 86400, 15)
    assert (budget.max_series, budget.max_sample_points, budget.max_total_chars) == (10, 8, 8000)
    assert "query_metrics" in config.tools.entries()


def test_production_points_at_prometheus_with_env_credentials() -> None:
    config = _load(
        {
            "url": "https://prometheus.internal:9090/prom",
            "name": "prom-prod",
            "username": "${PROM_USER}",
            "password": "${PROM_PASSWORD}",
            "scrape-interval": "30s",
            "metrics": {"queue_depth": {"type": "gauge", "labels": ["queue"], "help": "Waiting messages."}},
        },
        {"max-lookback": "6h", "query-timeout": "5s", "max-series": 5},
    )
    settings = config.tools.query_metrics
    assert settings.username is not None and settings.username.reveal() == "reader"
    assert settings.password is not None and settings.password.reveal() == "pr0m-Secret"
    assert list(settings.metrics) == ["queue_depth"]
    assert settings.scrape_interval == 30
    shown = dump_config(config)
    assert "pr0m-Secret" not in shown and "${PROM_PASSWORD}" in shown
    token = _load({"url": "http://prometheus:9090", "bearer-token": "${PROM_TOKEN}"}).tools.query_metrics
    assert token.bearer_token is not None and token.bearer_token.reveal() == "tok-abc"


@pytest.mark.parametrize(
    ("tool", "message"),
    [
        ({"url": "http://reader:pr0m-Secret@prometheus:9090"}, "must not carry credentials"),
        ({"url": "http://reader@prometheus:9090"}, "must not carry credentials"),
        ({"url": "http://prometheus:9090/?user=reader&password=x"}, "must not carry a query"),
        ({"url": "http://prometheus:9090/#x"}, "must not carry a query or a fragment"),
        ({"url": "ftp://prometheus"}, "http:// or https://"),
        ({"url": "prometheus:9090"}, "http:// or https://"),
        ({"url": "http://prometheus:99999"}, "not a valid URL"),
        ({"url": "http://p:9090", "password": "pr0m-Secret", "username": "reader"}, "${ENV_VAR} reference"),
        ({"url": "http://p:9090", "bearer-token": "tok-abc"}, "${ENV_VAR} reference"),
        ({"url": "http://p:9090", "password": "${PROM_PASSWORD}"}, "needs both username and password"),
        ({"url": "http://p:9090", "username": "${PROM_USER}"}, "needs both username and password"),
        (
            {
                "url": "http://p:9090",
                "username": "${PROM_USER}",
                "password": "${PROM_PASSWORD}",
                "bearer-token": "${PROM_TOKEN}",
            },
            "either username and password or bearer-token",
        ),
        ({"bearer-token": "${PROM_TOKEN}"}, "credentials need url"),
        ({"url": "http://p:9090", "bearer-token": "${EMPTY}"}, "a credential is empty"),
        ({"url": "http://p:9090", "dataset": "metrics.yaml"}, "dataset is for the demo metrics"),
        ({"metrics": {}}, "at least 1 item"),
        ({"metrics": {"up or vector(1)": {"type": "gauge"}}}, "metrics.up or vector(1)"),
        ({"metrics": {"x": {"type": "summary"}}}, "type"),
        ({"metrics": {"x": {"type": "gauge", "labels": ["service", "service"]}}}, "must not repeat"),
        ({"metrics": {"x": {"type": "gauge", "labels": ["__name__"]}}}, "must not be __name__-like, le or quantile"),
        ({"metrics": {"x": {"type": "histogram", "labels": ["le"]}}}, "must not be __name__-like, le or quantile"),
        ({"metrics": {"x": {"type": "gauge", "labels": ["a-b"]}}}, "labels.0"),
        ({"metrics": {"x": {"type": "gauge", "help": "two\nlines"}}}, "help"),
        ({"metrics": {"x": {"type": "gauge", "promql": "up"}}}, "unknown key"),
        ({"name": "prom prod"}, "name"),
        ({"scrape-interval": "500ms"}, "scrape-interval"),
    ],
)
def test_refused_tool_settings(tool: dict[str, Any], message: str) -> None:
    text = _refused(tool)
    assert message in text
    assert "pr0m-Secret" not in text and "tok-abc" not in text


@pytest.mark.parametrize(
    ("metrics", "message"),
    [
        ({"default-lookback": "2h", "max-lookback": "1h"}, "default-lookback must not exceed max-lookback"),
        ({"default-lookback": "30s"}, "default-lookback"),
        ({"max-sample-points": 1}, "max-sample-points"),
        ({"max-series": 0}, "max-series"),
        ({"max-series": True}, "max-series"),
        ({"min-step": "500ms"}, "min-step"),
        ({"query-timeout": "0s"}, "query-timeout"),
        ({"max-response-bytes": "0B"}, "max-response-bytes"),
        ({"max-points": 5}, "unknown key"),
    ],
)
def test_refused_budgets(metrics: dict[str, Any], message: str) -> None:
    assert message in _refused(metrics=metrics)
