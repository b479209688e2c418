"""The tools' settings: each tool's ``tools.<name>`` section, validated by the model its ``EvidenceKind``
declares, and the bounds of the bundled tools' calls and projections (``harness.rag``, ``.logs``, ``.metrics``,
``.mysql``, and the MySQL data sources, ``harness.mysql-tools``).

The bundled kinds are listed in ``tools.registry``. tools/ builds on config/, so config/ imports neither it nor
``contract.kind``: :func:`bundled_kinds` imports the registry by name when a configuration is first validated, and
reads each kind through :class:`DeclaredTool`, the part of an ``EvidenceKind`` that configuration needs.
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Mapping
from typing import Annotated, Any, Literal, Protocol

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, create_model, model_validator
from pydantic_core import PydanticCustomError

from config.env_refs import Secret
from config.types import (
    KIND_PATH,
    FunctionName,
    Identifier,
    PositiveDuration,
    PositiveInt,
    PositiveSize,
    RayResources,
    Section,
    not_bool,
)
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


class ToolRuntime(Section):
    """One evidence tool: whether it is offered, which kind it is, and how many of its calls run at once (across
    the whole cluster) and may wait."""

    enabled: bool = Field(default=True, description="Offer this tool to the agent (false: not offered, no actor).")
    kind: Annotated[str, Field(pattern=KIND_PATH)] | None = Field(
        default=None,
        description='An operator\'s own tool: the import path of its EvidenceKind, "package.module:NAME". '
        "The bundled tools need none.",
    )
    options: dict[str, Any] = Field(
        default_factory=dict, description="An operator's tool's own settings, read by its kind's builder."
    )
    concurrency: Annotated[int, BeforeValidator(not_bool), Field(gt=0, le=256)] = 2
    max_pending: Annotated[int, BeforeValidator(not_bool), Field(ge=0, le=10000)] = 8
    resources: RayResources = Field(
        default_factory=dict,
        description="Ray custom resources the tool's actor needs, e.g. {mysql_access: 0.01}: it is placed only on "
        "nodes started with that resource (ray start --resources='{\"mysql_access\": 1}').",
    )


class ToolsSettings(Section):
    """Per-tool settings, keyed by tool name: one section per bundled kind, validated by the settings model the
    kind declares (the kind's default section when the file writes none), and any other name for an operator's
    own tool (``kind`` required)."""

    model_config = ConfigDict(**{**Section.model_config, "extra": "allow"})

    @model_validator(mode="before")
    @classmethod
    def _bundled_by_kind(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        bundled = dict(_bundled_sections().model_validate(data))
        return {**bundled, **{name: value for name, value in data.items() if name not in bundled}}

    @model_validator(mode="after")
    def _operator_tools(self) -> ToolsSettings:
        extra = self.__pydantic_extra__ or {}
        bundled = bundled_kinds()
        for name, value in list(extra.items()):
            if name in bundled:
                continue
            if not re.fullmatch(r"[a-z][a-z0-9_]{0,63}", name):
                raise PydanticCustomError("tool_name", "{name} is not a tool name ([a-z][a-z0-9_]*)", {"name": name})
            runtime = value if isinstance(value, ToolRuntime) else ToolRuntime.model_validate(value)
            if runtime.kind is None:
                message = "tool {name} needs kind: an EvidenceKind's import path, package.module:NAME"
                raise PydanticCustomError("tool_kind", message, {"name": name})
            extra[name] = runtime
        return self

    def entries(self) -> dict[str, ToolRuntime]:
        """Every configured tool by name, bundled first."""
        return dict(self.__pydantic_extra__ or {})


class DeclaredTool(Protocol):
    """What a tool's ``EvidenceKind`` (``contract/kind.py``) declares of its configuration."""

    @property
    def settings(self) -> type[BaseModel] | None:
        """The model of its ``tools.<name>`` section; None: :class:`ToolRuntime`."""

    @property
    def default_settings(self) -> Mapping[str, Any]:
        """Its ``tools.<name>`` section when the file writes none."""

    @property
    def max_calls(self) -> int | None:
        """Its default ``harness.agent.max-tool-calls-per-tool`` entry."""


BUNDLED_KINDS_MODULE = "tools.registry"
"""The module whose ``BUNDLED`` maps each bundled tool's name to its kind, and whose ``DEFAULT_CALLS_PER_TOOL``
holds their call limits."""


@functools.cache
def _registry() -> Any:
    return importlib.import_module(BUNDLED_KINDS_MODULE)


def bundled_kinds() -> Mapping[str, DeclaredTool]:
    """The bundled evidence kinds by tool name."""
    kinds: Mapping[str, DeclaredTool] = _registry().BUNDLED
    return kinds


def default_calls_per_tool() -> dict[str, int]:
    """The default ``harness.agent.max-tool-calls-per-tool``: each bundled kind's ``max_calls``."""
    return dict(_registry().DEFAULT_CALLS_PER_TOOL)


def _default_section(kind: DeclaredTool) -> BaseModel:
    return (kind.settings or ToolRuntime).model_validate(kind.default_settings)


@functools.cache
def _bundled_sections() -> type[BaseModel]:
    """One field per bundled kind, typed by its settings model (``ToolRuntime`` when it declares none)."""
    fields: dict[str, Any] = {
        name: (kind.settings or ToolRuntime, Field(default_factory=functools.partial(_default_section, kind)))
        for name, kind in bundled_kinds().items()
    }
    return create_model("BundledToolSections", __config__=ConfigDict(extra="ignore", frozen=True), **fields)
