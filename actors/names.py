"""Where actors live: one Ray namespace, readable names, found-or-created so many drivers share them."""

from __future__ import annotations

import zlib

CONTROL_SLOTS = 4
"""Extra Ray concurrency on a tool actor so cancel/stats calls are never stuck behind tool calls."""


def tool_actor_name(tool_name: str) -> str:
    return f"tool:{tool_name}"


def supervisor_name(index: int) -> str:
    return f"supervisor:{index}"


def agent_name(index: int) -> str:
    return f"agent:{index}"


def guard_name(index: int) -> str:
    return f"guard:{index}"


def pick(key: str, size: int, offset: int = 0) -> int:
    """A stable pool slot for ``key`` (the same run always reaches the same agent; retries move on)."""
    return (zlib.crc32(key.encode()) + offset) % size
