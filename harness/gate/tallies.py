"""Counts, sums and shares a reader makes by counting what a cited result shows.

A collection is a list of objects of one result (its rows, events or samples) or the entries of one cited call (one
per log pattern, one per series). A filter is a word the claim's own clause names (``UPDATE``, ``TIMEOUT``,
``order-service``): an object matches it when one of its text or number fields holds that word.

Candidates, for a collection of ``n`` objects with ``f`` numeric fields and a clause naming ``w`` filters:

- counts: ``n``, and the number of objects matching each filter: ``1 + w``;
- parts: the sum of each numeric field over the objects matching each filter (``FAILED 9 笔`` over two FAILED
  rows): ``f·w``;
- totals (only for a number written as one: 共, 合计, in total): the sum of each numeric field over all objects:
  ``f``;
- shares (a percentage or a ratio): each filtered count over ``n`` and each part over its field's sum: ``(1 + f)·w``.
  A share of a row the clause does not name is no candidate: with a cell share of every row, forty rows would
  ground nearly every percentage.

Every candidate still has to be specific (:mod:`harness.gate.specificity`): where many rows make many shares, a
share grounds nothing.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from harness.gate.tokens import tokenize, word_forms


@dataclass(frozen=True)
class Tally:
    """What one collection gives: counts, parts and totals (in the objects' own units), and shares (fractions)."""

    counts: set[Decimal]
    parts: set[Decimal]
    totals: set[Decimal]
    shares: set[Decimal]


def tally(objects: list[Mapping[str, Any]], filters: Iterable[str]) -> Tally:
    words = [_words(record) for record in objects]
    fields = _numeric_fields(objects)
    whole = Decimal(len(objects))
    counts, parts, shares = {whole}, set(), set()
    sums = {name: _sum(objects, name) for name in fields}
    for word in filters:
        matching = [record for record, held in zip(objects, words, strict=True) if word in held]
        if not matching or len(matching) == len(objects):
            continue
        count = Decimal(len(matching))
        counts.add(count)
        shares.add(count / whole)
        for name, column in sums.items():
            part = _sum(matching, name)
            parts.add(part)
            if column:
                shares.add(part / column)
    return Tally(counts, parts, set(sums.values()), shares)


def _numeric_fields(objects: list[Mapping[str, Any]]) -> list[str]:
    names = dict.fromkeys(name for record in objects for name, value in record.items() if _number(value) is not None)
    return list(names)


def _sum(objects: list[Mapping[str, Any]], name: str) -> Decimal:
    return sum((_number(record.get(name)) or Decimal(0) for record in objects), Decimal(0))


def _number(value: Any) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        return None
    return number if number.is_finite() else None


def _words(record: Mapping[str, Any]) -> frozenset[str]:
    """The lower-case words of a record's values (not its keys: every row has the same ones)."""
    return frozenset(word for value in record.values() for word in _value_words(value))


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
