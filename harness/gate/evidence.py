"""What a claim may state: the fact tokens of the evidence it cites, split into what the sources returned and what
the agent asked them.

Evidence is what the source returned, never what the agent wrote into its own arguments. Each snapshot entry of an
evidence kind says which is which (:mod:`contract.kind`): ``asked`` holds the values the agent wrote into the call
(its free query text, its SQL literals and params), ``scope`` describes the query as asked (those values among the
validated names: data source, tables, topic, metric, window), and every other field is what came back. So
:class:`Grounds` keeps two sets of tokens: ``found`` (what came back, the validated parts of the scope and the
user's question) and ``asked`` (the agent's own values). A token only asked may be *named* as the query's scope,
never stated as a finding (:mod:`harness.gate.scope_naming`). For a NEGATIVE_OBSERVATION the scope is the fact
it states, so everything counts as found.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from harness.gate.moments import Moment, span_seconds
from harness.gate.quantities import key_unit
from harness.gate.tokens import Number, tokenize, word_forms

ASKED_KEY = "asked"
SCOPE_KEY = "scope"
WINDOW_KEYS = frozenset({"start_time", "end_time"})
"""The two ends of a queried window: its length is the window's, never a duration the source observed."""
UNIT_KEY = "unit"
"""An entry may name the unit of its bare figures (a metric's ``http_server_requests_seconds``: ``seconds``)."""


@dataclass
class Held:
    """The fact tokens of some texts and values."""

    numbers: list[Number] = field(default_factory=list)
    moments: list[Moment] = field(default_factory=list)
    words: set[str] = field(default_factory=set)
    window_seconds: list[Decimal] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    """The texts themselves (what a quotation must come from)."""
    records: list[Mapping[str, Any]] = field(default_factory=list)
    """Every JSON object of the evidence (an entry, a row, an event): what a duration within one record reads."""
    collections: list[list[Mapping[str, Any]]] = field(default_factory=list)
    """Every list of objects (rows, events, samples) and the entries of each cited call: what a count reads."""
    stated: list[Number] = field(default_factory=list)
    """Numbers an analysis states: a conclusion may restate them as written (the same quantity in the same unit),
    not take ``21 个`` for ``21 笔``."""

    def add_text(self, text: str, *, stated: bool = False) -> None:
        """The tokens of ``text``; with ``stated``, a text of the report itself (an analysis a conclusion rests on):
        its numbers are :attr:`stated`, not evidence."""
        tokens = tokenize(text)
        if stated:
            self.stated += tokens.numbers
        else:
            self.numbers += tokens.numbers
        self.moments += tokens.moments
        self.words |= tokens.words
        self.window_seconds += tokens.windows
        self.texts.append(text)

    def add_value(self, value: Any, key: str | None = None, unit: str | None = None) -> None:
        """Every leaf of a JSON value: strings are read as text, numbers take the unit their key names (else
        ``unit``, the one their entry names)."""
        if isinstance(value, Mapping):
            self.records.append(value)
            for name, item in value.items():
                self.words |= word_forms(str(name))
                self.add_value(item, str(name), unit)
            self._add_window(value)
        elif isinstance(value, list | tuple):
            objects = [item for item in value if isinstance(item, Mapping)]
            if len(objects) > 1:
                self.collections.append(objects)
            for item in value:
                self.add_value(item, key, unit)
        elif isinstance(value, str):
            self.add_text(value)
        elif isinstance(value, bool) or value is None:
            self.words.add("null" if value is None else str(value).lower())
        elif isinstance(value, int | float):
            try:
                number = Decimal(str(value))
            except InvalidOperation:
                return
            if number.is_finite():
                self.numbers.append(Number(number, key_unit(key) or unit, str(value)))
                self.words.add(str(value).lower())

    def merged(self, other: Held) -> Held:
        return Held(
            self.numbers + other.numbers,
            self.moments + other.moments,
            self.words | other.words,
            self.window_seconds + other.window_seconds,
            self.texts + other.texts,
            self.records + other.records,
            self.collections + other.collections,
            self.stated + other.stated,
        )

    def _add_window(self, value: Mapping[str, Any]) -> None:
        start, end = value.get("start_time"), value.get("end_time")
        if isinstance(start, str) and isinstance(end, str):
            first, last = tokenize(start).moments, tokenize(end).moments
            if first and last and first[0].has_time and last[0].has_time:
                self.window_seconds.append(span_seconds(first[0].utc(), last[0].utc()))


@dataclass
class Grounds:
    """What a claim may rest on: ``found`` it may state; ``asked`` it may only name as the scope of a query."""

    found: Held = field(default_factory=Held)
    asked: Held = field(default_factory=Held)

    def merged(self, other: Grounds) -> Grounds:
        return Grounds(self.found.merged(other.found), self.asked.merged(other.asked))


def evidence_of(values: Iterable[Any], texts: Iterable[str] = (), *, scope_is_fact: bool = False) -> Grounds:
    """The grounds of ``values`` (snapshot entries, references, any JSON) and of ``texts`` (read as found).

    In an entry, ``asked`` values are the agent's own; the tokens of its ``scope`` text that are among them are
    asked too, the rest of the scope (validated names, the window) is found. With ``scope_is_fact`` (a
    NEGATIVE_OBSERVATION) everything is found."""
    grounds = Grounds()
    values = list(values)
    for group in _calls(values):
        grounds.found.collections.append(group)
    for value in values:
        if isinstance(value, Mapping) and ASKED_KEY in value and not scope_is_fact:
            _add_entry(grounds, value)
        elif isinstance(value, Mapping) and ASKED_KEY in value:
            grounds.found.add_value({key: item for key, item in value.items() if key != ASKED_KEY})
        else:
            grounds.found.add_value(value)
    for text in texts:
        grounds.found.add_text(text)
    return grounds


def _calls(values: list[Any]) -> list[list[Mapping[str, Any]]]:
    """The entries of each cited call by their shape (a log call's pattern summaries apart from its events, its
    metric series), without what the agent asked and the call's header: entries of one call share their source and
    scope, entries of one shape their fields."""
    calls: dict[tuple[str, str, frozenset[str]], list[Mapping[str, Any]]] = {}
    for value in values:
        if isinstance(value, Mapping) and ASKED_KEY in value:
            key = (str(value.get("source")), str(value.get(SCOPE_KEY)), frozenset(value))
            calls.setdefault(key, []).append({name: item for name, item in value.items() if name != ASKED_KEY})
    return [_own(entries) for entries in calls.values() if len(entries) > 1]


def _own(entries: list[dict[str, Any]]) -> list[Mapping[str, Any]]:
    """The entries without the fields all of them repeat (the call's header: match_count, series_count, source):
    what tells one entry from another, and what a count may add up."""
    shared = {
        name for name in entries[0] if all(name in entry and entry[name] == entries[0][name] for entry in entries)
    }
    return [
        {name: item for name, item in entry.items() if name not in shared or name == SCOPE_KEY} for entry in entries
    ]


def _add_entry(grounds: Grounds, entry: Mapping[str, Any]) -> None:
    asked = Held()
    asked.add_value(entry[ASKED_KEY])
    grounds.asked = grounds.asked.merged(asked)
    unit = entry.get(UNIT_KEY) if isinstance(entry.get(UNIT_KEY), str) else None
    grounds.found.records.append({key: item for key, item in entry.items() if key != ASKED_KEY})
    for key, item in entry.items():
        if key == ASKED_KEY:
            continue
        if key != SCOPE_KEY or not isinstance(item, str):
            grounds.found.words |= word_forms(key)
            grounds.found.add_value(item, key, unit)
            continue
        scope = tokenize(item)
        asked_values = {number.value for number in asked.numbers}
        asked_moments = {_instant(moment) for moment in asked.moments}
        grounds.found.words |= scope.words - asked.words
        grounds.found.numbers += [number for number in scope.numbers if number.value not in asked_values]
        grounds.found.moments += [moment for moment in scope.moments if _instant(moment) not in asked_moments]
        grounds.found.window_seconds += scope.windows


def _instant(moment: Moment) -> tuple[int | None, ...]:
    return (moment.year, moment.month, moment.day, moment.hour, moment.minute, moment.second, moment.zone)
