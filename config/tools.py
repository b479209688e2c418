"""The tools' sections (``tools.<name>``): each bundled tool's validated by the settings model its ``EvidenceKind``
declares, an operator's own tool's by :class:`ToolRuntime` with its ``kind`` import path.

The bundled kinds are listed in ``tools.registry``. tools/ builds on config/, so config/ imports neither it nor
``contract.kind``: :func:`bundled_kinds` imports the registry by name when a configuration is first validated, and
reads each kind through :class:`DeclaredTool`, the part of an ``EvidenceKind`` that configuration needs.
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Mapping
from typing import Annotated, Any, Protocol

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, create_model, model_validator
from pydantic_core import PydanticCustomError

from config.types import KIND_PATH, RayResources, Section, not_bool


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
