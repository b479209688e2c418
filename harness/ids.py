"""The identifiers that cross a boundary, and the one way to check them: the whole text must match.

``re.match(r"^…$")`` accepts ``"x\\n"`` (``$`` also matches before a final newline), so every check here is a
``fullmatch``: a trailing newline, ``\\r\\n``, a space or U+2028 makes an id invalid, never a different id.
"""

from __future__ import annotations

import re
from typing import Any

TOOL_CALL_ID = re.compile(r"[A-Za-z0-9_.\-]{1,128}")
"""The model's tool call id, which the Harness keeps as it is (§5.3)."""
RUN_ID = re.compile(r"[A-Za-z0-9_\-]{1,64}")
TOOL_NAME = re.compile(r"[a-z][a-z0-9_]{0,63}")
ANALYSIS_ID = re.compile(r"[A-Za-z0-9_\-]{1,32}")


def is_tool_call_id(value: Any) -> bool:
    return isinstance(value, str) and TOOL_CALL_ID.fullmatch(value) is not None


def is_run_id(value: Any) -> bool:
    return isinstance(value, str) and RUN_ID.fullmatch(value) is not None


def is_tool_name(value: Any) -> bool:
    return isinstance(value, str) and TOOL_NAME.fullmatch(value) is not None


def is_analysis_id(value: Any) -> bool:
    return isinstance(value, str) and ANALYSIS_ID.fullmatch(value) is not None
