"""The records evidence is read as: one log line, log pattern or row each, with its counts, times and call."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from offline_model.guard.evidence import SCOPE_KEYS, is_zero, readable_text

_ENUM = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*")
STAMP = re.compile(r"(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)")


@dataclass(frozen=True)
class Record:
    """One log line, log pattern or row as ``key=value`` text, with its counts, times and its query's end."""

    service: str
    text: str
    counts: frozenset[int]
    first: datetime | None
    last: datetime | None
    window_end: datetime | None
    call: str = ""
    """The call it came from (its source and scope): what a reader counts over."""
    pattern_count: int | None = None
    """A log pattern stands for ``count`` lines (None: a line, an event or a row, which stands for one)."""


def records_of(entries: list[Any]) -> list[Record]:
    records = []
    unique = {json.dumps(e, sort_keys=True, ensure_ascii=False): e for e in entries if isinstance(e, dict)}
    for entry in (e for e in unique.values() if e.get("source_type") != "KNOWLEDGE" and not is_zero(e)):
        selection = entry.get("selection") if isinstance(entry.get("selection"), dict) else {}
        scope, service = (
            str(entry.get("scope") or ""),
            str(entry.get("service") or selection.get("service") or "").lower(),
        )
        params, window = " ".join(re.findall(r'"([^"]*)"', scope.partition("params=")[2])), moments(scope)
        counts = frozenset(v for k, v in entry.items() if k in ("count", "match_count") and isinstance(v, int))
        for row in entry.get("rows") or [None]:
            cells = frozenset(v for v in (row or {}).values() if isinstance(v, int) and not isinstance(v, bool))
            body = row or {k: v for k, v in entry.items() if k not in {*SCOPE_KEYS, "source", "source_type"}}
            text = " ".join(f"{k}={v}" for k, v in body.items() if not isinstance(v, dict | list))
            times: list[datetime | None] = [*sorted(moments(text) if row is None else [])] or [None]
            end = window[-1] if len(window) > 1 else None
            readable, call, lines = (
                readable_text(f"{text} {params}"),
                f"{entry.get('source')} {scope}",
                _lines(entry, row),
            )
            records.append(Record(service, readable, counts | cells, times[0], times[-1], end, call, lines))
    return records


def _lines(entry: dict[str, Any], row: Any) -> int | None:
    count = entry.get("count")
    return count if row is None and isinstance(count, int) and not isinstance(count, bool) else None


def moments(text: str) -> list[datetime]:
    return [datetime.fromisoformat(f"{m.group(1)}T{m.group(2)}") for m in STAMP.finditer(text)]


def row_values(entries: list[Any]) -> re.Pattern[str] | None:
    """The enumerated values of returned rows (a status, a channel): each carries the numbers of its own row."""
    found = {
        cell
        for entry in entries
        if isinstance(entry, dict)
        for row in entry.get("rows") or []
        if isinstance(row, dict)
        for cell in row.values()
        if isinstance(cell, str) and _ENUM.fullmatch(cell)
    }
    names = "|".join(re.escape(value) for value in sorted(found, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{names})(?![\w-])") if found else None
