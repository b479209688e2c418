"""Values a careful reader computes from the item's own cited evidence without writing the work down: a duration
between instants of one result (:mod:`harness.gate.durations`), a count, total or share of what a result shows
(:mod:`harness.gate.tallies`), a range that summarises cited values (:mod:`harness.gate.ranges`).

Each rule's candidates come only from the evidence the item cites and the words of the claim's own clause (what it
says it counts), never from the claim's numbers, and a single value is grounded only where the candidates are
specific around it (:mod:`harness.gate.specificity`).
"""

from __future__ import annotations

import re

from harness.gate.derivation import agrees
from harness.gate.durations import durations
from harness.gate.evidence import Held
from harness.gate.quantities import unit_class, unit_factor
from harness.gate.ranges import ranges, summarises
from harness.gate.specificity import grounded_by
from harness.gate.tallies import tally
from harness.gate.tokens import Number, Tokens

_CLAUSE_END = re.compile(r"[。；;！!？?]")
_TABLE_ROW = re.compile(r"[^:;\n]+: [^;\n]*(?:; [^:;\n]+: [^;\n]*)+")
"""A table row as the normal form writes it (``项目: UPDATE 耗时; 取值: 21~28 秒``): one clause, cells and all."""


def computed(number: Number, tokens: Tokens, found: Held) -> bool:
    """``number`` of ``tokens`` is a value one of the rules computes from ``found``."""
    filters = _filters(number, tokens)
    for low, high in ranges(tokens):
        if number.at in (low.at, high.at) and summarises(low, high, found, filters):
            return True
    kind = unit_class(number.unit)
    if kind == "time" and number.unit is not None:
        factor = unit_factor(number.unit)
        named = [name for name in filters if not name.isdigit()]  # a code names no event: (attempt 2/3)
        groups = durations(found, named)
        return any(grounded_by(number, {seconds / factor for seconds in group}, agrees) for group in groups)
    if kind not in (None, "count", "percent"):
        return False
    for records in found.collections:  # each result on its own: two results' small counts are no one's range
        counted = tally(records, filters)
        summed = counted.totals | (counted.subtotals if number.total else set())
        candidates = {share * 100 for share in counted.shares} if kind == "percent" else counted.counts | summed
        if grounded_by(number, candidates, agrees):
            return True
    return False


def _clause(text: str, at: int) -> tuple[int, int]:
    """Where the clause holding position ``at`` starts and stops: its line, cut at sentence and clause marks unless
    the line is a table row."""
    start = text.rfind("\n", 0, at) + 1
    stop = len(text) if (end := text.find("\n", at)) < 0 else end
    if _TABLE_ROW.fullmatch(text, start, stop):
        return start, stop
    starts = [match.end() for match in _CLAUSE_END.finditer(text, start, at)]
    following = _CLAUSE_END.search(text, at, stop)
    return (starts[-1] if starts else start), (following.start() if following else stop)


def _filters(number: Number, tokens: Tokens) -> list[str]:
    """What the clause ``number`` stands in says it counts: its identifiers (a run of them with only blanks between,
    ``UPDATE biz_order``, as one phrase) and its whole numbers without a unit (a status code)."""
    start, stop = _clause(tokens.text, number.at)
    named: list[str] = []
    end = -1
    for ident in (ident for ident in tokens.identifiers if start <= ident.at < stop):
        if named and tokens.text[end : ident.at].isspace():
            named[-1] += " " + ident.key
        else:
            named.append(ident.key)
        end = ident.at + len(ident.written)
    codes = [n.written for n in tokens.numbers if start <= n.at < stop and n is not number and n.unit is None]
    return list(dict.fromkeys(named + [code for code in codes if code.isdigit()]))
