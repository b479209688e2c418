"""The bounds of the bundled tools' calls and projections (``harness.rag``, ``harness.logs``, ``harness.metrics``,
``harness.mysql``) and the MySQL data sources with their allowlists (``harness.mysql-tools``)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator, Field, model_validator
from pydantic_core import PydanticCustomError

from config.env_refs import Secret
from config.types import FunctionName, Identifier, PositiveDuration, PositiveInt, PositiveSize, Section, not_bool
from config.units import Duration, duration, size

DEFAULT_SQL_FUNCTIONS = (
    "COUNT",
    "SUM",
    "AVG",
    "MIN",
    "MAX",
    "COALESCE",
    "IFNULL",
    "LOWER",
    "UPPER",
    "ROUND",
    "ABS",
    "DATE",
)
DEFAULT_MASKED_COLUMNS = ("password", "passwd", "token", "secret", "api_key", "phone", "mobile", "email", "id_card")


class RagBudget(Section):
    max_evidence: PositiveInt = 5
    max_excerpt_chars: PositiveInt = 600
    max_total_chars: PositiveInt = 3000


class LogsBudget(Section):
    max_patterns: PositiveInt = 8
    max_events: PositiveInt = 10
    max_message_chars: PositiveInt = 300
    default_lookback: PositiveDuration = Field(default=duration("30m"))
    max_lookback: PositiveDuration = Field(default=duration("24h"))
    max_total_chars: PositiveInt = 8000

    @model_validator(mode="after")
    def _lookback_order(self) -> LogsBudget:
        if self.default_lookback > self.max_lookback:
            raise PydanticCustomError("lookback_order", "default-lookback must not exceed max-lookback")
        return self


class MetricsBudget(Section):
    """Bounds of every query_metrics call: its window, its step and the size of what the agent gets back."""

    max_series: PositiveInt = Field(default=10, description="Series shown per call; the rest is counted only.")
    max_sample_points: Annotated[int, BeforeValidator(not_bool), Field(ge=2, le=100)] = Field(
        default=8, description="Points of each series' downsampled sample (its first and last among them)."
    )
    max_total_chars: PositiveInt = Field(default=8000, description="The whole serialised agent_result.")
    default_lookback: Annotated[Duration, Field(ge=60)] = Field(default=duration("30m"))
    max_lookback: Annotated[Duration, Field(ge=60)] = Field(default=duration("24h"))
    min_step: Annotated[Duration, Field(ge=1)] = Field(
        default=duration("15s"), description="The smallest query step; the step is about lookback / 60."
    )
    query_timeout: PositiveDuration = Field(
        default=duration("10s"), description="Sent to Prometheus as the query's timeout; the client waits 2 s more."
    )
    max_response_bytes: PositiveSize = Field(
        default=size("512KB"), description="A larger Prometheus answer is refused (METRICS_RESULT_TOO_LARGE)."
    )

    @model_validator(mode="after")
    def _lookback_order(self) -> MetricsBudget:
        if self.default_lookback > self.max_lookback:
            raise PydanticCustomError("lookback_order", "default-lookback must not exceed max-lookback")
        return self


class MysqlBudget(Section):
    """Bounds of every query_mysql call, kept apart from the schema allowlist (§9.1)."""

    max_rows: PositiveInt = 50
    max_cell_chars: PositiveInt = 256
    max_total_bytes: PositiveSize = Field(default=size("32KB"))
    query_timeout: PositiveDuration = Field(default=duration("5s"))
    allowed_functions: Annotated[list[FunctionName], Field(min_length=1)] = Field(
        default_factory=lambda: list(DEFAULT_SQL_FUNCTIONS),
        description="SQL functions a query may call (upper-case names); anything else is rejected.",
    )
    masked_columns: list[Identifier] = Field(
        default_factory=lambda: list(DEFAULT_MASKED_COLUMNS),
        description="Column names (case-insensitive) whose values are masked in every result.",
    )


class TableAllowlist(Section):
    columns: Annotated[list[Identifier], Field(min_length=1)]


class SchemaAllowlist(Section):
    tables: Annotated[dict[Identifier, TableAllowlist], Field(min_length=1)]


class DataSourceSettings(Section):
    """One logical data source. The id (its key) is all the agent ever sees.

    ``driver: mysql`` connects with ``jdbc-url`` (``jdbc:mysql://host:port/db`` or ``jdbc:mariadb://…``) and a
    read-only account; ``driver: sqlite`` runs the same validated SQL, transpiled, on a SQLite file, or on the
    bundled demo ``order_db`` when ``sqlite-path`` is absent (embedded demo only).
    """

    driver: Literal["mysql", "sqlite"] = "mysql"
    jdbc_url: Secret | None = None
    username: Secret | None = None
    password: Secret | None = None
    sqlite_path: str | None = None
    pool_size: Annotated[int, Field(gt=0, le=64)] = 4
    default_schema: Identifier
    allowed_schemas: Annotated[dict[Identifier, SchemaAllowlist], Field(min_length=1)]

    @model_validator(mode="after")
    def _consistent(self) -> DataSourceSettings:
        if self.default_schema not in self.allowed_schemas:
            raise PydanticCustomError("default_schema", "default-schema must be one of allowed-schemas")
        if self.driver == "mysql" and (self.jdbc_url is None or self.sqlite_path is not None):
            raise PydanticCustomError("driver", "driver mysql needs jdbc-url (and no sqlite-path)")
        if self.driver == "sqlite" and self.jdbc_url is not None:
            raise PydanticCustomError("driver", "driver sqlite takes sqlite-path, not jdbc-url")
        return self


class MysqlToolSettings(Section):
    data_sources: dict[Identifier, DataSourceSettings] = Field(default_factory=dict)
