"""Durations a reader computes from the instants of one cited result: how long something lasted, how long after one
event the next came, how often a repeated event recurred.

The clause's filters (:mod:`harness.gate.tallies`) say which records it speaks of: the records holding all of its
filter words, wherever they are, or every record when none holds them all. Candidates, for those records:

- the span between any two instants of one record (first_seen → last_seen, created_at → updated_at):
  ``r·(r−1)/2`` for a record of ``r`` instants;
- the period of a record's repeated event: its span divided by (count − 1) and by count: 2 per record with a count;
- in each list of timestamped records, of the named ones: the gaps between neighbours in time order and the span
  from the first to the last: ``n`` for ``n`` records.

So the set grows linearly with the evidence, never with its square (any two instants of a 50-line log could ground
nearly every minute from 1 to 30). Instants of another day and instants without a time of day do not pair.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from decimal import Decimal
from itertools import combinations, pairwise

from harness.gate.evidence import Held
from harness.gate.moments import Moment, span_seconds
from harness.gate.records import Record, as_decimal, holds, instants

COUNT_KEYS = frozenset({"count", "occurrences", "times", "hits"})
"""Keys whose number counts a record's repeated event (a log pattern's ``count``)."""


def durations(found: Held, filters: Sequence[str]) -> list[set[Decimal]]:
    """The candidate durations of ``found`` for a clause naming ``filters``, in seconds: one set for the spans and
    periods of single records, one for the gaps of each list (each is judged specific on its own, as a result's
    own figures: the gaps of one busy log are no reason to doubt the span of another record)."""
    named = _naming(found.records, filters)
    spans: set[Decimal] = set()
    for record in filter(named, found.records):
        moments = instants(record)
        spans |= {span_seconds(a, b) for a, b in combinations(moments, 2) if _pairs(a, b)}
        count = next((number for key in COUNT_KEYS if (number := as_decimal(record.get(key))) is not None), None)
        if len(moments) == 2 and _pairs(*moments) and count is not None and count > 1:
            span = span_seconds(*moments)
            spans |= {span / (count - 1), span / count}
    groups = [spans]
    for records in found.collections:
        stamps = sorted((first[0] for record in filter(named, records) if (first := instants(record))), key=_order)
        stamps = [stamp for stamp in stamps if _pairs(stamp, stamps[0])]
        gaps = {span_seconds(a, b) for a, b in pairwise(stamps)}
        groups.append(gaps | ({span_seconds(stamps[0], stamps[-1])} if len(stamps) > 2 else set()))
    return [{value for value in group if value > 0} for group in groups]


def _naming(records: list[Record], filters: Sequence[str]) -> Callable[[Record], bool]:
    """Which records the clause speaks of: those holding every filter word, or all when no record holds them all."""
    if not any(all(holds(record, name) for name in filters) for record in records):
        return lambda record: True
    return lambda record: all(holds(record, name) for name in filters)


def _pairs(a: Moment, b: Moment) -> bool:
    """Two instants with a span: both with a date, or both times of one day."""
    return a.has_date == b.has_date


def _order(moment: Moment) -> tuple[int, ...]:
    return (moment.year or 0, moment.month or 0, moment.day or 0, moment.seconds_of_day() or 0)
