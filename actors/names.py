"""Where actors live: one Ray namespace, readable names, found-or-created so many drivers share them."""

from __future__ import annotations

NAMESPACE = "superbiz"
CONTROL_SLOTS = 4
"""Extra Ray concurrency on a tool actor so cancel/stats calls are never stuck behind tool calls."""


def tool_actor_name(tool_name: str) -> str:
    return f"tool:{tool_name}"
