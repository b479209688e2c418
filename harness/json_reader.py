"""The one JSON reader for what a model writes: its replies (router, draft, knowledge answer, plan, verdict) and
its tool-call arguments. Bounded before anything is parsed.

``json.loads`` of text nested a few thousand levels deep raises ``RecursionError`` (so would pydantic and
``json.dumps`` of the result), and a reply can be arbitrarily large. Here the size is checked first, then the
nesting depth by one linear scan of the text (brackets inside strings not counted), and only then is it parsed. Every
refusal is a ``JsonRejected`` with a stable ``reason``; nothing else escapes:

=====================================  =============
more than ``max_bytes`` of UTF-8        TOO_LARGE
objects/arrays nested deeper than       TOO_DEEP
``max_depth``
not one JSON value (or NaN/Infinity)    INVALID
=====================================  =============

A reply may wrap its JSON in one Markdown fence (```json … ```); ``strip_fence`` removes it without a regular
expression, so no input makes it slow.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from contract.vocabulary import HarnessError

MAX_DEPTH = 32
"""Deeper than any reply or argument the Harness asks for (a draft is 4 levels deep)."""
MODEL_OUTPUT_MAX_BYTES = 256 * 1024
"""A draft at its schema's limits is well under this."""
TOOL_ARGUMENTS_MAX_BYTES = 32 * 1024
"""A tool's arguments (a query, a topic, one SQL statement and its parameters) are a few hundred bytes."""

_SPECIAL = re.compile(r'[\[\]{}"\\]')


class JsonRejected(HarnessError):
    """The text is not a bounded JSON value; ``reason`` is TOO_LARGE, TOO_DEEP or INVALID."""

    code = "JSON_REJECTED"

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


@dataclass(frozen=True)
class JsonLimits:
    max_bytes: int
    max_depth: int = MAX_DEPTH


MODEL_OUTPUT = JsonLimits(MODEL_OUTPUT_MAX_BYTES)
TOOL_ARGUMENTS = JsonLimits(TOOL_ARGUMENTS_MAX_BYTES)


def strip_fence(text: str) -> str:
    """``text`` without surrounding whitespace and one surrounding ```/```json fence, if it has one."""
    body = text.strip()
    if len(body) >= 6 and body.startswith("```") and body.endswith("```"):
        inner = body[3:-3]
        if inner[:4].lower() == "json":
            inner = inner[4:]
        return inner.strip()
    return body


def read_json(text: str, limits: JsonLimits, *, unique_keys: bool = False) -> Any:
    """The JSON value of ``text`` (a surrounding fence allowed), within ``limits``; else ``JsonRejected``.
    ``unique_keys``: an object that names a key twice is INVALID (a verdict must not say two things)."""
    if not isinstance(text, str):
        raise JsonRejected("INVALID", "expected JSON text")
    if len(text) > limits.max_bytes or len(text.encode("utf-8", "surrogatepass")) > limits.max_bytes:
        raise JsonRejected("TOO_LARGE", f"larger than {limits.max_bytes // 1024} KB")
    body = strip_fence(text)
    if nesting_depth(body, limits.max_depth) > limits.max_depth:
        raise JsonRejected("TOO_DEEP", f"nested deeper than {limits.max_depth} levels")
    try:
        return json.loads(body, parse_constant=_no_constant, object_pairs_hook=_unique if unique_keys else None)
    except (ValueError, RecursionError):  # JSONDecodeError is a ValueError, as is NaN/Infinity
        raise JsonRejected("INVALID", "not valid JSON") from None


def nesting_depth(text: str, stop_above: int | None = None) -> int:
    """How deeply ``[``/``{`` nest in ``text``, brackets inside strings not counted (the scan stops as soon as
    the depth exceeds ``stop_above``).

    One pass over the structural characters only (a regular expression for whole strings backtracks
    quadratically on an unterminated string full of escaped quotes).
    """
    depth = deepest = 0
    in_string = False
    escaped = -1
    for match in _SPECIAL.finditer(text):
        char, position = match.group(), match.start()
        if in_string:
            if position == escaped:
                continue
            if char == "\\":
                escaped = position + 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if stop_above is not None and deepest > stop_above:
                break
        elif char in "]}":
            depth -= 1
    return deepest


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) != len(pairs):
        raise ValueError("duplicate key")
    return data


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")
