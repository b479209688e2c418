"""Counts, sums and shares a reader makes by counting what a cited result shows.

A collection is a list of records of one result (its rows, events or samples) or the entries of one cited call (one
per log pattern, one per series). A filter is a word the claim's own clause names (``UPDATE``, ``TIMEOUT``,
``order-service``, a status code ``500``): a record matches it when one of its fields holds that word
(:func:`harness.gate.records.named_parts`).

Candidates, for a collection of ``n`` records with ``f`` named numbers and a clause naming ``w`` filters (so at most
``w + 1`` named parts):

- counts: ``n``, and the number of records of each named part: ``w + 2``;
- totals: the sum of each counted field over all records: ``f``; and, for a number written as a total (共, 合计,
  in total), over each named part: ``f·(w + 1)`` (``payment-service … 三十多次`` is no subtotal of every
  payment-service line);
- shares (a percentage or a ratio): each part's count over ``n`` and each part's sum over the whole sum:
  ``(1 + f)·(w + 1)``. A share of a record the clause does not name is no candidate: with a cell share of every
  row, forty rows would ground nearly every percentage.

Every candidate still has to be specific (:mod:`harness.gate.specificity`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from harness.gate.records import Record, fields, named_parts


@dataclass(frozen=True)
class Tally:
    """What one collection gives: counts, whole totals and the subtotals of named parts (in the records' own
    units), and shares (fractions)."""

    counts: set[Decimal]
    totals: set[Decimal]
    subtotals: set[Decimal]
    shares: set[Decimal]


def tally(records: list[Record], filters: Iterable[str]) -> Tally:
    """What ``records`` give a clause naming ``filters``. Only counted fields are summed: a field of the record
    itself (not a ``name=value`` inside a text, such as ``attempt=2``), without a unit (seconds, bytes are no
    count) and never negative (a change has no whole to share)."""
    whole = Decimal(len(records))
    names = list(dict.fromkeys(name for record in records for name in fields(record, texts=False)))
    sums = {name: _sum(records, name) for name in names if _counted(records, name)}
    counts, totals, subtotals, shares = {whole}, set(sums.values()), set(), set()
    for part in named_parts(records, filters):
        count = Decimal(len(part))
        counts.add(count)
        shares.add(count / whole)
        for name, column in sums.items():
            subtotal = _sum(part, name)
            subtotals.add(subtotal)
            if column:
                shares.add(subtotal / column)
    return Tally(counts, totals, subtotals, shares)


def _counted(records: list[Record], name: str) -> bool:
    numbers = [number for record in records if (number := fields(record, texts=False).get(name)) is not None]
    return all(number.unit is None and number.value >= 0 for number in numbers)


def _sum(records: list[Record], name: str) -> Decimal:
    values = (number.value for record in records if (number := fields(record, texts=False).get(name)) is not None)
    return sum(values, Decimal(0))
