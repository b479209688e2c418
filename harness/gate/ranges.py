"""Ranges that summarise several cited values: "耗时 21～28 秒" for Query_time 21.546 s … 28.419 s.

A range ``A～B unit`` (also ``A-B``, ``A 至 B``, ``A to B``) holds when A is the smallest and B the largest of one
named number (a column, a ``Query_time=`` field, a metric's min and max), each rounded down, up or to the nearest
at the precision written, over one list of records or over the part of it the clause names
(:func:`harness.gate.records.named_parts`). Candidates: one (smallest, largest) pair per named number per list and
named part, so ``f·(w + 2)`` per list of ``f`` named numbers for a clause of ``w`` filters, and one per record that
states both a ``min`` and a ``max``. The ends are judged together: two cited values that happen to round to A and
to B do not make a range.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Sequence
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_UP, Decimal

from harness.gate.derivation import convert
from harness.gate.evidence import Held
from harness.gate.records import fields, named_parts
from harness.gate.specificity import precision_step
from harness.gate.tokens import Number, Tokens

_JOIN = re.compile(r"^[ \t]*(?:～|~|〜|-|–|—|至|到|to)[ \t]*$", re.IGNORECASE)


def ranges(tokens: Tokens) -> list[tuple[Number, Number]]:
    """The ranges of ``tokens``: (low, high) pairs of numbers, both in the unit written after the high end."""
    found: list[tuple[Number, Number]] = []
    numbers = sorted(tokens.numbers, key=lambda number: number.at)
    for low, high in itertools.pairwise(numbers):
        between = tokens.text[low.at + len(low.written) : high.at]
        if low.unit is None and high.unit is not None and _JOIN.match(between):
            found.append((dataclasses.replace(low, unit=high.unit), high))
    return found


def summarises(low: Number, high: Number, found: Held, filters: Sequence[str]) -> bool:
    """``low～high`` rounds the smallest and the largest of one named number of ``found``."""
    return any(
        low.value in _roundings(smallest, low.value) and high.value in _roundings(largest, high.value)
        for smallest, largest in _extremes(found, filters, high.unit)
    )


def _extremes(found: Held, filters: Sequence[str], unit: str | None) -> set[tuple[Decimal, Decimal]]:
    pairs: set[tuple[Decimal, Decimal]] = set()
    for records in found.collections:
        for part in (records, *named_parts(records, filters)):
            values: dict[str, list[Decimal]] = {}
            for record in part:
                for name, number in fields(record).items():
                    if (value := convert(number, unit)) is not None:
                        values.setdefault(name, []).append(value)
            pairs |= {(min(series), max(series)) for series in values.values() if len(series) > 1}
    for record in found.records:
        figures = fields(record)
        if "min" in figures and "max" in figures:
            smallest, largest = convert(figures["min"], unit), convert(figures["max"], unit)
            if smallest is not None and largest is not None:
                pairs.add((smallest, largest))
    return pairs


def _roundings(value: Decimal, written: Decimal) -> set[Decimal]:
    """``value`` rounded down, up and to the nearest at the precision of ``written``."""
    step = precision_step(written)
    return {value.quantize(step, rounding=mode) for mode in (ROUND_FLOOR, ROUND_CEILING, ROUND_HALF_UP)}
