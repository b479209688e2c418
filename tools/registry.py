"""The evidence kinds a configuration offers: the bundled ones by name, and an operator's own by import path.

``tools.<name>.enabled: false`` leaves a tool out; ``tools.<name>.kind: "package.module:NAME"`` names an
``EvidenceKind`` that lives anywhere importable. A kind is offered only when its ``available(config)`` holds
(``query_mysql`` needs a data source).
"""

from __future__ import annotations

import importlib
from typing import Any

from config.app import AppConfig
from contract.kind import EvidenceKind
from contract.vocabulary import HarnessError
from tools.knowledge.kind import KIND as KNOWLEDGE
from tools.logs.kind import KIND as LOGS
from tools.metrics.kind import KIND as METRICS
from tools.mysql.kind import KIND as MYSQL

BUNDLED: dict[str, EvidenceKind] = {kind.name: kind for kind in (KNOWLEDGE, LOGS, METRICS, MYSQL)}
DEFAULT_CALLS_PER_TOOL: dict[str, int] = {
    name: kind.max_calls for name, kind in BUNDLED.items() if kind.max_calls is not None
}
"""The default ``harness.agent.max-tool-calls-per-tool``, as each bundled kind declares it. The limits were
calibrated from a real model on the demo question (issue 18), not from the offline model: each tool gets enough for
the way a real model asks it, and none alone may spend more than ~40% of max-tool-calls (32)."""


class KindNotFound(HarnessError):
    """A configured tool names no EvidenceKind that can be imported (or one with another name)."""

    code = "KIND_NOT_FOUND"


def configured_kinds(config: AppConfig) -> dict[str, EvidenceKind]:
    """The kinds this configuration offers, by tool name, in configuration order (bundled first)."""
    kinds: dict[str, EvidenceKind] = {}
    for name, runtime in config.tools.entries().items():
        if not runtime.enabled:
            continue
        kind = load_kind(runtime.kind) if runtime.kind else BUNDLED[name]
        if kind.name != name:
            raise KindNotFound(f"tools.{name}.kind names the kind {kind.name!r}; the key must be its name")
        if kind.available(config):
            kinds[name] = kind
    return kinds


def load_kind(path: str) -> EvidenceKind:
    """The ``EvidenceKind`` at ``package.module:NAME``."""
    module_name, _, attribute = path.partition(":")
    try:
        found: Any = getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as exc:
        raise KindNotFound(f"cannot import the evidence kind {path} ({type(exc).__name__})") from None
    if not isinstance(found, EvidenceKind):
        raise KindNotFound(f"{path} is not an EvidenceKind")
    return found
