"""Rule 3: one clause read against the records its values select (attribution, first / last, recent, every)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta

from offline_model.entities import ORDER_ID_PATTERN as ORDER
from offline_model.entities import SERVICE_PATTERN as SERVICE
from offline_model.guard.evidence import NOT_FACTS, pieces
from offline_model.guard.periods import PERIOD, period_minutes
from offline_model.guard.problem import Problem
from offline_model.guard.records import STAMP, Record
from offline_model.lexical import normalise

_MEMBER_KEYS = {"渠道": "channel", "实例": "instance|host|pod|node", "节点": "instance|host|pod|node", "用户": "user",
                "服务": "service|upstream|app", "订单": "order", "支付单": "order"}  # fmt: skip
_MEMBER_KEYS |= {keys.split("|")[0]: keys for keys in _MEMBER_KEYS.values()}
_CLASS = r"(渠道|实例|节点|用户|服务|订单|支付单|\b(?:channel|instance|user|service|order)s?\b)"
_DETERMINER = re.compile(r"(?:所有|全部|每个|每一个|每笔|\bevery\b|\ball\b|\beach\b)[^,。;]{0,12}?" + _CLASS, re.I)
_POSTPOSED = re.compile(_CLASS + r"[^,。;]{0,6}?(?:均|都|全部|全都)", re.I)
_FIRST, _LAST = re.compile(r"首次|第一次|最早|\bfirst\b|earliest", re.I), re.compile(r"最后|最晚|\blast\b|latest", re.I)
_TIME = re.compile(r"(?<![\d:])(\d{2}:\d{2}(?::\d{2})?)(?![\d:])")
_COUNT = re.compile(  # 第 2 次 is an ordinal (attempt=2), not a count
    r"(?<![\d.])(?<!第)(?<!第 )(\d+) ?(?:次|条|笔|lines?\b|times\b|errors?\b|warnings?\b|entries\b)", re.I
)
_VALUE = re.compile(r"(?<![\w.约~])(\d{3,}|\d+(?:\.\d+)?(?:ms|s))(?![\w.])")
_WORD = re.compile(
    r"(?<![\w-])(?:[A-Z][A-Z0-9]+(?:_[A-Z0-9]+)*|[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[A-Za-z]+\d*-\d+)(?![\w-])"
)
IP = re.compile(r"(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?![\d.])")
Anchor = tuple[str, str]
"""A value a clause states, with its kind (quote, time, count, value, word): what selects evidence records."""


def attribution(
    text: str,
    found: list[re.Match[str]],
    fallback: list[Anchor],
    quotes: list[str],
    records: list[Record],
    named: set[str],
) -> Problem | None:
    """Entities listed together (A、B 与 C) share the values after them (else those before them); one entity carries
    a record for each of its values, a listed one a record for any of them. A row's value (WECHAT 2 笔) carries
    only the numbers right after it."""
    groups: list[tuple[list[str], str]] = []
    for index, match in enumerate(found):
        after = text[match.end() : found[index + 1].start() if index + 1 < len(found) else len(text)]
        if groups and re.fullmatch(r"\s*(?:[、,&/]|与|和|及|以及|\band\b|\bor\b)\s*", groups[-1][1]):
            groups[-1] = ([*groups[-1][0], match.group(0).lower()], after)
        else:
            groups.append(([match.group(0).lower()], after))
    for group, after in groups:
        anchors = anchors_of(after, quotes) or fallback
        if not any(p.fullmatch(entity) for entity in group for p in (SERVICE, ORDER, IP)):
            anchors = [a for a in anchors_of(after, quotes) if a[0] in ("count", "value")]
        holding = [a for a in anchors if any(_holds(r, a) for r in records)]
        for entity in group:
            for values in [[a] for a in holding] if len(group) == 1 else [holding] if holding else []:
                if any(a[0] == "count" and int(a[1]) in _tallies(records, entity, named) for a in values):
                    continue
                if not any(_carries(r, entity, named) for r in records if any(_holds(r, a) for a in values)):
                    said = values[0][1][:40]
                    return Problem(
                        f"把「{said}」归到了 {entity}，但证据中持有它的记录不属于 {entity}",
                        f'attributes "{said}" to {entity}, but the evidence record holding it is not about {entity}',
                    )
    return None


def _tallies(records: list[Record], entity: str, named: set[str]) -> set[int]:
    """What a reader counts for ``entity`` in one call: its lines (rows, events) shown, and the lines its
    patterns stand for."""
    found: set[int] = set()
    for call in {r.call for r in records}:
        mine = [r for r in records if r.call == call and _carries(r, entity, named)]
        found.add(sum(1 for r in mine if r.pattern_count is None))
        found.add(sum(r.pattern_count or 0 for r in mine))
    return found - {0}


def anchors_of(clause: str, quotes: list[str]) -> list[Anchor]:
    found = [("quote", quotes[int(i)]) for i in re.findall(r"⟦(\d+)⟧", clause)]
    rest = STAMP.sub(lambda m: m.group(2), PERIOD.sub(" ", clause))
    found += [("time", t) for t in _TIME.findall(rest)]
    rest = _TIME.sub(" ", rest)
    found += [("count", c) for c in _COUNT.findall(rest)] + [("value", v) for v in _VALUE.findall(rest)]
    return found + [("word", w) for w in _WORD.findall(rest) if w.lower() not in NOT_FACTS]


def _holds(record: Record, anchor: Anchor) -> bool:
    kind, value = anchor
    if kind == "count":
        return int(value) in record.counts
    if kind in ("quote", "time"):
        return all(piece in record.text for piece in pieces(value))
    return re.search(rf"(?<![\w.-]){re.escape(value.lower())}(?![\w-]|\.\d)", record.text) is not None


def _carries(record: Record, entity: str, named: set[str]) -> bool:
    """About ``entity``: the service that logged it, an attribute (upstream=, app=, order=), a value of its row; a
    service merely mentioned in a line another service logged counts only if the sentence names that one too."""
    if record.service == entity or f"={entity}" in record.text:
        return True
    mentioned = re.search(rf"(?<![\w-]){re.escape(entity)}(?![\w-])", record.text) is not None
    return mentioned and (not SERVICE.fullmatch(entity) or record.service in named)


@dataclass(frozen=True)
class Clause:
    """One clause (entities masked as §), the entities it names, its values, and the records they select."""

    text: str
    entities: list[str]
    anchors: list[Anchor]
    records: list[Record]
    named: set[str]
    stated: str = ""
    """The cited documents' text when the clause reports what they say (a universal they state is theirs)."""

    def problem(self) -> Problem | None:
        return self._edge_problem() or self._recent_problem() or self._universal_problem()

    def holding(self) -> list[Anchor]:
        return [a for a in self.anchors if any(_holds(r, a) for r in self.records)]

    def subject(self, entities: list[str] | None = None) -> list[Record]:
        """The records carrying one of ``entities`` (the clause's, by default) and each of its quotes and words."""
        selecting = [a for a in self.holding() if a[0] in ("quote", "word")]
        carried = self.entities if entities is None else entities
        return [
            r for r in self.records
            if all(_holds(r, a) for a in selecting) and any(_carries(r, e, self.named) for e in carried or [""])
        ]  # fmt: skip

    def _edge_problem(self) -> Problem | None:
        times, plain = [a[1] for a in self.anchors if a[0] == "time"], PERIOD.sub(" ", self.text)
        subject = self.subject() if any(a[0] in ("quote", "word") for a in self.holding()) else []
        for marker, edge in ((_FIRST, min((r.first for r in subject if r.first), default=None)),
                             (_LAST, max((r.last for r in subject if r.last), default=None))):  # fmt: skip
            said = marker.search(plain)
            if (
                edge
                and times
                and said
                and not any(f"{edge + timedelta(hours=h):%H:%M:%S}".startswith(t) for t in times for h in (0, 8))
            ):
                return Problem(
                    f"说{said.group(0)}是 {times[0]}，但证据中对应记录的这一时间是 {edge:%H:%M:%S}",
                    f"says the {said.group(0)} time is {times[0]}, but the matching record has {edge:%H:%M:%S}",
                )
        return None

    def _recent_problem(self) -> Problem | None:
        """Every record a value of the clause cites, and some record of each entity it names, is recent."""
        if not (minutes := period_minutes(PERIOD.search(self.text))):
            return None
        span = timedelta(minutes=minutes)
        stale = [r for r in self.records if r.window_end and r.last and r.window_end - r.last > span]
        cited = [r for a in self.holding() if a[0] in ("value", "count", "time") for r in stale if _holds(r, a)]
        old = cited + [
            r for e in self.entities if (mine := self.subject([e])) and all(r in stale for r in mine) for r in mine
        ]
        if not old:
            return None
        return Problem(
            f"说最近 {minutes:g} 分钟，但引用的记录（{old[0].last:%m-%d %H:%M}）早于这个范围",
            f"says the last {minutes:g} minutes, but the cited record ({old[0].last:%m-%d %H:%M}) is older than that",
        )

    def _universal_problem(self) -> Problem | None:
        holding = self.holding()
        for match in [*_DETERMINER.finditer(self.text), *_POSTPOSED.finditer(self.text)]:
            if self.stated and normalise(match.group(0)) in self.stated:
                continue
            keys = _MEMBER_KEYS[match.group(1).lower().rstrip("s") if match.group(1).isascii() else match.group(1)]
            members = {r: set(re.findall(rf"\b\w*(?:{keys})\w*=([\w.-]+)", r.text)) for r in self.records}
            every = set().union(*members.values())
            facts = [a for a in holding if a[1].lower() not in every]
            showing = {m for r, found in members.items() if all(_holds(r, a) for a in facts) for m in found}
            if match.re is _DETERMINER and (len(every) < 2 or every - showing):
                shown = ", ".join(sorted(showing))
                return Problem(
                    f"用「{match.group(0)}」概括了全部{match.group(1)}，但证据只显示了 {shown or '无'}",
                    f'says "{match.group(0)}" of every {match.group(1)}, but the evidence shows only {shown or "none"}',
                )
            if match.re is _POSTPOSED and facts and not showing:
                return Problem(
                    f"说「{match.group(0)}」，但证据中没有同时显示这些事实的{match.group(1)}",
                    f'says "{match.group(0)}", but no {match.group(1)} in the evidence shows these facts together',
                )
        if not self.entities or not re.search(r"均|都|全部|\ball\b", self.text, re.I):
            return None
        selected = [r for r in self.records if any(_holds(r, a) for a in holding)]
        if any(not any(_carries(r, e, self.named) for e in self.entities) for r in selected):
            return Problem(
                f"说全部来自 {'、'.join(self.entities)}，但证据中有的记录不属于它",
                f"says all of it comes from {', '.join(self.entities)}, but some records in the evidence do not",
            )
        return None
