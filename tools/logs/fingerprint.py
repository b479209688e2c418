"""Stable log templates and severities, used by the projector to group repeated events into patterns.

``template(message)`` replaces the parts of a message that vary between repetitions of "the same" event
with placeholders, in this order of precedence:

- ``<TS>``   timestamps inside the message (``2026-07-21T02:11:05.123Z``, ``2026-07-21 02:11:05``, ``02:11:05``)
- ``<UUID>`` UUIDs
- ``<IP>``   IPv4 addresses, with an optional port
- ``<HEX>``  ``0x…`` numbers and hex runs of 16+ characters (trace ids, hashes)
- ``<DUR>``  durations: a number with a unit (``30000ms``, ``1.5s``, ``12 sec``, ``5min``, ``2h``)
- ``<ID>``   any other token of letters, digits, ``_`` and ``-`` that holds both a letter and a digit
             (``order-4711``, ``u-10023``, ``HikariPool-1``, ``RF202607210001``)
- ``<NUM>``  any remaining run of digits (``waiting=23`` -> ``waiting=<NUM>``)

and collapses whitespace. Messages differing only in such values share a template. ``parts(message)`` is the same
cut kept apart: the literal text between the values, each value and its placeholder, so a pattern can show which
values its events hold.

Three linear-time regex passes do it: the first five placeholders in one (where two could start at the same
place, the earlier in the list wins, and one starting further left wins over a later one it overlaps), then
``<ID>`` and ``<NUM>`` on what is left. What a placeholder may follow is read in the message as written, so a
value glued to the end of another (``02:11:058ms``: ``<TS><ID>``) is left to ``<ID>`` or ``<NUM>``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

_PLACEHOLDER = re.compile(
    # All five in one pass. Each starts with a digit or a hex letter, and the pattern consumes that character before
    # it tries any of them, which lets the regex engine skip every other character fast; so each alternative is the
    # rest of a placeholder, behind look-behinds over its first character and the one before it ((?<!\w.) is the \b
    # before it). Linear: an unbounded run (digits, hex) is entered only where it starts, never from inside it.
    r"[\da-fA-F](?:"
    # at the start of a word, in the order of the module docstring
    r"(?<!\w.)(?:"
    r"(?<=\d)(?P<TS>\d{3}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?"
    r"|\d:\d{2}:\d{2}(?:[.,]\d+)?)"
    r"|(?<=[0-9a-fA-F])(?P<UUID>[0-9a-fA-F]{7}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b)"
    r"|(?<=[0-9a-fA-F])(?P<HEX>(?<=0)x[0-9a-fA-F]+\b|[0-9a-fA-F]{15,}\b)"
    r"|(?<=\d)(?<!\.\d)(?P<DUR>\d*(?:\.\d+)?[ ]?(?:ms|us|µs|ns|s|sec|secs|seconds|min|mins|minutes|h)\b)"
    r")"
    # an IP may also follow a letter; no other placeholder matches where an IP does (none starts with digits, '.',
    # digits, '.'), so it is tried last
    r"|(?<=\d)(?<![\d.]\d)(?P<IP>\d{0,2}(?:\.\d{1,3}){3}(?::\d{1,5})?(?![\d.]))"
    r")"
)
_ID = re.compile(r"(?<![A-Za-z\d_-])(?=[\d_-]*+[A-Za-z])(?=[A-Za-z_-]*+\d)[A-Za-z\d_-]++")
"""A whole token of letters, digits, ``_`` and ``-`` holding a letter and a digit; it can start only where no
such character precedes, so each token is scanned once."""
_DIGITS = re.compile(r"\d+")

SEVERITY = {"FATAL": 6, "ERROR": 5, "WARN": 4, "INFO": 3, "DEBUG": 2, "TRACE": 1}
"""Rank of each level; an unknown level ranks 0, below TRACE."""
_LEVEL_ALIASES = {"WARNING": "WARN", "CRITICAL": "FATAL", "ERR": "ERROR", "SEVERE": "ERROR", "FINE": "DEBUG"}
_LEVEL = re.compile(r"^[A-Z]{1,12}$")


@dataclass(frozen=True)
class Parts:
    """A message cut at its varying values: ``literals[0] values[0] literals[1] … values[-1] literals[-1]`` is the
    message, ``kinds[i]`` the placeholder of ``values[i]`` (``DUR``, ``ID`` …)."""

    literals: tuple[str, ...]
    kinds: tuple[str, ...]
    values: tuple[str, ...]

    def render(self, slot: Callable[[int], str]) -> str:
        """The message with value ``i`` written as ``slot(i)``, whitespace collapsed."""
        text = self.literals[0] + "".join(slot(i) + literal for i, literal in enumerate(self.literals[1:]))
        return " ".join(text.split())

    @property
    def template(self) -> str:
        return self.render(lambda i: f"<{self.kinds[i]}>")


_Segment = str | tuple[str, str]


def _cut(segments: list[_Segment], pattern: re.Pattern[str], kind: str | None) -> list[_Segment]:
    """Each literal segment cut at the matches of ``pattern`` into (kind, value) pairs. A later pass reads only the
    literal text between the values, as the substituted text would show it: no placeholder holds a digit or a
    character a token may hold next to it, so neither a match nor a look-around crosses one."""
    cut: list[_Segment] = []
    for segment in segments:
        if not isinstance(segment, str):
            cut.append(segment)
            continue
        last = 0
        for match in pattern.finditer(segment):
            cut += [segment[last : match.start()], (kind or str(match.lastgroup), match.group())]
            last = match.end()
        cut.append(segment[last:])
    return cut


def parts(message: str) -> Parts:
    """``message`` cut at the values :func:`template` replaces (see the module docstring)."""
    segments = _cut(_cut(_cut([message], _PLACEHOLDER, None), _ID, "ID"), _DIGITS, "NUM")
    literals, kinds, values = [""], [], []
    for segment in segments:
        if isinstance(segment, str):
            literals[-1] += segment
        else:
            kinds.append(segment[0])
            values.append(segment[1])
            literals.append("")
    return Parts(tuple(literals), tuple(kinds), tuple(values))


def template(message: str) -> str:
    """``message`` with its varying parts replaced by placeholders (see the module docstring)."""
    return parts(message).template


def normalise_level(level: str) -> str:
    """The level in upper case with common aliases folded (``warning`` -> ``WARN``); ``UNKNOWN`` if odd."""
    upper = level.strip().upper()
    upper = _LEVEL_ALIASES.get(upper, upper)
    return upper if _LEVEL.match(upper) else "UNKNOWN"


def severity(level: str) -> int:
    return SEVERITY.get(level, 0)
