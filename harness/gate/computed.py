"""Values a careful reader computes from the item's own cited evidence without writing the work down: a duration
between instants of one result (:mod:`harness.gate.durations`), a count, total or share of what a result shows
(:mod:`harness.gate.tallies`), the ends of a range that summarises cited values (:mod:`harness.gate.ranges`).

Each rule's candidates come only from the evidence the item cites, never from the claim, and a number is grounded
only where the candidates are specific around it (:mod:`harness.gate.specificity`).
"""

from __future__ import annotations

import re
from decimal import Decimal

from harness.gate.derivation import agrees, convert
from harness.gate.durations import durations
from harness.gate.evidence import Held
from harness.gate.quantities import unit_class, unit_factor
from harness.gate.ranges import range_ends, roundings
from harness.gate.specificity import grounded_by
from harness.gate.tallies import tally
from harness.gate.tokens import Number, Tokens

_CLAUSE_END = re.compile(r"[。；;！!？?\n]")


def computed(number: Number, tokens: Tokens, found: Held) -> bool:
    """``number`` of ``tokens`` is a value one of the rules computes from ``found``."""
    end = range_ends(tokens).get(number.at)
    if end is not None:
        values = [value for seen in found.numbers if (value := convert(seen, end.unit)) is not None]
        candidates = {rounded for value in values for rounded in roundings(value, end.value)}
        if grounded_by(end, candidates, lambda claim, candidate: claim.value == candidate):
            return True
    kind = unit_class(number.unit)
    if kind == "time" and number.unit is not None:
        factor = unit_factor(number.unit)
        return grounded_by(number, {seconds / factor for seconds in durations(found)}, agrees)
    if kind not in (None, "count", "percent"):
        return False
    filters = _filters(number, tokens)
    candidates: set[Decimal] = set()
    for objects in found.collections:
        counted = tally(objects, filters)
        if kind == "percent":
            candidates |= {share * 100 for share in counted.shares}
        else:
            candidates |= counted.counts | counted.parts | (counted.totals if number.total else set())
    return grounded_by(number, candidates, agrees)


def _filters(number: Number, tokens: Tokens) -> list[str]:
    """The identifiers of the clause ``number`` stands in: what it may count."""
    starts = [match.end() for match in _CLAUSE_END.finditer(tokens.text, 0, number.at)]
    start = starts[-1] if starts else 0
    following = _CLAUSE_END.search(tokens.text, number.at)
    stop = following.start() if following else len(tokens.text)
    return list(dict.fromkeys(ident.key for ident in tokens.identifiers if start <= ident.at < stop))
