"""What one record of the evidence holds (an entry, a row, an event), as the rules that compute from records read
it: its words, its named numbers and its instants; and the parts of a list of records a clause names.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from harness.gate.evidence import SCOPE_KEY, WINDOW_KEYS
from harness.gate.moments import Moment
from harness.gate.quantities import TIME_UNITS, key_unit
from harness.gate.tokens import Number, tokenize, word_forms

Record = Mapping[str, Any]

_PAIR = re.compile(r"(?<![\w.])(?P<key>[A-Za-z_][A-Za-z0-9_]*)[=:][ \t]?(?P<number>\d+(?:\.\d+)?)(?P<unit>[A-Za-z]+)?")
"""A named number inside a text field (``Query_time=21.546s``, ``rt=30.001s``, ``attempt=3``)."""
_UPDATE = re.compile(r"(?<![\w-])update(?![\w-])(?<!for update)", re.IGNORECASE)


def words(record: Record, *, names: bool = False) -> frozenset[str]:
    """The lower-case words of a record's values, not of its query scope (every entry of a call shares it: it
    tells no entry from another). With ``names``, also of its keys and its scope: the names of tables, columns and
    fields a compound identifier may join."""
    held = {word for key, value in record.items() if names or key != SCOPE_KEY for word in _value_words(value)}
    if names:
        held |= {word for key in record for word in word_forms(str(key))}
    return frozenset(held)


def fields(record: Record, *, texts: bool = True) -> dict[str, Number]:
    """A record's named numbers: its numeric fields (in the unit the key names) and, with ``texts``, the
    ``name=value`` pairs of its text fields (in the unit written after the value)."""
    named: dict[str, Number] = {}
    for name, value in record.items():
        number = as_decimal(value)
        if number is not None:
            named[str(name)] = Number(number, key_unit(str(name)), str(value))
        elif isinstance(value, str) and texts:
            for pair in _PAIR.finditer(value):
                unit = (pair["unit"] or "").lower()
                written = pair["number"] + (pair["unit"] or "")
                named.setdefault(
                    pair["key"], Number(Decimal(pair["number"]), unit if unit in TIME_UNITS else None, written)
                )
    return named


def instants(record: Record) -> list[Moment]:
    """The instants a record's own text fields name, in UTC, in order (not those of nested objects, and not the
    queried window)."""
    values = (value for key, value in record.items() if key != SCOPE_KEY and key not in WINDOW_KEYS)
    return [
        moment.utc()
        for value in values
        if isinstance(value, str)
        for moment in tokenize(value).moments
        if moment.has_time
    ]


def holds(record: Record, name: str) -> bool:
    """The record holds ``name``: a word of its fields, or a phrase of several (``update biz_order``) in one text.
    ``UPDATE`` names an UPDATE statement: a ``SELECT … FOR UPDATE`` does not hold it."""
    if name == "update":
        return any(_UPDATE.search(text) for key, value in record.items() if key != SCOPE_KEY for text in _texts(value))
    if " " not in name:
        return name in words(record)
    return any(
        name in _phrase_text(text) for key, value in record.items() if key != SCOPE_KEY for text in _texts(value)
    )


def named_parts(records: list[Record], filters: Iterable[str]) -> list[list[Record]]:
    """The records holding each filter, and those holding all of them (a clause that names ``UPDATE biz_order``
    and ``order-123`` counts the records holding both); only non-empty, proper parts, once each."""
    filters = list(filters)
    parts = [[record for record in records if holds(record, name)] for name in filters]
    if len(filters) > 1:
        parts.append([record for record in records if all(holds(record, name) for name in filters)])
    unique: dict[tuple[int, ...], list[Record]] = {}
    for part in parts:
        if 0 < len(part) < len(records):
            unique.setdefault(tuple(id(record) for record in part), part)
    return list(unique.values())


def as_decimal(value: Any) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        return None
    return number if number.is_finite() else None


def _value_words(value: Any) -> frozenset[str]:
    if isinstance(value, str):
        return _text_words(value)
    if isinstance(value, Mapping):
        return frozenset(word for item in value.values() for word in _value_words(item))
    if isinstance(value, list | tuple):
        return frozenset(word for item in value for word in _value_words(item))
    return frozenset(word_forms(str(value))) if value is not None else frozenset()


@functools.lru_cache(maxsize=4096)
def _text_words(text: str) -> frozenset[str]:
    return frozenset(tokenize(text).words)


def _texts(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        return [text for item in value.values() for text in _texts(item)]
    if isinstance(value, list | tuple):
        return [text for item in value for text in _texts(item)]
    return []


@functools.lru_cache(maxsize=4096)
def _phrase_text(text: str) -> str:
    """``text`` lower-cased with its runs of blanks as one space (what a phrase filter is looked up in)."""
    return " ".join(text.lower().split())
