"""``tools.query_metrics``: the demo metrics or a Prometheus HTTP API, its credentials, and the allowlist of
metrics the agent may query."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from config.env_refs import Secret
from config.tools import ToolRuntime
from config.types import Section, plain_http_url
from config.units import Duration, duration

MetricName = Annotated[str, Field(pattern=r"^[A-Za-z_:][A-Za-z0-9_:]{0,199}$")]
LabelName = Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")]
RESERVED_LABELS = frozenset({"le", "quantile"})
"""Labels the histogram and summary series use themselves: never a matcher or a grouping of the agent's."""
DEFAULT_METRICS: dict[str, dict[str, Any]] = {
    "hikaricp_connections_active": {
        "type": "gauge",
        "labels": ["service", "pool"],
        "help": "Connections in use in a HikariCP pool.",
    },
    "hikaricp_connections_pending": {
        "type": "gauge",
        "labels": ["service", "pool"],
        "help": "Threads waiting for a connection from a HikariCP pool.",
    },
    "hikaricp_connections_max": {
        "type": "gauge",
        "labels": ["service", "pool"],
        "help": "Maximum size of a HikariCP pool.",
    },
    "http_server_requests_seconds": {
        "type": "histogram",
        "labels": ["service", "uri", "status"],
        "help": "Duration of the HTTP requests a service answered, by route template and status code.",
    },
    "payment_order_callback_total": {
        "type": "counter",
        "labels": ["service", "outcome"],
        "help": "payment-service callbacks to order-service, by outcome (SUCCESS, ERR_TIMEOUT).",
    },
    "mysql_innodb_row_lock_waits_total": {
        "type": "counter",
        "labels": ["service"],
        "help": "InnoDB row lock waits of a database (service: the database, e.g. order_db).",
    },
}
"""The demo's allowlist: the metrics of the bundled dataset (``tools/metrics/data/mock_metrics.yaml``)."""


class MetricDefinition(Section):
    """One metric the agent may query: its type decides the aggregations, its labels the matchers and groupings."""

    type: Literal["counter", "gauge", "histogram"]
    labels: Annotated[list[LabelName], Field(max_length=16)] = Field(
        default_factory=list, description="Labels the agent may match on and group by; no other label is allowed."
    )
    help: Annotated[str, Field(max_length=200, pattern=r"^[^\r\n]*$")] = Field(
        default="", description="One line shown to the agent in the tool description."
    )

    @field_validator("labels")
    @classmethod
    def _plain_labels(cls, labels: list[str]) -> list[str]:
        if len(set(labels)) != len(labels):
            raise PydanticCustomError("metric_labels", "labels must not repeat")
        if any(label.startswith("__") or label in RESERVED_LABELS for label in labels):
            raise PydanticCustomError("metric_labels", "labels must not be __name__-like, le or quantile")
        return labels


class MetricsToolSettings(ToolRuntime):
    """``query_metrics``: the bundled demo metrics when ``url`` is absent, a Prometheus HTTP API when present.

    Credentials are ``${ENV}`` references, never in the URL: ``username`` and ``password`` (basic auth) or
    ``bearer-token``.
    """

    url: str | None = Field(
        default=None,
        description="Prometheus base URL (http or https; no credentials, query or fragment), e.g. "
        "https://prometheus.internal:9090; the bundled demo metrics (labelled MOCK) when absent.",
    )
    name: Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$")] = Field(
        default="prometheus", description="The source's name as references show it."
    )
    username: Secret | None = Field(default=None, description="Basic auth user, an ${ENV_VAR} reference.")
    password: Secret | None = Field(default=None, description="Basic auth password, an ${ENV_VAR} reference.")
    bearer_token: Secret | None = Field(default=None, description="An ${ENV_VAR} reference; instead of basic auth.")
    scrape_interval: Annotated[Duration, Field(ge=1)] = Field(
        default=duration("15s"), description="How often the metrics are scraped; a rate window is at least 4 × this."
    )
    dataset: str | None = Field(
        default=None, description="Demo metrics definition (YAML) used without url; the bundled one when absent."
    )
    metrics: Annotated[dict[MetricName, MetricDefinition], Field(min_length=1)] = Field(
        default_factory=lambda: {name: MetricDefinition.model_validate(spec) for name, spec in DEFAULT_METRICS.items()},
        description="The only metrics the agent may query, by name; the bundled demo's when absent.",
    )

    @field_validator("url")
    @classmethod
    def _plain_http_url(cls, value: str | None) -> str | None:
        return plain_http_url(
            value, code="metrics_url", field="url", credentials="use username and password or bearer-token: ${ENV_VAR}"
        )

    @model_validator(mode="after")
    def _credentials_consistent(self) -> MetricsToolSettings:
        basic = (self.username, self.password)
        if any(secret is not None for secret in basic) and None in basic:
            raise PydanticCustomError("metrics_auth", "basic auth needs both username and password")
        if self.bearer_token is not None and self.username is not None:
            raise PydanticCustomError("metrics_auth", "use either username and password or bearer-token, not both")
        secrets = [secret for secret in (*basic, self.bearer_token) if secret is not None]
        if secrets and self.url is None:
            raise PydanticCustomError("metrics_auth", "credentials need url (the demo metrics take none)")
        if any(not secret.reveal() for secret in secrets):
            raise PydanticCustomError("metrics_auth", "a credential is empty: its environment variable is set to ''")
        if self.url is not None and self.dataset is not None:
            raise PydanticCustomError("metrics_dataset", "dataset is for the demo metrics; it takes no url")
        return self
