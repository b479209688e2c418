"""The reading of a text against its evidence records: its period, then each sentence clause by clause."""

from __future__ import annotations

import re
from typing import Any

from offline_model.entities import ORDER_ID_PATTERN as ORDER
from offline_model.entities import SERVICE_PATTERN as SERVICE
from offline_model.guard.clauses import IP, Anchor, Clause, anchors_of, attribution
from offline_model.guard.evidence import is_knowledge, nfkc, readable_text
from offline_model.guard.periods import period_problem
from offline_model.guard.problem import Problem
from offline_model.guard.records import records_of, row_values
from offline_model.guard.tokens import QUOTED
from offline_model.lexical import leaf_text

_REPORTED = re.compile(
    r"(?:手册|文档|知识库|规范|指南|说明|runbook|playbook|docs?|documentation|guide|wiki)[^,。;]{0,8}?"
    r"(?:指出|提到|写道|写着|说|称|规定|要求|建议|表示|给出|says|states|notes|mentions|recommends|advises)"
    r"|according to|(?:根据|按照?|依据)[^,。;]{0,10}?(?:手册|文档|知识库|规范|指南|runbook)",
    re.I,
)
"""A clause that reports what a cited document says."""


def reading_problem(text: str, entries: list[Any]) -> Problem | None:
    if not (records := records_of(entries)):
        return None
    if problem := period_problem(text := nfkc(text), records, entries):
        return problem
    documents = readable_text(leaf_text([e.get("excerpt") for e in entries if is_knowledge(e)]))
    values = row_values(entries)
    for sentence in re.split(r"[。;!?\n]|\.\s", text):
        quotes = [next(g for g in m.groups() if g is not None) for m in QUOTED.finditer(sentence)]
        plain = QUOTED.sub(lambda m, q=quotes: f" ⟦{q.index(next(g for g in m.groups() if g))}⟧ ", sentence)
        named, inherited = {m.group(0).lower() for m in SERVICE.finditer(plain)}, list[Anchor]()
        stated = ""  # after "the runbook says": what a cited document states, not what the records show
        for part in re.split(r",(?!\d{3}(?!\d))|\+", plain):
            stated = stated or (documents if _REPORTED.search(part) else "")
            found = sorted((m for p in (SERVICE, ORDER, IP) for m in p.finditer(part)), key=lambda m: m.start())
            masked = IP.sub(" § ", ORDER.sub(" § ", SERVICE.sub(" § ", part)))
            anchors, head = anchors_of(masked, quotes), anchors_of(part[: found[0].start()] if found else "", quotes)
            previous, inherited = inherited, [a for a in anchors if a[0] != "time"] or inherited
            if problem := attribution(part, found, head or previous, quotes, records, named):
                return problem
            if values and (problem := attribution(part, list(values.finditer(part)), [], quotes, records, named)):
                return problem
            times = [a for a in anchors if a[0] == "time"]
            entities = [m.group(0).lower() for m in found]
            clause = Clause(masked, entities, [*inherited, *times], records, named, stated)
            if not re.search(r"不是|并非|不能|没有|未|\bnot\b|\bno\b", masked) and (problem := clause.problem()):
                return problem
    return None
