"""JSON in and out of the offline model: the object a role is handed, and replies stable to the byte."""

from __future__ import annotations

import json
import re
from typing import Any

_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)


def json_object(text: str | None) -> dict[str, Any] | None:
    """The JSON object in ``text`` (optionally in a ```json fence), or None."""
    if not text:
        return None
    fenced = _FENCE.match(text)
    try:
        data = json.loads(fenced.group(1) if fenced else text)
    except (json.JSONDecodeError, TypeError):
        return None
    return data if isinstance(data, dict) else None


def dumps(data: Any) -> str:
    """Stable JSON (same input, same bytes): the offline model's replies are compared byte for byte."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
