"""Sizes and durations written with their unit, as the YAML files spell them (``64KB``, ``2h``)."""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import BeforeValidator, PlainSerializer

_SIZE_FACTORS = {"B": 1, "KB": 1024, "MB": 1024**2, "GB": 1024**3}
_DURATION_FACTORS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}
_QUANTITY = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([A-Za-z]+)\s*$")


def parse_bytes(value: Any) -> int:
    """``1MB`` -> 1048576. A bare integer is a number of bytes. Binary multiples, as Spring's DataSize."""
    if isinstance(value, bool):
        raise ValueError("expected a size such as 512B, 64KB or 1MB")
    if isinstance(value, int):
        return value
    match = _QUANTITY.match(value) if isinstance(value, str) else None
    if match is None or match.group(2).upper() not in _SIZE_FACTORS:
        raise ValueError("expected a size such as 512B, 64KB or 1MB")
    number = float(match.group(1)) * _SIZE_FACTORS[match.group(2).upper()]
    if number != int(number):
        raise ValueError("a size must be a whole number of bytes")
    return int(number)


def parse_duration(value: Any) -> float:
    """``2h`` -> 7200.0 seconds. The unit is required: a bare number is ambiguous."""
    match = _QUANTITY.match(value) if isinstance(value, str) else None
    if match is None or match.group(2) not in _DURATION_FACTORS:
        raise ValueError("expected a duration with its unit, such as 500ms, 30s, 5m or 2h")
    return float(match.group(1)) * _DURATION_FACTORS[match.group(2)]


def size(text: str) -> int:
    """A default written as the file would write it: ``size("64KB")`` -> 65536."""
    return parse_bytes(text)


def duration(text: str) -> float:
    """A default written as the file would write it: ``duration("2h")`` -> 7200.0."""
    return parse_duration(text)


def format_bytes(size: int) -> str:
    for unit in ("GB", "MB", "KB"):
        factor = _SIZE_FACTORS[unit]
        if size >= factor and size % factor == 0:
            return f"{size // factor}{unit}"
    return f"{size}B"


def format_duration(seconds: float) -> str:
    for unit in ("d", "h", "m", "s"):
        factor = _DURATION_FACTORS[unit]
        if seconds >= factor and seconds % factor == 0:
            return f"{int(seconds // factor)}{unit}"
    milliseconds = seconds * 1000
    if milliseconds == int(milliseconds):
        return f"{int(milliseconds)}ms"
    return f"{seconds}s"


ByteSize = Annotated[int, BeforeValidator(parse_bytes), PlainSerializer(format_bytes, return_type=str)]
"""A number of bytes, written ``64KB`` in YAML."""

Duration = Annotated[float, BeforeValidator(parse_duration), PlainSerializer(format_duration, return_type=str)]
"""A number of seconds, written ``30s`` in YAML."""
