"""Fact tokens marked where a writer puts them, so the mutator knows each one's kind, value and place.

A writer never types a fact: it calls :func:`mark` with a value read from a tool result, which wraps the text in
private-use characters together with what the token is (``kind``) and how it was made (``meta``: the number and
its unit, the instant and its notation, whether it is approximate or derived). :func:`unmark` strips the marks
from a finished text and returns the :class:`Span` of every token, so a mutation replaces exactly one of them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Literal

Kind = Literal["number", "id", "status", "time"]
KINDS: tuple[Kind, ...] = ("number", "id", "status", "time")

_OPEN, _SEP, _CLOSE = "\ue000", "\ue001", "\ue002"
_MARK = re.compile(f"{_OPEN}([a-z]+){_SEP}([^{_SEP}]*){_SEP}([^{_CLOSE}]*){_CLOSE}")


def mark(kind: Kind, text: str, **meta: Any) -> str:
    """``text`` marked as a fact token of ``kind``; ``meta`` must be JSON."""
    return f"{_OPEN}{kind}{_SEP}{json.dumps(meta, ensure_ascii=False, sort_keys=True)}{_SEP}{text}{_CLOSE}"


def quantity(number: str, unit: str = "", sep: str = " ", **meta: Any) -> str:
    """A number with its unit as one token (``30 秒``, ``31.6%``): the number and the unit can each be mutated."""
    text = f"{number}{sep if unit and unit != '%' else ''}{unit}"
    return mark("number", text, number=number, unit=unit, **meta)


@dataclass(frozen=True)
class Span:
    """One fact token of a finished text: ``text[start:end]`` is what the writer put there."""

    start: int
    end: int
    kind: Kind
    text: str
    meta: dict[str, Any] = field(default_factory=dict)


def unmark(marked: str) -> tuple[str, list[Span]]:
    """The text a reader sees and the spans of its tokens, in order."""
    out: list[str] = []
    spans: list[Span] = []
    position, length = 0, 0
    for found in _MARK.finditer(marked):
        before = marked[position : found.start()]
        out.append(before)
        length += len(before)
        kind, meta, text = found.group(1), json.loads(found.group(2)), found.group(3)
        spans.append(Span(length, length + len(text), kind, text, meta))  # type: ignore[arg-type]
        out.append(text)
        length += len(text)
        position = found.end()
    out.append(marked[position:])
    return "".join(out), spans


def plain(marked: str) -> str:
    """The text without its marks."""
    return unmark(marked)[0]


def with_meta(marked: str, **extra: Any) -> str:
    """``marked`` with ``extra`` added to the meta of every token in it (a fact tags its tokens with its pattern)."""

    def tagged(found: re.Match[str]) -> str:
        meta = {**json.loads(found.group(2)), **extra}
        return mark(found.group(1), found.group(3), **meta)  # type: ignore[arg-type]

    return _MARK.sub(tagged, marked)
