"""Which log lines the log analyses quote: each result's key pattern, the lines naming what the question names,
and no line twice in one report.

* A line is a pattern of a result or one of its sampled events. Two lines are the same when they share service,
  level and template (the projector's own grouping, :func:`tools.logs.fingerprint.template`): an event is the same
  line as its pattern, and a pattern quoted by one analysis is not quoted again by another.
* A pattern is shown by its instance naming the most of the question's ids (:meth:`QueryFacts.named_ids`): its
  example, or a sampled event of the same line ("order-8821" is not what was asked about, "order-123" is).
* Key line of a result: its first severe pattern of the queried service, else of any service (the dominant
  error, as :func:`reading.key_pattern`), skipping patterns already taken. Keys are taken first, in result order,
  so that no side line takes the key of a later result.
* Side line of a result: the line (INFO or above) naming the most ids, then the most severe, of the queried
  service, the most frequent; when no line names an id, the first severe pattern of another service.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from operator import attrgetter
from typing import Any

from offline_model.conversation import Observation
from offline_model.query_facts import QueryFacts
from offline_model.reading import queried_service
from tools.logs.fingerprint import severity, template

Identity = tuple[str, str, str]
Ids = tuple[tuple[str, int], ...]
SEVERE = severity("WARN")
QUOTABLE = severity("INFO")
"""DEBUG and TRACE lines (request dumps, headers) are not quoted."""
_A, _Z = r"(?<![A-Za-z0-9_\-])", r"(?![A-Za-z0-9_])"


@dataclass(frozen=True)
class Line:
    """A quotable log line: a pattern (``count`` times from ``first_seen`` to ``last_seen``) or one event (``count``
    None), shown by ``message``: the pattern's example, or the event at ``at``."""

    identity: Identity
    message: str
    names: tuple[str, ...]
    """The question's ids that ``message`` names, heaviest first."""
    score: int
    count: int | None = None
    first_seen: str = ""
    last_seen: str = ""
    at: str | None = None

    @property
    def service(self) -> str:
        return self.identity[0]

    @property
    def level(self) -> str:
        return self.identity[1]

    @property
    def rank(self) -> int:
        return severity(self.level)


@dataclass(frozen=True)
class Quotes:
    key: Line | None
    side: Line | None


def choose(facts: QueryFacts, logs: list[Observation]) -> dict[str, Quotes]:
    """call_id -> the lines its analysis quotes, for the found log results in report order."""
    ids = facts.named_ids()
    lines = {observation.call_id: _lines(observation.result or {}, ids) for observation in logs}
    taken: set[Identity] = set()
    keys: dict[str, Line] = {}
    for observation in logs:
        key = _key(lines[observation.call_id], queried_service(observation), taken)
        if key is not None:
            keys[observation.call_id] = key
            taken.add(key.identity)
    chosen: dict[str, Quotes] = {}
    for observation in logs:
        key = keys.get(observation.call_id)
        free = [line for line in lines[observation.call_id] if line.identity not in taken]
        side = _named(free, queried_service(observation)) or _other_service(free, key)
        if side is not None:
            taken.add(side.identity)
        chosen[observation.call_id] = Quotes(key, side)
    return chosen


def named(text: str, ids: Iterable[str]) -> tuple[str, ...]:
    """The ids ``text`` holds as whole words (``order-12`` is not in ``order-123``)."""
    return tuple(ident for ident in ids if re.search(_A + re.escape(ident) + _Z, text, re.IGNORECASE))


def _lines(result: dict[str, Any], ids: Ids) -> list[Line]:
    """The patterns of a result in its order, each shown by its best instance, then events of no listed pattern."""
    events: dict[Identity, list[dict[str, Any]]] = {}
    for event in result.get("events") or []:
        if isinstance(event, dict):
            events.setdefault(_identity(event, "message"), []).append(event)
    lines: list[Line] = []
    for pattern in result.get("patterns") or []:
        if not isinstance(pattern, dict):
            continue
        identity = _identity(pattern, "example")
        shown = _line(identity, str(pattern.get("example") or ""), ids)
        best = max(
            (_event_line(identity, e, ids) for e in events.pop(identity, [])), key=attrgetter("score"), default=None
        )
        if best is not None and best.score > shown.score:
            shown = best
        first, last = str(pattern.get("first_seen")), str(pattern.get("last_seen"))
        lines.append(replace(shown, count=int(pattern.get("count") or 1), first_seen=first, last_seen=last))
    for identity, group in events.items():
        lines.append(max((_event_line(identity, event, ids) for event in group), key=attrgetter("score")))
    return lines


def _identity(entry: dict[str, Any], field: str) -> Identity:
    return str(entry.get("service") or ""), str(entry.get("level") or "").upper(), template(str(entry.get(field) or ""))


def _line(identity: Identity, message: str, ids: Ids) -> Line:
    weights = dict(ids)
    names = tuple(sorted(named(message, weights), key=lambda ident: -weights[ident]))
    return Line(identity, message, names, sum(weights[ident] for ident in names))


def _event_line(identity: Identity, event: dict[str, Any], ids: Ids) -> Line:
    return replace(_line(identity, str(event.get("message") or ""), ids), at=str(event.get("timestamp")))


def _key(lines: list[Line], service: str | None, taken: set[Identity]) -> Line | None:
    severe = [line for line in lines if line.count is not None and line.rank >= SEVERE and line.identity not in taken]
    own = [line for line in severe if line.service == service]
    return next(iter(own or severe), None)


def _named(free: list[Line], service: str | None) -> Line | None:
    candidates = [line for line in free if line.score > 0 and line.rank >= QUOTABLE]
    return min(
        candidates,
        key=lambda line: (-line.score, -line.rank, line.service != service, -(line.count or 1)),
        default=None,
    )


def _other_service(free: list[Line], key: Line | None) -> Line | None:
    if key is None:
        return None
    return next(
        (line for line in free if line.count is not None and line.rank >= SEVERE and line.service != key.service),
        None,
    )
