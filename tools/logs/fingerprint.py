"""Stable log templates and severities, used by the projector to group repeated events into patterns.

``template(message)`` replaces the parts of a message that vary between repetitions of "the same" event
with placeholders, in this order:

- ``<TS>``   timestamps inside the message (``2026-07-21T02:11:05.123Z``, ``2026-07-21 02:11:05``, ``02:11:05``)
- ``<UUID>`` UUIDs
- ``<IP>``   IPv4 addresses, with an optional port
- ``<HEX>``  ``0x…`` numbers and hex runs of 16+ characters (trace ids, hashes)
- ``<DUR>``  durations: a number with a unit (``30000ms``, ``1.5s``, ``12 sec``, ``5min``, ``2h``)
- ``<ID>``   any other token of letters, digits, ``_`` and ``-`` that holds both a letter and a digit
             (``order-4711``, ``u-10023``, ``HikariPool-1``, ``RF202607210001``)
- ``<NUM>``  any remaining run of digits (``waiting=23`` -> ``waiting=<NUM>``)

and collapses whitespace. Messages differing only in such values share a template.
"""

from __future__ import annotations

import re

_PLACEHOLDERS: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(
            r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?"
            r"|\b\d{2}:\d{2}:\d{2}(?:[.,]\d+)?"
        ),
        "<TS>",
    ),
    (re.compile(r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b"), "<UUID>"),
    (re.compile(r"(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?(?![\d.])"), "<IP>"),
    (re.compile(r"\b0x[0-9a-fA-F]+\b|\b[0-9a-fA-F]{16,}\b"), "<HEX>"),
    (
        re.compile(r"(?<![\w.])\d+(?:\.\d+)?[ ]?(?:ms|us|µs|ns|s|sec|secs|seconds|min|mins|minutes|h)\b"),
        "<DUR>",
    ),
)
_TOKEN = re.compile(r"[A-Za-z0-9_-]*\d[A-Za-z0-9_-]*")
"""A token holding a digit (tokens without one never change, so they never reach Python code)."""
_DIGITS = re.compile(r"\d+")
_SPACES = re.compile(r"\s+")

SEVERITY = {"FATAL": 6, "ERROR": 5, "WARN": 4, "INFO": 3, "DEBUG": 2, "TRACE": 1}
"""Rank of each level; an unknown level ranks 0, below TRACE."""
_LEVEL_ALIASES = {"WARNING": "WARN", "CRITICAL": "FATAL", "ERR": "ERROR", "SEVERE": "ERROR", "FINE": "DEBUG"}
_LEVEL = re.compile(r"^[A-Z]{1,12}$")


def _token(match: re.Match[str]) -> str:
    token = match.group()
    if any(char.isalpha() for char in token):
        return "<ID>"
    return _DIGITS.sub("<NUM>", token)


def template(message: str) -> str:
    """``message`` with its varying parts replaced by placeholders (see the module docstring)."""
    text = message
    for pattern, placeholder in _PLACEHOLDERS:
        text = pattern.sub(placeholder, text)
    text = _TOKEN.sub(_token, text)
    return _SPACES.sub(" ", text).strip()


def normalise_level(level: str) -> str:
    """The level in upper case with common aliases folded (``warning`` -> ``WARN``); ``UNKNOWN`` if odd."""
    upper = level.strip().upper()
    upper = _LEVEL_ALIASES.get(upper, upper)
    return upper if _LEVEL.match(upper) else "UNKNOWN"


def severity(level: str) -> int:
    return SEVERITY.get(level, 0)
