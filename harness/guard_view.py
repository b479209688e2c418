"""The evidence the SemanticGuard is shown, within its input bound (ISS-014 §4.2: the Harness owns the guard's input
budget; §4.4: the guard judges the full draft against the verified evidence, grouped by ``analysis_id``).

When the whole snapshot (:func:`harness.snapshot.build_snapshot`) fits beside the query and the draft in
``semantic-guard.max-input-bytes``, the guard gets it, byte for byte. When it does not, the guard still gets the
draft in full, and a bounded view of the snapshot built by deterministic code (nothing is summarised or reworded):

* each analysis keeps, per call it cites, items of that call's evidence: an entry of the kind's ``evidence`` (a
  log pattern or line, a document, a series), or, where an entry holds a list of records (a result's rows, a
  series' samples), each record, the entry's other fields shown once beside the records kept;
* items are ranked per cited call: those holding the passages the analysis's own text quotes and its fact tokens
  (ids, numbers, times, codes) first, then those holding the rest of the report's, then the rest in the source's
  order. A token every item of the call holds tells nothing and counts for none; what an entry says of all its
  records (a series' labels and figures) counts for the one record of it that holds most;
* each cited call's first item is taken before any call gets a second, so that no analysis is left with nothing
  to be judged on; then the items that hold what the report says, then the rest, each round by round over the
  calls (every call's next item before any call's one after), while they fit;
* the items kept keep the source's order, and each analysis says in ``omitted_evidence``, for every cited call
  that lost items, its source and scope, how many items are shown and how many are left out. What the source
  counted (``match_count``, ``returned_count``) is shown as it was.

Should even the notes not fit, the view drops what the draft repeats (``analysis_text``) and the notes' scopes.
Only a draft whose query and text leave no room for that lean view — the draft itself over the bound, give or take
a few dozen bytes per cited call — has no view: the run falls back with GUARD_INPUT_TOO_LARGE.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from harness.draft import AnalysisItem, Draft
from harness.invocation import InvocationRecord
from harness.snapshot import Kinds, build_snapshot, snapshot_bytes, snapshot_evidence, source_of

ASKING_KEYS = frozenset({"asked", "scope", "source", "source_type"})
"""Fields of an entry that say what was asked and where (the same for every item of a call): no item is chosen
by them."""

PASSAGE_WEIGHT = 1000
"""A quoted passage an item holds counts as this many tokens: more than any text states."""

_RUN = re.compile(r"[0-9A-Za-z_][0-9A-Za-z_.:+/-]*")
_PIECE = re.compile(r"[0-9A-Za-z_]+")
_CLOCK = re.compile(r"(?<!\d)(\d{1,2}:\d{2})(:\d{2})?(?!\d)")
_DATE = re.compile(r"(?<!\d)\d{4}-\d{2}-\d{2}(?!\d)")
_QUOTED = re.compile(r"「([^「」]+)」|“([^“”]+)”|\"([^\"]+)\"|`([^`]+)`")


@dataclass(frozen=True)
class GuardView:
    """What the guard is shown of the verified evidence: the snapshot, or its bounded view."""

    evidence: list[dict[str, Any]]
    shown: int
    """Evidence items shown, over every analysis and the calls it cites."""
    omitted: int
    """Evidence items left out for the input bound; 0 when the whole snapshot is shown."""


@dataclass(frozen=True)
class _Item:
    cited: int
    """The (analysis, call) pair it belongs to, in draft order."""
    entry: int
    field: str | None
    """The entry's list of records it is one of; None when it is the whole entry."""
    index: int
    """Its place among the call's items, in the source's order."""
    cost: int
    """Its UTF-8 bytes in the guard input, an upper bound (a separator included)."""
    order: tuple[int, int, int, int, int]
    """Its place in the order items are taken in (the module docstring)."""


@dataclass(frozen=True)
class _Cited:
    """One call as one analysis cites it: the analysis, the call's readable source, its evidence entries."""

    analysis: AnalysisItem
    source: dict[str, str]
    entries: list[dict[str, Any]]


def guard_view(
    query: str, draft: Draft, verified: Mapping[str, InvocationRecord], kinds: Kinds, max_bytes: int
) -> GuardView | None:
    """The evidence to send beside ``query`` and ``draft`` within ``max_bytes``; None when the draft leaves no room
    for a view. Build it only after the EvidenceGuard passed (ValueError for a cited call not in ``verified``)."""
    snapshot = build_snapshot(draft, verified, kinds)
    visible = draft.user_visible()
    cited = [
        _Cited(item, source_of(verified[call], kinds), snapshot_evidence(verified[call], kinds))
        for item in draft.analysis
        for call in dict.fromkeys(item.tool_call_ids)
    ]
    items = _items(cited, draft)
    if snapshot_bytes(snapshot, visible, query) <= max_bytes:
        return GuardView(snapshot, len(items), 0)
    for lean in (False, True):
        room = max_bytes - snapshot_bytes(_skeleton(draft, cited, items, None, lean), visible, query)
        if room >= 0:
            kept = _take(items, cited, room)
            evidence = _skeleton(draft, cited, items, kept, lean)
            return GuardView(evidence, len(kept), len(items) - len(kept))
    return None


def _bytes(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())


def _record_fields(entry: Mapping[str, Any]) -> list[str]:
    """The fields of an entry that hold a list of records (rows, samples): each record is an item of its own."""
    return [
        key
        for key, value in entry.items()
        if isinstance(value, list) and value and all(isinstance(record, dict) for record in value)
    ]


def _header(entry: Mapping[str, Any], kept: set[tuple[str, int]] | None = None) -> dict[str, Any]:
    """The entry with only the records ``kept`` (``(field, index)``) of its record lists; none when None."""
    fields = _record_fields(entry)
    return {
        key: [record for index, record in enumerate(value) if kept is not None and (key, index) in kept]
        if key in fields
        else value
        for key, value in entry.items()
    }


def _items(cited: list[_Cited], draft: Draft) -> list[_Item]:
    """Every item of every cited call, each with its cost and its place in the order of taking."""
    report = _Said.of(" ".join(text for _, text in draft.visible_texts()))
    items: list[_Item] = []
    for number, one in enumerate(cited):
        own = _Said.of(one.analysis.text)
        parts: list[tuple[int, str | None, int, str, str]] = []
        for position, entry in enumerate(one.entries):
            fields = _record_fields(entry)
            plain = _leaf_text({k: v for k, v in entry.items() if k not in ASKING_KEYS and k not in fields})
            if not fields:
                parts.append((position, None, _bytes(entry) + 1, plain, ""))
            for field in fields:
                parts += [(position, field, _bytes(record) + 1, _leaf_text(record), plain) for record in entry[field]]
        scores = _scores(parts, own, report)
        ranked = sorted(range(len(parts)), key=lambda i: (_tier(*scores[i]), -scores[i][0], -scores[i][1], i))
        rank = {index: place for place, index in enumerate(ranked)}
        for index, (position, field, cost, *_) in enumerate(parts):
            mine, others = scores[index]
            order = (min(rank[index], 1), _tier(mine, others), rank[index], number, index)
            items.append(_Item(number, position, field, index, cost, order))
    return items


def _scores(parts: list[tuple[int, str | None, int, str, str]], own: _Said, report: _Said) -> list[tuple[int, int]]:
    """How much of the analysis's own text and of the whole report each item holds. A record is read on its own;
    what its entry says of all its records (a series' labels and figures) counts once, for the record of the
    entry that holds most, so that each series the report names is shown by its best sample."""
    texts = [_normal(part[3]) for part in parts]
    headers = [_normal(part[4]) for part in parts]
    held = [held_tokens(text) for text in texts]
    held_headers = {header: held_tokens(header) for header in set(headers)}
    every = [held[i] | held_headers[headers[i]] for i in range(len(parts))]
    common = frozenset.intersection(*every) if every else frozenset()
    scores = [
        (own.found(tokens - common, text), report.found(tokens - common, text))
        for tokens, text in zip(held, texts, strict=True)
    ]
    best: dict[int, int] = {}
    for index, part in enumerate(parts):
        if part[1] is not None and (part[0] not in best or scores[index] > scores[best[part[0]]]):
            best[part[0]] = index
    for index in best.values():
        header, tokens = headers[index], held_headers[headers[index]] - common
        scores[index] = (scores[index][0] + own.found(tokens, header), scores[index][1] + report.found(tokens, header))
    return scores


def _tier(own: int, report: int) -> int:
    return 0 if own else 1 if report else 2


def _take(items: list[_Item], cited: list[_Cited], room: int) -> list[_Item]:
    """The items taken, in the order of taking, while they fit in ``room`` bytes (an entry's other fields are
    charged with the first of its records)."""
    kept: list[_Item] = []
    charged: set[tuple[int, int]] = set()
    for item in sorted(items, key=lambda item: item.order):
        header = (item.cited, item.entry)
        cost = item.cost
        if item.field is not None and header not in charged:
            cost += _bytes(_header(cited[item.cited].entries[item.entry])) + 1
        if cost <= room:
            room -= cost
            kept.append(item)
            if item.field is not None:
                charged.add(header)
    return kept


def _skeleton(
    draft: Draft, cited: list[_Cited], items: list[_Item], kept: list[_Item] | None, lean: bool
) -> list[dict[str, Any]]:
    """The bounded view with the ``kept`` items; with None, none kept and every call's note at its largest (the
    room the notes may take)."""
    total = [0] * len(cited)
    for item in items:
        total[item.cited] += 1
    shown = [0] * len(cited)
    chosen: set[tuple[int, int, str | None, int]] = set()
    for item in kept or ():
        shown[item.cited] += 1
        chosen.add((item.cited, item.entry, item.field, item.index))
    groups: dict[str, dict[str, Any]] = {}
    for analysis in draft.analysis:
        group: dict[str, Any] = {"analysis_id": analysis.analysis_id, "kind": analysis.kind}
        if not lean:
            group["analysis_text"] = analysis.text
        groups[analysis.analysis_id] = {**group, "verified_evidence": [], "omitted_evidence": []}
    offsets = _offsets(cited)
    for number, one in enumerate(cited):
        group = groups[one.analysis.analysis_id]
        group["verified_evidence"] += _kept_entries(one, number, chosen, offsets[number])
        if kept is None or shown[number] < total[number]:
            note = {"source_type": one.source["source_type"], "source": one.source["source"]}
            if not lean:
                note["scope"] = one.source["scope"]
            counts = (total[number], total[number]) if kept is None else (shown[number], total[number] - shown[number])
            group["omitted_evidence"].append({**note, "shown_items": counts[0], "omitted_items": counts[1]})
    return list(groups.values())


def _offsets(cited: list[_Cited]) -> list[list[int]]:
    """Per cited call, the index of each entry's first item among the call's items (the order ``_items`` counts)."""
    offsets: list[list[int]] = []
    for one in cited:
        starts, count = [], 0
        for entry in one.entries:
            starts.append(count)
            fields = _record_fields(entry)
            count += sum(len(entry[field]) for field in fields) if fields else 1
        offsets.append(starts)
    return offsets


def _kept_entries(
    one: _Cited, number: int, chosen: set[tuple[int, int, str | None, int]], starts: list[int]
) -> list[dict[str, Any]]:
    """The call's entries as shown: whole when kept, with their kept records only, in the source's order."""
    shown: list[dict[str, Any]] = []
    for position, entry in enumerate(one.entries):
        fields = _record_fields(entry)
        if not fields:
            if (number, position, None, starts[position]) in chosen:
                shown.append(entry)
            continue
        index, kept = starts[position], set[tuple[str, int]]()
        for field in fields:
            for record in range(len(entry[field])):
                if (number, position, field, index) in chosen:
                    kept.add((field, record))
                index += 1
        if kept:
            shown.append(_header(entry, kept))
    return shown


@dataclass(frozen=True)
class _Said:
    """What a text of the report refers to: its fact tokens and the passages it quotes."""

    tokens: frozenset[str]
    passages: tuple[str, ...]

    @classmethod
    def of(cls, text: str) -> _Said:
        normal = _normal(text)
        quoted = (next(group for group in match.groups() if group) for match in _QUOTED.finditer(normal))
        pieces = (piece.strip() for passage in quoted for piece in re.split(r"…|\.\.\.", passage))
        return cls(mentioned(text), tuple(dict.fromkeys(piece for piece in pieces if len(piece) >= 4)))

    def found(self, held: frozenset[str], text: str) -> int:
        """How much of it an item holds: its tokens among ``held``, and its passages in ``text`` (normalised), each
        passage outweighing any number of tokens (a quoted line names its record)."""
        passages = sum(passage in text for passage in self.passages)
        return len(self.tokens & held) + PASSAGE_WEIGHT * passages


def mentioned(text: str) -> frozenset[str]:
    """The fact tokens a text states, lower case: ids, codes, numbers of two digits or more, dates and times."""
    normal = unicodedata.normalize("NFKC", text)
    found = {clock.group(0) for clock in _CLOCK.finditer(normal)} | set(_DATE.findall(normal))
    for run in _RUN.findall(normal):
        for part in run.split("/"):
            token = part.strip(".:+-")
            if _is_fact(token):
                found.add(token.lower())
    return frozenset(found)


def held_tokens(text: str) -> frozenset[str]:
    """Every token an item's text holds, lower case, whole and in pieces, so that ``mentioned`` tokens of the
    report are found in it (an ``order-4711`` inside ``orderId=order-4711``, a ``03:05`` inside a timestamp)."""
    normal = unicodedata.normalize("NFKC", text)
    found = set(_DATE.findall(normal))
    for clock in _CLOCK.finditer(normal):
        found |= {clock.group(1), clock.group(0)}
    for run in _RUN.findall(normal):
        found |= {token.lower() for part in run.split("/") if (token := part.strip(".:+-"))}
        found |= {piece.lower() for piece in _PIECE.findall(run)}
    return frozenset(found)


def _normal(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).lower().split())


def _leaf_text(value: Any) -> str:
    """The values of a JSON value (not its keys), as one text."""
    if isinstance(value, dict):
        return " ".join(_leaf_text(item) for item in value.values())
    if isinstance(value, list):
        return " ".join(_leaf_text(item) for item in value)
    return str(value)


def _is_fact(token: str) -> bool:
    digits = any(character.isdigit() for character in token)
    code = token.isupper() and len(token) >= 3
    camel = re.search(r"[a-z][A-Z]", token) is not None
    return (digits and len(token) >= 2) or "_" in token or "-" in token or code or camel
