"""Whether a number of a claim is what its evidence states: the same value in a compatible unit, an exact
conversion, a rounding marked approximate (约), a bound as written (超过 X), the length of a queried window, or a
value the claim shows its work for (a ratio, a sum, a difference, a total, a duration between two stated times).
"""

from __future__ import annotations

from decimal import Decimal
from itertools import combinations

from harness.gate.evidence import Held
from harness.gate.moments import Moment, span_seconds
from harness.gate.quantities import MEASURED, unit_class, unit_factor
from harness.gate.specificity import grounded_by, last_step
from harness.gate.tokens import ABOVE, APPROX, AT_LEAST, AT_MOST, BELOW, NEARLY, TENS, Number

NEARLY_REACH = Decimal("0.9")
"""近 X holds for a value from 0.9 X up to X (近两百条 for 185), or X rounded as 约 X would be."""
BOUND_REACH = Decimal("1.5")
"""超过 X holds for a value above X up to 1.5 X (低于 X: from X / 1.5): a bound states a nearby value, not any."""
MAX_SUMMANDS = 10
"""A total is checked against the sums of at most this many of the item's stated counts."""


def held(number: Number, evidence: Held) -> bool:
    """Stated by the evidence: the same value (in a compatible unit), converted exactly, or rounded and marked
    approximate, or bounded as written (超过 X holds when the evidence's value is above X); the length of a
    queried window when the number is written as one; a fraction of the evidence as a percentage."""
    for seen in evidence.numbers:
        converted = convert(seen, number.unit)
        if converted is None:
            continue
        if _matches(number, converted) or (number.clipped and str(converted).startswith(str(number.value))):
            return True
        fraction = unit_class(number.unit) == "percent" and seen.unit is None and 0 < seen.value < 1
        if fraction and _matches(number, seen.value * 100):
            return True
    if any(_restates(number, seen) for seen in evidence.stated):
        return True
    if number.window and unit_class(number.unit) == "time":
        return any(_matches(number, seconds / unit_factor(number.unit or "s")) for seconds in evidence.window_seconds)
    return False


def _restates(number: Number, seen: Number) -> bool:
    """``number`` says again what another text of the report states: the same quantity, in a convertible unit of
    time, size or per cent, or else in the very unit written there (21 个 is not 21 笔)."""
    if number.unit is not None and unit_class(number.unit) not in MEASURED and seen.unit != number.unit:
        return False
    converted = convert(seen, number.unit)
    return converted is not None and _matches(number, converted)


def _matches(number: Number, value: Decimal) -> bool:
    """Whether ``value`` is what ``number`` says of it, given how it is qualified."""
    written = number.value
    if value == written:  # a bound quoted as the evidence words it ("超过 15 分钟") holds
        return True
    if number.qualifier in (ABOVE, AT_LEAST):  # a bound rounds a nearby value: 超过 30 秒 for 30.007 s
        return written < value <= written * BOUND_REACH
    if number.qualifier in (BELOW, AT_MOST):
        return written / BOUND_REACH <= value < written
    if number.qualifier == NEARLY:
        return written * NEARLY_REACH <= value <= written or _approximately(written, value)
    if number.qualifier == TENS:  # 三十多 is more than 30 and less than 40
        return written < value < written + last_step(written)
    return value == written or (number.qualifier == APPROX and _approximately(written, value))


def agrees(number: Number, value: Decimal) -> bool:
    """``value`` is what ``number`` says: the same at the precision written, or as it is qualified (约, 超过 …)."""
    return _rounds_to(number.value, value) if number.qualifier is None else _matches(number, value)


def convert(seen: Number, unit: str | None) -> Decimal | None:
    """``seen`` in ``unit``; None when the two cannot be the same kind of quantity."""
    claim_class, seen_class = unit_class(unit), unit_class(seen.unit)
    if seen_class is None and claim_class in MEASURED:  # waiting=30 is not 30 秒
        return None
    if claim_class is None or seen_class is None or (claim_class == "count" and seen_class == "count"):
        return seen.value
    if claim_class != seen_class:
        return None
    if claim_class in ("time", "size") and unit is not None and seen.unit is not None:
        return seen.value * unit_factor(seen.unit) / unit_factor(unit)
    return seen.value


def derived(number: Number, operands: list[Number], times: list[Moment], arithmetic: bool) -> bool:
    """A value the item shows its work for: computed from grounded operands it states, rounded to the precision
    it is written with (or as it is qualified). A percentage or ratio of two quantities of one kind (counts, or
    times in one unit), also a / (a + b); a sum or a difference of two of the claim's kind when the item says so
    (共/合计/相差/多 …); a total of several stated counts; a duration between two stated times, or the period of N
    occurrences across it; with the arithmetic written out (×, *, 乘), a product and a share (800 的 80%).

    Each form's candidates are judged specific on their own (:mod:`harness.gate.specificity`): for ``k`` stated
    operands a form gives at most ``4·k·(k−1)/2`` ratios, ``k·(k−1)`` sums and differences, ``2^k`` totals (of at
    most :data:`MAX_SUMMANDS`), ``k²·(1 + 2s)`` products and shares, and ``t·(t−1)/2·(1 + 2k)`` spans for ``t``
    stated times; an item that states so many operands that a form reaches every nearby value grounds nothing
    by that form."""
    return any(grounded_by(number, candidates, agrees) for candidates in _forms(number, operands, times, arithmetic))


def _forms(number: Number, operands: list[Number], times: list[Moment], arithmetic: bool) -> list[set[Decimal]]:
    kind = unit_class(number.unit)
    others = [operand for operand in operands if operand is not number]
    same_kind = [value for operand in others if (value := _in_claim_unit(operand, number)) is not None]
    by_kind: dict[str | None, list[Decimal]] = {}
    for operand in others:  # for ratios: quantities of one kind in their base unit, so s and ms compare
        operand_kind = "count" if unit_class(operand.unit) in (None, "count") else unit_class(operand.unit)
        by_kind.setdefault(operand_kind, []).append(operand.value * unit_factor(operand.unit or ""))
    forms: list[set[Decimal]] = []
    if kind in ("percent", "ratio", None):
        scale = 100 if kind == "percent" else 1
        for values in by_kind.values():
            pairs = [pair for a, b in combinations(values, 2) for pair in ((a, b), (b, a), (a, a + b), (b, a + b))]
            forms.append({numerator / denominator * scale for numerator, denominator in pairs if denominator})
    if kind != "percent" and number.total:
        forms.append({a + b for a, b in combinations(same_kind, 2)})
    if kind != "percent" and number.difference:
        forms.append({abs(a - b) for a, b in combinations(same_kind, 2)})
    if number.total and kind in (None, "count"):
        counts = [o.value for o in others if unit_class(o.unit) in (None, "count")][:MAX_SUMMANDS]
        forms.append(
            {sum(group, Decimal(0)) for size in range(3, len(counts) + 1) for group in combinations(counts, size)}
        )
    if arithmetic and kind != "percent":
        shares = [o.value for o in others if unit_class(o.unit) == "percent"]
        products: set[Decimal] = set()
        for a, b in combinations([o.value for o in others], 2):
            products |= {a * b} | {x * share / 100 for x in (a, b) for share in shares}
            products |= {x * (100 - share) / 100 for x in (a, b) for share in shares}
        forms.append(products)
    if kind == "time" and number.unit is not None:
        counts = [o.value for o in others if unit_class(o.unit) in (None, "count") and o.value > 1]
        spans: set[Decimal] = set()
        for first, second in combinations([t.utc() for t in times if t.has_time], 2):
            if first.has_date == second.has_date:
                span = span_seconds(first, second) / unit_factor(number.unit)
                # the span itself, or the period of N stated occurrences across it (5 次 from 02:05 to 02:25: 每 5 分钟)
                spans |= {span} | {span / (count - 1) for count in counts} | {span / count for count in counts}
        forms.append(spans)
    return forms


def _in_claim_unit(operand: Number, number: Number) -> Decimal | None:
    """``operand`` as a quantity of the claim's kind, in its unit; None when it is of another kind."""
    kind, operand_kind = unit_class(number.unit), unit_class(operand.unit)
    if kind in (None, "count"):
        return operand.value if operand_kind in (None, "count") else None
    if operand_kind != kind:
        return None
    return convert(operand, number.unit)


def _decimals(value: Decimal) -> int:
    exponent = value.normalize().as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0


def _rounds_to(written: Decimal, value: Decimal) -> bool:
    """``value`` shown with as many decimals as ``written`` has is ``written``."""
    step = Decimal(1).scaleb(-_decimals(written))
    return abs(value - written) <= step / 2


def _approximately(written: Decimal, value: Decimal) -> bool:
    """``written`` is ``value`` rounded to ``written``'s significant digits; when those are uncertain (a round
    number such as 60 or 300), also within 5% of it: 约 55% is 55.4%, 约 60% is not."""
    if value == 0:
        return written == 0
    step = last_step(written)
    if abs(value - written) > step / 2:
        return False
    return step < 10 or abs(value - written) <= abs(value) / 20
