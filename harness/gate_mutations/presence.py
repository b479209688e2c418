"""Whether a token occurs in the cited evidence: the one rule that labels a mutation (written for people, not
taken from the gate, so that it measures the gate instead of following it).

The evidence of a token is the full agent_result of every call its text cites (an analysis item's own calls; for
the conclusion, those of every item) and the question. From it:

* **words**: every run of letters, digits and ``_`` joined by ``-``, ``.`` or ``:`` (``order-123``,
  ``order-service:8080``), each also split at ``.`` and ``:``, compared without case, plus every JSON key;
* **numbers**: every JSON number (with the unit its key names: ``…_ms``, ``…_seconds``, ``…_minutes``) and
  every number written in a text that is not part of a time, date or identifier, with the unit written right
  after it (``30007ms``, ``rt=30.004s``); times are compared in seconds, a number without unit matches any unit;
* **instants**: every ISO or SQL timestamp of a text.

A new token is *present* when:

======  ============================================================================================================
id      it is one of the words; a compound (``biz_order.status``) when each of its parts is
status  it is one of the words
time    an instant of the evidence is the same to the precision the notation shows (the second, the minute, the day)
number  an evidence number is equal to it — within half a unit of its last digit when it is approximate (约) or
        derived — or a derivation on evidence values gives it: a sum of the values of one field across records
        (any number); a duration between two instants or two durations (a number with a time unit); a share of
        two numbers (a percentage); a Chinese approximate numeral (四十多) when an evidence number lies in the
        interval it names
======  ============================================================================================================

Anything else is *absent*: a gate that reads the evidence must refuse it.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

_WORD = re.compile(r"[A-Za-z0-9_]+(?:[-.:][A-Za-z0-9_]+)*")
_STAMP = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})?")
_NUMBER = re.compile(r"(?<![\w.\-/:@])(\d+(?:\.\d+)?)\s?(ms|s|min|h|%)?(?![\w.\-:]\w)")
_IP_OR_VERSION = re.compile(r"\d+(?:\.\d+){2,}")
SECONDS = {
    "ms": Decimal("0.001"), "毫秒": Decimal("0.001"), "s": Decimal(1), "秒": Decimal(1), "seconds": Decimal(1),
    "second": Decimal(1), "min": Decimal(60), "分钟": Decimal(60), "minute": Decimal(60), "minutes": Decimal(60),
    "h": Decimal(3600), "小时": Decimal(3600), "hour": Decimal(3600), "hours": Decimal(3600),
}  # fmt: skip
"""Time units a token or an evidence number may carry, in seconds."""
_KEY_UNITS = {"_ms": "ms", "_seconds": "s", "_minutes": "min"}
MAX_SUM_TERMS = 12


@dataclass(frozen=True)
class Quantity:
    value: Decimal
    unit: str | None
    """A time unit of :data:`SECONDS`, ``%`` or None."""

    def seconds(self) -> Decimal | None:
        return self.value * SECONDS[self.unit] if self.unit in SECONDS else None


@dataclass
class Evidence:
    """The words, numbers and instants of some agent_results and a question."""

    words: set[str] = field(default_factory=set)
    numbers: list[Quantity] = field(default_factory=list)
    instants: list[datetime] = field(default_factory=list)
    columns: list[list[Decimal]] = field(default_factory=list)
    """The numbers of one field across the records of a list (summed by a derivation)."""

    @functools.cached_property
    def durations(self) -> set[Decimal]:
        """Seconds between any two instants, and between any two time quantities."""
        stamps = sorted(set(self.instants))
        spans = {abs(Decimal(str((b - a).total_seconds()))) for a, b in itertools.combinations(stamps, 2)}
        times = sorted({s for q in self.numbers if (s := q.seconds()) is not None})
        return spans | {abs(b - a) for a, b in itertools.combinations(times, 2)}

    @functools.cached_property
    def shares(self) -> set[Decimal]:
        plain = sorted({q.value for q in self.numbers if q.unit is None and q.value > 0})
        found = set()
        for a, b in itertools.combinations(plain, 2):
            found.add(a * 100 / b)
            found.add(a * 100 / (a + b))
            found.add(b * 100 / (a + b))
        return found

    @functools.cached_property
    def sums(self) -> set[Decimal]:
        found: set[Decimal] = set()
        for column in self.columns:
            terms = column[:MAX_SUM_TERMS]
            for size in range(2, len(terms) + 1):
                found.update(sum(chosen, Decimal(0)) for chosen in itertools.combinations(terms, size))
        return found


def evidence_of(results: Iterable[Mapping[str, Any]], question: str) -> Evidence:
    found = Evidence()
    for result in results:
        _read(result, None, found)
    _read_text(question, found)
    return found


def _read(value: Any, key: str | None, found: Evidence) -> None:
    if isinstance(value, Mapping):
        for name, item in value.items():
            found.words.add(str(name).lower())
            _read(item, str(name), found)
    elif isinstance(value, list | tuple):
        records = [item for item in value if isinstance(item, Mapping)]
        for name in {name for record in records for name in record}:
            column = [_decimal(record.get(name)) for record in records]
            numbers = [number for number in column if number is not None]
            if len(numbers) >= 2:
                found.columns.append(numbers)
        for item in value:
            _read(item, key, found)
    elif isinstance(value, str):
        _read_text(value, found)
    elif isinstance(value, bool) or value is None:
        found.words.add(str(value).lower())
    elif isinstance(value, int | float):
        number = _decimal(value)
        if number is not None:
            unit = next((unit for suffix, unit in _KEY_UNITS.items() if (key or "").endswith(suffix)), None)
            found.numbers.append(Quantity(number, unit))


def _read_text(text: str, found: Evidence) -> None:
    for stamp in _STAMP.findall(text):
        found.instants.append(_instant(stamp))
    rest = _IP_OR_VERSION.sub(" ", _STAMP.sub(" ", text))
    for word in _WORD.findall(text):
        lowered = word.lower()
        found.words.add(lowered)
        found.words.update(re.split(r"[.:]", lowered))
    for number, unit in _NUMBER.findall(rest):
        found.numbers.append(Quantity(Decimal(number), unit or None))


def _instant(stamp: str) -> datetime:
    moment = datetime.fromisoformat(stamp.replace("Z", "+00:00").replace(" ", "T"))
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _decimal(value: Any) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        return None
    return number if number.is_finite() else None


# -- the rule ---------------------------------------------------------------------------------------------


def word_present(word: str, evidence: Evidence) -> bool:
    lowered = word.lower()
    if "." in lowered and " " not in lowered:
        return all(part in evidence.words for part in lowered.split("."))
    return lowered in evidence.words


def instant_present(moment: datetime, precision_s: int, evidence: Evidence) -> bool:
    def cut(t: datetime) -> int:
        return int(t.timestamp()) // precision_s

    return any(cut(t) == cut(moment) for t in evidence.instants)


def number_present(
    value: Decimal, unit: str, evidence: Evidence, *, tolerance: Decimal, derived: str | None = None
) -> bool:
    """``value unit`` against the evidence numbers and what they derive (``derived`` says how the original was
    made; the derivations apply to every number, so that no reachable value is labelled absent)."""
    token = Quantity(value, unit if unit in SECONDS or unit == "%" else None)
    seconds = token.seconds()
    for number in evidence.numbers:
        other = number.seconds()
        if seconds is not None and other is not None:
            if abs(other - seconds) <= tolerance * SECONDS[unit]:
                return True
        elif abs(number.value - value) <= tolerance:
            return True
    if any(abs(total - value) <= tolerance for total in evidence.sums):
        return True
    if seconds is not None:
        return any(abs(span - seconds) <= tolerance * SECONDS[unit] for span in evidence.durations)
    if unit == "%":
        return any(abs(share - value) <= tolerance for share in evidence.shares)
    return False


def interval_present(low: int, high: int, evidence: Evidence) -> bool:
    return any(low <= number.value <= high for number in evidence.numbers if number.unit is None)


def tolerance_of(number: str, meta: Mapping[str, Any]) -> Decimal:
    """Half a unit of the last digit shown for an approximate or derived number; 0 for a value quoted exactly."""
    if not (meta.get("approx") or meta.get("derived")):
        return Decimal(0)
    places = len(number.partition(".")[2])
    return Decimal(5).scaleb(-places - 1)


def dump(evidence: Evidence) -> str:
    """A short description, for a failing test."""
    return json.dumps({"words": len(evidence.words), "numbers": len(evidence.numbers)})
