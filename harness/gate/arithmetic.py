"""Shown arithmetic, checked as arithmetic.

A chain is numbers joined by operators (+ − × ÷ / *, 加 减 乘以 除以, plus minus times divided by) and brackets, ending
in a result after = / ≈ / 约 / 约等于 / about: ``0.1968 × 61 ≈ 12.00``, ``(72 + 58) / 130 = 100%``. Each chain is
computed with the usual precedence; its result holds when it is the computed value at the precision it is written
with (``≈ 12.00`` for 12.0048; ≈ also one step off, for intermediate results that were rounded), or as its
qualifier allows (约 60 for 61 is not, 约 61% for 0.6101 is), a percentage being the computed fraction × 100 when no
operand is one. A chain's leaves must be grounded, or a conversion constant (60, 100, 1000, 3600, 1024 …); the
result of one chain is a grounded leaf of the next. A chain whose leaves are all numbers and whose result is not
what they give is a wrong step: refused, even where its result is grounded elsewhere.

Two restatements of a computed value are read with it: a percentage of a computed or grounded fraction (``≈ 0.61，即约
61%``) and a rate per minute or per hour of a grounded rate per second (``0.45 次/秒，即每分钟约 27 次``).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from harness.gate.expressions import Step, evaluate, expression, terms
from harness.gate.quantities import unit_class, unit_factor
from harness.gate.specificity import precision_step
from harness.gate.tokens import APPROX, AT_LEAST, Number

CONSTANTS = frozenset(Decimal(value) for value in (60, 100, 1000, 3600, 24, 1024, 86400))
"""Factors of a unit conversion: a leaf that needs no grounding (``× 60``, ``/ 1000``, ``× 100%``)."""

_OPERATORS = {
    "+": "+", "加": "+", "加上": "+", "plus": "+",
    "-": "-", "−": "-", "–": "-", "减": "-", "减去": "-", "minus": "-",
    "×": "*", "*": "*", "x": "*", "X": "*", "乘": "*", "乘以": "*", "times": "*",
    "÷": "/", "/": "/", "除以": "/", "divided by": "/", "over": "/",
}  # fmt: skip
_OPERATOR_WORDS = "|".join(re.escape(word) for word in sorted(_OPERATORS, key=len, reverse=True))
_BRACKETS = r"[ \t(（)）]*"
_OPERATOR_GAP = re.compile(_BRACKETS + r"(?P<op>" + _OPERATOR_WORDS + r")" + _BRACKETS)
_RESULT_GAP = re.compile(
    r"[ \t)）]*(?:(?:=|≈|≒|~=|约等于|约为|约|等于|大约|→|->|is about|is|about|approximately|roughly)[ \t]*(?:约|≈|~)?"
    r"|[，,][ \t]*(?:即|也就是|i\.e\.,?|that is,?)?[ \t]*(?:约|≈|~|about|approximately|roughly))[ \t]*",
    re.IGNORECASE,
)
"""What stands between a chain and its result: ``=``, ``≈``, 约等于 …, or a comma and a qualifier (``，约 80%``)."""
_BRACKET_AFTER = re.compile(r"[^\d\n(（+\-−×*/÷=≈]{0,6}?[ \t]*[(（][ \t]*")
"""Between a value and the bracket that shows its work: at most a unit or a word (个/分钟, req/s), then the bracket."""
_RANGE_GAP = re.compile(r"[ \t]*(?:至|到|~|～|–|-|—|to)[ \t]*")
_SENTENCE_END = re.compile(r"[。；;！!？?\n]|\.(?:\s|$)")
_PART_GAP = re.compile(r"[ \t]*[、,，/+＋][ \t]*[^\d\s,，、。;；()（）:：]{0,24}[ \t]*[:：=]?[ \t]*")
"""Between two parts of a breakdown: a separator, then at most a name (``、CARD ``, ``, WECHAT: ``, `` + ``)."""
_OPEN_BEFORE = re.compile(r"[(（][ \t]*$")
_EVENTS = r"^[ \t]*(?:次|条|个|笔|requests?|errors?|events?|calls?)?[ \t]*"
_PER_SECOND = re.compile(_EVENTS + r"(?:/[ \t]*(?:s|sec|秒)\b|/秒|每秒|per second)")
_PER_MINUTE_AFTER = re.compile(_EVENTS + r"(?:/[ \t]*(?:min|分钟)|/分|每分钟|per minute)")
_PER_MINUTE_BEFORE = re.compile(r"(?:每分钟|per minute)[^0-9]{0,4}$", re.IGNORECASE)
_PER_HOUR_AFTER = re.compile(_EVENTS + r"(?:/[ \t]*(?:h|hour|小时)|每小时|per hour)")
_PER_HOUR_BEFORE = re.compile(r"(?:每小时|per hour)[^0-9]{0,4}$", re.IGNORECASE)


@dataclass(frozen=True)
class Chain:
    """One written computation: its leaves with the operators between them (and brackets), and its result."""

    leaves: tuple[Number, ...]
    expression: str
    """The computation over placeholders ``{0}``, ``{1}`` … for the leaves, in Python's syntax."""
    result: Number
    terms: tuple[Number, ...] = ()
    """When the result starts another sum (``= 27 + 9``): its terms, each the value of a term of this chain."""
    binding: bool = True
    """Written with = / ≈ / 约: a result that is not what the step gives is a wrong step. Work in brackets after a
    value (``80%（0.4087 / 0.5097）``) binds nothing: where it does not give the value, it is read as no work."""


@dataclass(frozen=True)
class Checked:
    shown: list[Number]
    """Results of chains that hold, and restatements of a grounded value: grounded now."""
    wrong: list[Number]
    """Results of chains whose leaves are numbers and whose value is not what the step gives."""


def chains(text: str, numbers: Sequence[Number]) -> list[Chain]:
    """The chains written in ``text`` over its ``numbers`` (in order of appearance). A result written inside
    brackets is the result of what those brackets hold: ``0.3993 / (0.3993 + 0.1008 = 0.5001)``. A result that
    starts another expression (``(72 − 45) + (20 − 11) = 27 + 9 = 36``) is that expression's first leaf: the step
    says the two sides are equal, term by term."""
    ordered = sorted((n for n in numbers if n.at >= 0), key=lambda n: n.at)
    found: list[Chain] = []
    index = 0
    while index < len(ordered):
        steps, opened, cursor = _scan(text, ordered, index)
        if len(steps) >= 2 and cursor + 1 < len(ordered):
            gap = text[_end(ordered[cursor]) : ordered[cursor + 1].at]
            if _RESULT_GAP.fullmatch(gap):
                del opened[max(0, len(opened) - _brackets(gap, ")）")) :]
                first = opened[-1] if opened else 0
                if len(steps) - first >= 2:
                    leaves = tuple(ordered[index + first : cursor + 1])
                    rhs_steps, _, rhs_end = _scan(text, ordered, cursor + 1)
                    terms = tuple(ordered[cursor + 1 : rhs_end + 1]) if len(rhs_steps) >= 2 else ()
                    result = ordered[cursor + 1]
                    found.append(Chain(leaves, expression(steps[first:]), result, terms))
                index = cursor + 1  # the result may lead the next chain: 12.00 + 18.78 = 30.78 / 2 = 15.39
                continue
        index += 1
    return found + _work_in_brackets(text, ordered)


def _work_in_brackets(text: str, ordered: Sequence[Number]) -> list[Chain]:
    """The work shown in brackets right after the values it computes: ``约 80%（0.4087 / 0.5097）``, ``23.3–24.8 个
    （0.3881 × 60 至 0.4137 × 60）``: each bracketed expression's result is the value before the bracket, in order."""
    found: list[Chain] = []
    for index in range(1, len(ordered)):
        bracket = _BRACKET_AFTER.fullmatch(text, _end(ordered[index - 1]), ordered[index].at)
        if bracket is None:
            continue
        works, start = [], index
        while start < len(ordered) and len(works) < 2:
            steps, _, end = _scan(text, ordered, start)
            if len(steps) < 2:
                break
            works.append((tuple(ordered[start : end + 1]), expression(steps)))
            following = text[_end(ordered[end]) : ordered[end + 1].at] if end + 1 < len(ordered) else ""
            if _RESULT_GAP.fullmatch(following):  # a chain with its own result, not the work of the value before
                works.pop()
                break
            if not _RANGE_GAP.fullmatch(following):
                break
            start = end + 1
        values = [ordered[index - 1]]
        if (
            len(works) == 2
            and index >= 2
            and _RANGE_GAP.fullmatch(text, _end(ordered[index - 2]), ordered[index - 1].at)
        ):
            values.insert(0, ordered[index - 2])
        found += [
            Chain(leaves, expression, value, binding=False)
            for (leaves, expression), value in zip(works, values, strict=False)
        ]
    return found


def _scan(text: str, ordered: Sequence[Number], index: int) -> tuple[list[Step], list[int], int]:
    """The steps of the expression that starts at ``ordered[index]``, the steps whose brackets are still open at
    its end, and the index of its last leaf."""
    steps = [Step("", "", _opening(text, ordered[index]))]
    opened = [0] * steps[0].opening
    cursor = index
    while cursor + 1 < len(ordered) and ordered[cursor + 1].at != ordered[cursor].at:
        gap = text[_end(ordered[cursor]) : ordered[cursor + 1].at]
        operator = _OPERATOR_GAP.fullmatch(gap)
        if operator is None:
            break
        closing = _brackets(gap[: operator.start("op")], ")）")
        opening = _brackets(gap[operator.end("op") :], "(（")
        del opened[max(0, len(opened) - closing) :]
        opened += [len(steps)] * opening
        steps.append(Step(")" * closing, _OPERATORS[operator["op"]], opening))
        cursor += 1
    return steps, opened, cursor


def check(
    text: str, numbers: Sequence[Number], grounded: Sequence[Number], agrees: Callable[[Number, Decimal], bool]
) -> Checked:
    """Which numbers of ``text`` its shown arithmetic grounds, and which results it gets wrong.

    ``grounded``: the numbers already grounded (by the evidence, or derived). Chains are checked until no new
    result is grounded, so a result may be a leaf of a later chain wherever it is written."""
    known = list(grounded)
    shown: list[Number] = []
    wrong: list[Number] = []
    pending = chains(text, numbers)
    progress = True
    while pending and progress:
        progress = False
        for chain in list(pending):
            value = _value(chain)
            if value is None:
                pending.remove(chain)
                continue
            if chain.terms:
                if not _terms_hold(chain, agrees):
                    wrong.append(chain.result)
                elif all(leaf in known or leaf.value in CONSTANTS for leaf in chain.leaves):
                    fresh = [term for term in chain.terms if term not in known]
                    known += fresh
                    shown += fresh
                    progress = progress or bool(fresh)
                pending.remove(chain)
                continue
            if not _holds(chain.result, value, _percent_leaf(chain), agrees):
                if chain.binding:
                    wrong.append(chain.result)
                pending.remove(chain)
                continue
            if all(leaf in known or leaf.value in CONSTANTS for leaf in chain.leaves):
                if chain.result not in known:
                    known.append(chain.result)
                    shown.append(chain.result)
                pending.remove(chain)
                progress = True
    for total, parts in breakdowns(text, numbers):
        whole = sum((part.value for part in parts), Decimal(0))
        exact = total.qualifier in (None, AT_LEAST) and total.value == whole  # a breakdown adds up exactly
        if exact and total not in known and all(part in known for part in parts):
            known.append(total)
            shown.append(total)
    again = [n for n in numbers if n not in known and any(_same(n, result) for result in shown)]
    known += again
    restated = [n for n in numbers if n not in known and n not in wrong and _restates(text, n, known, agrees)]
    return Checked(shown + again + restated, wrong)


def breakdowns(text: str, numbers: Sequence[Number]) -> list[tuple[Number, tuple[Number, ...]]]:
    """Each count followed, in its sentence, by the parts it is made of: ``TIMEOUT 6 笔（ALIPAY 3、CARD 1、WECHAT
    2）``, ``92 条（72 + 20）``, ``6 of 10 are TIMEOUT: ALIPAY 3, CARD 1, WECHAT 2``. The parts are the first list of
    two or more counts after it (each after a separator and at most a name), and the total is that of a leading run
    of them: ``10 笔中 6 笔`` after the list is not a part."""
    ordered = sorted((n for n in numbers if n.at >= 0), key=lambda n: n.at)
    found: list[tuple[Number, tuple[Number, ...]]] = []
    for index, total in enumerate(ordered):
        if unit_class(total.unit) not in (None, "count"):
            continue
        sentence_end = _SENTENCE_END.search(text, _end(total))
        stop = len(text) if sentence_end is None else sentence_end.start()
        later = [n for n in ordered[index + 1 :] if n.at < stop and unit_class(n.unit) in (None, "count")]
        for start, first in enumerate(later):
            run = [first]
            for part in later[start + 1 :]:
                if not _PART_GAP.fullmatch(text, _end(run[-1]), part.at):
                    break
                run.append(part)
            if len(run) >= 2:
                found += [(total, tuple(run[:size])) for size in range(2, len(run) + 1)]
                break
    return found


def _restates(text: str, number: Number, known: Sequence[Number], agrees: Callable[[Number, Decimal], bool]) -> bool:
    """A percentage of a known fraction, a duration written in two units in one (``9 min 51 s, about 9.85 minutes``), or
    a rate per minute / per hour of a known rate per second."""
    if unit_class(number.unit) == "time" and number.unit is not None:
        factor = unit_factor(number.unit)
        durations = [k for k in known if _TWO_UNITS.fullmatch(k.written) and k.unit != number.unit]
        if any(agrees(number, k.value * unit_factor(k.unit or "s") / factor) for k in durations):
            return True
    if unit_class(number.unit) == "percent":
        fractions = [n.value for n in known if n.unit is None and 0 < n.value <= 1]
        return any(agrees(number, fraction * 100) for fraction in fractions)
    after, before = text[_end(number) : _end(number) + 16], text[max(0, number.at - 12) : number.at]
    per_minute = bool(_PER_MINUTE_AFTER.match(after) or _PER_MINUTE_BEFORE.search(before))
    per_hour = bool(_PER_HOUR_AFTER.match(after) or _PER_HOUR_BEFORE.search(before))
    if not (per_minute or per_hour):
        return False
    factor = Decimal(60) if per_minute else Decimal(3600)
    rates = [n.value for n in known if _PER_SECOND.match(text[_end(n) : _end(n) + 16])]
    return any(agrees(number, rate * factor) for rate in rates)


def _terms_hold(chain: Chain, agrees: Callable[[Number, Decimal], bool]) -> bool:
    """Each term of the chain's top-level sum is the matching term of the sum its result starts, in order."""
    values = _term_values(chain)
    if values is None or len(values) != len(chain.terms):
        return False
    return all(_holds(term, abs(value), False, agrees) for term, value in zip(chain.terms, values, strict=True))


def _term_values(chain: Chain) -> list[Decimal] | None:
    """The values of the terms of the chain's top-level sum: ``(72 − 45) + (20 − 11)`` -> 27, 9."""
    values = _leaf_values(chain)
    found = [evaluate(term, values) for term in terms(chain.expression)]
    return None if any(value is None for value in found) else [value for value in found if value is not None]


def _same(number: Number, result: Number) -> bool:
    """``number`` says a computed result again, as written: ``= 6 笔，即 10 笔中 6 笔``."""
    return number.value == result.value and number.qualifier == result.qualifier and number.unit in (None, result.unit)


def _holds(result: Number, value: Decimal, percent_leaf: bool, agrees: Callable[[Number, Decimal], bool]) -> bool:
    values = [value]
    if unit_class(result.unit) == "percent" and not percent_leaf:
        values.append(value * 100)
    step = precision_step(result.value)
    reach = step if result.qualifier == APPROX else step / 2  # ≈ also allows for rounded intermediate results
    for candidate in values:
        if abs(candidate - result.value) <= reach:
            return True
        if result.qualifier == APPROX and agrees(result, candidate):
            return True
    return False


def _value(chain: Chain) -> Decimal | None:
    """The chain computed over its leaves' values (a percentage leaf as its fraction); None when it cannot be."""
    value = evaluate(chain.expression, _leaf_values(chain))
    units = {leaf.unit for leaf in chain.leaves}
    result_unit = chain.result.unit
    if value is None or len(units) != 1 or result_unit is None or "*" in chain.expression or "/" in chain.expression:
        return value
    unit = units.pop()  # a sum or difference of durations in one unit, stated in another: 约 0.8 秒 (23.290s − 22.453s)
    if unit is None or unit_class(unit) != "time" or unit_class(result_unit) != "time":
        return value
    return value * unit_factor(unit) / unit_factor(result_unit)


def _leaf_values(chain: Chain) -> list[Decimal]:
    return [leaf.value / 100 if unit_class(leaf.unit) == "percent" else leaf.value for leaf in chain.leaves]


def _percent_leaf(chain: Chain) -> bool:
    return any(unit_class(leaf.unit) == "percent" for leaf in chain.leaves)


def _end(number: Number) -> int:
    return number.at + len(number.written)


def _opening(text: str, number: Number) -> int:
    match = _OPEN_BEFORE.search(text, 0, number.at)
    return 0 if match is None else _brackets(text[match.start() : number.at], "(（")


def _brackets(text: str, kinds: str) -> int:
    return sum(text.count(kind) for kind in kinds)


_TWO_UNITS = re.compile(r"\d+[^\d]+\d+(?:\.\d+)?[^\d]*")
"""How a duration written in two units reads (``9 min 51 s``): what :func:`durations_in_two_units` joins."""
_DURATION_JOIN = re.compile(r"[ \t]*(?:零|又|and)?[ \t]*")


def durations_in_two_units(text: str, numbers: Sequence[Number]) -> list[tuple[Number, tuple[Number, Number]]]:
    """Each duration written in two units (``24 分 25 秒``, ``1 h 5 min``, ``2 分钟 3 秒``) as one quantity in the
    smaller unit, with the two numbers it is written as."""
    ordered = sorted((n for n in numbers if n.at >= 0 and unit_class(n.unit) == "time"), key=lambda n: n.at)
    joined: list[tuple[Number, tuple[Number, Number]]] = []
    for first, second in itertools.pairwise(ordered):
        if not _DURATION_JOIN.fullmatch(text[_end(first) : second.at]):
            continue
        big, small = unit_factor(first.unit or "s"), unit_factor(second.unit or "s")
        if big <= small or first.value != first.value.to_integral_value():
            continue
        whole = Number(
            first.value * big / small + second.value,
            second.unit,
            text[first.at : _end(second)],
            first.qualifier or second.qualifier,
            at=first.at,
        )
        joined.append((whole, (first, second)))
    return joined
