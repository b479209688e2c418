"""Whether a derivation grounds the number it is asked about, or would ground any number near it.

A rule that computes candidate values from the evidence (spans between instants, counts of matching rows, sums of
cells, range ends) grounds a number only when it is specific: of the ten values nearest to the written one at its
own precision (72 -> 67 … 77 without 72; 1.4 -> 0.9 … 1.9 without 1.4), at most four would be grounded by the same
candidates. A rule that could produce every integer from 1 to 60 for some evidence grounds nothing there, and a
one-token change of the number (72 -> 73) is still caught wherever the rule is specific.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection
from decimal import Decimal

from harness.gate.tokens import ABOVE, AT_LEAST, AT_MOST, BELOW, TENS, Number

_BOUNDS = frozenset({ABOVE, AT_LEAST, BELOW, AT_MOST})
NEIGHBOURS = 5
"""Values on each side of the written one that a specific derivation must mostly not ground."""

Agrees = Callable[[Number, Decimal], bool]


def grounded_by(number: Number, candidates: Collection[Decimal], agrees: Agrees) -> bool:
    """``number`` agrees with a candidate, and the candidates are specific around it."""
    if not any(agrees(number, candidate) for candidate in candidates):
        return False
    step = last_step(number.value) if number.qualifier == TENS else precision_step(number.value)
    nearby = [number.value + k * step for k in range(-NEIGHBOURS, NEIGHBOURS + 1) if k and number.value + k * step > 0]
    # a bound (超过 20 分钟) agrees with every value on one side; what counts is how dense the candidates are
    probe = dataclasses.replace(number, qualifier=None) if number.qualifier in _BOUNDS else number
    also = sum(
        1
        for value in nearby
        if any(agrees(dataclasses.replace(probe, value=value), candidate) for candidate in candidates)
    )
    return also * 5 <= len(nearby) * 2  # at most 40%: four of ten


def last_step(value: Decimal) -> Decimal:
    """The place of the last significant digit of ``value`` (30 -> 10, 300 -> 100, 2.5 -> 0.1): the step of 三十多,
    whose neighbours are 二十多 and 四十多."""
    exponent = value.normalize().as_tuple().exponent
    return Decimal(1).scaleb(exponent if isinstance(exponent, int) else 0)


def precision_step(value: Decimal) -> Decimal:
    """One unit of the last decimal place written (72 -> 1, 1.4 -> 0.1, 300 -> 1)."""
    exponent = value.as_tuple().exponent
    return Decimal(1).scaleb(min(0, exponent)) if isinstance(exponent, int) else Decimal(1)
