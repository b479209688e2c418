"""``tools.query_logs``: which mock dataset the logs come from, beside the runtime settings every tool has."""

from __future__ import annotations

from pydantic import Field

from config.tools import ToolRuntime


class LogsToolSettings(ToolRuntime):
    """``query_logs``: a mock log dataset (JSONL), the bundled one when absent."""

    dataset: str | None = Field(default=None, description="Mock log dataset (JSONL); the bundled one when absent.")
