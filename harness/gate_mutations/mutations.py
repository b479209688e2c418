"""Every one-token mutation of a faithful draft, each labelled by :mod:`.presence`.

For each fact token (:class:`~.drafts.TokenSpan`) of the conclusion and the analysis items, by its kind:

========  ==========================================================================================================
number    moved to a nearby other value (the last digit ± 1, 2 …; an approximate or derived value by at least two
          units of its last digit, so that rounding cannot reach it); replaced by another number of the evidence;
          a Chinese approximate numeral moved by ten (四十多 → 五十多)
unit      a time unit changed (秒 → 分钟, ms → s …), the number kept
id        swapped for a sibling of the same shape: its digits moved (order-123 → order-124), another name of the
          family (payment-service → refund-service), or a sibling the evidence holds
status    replaced by another word of its group (TIMEOUT → PAID, WARN → ERROR, DOWN → UP, ALIPAY → WECHAT)
time      shifted by minutes (by days for a date), in the writer's notation; or another instant of the evidence
========  ==========================================================================================================

Per token and category, at most one mutation whose new token is absent from the cited evidence (the nearest one
found) and one whose new token is present (a sibling the evidence holds). A replacement equal to the original is
no mutation. The label is the presence rule's, never the intent behind the candidate.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from harness.gate_mutations.drafts import FaithfulDraft, Field, TokenSpan, get_text
from harness.gate_mutations.notation import DATE_ONLY, NOTATIONS, chinese_tens, instant
from harness.gate_mutations.presence import (
    Evidence,
    evidence_of,
    instant_present,
    interval_present,
    number_present,
    tolerance_of,
    word_present,
)

CATEGORIES = ("number", "unit", "id", "status", "time")
STATUS_GROUPS = {
    "payment": ("TIMEOUT", "PAID", "SUCCESS", "INIT", "PENDING", "REFUNDED", "FAILED", "CLOSED"),
    "level": ("ERROR", "WARN", "INFO", "DEBUG", "FATAL"),
    "health": ("DOWN", "UP", "OUT_OF_SERVICE"),
    "channel": ("ALIPAY", "WECHAT", "CARD", "UNIONPAY", "PAYPAL"),
}
NAMES = {
    "service": ("order-service", "payment-service", "api-gateway", "refund-service", "user-service",
                "inventory-service",
                "catalog-service", "notify-service"),
    "errcode": ("ERR_TIMEOUT", "ERR_CHANNEL_TIMEOUT", "ERR_REFUND_DUPLICATE", "ERR_DB_TIMEOUT", "ERR_LOCK_WAIT"),
    "table": ("order_db", "user_db", "refund_db", "biz_order", "payment_record", "order_item"),
    "column": ("payment_status", "status", "channel", "pay_status", "order_state", "refund_status"),
}  # fmt: skip
_SHAPES = {
    "order": re.compile(r"^order-\d+$"),
    "payment": re.compile(r"^pay-\d+$"),
    "service": re.compile(r"^(?:[a-z]+-service|api-gateway)$"),
    "errcode": re.compile(r"^ERR_[A-Z_]+$"),
}
_UNIT_SWAPS = {
    "秒": ("分钟", "毫秒"), "毫秒": ("秒",), "分钟": ("小时", "秒"), "小时": ("分钟",), "s": ("ms", "min"),
    "ms": ("s",), "min": ("h", "s"), "minutes": ("hours", "seconds"), "minute": ("hour",), "hour": ("minute",),
    "seconds": ("minutes",),
}  # fmt: skip
_TIME_SHIFTS_MIN = (7, -4, 13, 3, -9, 21, 2, -17, 31)
_PRECISION_S = {"hm_utc": 60, "utc8": 60, "date_zh_hm": 60}


@dataclass(frozen=True)
class Mutation:
    """One token of a faithful draft replaced by ``new``."""

    source: FaithfulDraft
    field: Field
    start: int
    end: int
    old: str
    new: str
    category: str
    pattern: str
    present: bool
    """The new token occurs in the cited evidence (the SemanticGuard's to judge), else the gate must refuse."""

    @property
    def id(self) -> str:
        return f"{self.source.id}/{'.'.join(map(str, self.field))}@{self.start}/{self.category}/{self.new}"

    def draft(self) -> dict[str, Any]:
        mutated = copy.deepcopy(self.source.draft)
        node: Any = mutated
        for part in self.field[:-1]:
            node = node[part]
        text = node[self.field[-1]]
        node[self.field[-1]] = text[: self.start] + self.new + text[self.end :]
        return mutated


def mutations(source: FaithfulDraft) -> list[Mutation]:
    """Every mutation of ``source``, in token order."""
    found: list[Mutation] = []
    cache: dict[tuple[str, ...], Evidence] = {}
    for token in source.tokens:
        calls = source.cited(token.field)
        if calls not in cache:
            results = [r.agent_result for c in calls if (r := source.records.get(c)) and r.agent_result]
            cache[calls] = evidence_of(results, source.query)
        evidence = cache[calls]
        seen: set[tuple[str, str]] = set()
        for category, new, present in _candidates(token, evidence):
            if new == token.span.text or (category, new) in seen:
                continue
            seen.add((category, new))
            span = token.span
            found.append(
                Mutation(source, token.field, span.start, span.end, span.text, new, category, token.pattern, present)
            )
    return found


def check_one_token(mutation: Mutation) -> bool:
    """The mutated draft differs from its source in exactly the one token (a test and a guard for the generator)."""
    before, after = mutation.source.draft, mutation.draft()
    if get_text(before, mutation.field)[mutation.start : mutation.end] != mutation.old:
        return False
    text = get_text(after, mutation.field)
    if text[: mutation.start] + mutation.old + text[mutation.start + len(mutation.new) :] != get_text(
        before, mutation.field
    ):
        return False
    restored = copy.deepcopy(after)
    node: Any = restored
    for part in mutation.field[:-1]:
        node = node[part]
    node[mutation.field[-1]] = get_text(before, mutation.field)
    return restored == before


def _candidates(token: TokenSpan, evidence: Evidence) -> Iterator[tuple[str, str, bool]]:
    """``(category, new text, present)`` for one token: the nearest absent one and a present one per category."""
    span, meta = token.span, token.span.meta
    if span.kind == "number" and "zh_numeral" in meta:
        yield from _numeral(int(meta["zh_numeral"]), str(meta.get("unit", "")), evidence)
    elif span.kind == "number":
        yield from _number(span.text, meta, evidence)
    elif span.kind == "id":
        yield from _choose("id", _id_candidates(span.text, str(meta.get("shape")), evidence), evidence)
    elif span.kind == "status":
        group = STATUS_GROUPS.get(str(meta.get("group")), STATUS_GROUPS["payment"])
        yield from _choose("status", [word for word in group if word != span.text], evidence)
    elif span.kind == "time":
        yield from _time(span.text, meta, evidence)


def _choose(category: str, words: list[str], evidence: Evidence) -> Iterator[tuple[str, str, bool]]:
    absent = next((w for w in words if not word_present(w, evidence)), None)
    present = next((w for w in words if word_present(w, evidence)), None)
    if absent is not None:
        yield category, absent, False
    if present is not None:
        yield category, present, True


def _id_candidates(text: str, shape: str, evidence: Evidence) -> list[str]:
    if shape == "compound":
        table, _, column = text.partition(".")
        return [f"{table}.{other}" for other in NAMES["column"] if other != column]
    digits = re.search(r"\d+$", text)
    moved = [text[: digits.start()] + str(int(digits.group()) + step) for step in (1, 2, 5, 11)] if digits else []
    family = [name for name in NAMES.get(shape, ()) if name != text]
    pattern = _SHAPES.get(shape)
    siblings = sorted(w for w in evidence.words if pattern and pattern.match(w) and w != text.lower())
    if shape == "errcode":
        siblings = [w.upper() for w in siblings]
    return [*moved, *family, *siblings]


def _number(text: str, meta: dict[str, Any], evidence: Evidence) -> Iterator[tuple[str, str, bool]]:
    number, unit = str(meta.get("number", text)), str(meta.get("unit", ""))
    if not re.fullmatch(r"\d+(?:\.\d+)?", number):
        return
    value, places = Decimal(number), len(number.partition(".")[2])
    step = Decimal(1).scaleb(-places)
    tolerance, derived = tolerance_of(number, meta), meta.get("derived")

    def present(candidate: Decimal, candidate_unit: str = unit) -> bool:
        return number_present(candidate, candidate_unit, evidence, tolerance=tolerance, derived=derived)

    def spelled(candidate: Decimal) -> str:
        return text.replace(number, f"{candidate:.{places}f}", 1)

    least = 2 if tolerance else 1
    moves = [value + step * k for k in range(least, least + 12)] + [value - step * k for k in range(least, least + 6)]
    moves = [m for m in moves if m > 0 and m != value and not (tolerance and _coarser(value, m))]
    absent = next((m for m in moves if not present(m)), None)
    if absent is not None:
        yield "number", spelled(absent), False
    siblings = sorted(
        {q.value for q in evidence.numbers if q.value > 0 and q.value != value}, key=lambda o: abs(o - value)
    )
    sibling = next((o for o in siblings if _places(o) == places and present(o)), None)
    sibling = sibling if sibling is not None else next((o for o in siblings if present(o)), None)
    if sibling is not None:
        yield "number", text.replace(number, _plain(sibling), 1), True
    for other_unit in _UNIT_SWAPS.get(unit, ()):
        new = text[: len(text) - len(unit)] + other_unit if text.endswith(unit) else None
        if new is not None:
            yield "unit", new, present(value, other_unit)
            break


def _coarser(value: Decimal, candidate: Decimal) -> bool:
    """``candidate`` is ``value`` rounded to fewer significant digits (约 88% -> 约 90%): the same approximate fact,
    no change."""
    exponent = candidate.normalize().as_tuple().exponent
    if not isinstance(exponent, int) or exponent <= 0:
        return False
    return value.quantize(Decimal(1).scaleb(exponent), rounding=ROUND_HALF_UP) == candidate


def _places(value: Decimal) -> int:
    return len(_plain(value).partition(".")[2])


def _plain(value: Decimal) -> str:
    return format(value.normalize(), "f") if value != value.to_integral() else str(int(value))


def _numeral(count: int, unit: str, evidence: Evidence) -> Iterator[tuple[str, str, bool]]:
    for shift in (10, 20, -10, 30):
        words = chinese_tens(count + shift)
        if words is None:
            continue
        low, high = _interval(count + shift)
        yield "number", f"{words}{unit}", interval_present(low, high, evidence)
        return


def _interval(count: int) -> tuple[int, int]:
    tens, ones = divmod(count, 10)
    return (tens * 10 + 7, tens * 10 + 9) if ones >= 7 else (tens * 10 + 1, tens * 10 + 9)


def _time(text: str, meta: dict[str, Any], evidence: Evidence) -> Iterator[tuple[str, str, bool]]:
    notation = str(meta.get("notation"))
    if notation not in NOTATIONS:
        return
    moment = instant(str(meta["iso"]))
    render = NOTATIONS[notation]
    precision = 86400 if notation in DATE_ONLY else _PRECISION_S.get(notation, 1)
    shifts = (
        [timedelta(days=d) for d in (1, 2, -1)]
        if notation in DATE_ONLY
        else [timedelta(minutes=m) for m in _TIME_SHIFTS_MIN]
    )
    absent = next((moment + s for s in shifts if not instant_present(moment + s, precision, evidence)), None)
    if absent is not None and render(absent) != text:
        yield "time", render(absent), False
    others = [t for t in sorted(set(evidence.instants)) if render(t) != text]
    if others:
        yield "time", render(_middle(others)), True


def _middle(instants: list[datetime]) -> datetime:
    return instants[len(instants) // 2]
