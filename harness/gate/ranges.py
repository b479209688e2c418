"""Ranges that summarise several cited values: "耗时 21～28 秒" for 21.546 s … 28.419 s.

Each end of a range ``A～B unit`` (also ``A-B``, ``A 至 B``, ``A to B``) takes the unit written after B, and holds
when it is a cited value of that kind rounded down, up or to the nearest at the precision written. Candidates: three
per cited value of the unit's kind, so ``3·v`` for ``v`` such values; each end must still be specific
(:mod:`harness.gate.specificity`).
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_UP, Decimal

from harness.gate.tokens import Number, Tokens

_JOIN = re.compile(r"^[ \t]*(?:～|~|〜|-|–|—|至|到|to)[ \t]*$", re.IGNORECASE)


def range_ends(tokens: Tokens) -> dict[int, Number]:
    """The numbers of ``tokens`` that end a range, by position, each with the unit of the range's upper end."""
    ends: dict[int, Number] = {}
    numbers = sorted(tokens.numbers, key=lambda number: number.at)
    for low, high in itertools.pairwise(numbers):
        between = tokens.text[low.at + len(low.written) : high.at]
        if low.unit is None and high.unit is not None and _JOIN.match(between):
            ends[low.at] = dataclasses.replace(low, unit=high.unit, qualifier=None)
            ends[high.at] = dataclasses.replace(high, qualifier=None)
    return ends


def roundings(value: Decimal, written: Decimal) -> set[Decimal]:
    """``value`` rounded down, up and to the nearest at the precision of ``written``."""
    exponent = written.as_tuple().exponent
    step = Decimal(1).scaleb(min(0, exponent)) if isinstance(exponent, int) else Decimal(1)
    return {value.quantize(step, rounding=mode) for mode in (ROUND_FLOOR, ROUND_CEILING, ROUND_HALF_UP)}
