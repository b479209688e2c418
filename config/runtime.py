"""Where and how the product runs: Redis, the chat model, Ray and its actor pools, the HTTP gateway and the
audit store."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import urlsplit

from pydantic import BeforeValidator, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from config.env_refs import Secret
from config.types import PositiveDuration, PositiveSize, RayResources, Section, not_bool, plain_http_url
from config.units import Duration, duration, size


class RedisSettings(Section):
    """Where the invocation store lives. ``fakeredis://`` runs an in-process Redis (embedded demo only)."""

    url: str = "fakeredis://"
    username: str | None = None
    password: Secret | None = None
    max_connections: Annotated[int, Field(gt=0, le=10000)] = Field(
        default=64,
        description="Connections per process (each supervisor); a command beyond them waits for one to free up.",
    )

    @model_validator(mode="after")
    def _no_credentials_in_url(self) -> RedisSettings:
        parts = urlsplit(self.url)
        if parts.scheme not in ("redis", "rediss", "unix", "fakeredis"):
            raise PydanticCustomError("redis_url", "url must start with redis://, rediss://, unix:// or fakeredis://")
        if parts.password or parts.username:
            raise PydanticCustomError(
                "redis_url", "url must not carry credentials; use username and password: ${ENV_VAR}"
            )
        return self


class ModelSettings(Section):
    """The chat model behind the one ``ChatModel`` boundary.

    ``offline`` is the bundled scripted model: no network, no credentials. ``openai`` speaks the OpenAI chat
    completions API to ``base-url`` (the OpenAI API when absent) with ``api-key``. An offline model never runs
    silently in place of a configured endpoint: ``provider: offline`` with a ``base-url`` or an ``api-key`` is
    rejected.
    """

    provider: Literal["openai", "offline"] = "offline"
    base_url: str | None = Field(
        default=None, description="An OpenAI-compatible endpoint (http or https, no credentials, no query)."
    )
    api_key: Secret | None = Field(default=None, description="An ${ENV_VAR} reference; required by provider openai.")
    name: Annotated[str, Field(min_length=1, max_length=200, pattern=r"^\S(?:.*\S)?$")] = Field(
        default="gpt-4o-mini", description="The model name sent with every request."
    )
    timeout_s: Annotated[float, BeforeValidator(not_bool), Field(gt=0, le=600, allow_inf_nan=False)] = Field(
        default=60.0, description="Ceiling of one HTTP request to the model, in seconds."
    )
    temperature: Annotated[float, BeforeValidator(not_bool), Field(ge=0, le=2, allow_inf_nan=False)] = 0.0

    @field_validator("base_url")
    @classmethod
    def _plain_http_url(cls, value: str | None) -> str | None:
        return plain_http_url(value, code="model_url", field="base-url", credentials="use api-key: ${ENV_VAR}")

    @model_validator(mode="after")
    def _provider_consistent(self) -> ModelSettings:
        if self.provider == "openai":
            if self.api_key is None:
                raise PydanticCustomError("model_provider", "provider openai needs api-key (an ${ENV_VAR} reference)")
            if not self.api_key.reveal():
                raise PydanticCustomError(
                    "model_provider", "api-key is empty: its environment variable is set to an empty value"
                )
        elif self.base_url is not None or self.api_key is not None:
            raise PydanticCustomError(
                "model_provider",
                "provider offline takes no base-url or api-key; set provider: openai to use the endpoint",
            )
        return self


class RaySettings(Section):
    """Where the actors run and how many of each pool there are."""

    address: str | None = Field(
        default=None, description="auto | ray://host:10001 | host:6379; a local Ray is started when absent."
    )
    namespace: Annotated[str, Field(pattern=r"^[A-Za-z0-9_\-]{1,64}$")] = Field(
        default="superbiz", description="Ray namespace of every named actor; drivers sharing it share the actors."
    )
    supervisor_pool: Annotated[int, Field(gt=0, le=64)] = 2
    max_active_runs: Annotated[int, Field(gt=0, le=10000)] = Field(
        default=16,
        description="Runs one supervisor works on at once; later runs wait (status QUEUED) instead of "
        "overloading it. Cluster capacity is supervisor-pool × this.",
    )
    agent_pool: Annotated[int, Field(gt=0, le=64)] = 2
    guard_pool: Annotated[int, Field(gt=0, le=64)] = 2
    spread_guards: bool = Field(default=True, description="Place guard replicas on different nodes when possible.")
    resources: RayResources = Field(
        default_factory=dict,
        description="Ray custom resources the supervisors, agents and guards need, e.g. {harness: 0.01} to keep "
        "them on the nodes started with --resources='{\"harness\": 1}' (tools have their own, under tools).",
    )
    auth_token: Secret | None = Field(
        default=None,
        description="The token of a cluster that uses Ray's token authentication, as an ${ENV} reference; without "
        "it Ray's own RAY_AUTH_TOKEN, RAY_AUTH_TOKEN_PATH or ~/.ray/auth_token is used.",
    )
    client_lease: PositiveDuration = Field(
        default=duration("60s"),
        description="A run whose gateway has not fetched its events for this long is cancelled (the gateway is gone).",
    )
    event_linger: Annotated[Duration, Field(ge=0, le=1)] = Field(
        default=duration("20ms"),
        description="Once a gateway's poll finds a new event, how long it waits for more before it returns (never "
        "past a run's done event): a run's events then travel in a few messages rather than one each.",
    )
    max_restarts: Annotated[int, Field(ge=-1)] = Field(
        default=-1,
        description="Restarts of a dead actor (-1: always). Calls are never retried by Ray: a tool call or an agent "
        "step that was running fails, and the Harness decides (Tool ERROR, fallback, the guard's one retry).",
    )


class GatewaySettings(Section):
    """The HTTP gateway: where it listens, who may call it, and what a request may be."""

    host: str = "127.0.0.1"
    port: Annotated[int, Field(ge=0, le=65535)] = 8080
    auth: Literal["api-keys", "off"] = Field(
        default="off", description="api-keys: every request needs Authorization: Bearer <key>; off only on loopback."
    )
    api_keys: dict[Annotated[str, Field(pattern=r"^[A-Za-z0-9_\-]{1,64}$")], Secret] = Field(
        default_factory=dict, description="Principal name -> its key (an ${ENV} reference)."
    )
    max_query_chars: Annotated[int, Field(gt=0, le=20000)] = 2000
    max_body_bytes: PositiveSize = Field(default=size("16KB"))
    ping_interval: PositiveDuration = Field(default=duration("15s"), description="SSE keep-alive comment interval.")
    shutdown_grace: Annotated[Duration, Field(ge=0)] = Field(
        default=duration("30s"),
        description="On SIGTERM or Ctrl-C, how long runs in flight may still finish; the rest are cancelled.",
    )

    @model_validator(mode="after")
    def _keys_when_required(self) -> GatewaySettings:
        if self.auth == "api-keys" and not self.api_keys:
            raise PydanticCustomError("auth", "auth api-keys needs at least one entry in api-keys")
        return self


AUDIT_URL_SCHEMES = ("sqlite", "mysql+pymysql", "mariadb+pymysql")
_CREDENTIAL_QUERY_KEYS = frozenset({"user", "username", "password", "passwd"})


class AuditSettings(Section):
    """The durable audit store (``stores/audit/``): runs, model steps and tool invocations.

    ``url`` is a SQLAlchemy URL without credentials: ``sqlite:///var/superbiz-audit.db`` (a path relative to
    the working directory; its folder is created), ``sqlite://`` (in memory, tests only) or
    ``mysql+pymysql://host:3306/db`` / ``mariadb+pymysql://...`` with ``username`` and ``password: ${ENV_VAR}``.
    """

    url: str = Field(
        default="sqlite:///var/superbiz-audit.db",
        validate_default=True,
        description="SQLAlchemy URL (sqlite, mysql+pymysql or mariadb+pymysql), never with credentials; a relative "
        "sqlite path is resolved against the working directory when the configuration is loaded.",
    )
    username: Annotated[str, Field(min_length=1, max_length=128)] | None = None
    password: Secret | None = Field(default=None, description="An ${ENV_VAR} reference; joined to the URL at connect.")
    preview_chars: Annotated[int, BeforeValidator(not_bool), Field(gt=0, le=16000)] = Field(
        default=500, description="Characters of a tool output preview kept in tool_invocation.output_preview."
    )
    previous_turn_chars: Annotated[int, BeforeValidator(not_bool), Field(gt=0, le=4000)] = Field(
        default=500, description="Characters kept of each text field of previous_turn."
    )
    previous_turn_documents: Annotated[int, BeforeValidator(not_bool), Field(ge=0, le=50)] = Field(
        default=5, description="Source documents kept in previous_turn (the first ones)."
    )
    outage_wait: PositiveDuration = Field(
        default=duration("60s"),
        description="How long a write waits out an unreachable database (a restart, a failover), retrying, before "
        "it fails and is logged; a run's done waits for its record at most this long.",
    )

    @field_validator("url")
    @classmethod
    def _plain_database_url(cls, value: str) -> str:
        # Imported here: an actor process that only receives a configuration never loads SQLAlchemy.
        from sqlalchemy.engine import make_url
        from sqlalchemy.exc import ArgumentError

        # Messages never echo the URL: it may carry a credential.
        try:
            url = make_url(value)
        except (ArgumentError, ValueError):
            raise PydanticCustomError("audit_url", "url is not a valid SQLAlchemy database URL") from None
        if url.drivername not in AUDIT_URL_SCHEMES:
            raise PydanticCustomError(
                "audit_url", "url must start with sqlite://, mysql+pymysql:// or mariadb+pymysql://"
            )
        if (
            url.username is not None
            or url.password is not None
            or _CREDENTIAL_QUERY_KEYS & {key.lower() for key in url.query}
        ):
            raise PydanticCustomError(
                "audit_url", "url must not carry credentials; use username and password: ${ENV_VAR}"
            )
        if url.drivername == "sqlite" and (url.host or url.port):
            raise PydanticCustomError("audit_url", "a sqlite url takes a path (sqlite:///relative.db), not a host")
        if url.drivername != "sqlite" and not (url.host and url.database):
            raise PydanticCustomError("audit_url", "a MySQL/MariaDB url needs a host and a database")
        if url.drivername == "sqlite" and url.database and not Path(url.database).is_absolute():
            # Resolved where the configuration is loaded: actors on other processes must open the same file.
            return url.set(database=str(Path(url.database).resolve())).render_as_string(hide_password=False)
        return value


class TelemetrySettings(Section):
    """Traces of every run (OpenTelemetry), exported over OTLP; nothing is exported until ``otlp-endpoint`` is set.

    ``http/protobuf`` takes the full URL of the traces path (``http://collector:4318/v1/traces``), ``grpc`` the
    collector's address (``http://collector:4317``). Header values (an API key for Honeycomb or Datadog) are
    ``${ENV}`` references.
    """

    otlp_endpoint: str | None = Field(
        default=None, description="Where spans go: an OTLP/HTTP traces URL, or an OTLP/gRPC address; off when unset."
    )
    protocol: Literal["http/protobuf", "grpc"] = "http/protobuf"
    headers: dict[Annotated[str, Field(pattern=r"^[A-Za-z0-9\-_]{1,64}$")], Secret] = Field(
        default_factory=dict, description="Sent with every export (values are ${ENV} references)."
    )
    export_timeout: PositiveDuration = Field(
        default=duration("5s"), description="One export request, retries included; spans wait in a batch meanwhile."
    )
    batch_delay: PositiveDuration = Field(
        default=duration("5s"), description="How long ended spans wait to be exported together (the batch's delay)."
    )
    service_name: Annotated[str, Field(min_length=1, max_length=128)] = "superbiz-harness"

    @field_validator("otlp_endpoint")
    @classmethod
    def _endpoint_url(cls, value: str | None) -> str | None:
        if value is not None and urlsplit(value).scheme not in ("http", "https"):
            raise PydanticCustomError("otlp_endpoint", "otlp-endpoint must be an http:// or https:// URL")
        return value
