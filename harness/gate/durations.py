"""Durations a reader computes from the instants of one cited result: how long something lasted, how long after one
event the next came, how often a repeated event recurred.

Candidates, for evidence with records of ``r`` instants each and lists of ``n`` timestamped objects:

- the span between any two instants of one record (first_seen → last_seen, created_at → updated_at): ``r·(r−1)/2``
  per record;
- the gap between consecutive objects of one list, in time order, and the span from its first to its last:
  ``n`` per list;
- the period of a record's repeated event: its span divided by (count − 1) and by count: 2 per record with a count.

So the set grows linearly with the evidence, never with its square (any two instants of a 50-line log could ground
nearly every minute from 1 to 30). Instants of another day and instants without a time of day do not pair.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal
from itertools import combinations, pairwise
from typing import Any

from harness.gate.evidence import SCOPE_KEY, WINDOW_KEYS, Held
from harness.gate.moments import Moment, span_seconds
from harness.gate.tokens import tokenize

COUNT_KEYS = frozenset({"count", "occurrences", "times", "hits"})
"""Keys whose number counts a record's repeated event (a log pattern's ``count``)."""


def durations(found: Held) -> set[Decimal]:
    """Every candidate duration of ``found``, in seconds."""
    seconds: set[Decimal] = set()
    for record in found.records:
        instants = _instants(record)
        seconds |= {span_seconds(a, b) for a, b in combinations(instants, 2) if _pairs(a, b)}
        if len(instants) == 2 and _pairs(*instants):
            count = next((value for key, value in record.items() if key in COUNT_KEYS and _count(value)), None)
            if count is not None:
                span = span_seconds(*instants)
                seconds |= {span / (count - 1), span / count}
    for objects in found.collections:
        stamps = sorted(
            (first for record in objects if (first := next(iter(_instants(record)), None)) is not None),
            key=_sort_key,
        )
        stamps = [stamp for stamp in stamps if _pairs(stamp, stamps[0])]
        seconds |= {span_seconds(a, b) for a, b in pairwise(stamps)}
        if len(stamps) > 2:
            seconds.add(span_seconds(stamps[0], stamps[-1]))
    return {value for value in seconds if value > 0}


def _instants(record: Mapping[str, Any]) -> list[Moment]:
    """The instants a record's own text fields name, in order (not those of nested objects, and not the queried
    window: its length is no duration the source saw)."""
    values = (value for key, value in record.items() if key != SCOPE_KEY and key not in WINDOW_KEYS)
    return [moment.utc() for moment in _moments(values) if moment.has_time]


def _moments(values: Iterable[Any]) -> list[Moment]:
    return [moment for value in values if isinstance(value, str) for moment in tokenize(value).moments]


def _pairs(a: Moment, b: Moment) -> bool:
    """Two instants with a span: both with a date, or both times of one day."""
    return a.has_date == b.has_date


def _sort_key(moment: Moment) -> tuple[int, ...]:
    return (moment.year or 0, moment.month or 0, moment.day or 0, moment.seconds_of_day() or 0)


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 1
