"""The root of the configuration: one frozen pydantic tree, read from YAML by :mod:`config.loader`.

YAML keys are kebab-case (``max-record-bytes``), as the specification writes them; the snake_case spelling
of a field (``max_record_bytes``) is accepted too. Every bound has a unit in its name or its type.
"""

from __future__ import annotations

import hashlib
import json

from pydantic import Field

from config.harness import HarnessSettings
from config.runtime import (
    AuditSettings,
    GatewaySettings,
    ModelSettings,
    RaySettings,
    RedisSettings,
    TelemetrySettings,
)
from config.tools import ToolsSettings
from config.types import Section


class AppConfig(Section):
    """The root of the configuration file."""

    # harness and tools are built when the first configuration is: their defaults come from the bundled kinds.
    harness: HarnessSettings = Field(default_factory=HarnessSettings)
    redis: RedisSettings = RedisSettings()
    tools: ToolsSettings = Field(default_factory=ToolsSettings)
    model: ModelSettings = ModelSettings()
    ray: RaySettings = RaySettings()
    gateway: GatewaySettings = GatewaySettings()
    audit: AuditSettings = Field(default_factory=AuditSettings)
    telemetry: TelemetrySettings = Field(default_factory=TelemetrySettings)

    def runtime_digest(self) -> str:
        """A short digest of what the actors are built from: everything but the gateway's own settings and how it
        reaches Ray (address, token). Secrets count by their ``${ENV}`` reference, not their value."""
        data = self.model_dump(mode="json", exclude={"gateway": True, "ray": {"address", "auth_token"}})
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]
