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
        return self._joined([slot(i) for i in range(len(self.values))])

    @property
    def template(self) -> str:
        return self._joined([f"<{kind}>" for kind in self.kinds])

    def _joined(self, slots: list[str]) -> str:
        pieces = [self.literals[0]]
        for slot, literal in zip(slots, self.literals[1:], strict=True):
            pieces += (slot, literal)
        return " ".join("".join(pieces).split())


Split = Callable[[str], tuple[list[str], list[str]]]
"""A literal -> (literals and values alternating, as ``re.split`` with one group gives them; each value's kind)."""


def _cut(cut: Parts, split: Split) -> Parts:
    """``cut`` with each literal split into literals and new values. A later pass reads only the literal text
    between the values, as the substituted text would show it: no placeholder holds a digit or a character a
    token may hold next to it, so neither a match nor a look-around crosses one."""
    literals: list[str] = []
    kinds: list[str] = []
    values: list[str] = []
    for index, literal in enumerate(cut.literals):
        pieces, found = split(literal)
        literals += pieces[::2]
        kinds += found
        values += pieces[1::2]
        if index < len(cut.values):
            kinds.append(cut.kinds[index])
            values.append(cut.values[index])
    return Parts(tuple(literals), tuple(kinds), tuple(values))


def _placeholders(literal: str) -> tuple[list[str], list[str]]:
    pieces, kinds, last = [], [], 0
    for match in _PLACEHOLDER.finditer(literal):
        pieces += (literal[last : match.start()], match.group())
        kinds.append(str(match.lastgroup))
        last = match.end()
    return [*pieces, literal[last:]], kinds


def _splitter(pattern: re.Pattern[str], kind: str) -> Split:
    grouped = re.compile(f"({pattern.pattern})")

    def split(literal: str) -> tuple[list[str], list[str]]:
        pieces = grouped.split(literal)
        return pieces, [kind] * (len(pieces) // 2)

    return split


_SPLIT_ID, _SPLIT_NUM = _splitter(_ID, "ID"), _splitter(_DIGITS, "NUM")


def parts(message: str) -> Parts:
    """``message`` cut at the values :func:`template` replaces (see the module docstring)."""
    return _cut(_cut(_cut(Parts((message,), (), ()), _placeholders), _SPLIT_ID), _SPLIT_NUM)


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
