"""The one normalisation every release rule and the secret detector read text through.

A model can hide what a text says from a rule without hiding it from a reader: a zero-width space inside a word
(``pass\\u200bword``), a Cyrillic ``а`` in ``pаssword``, full-width letters, markdown emphasis around a key
(``**Password**:``), a value in a code span or a table cell, an XML element (``<password>…</password>``), an HTML
entity. :func:`normal_form` undoes all of these, in this order:

1. invisible characters go: zero-width characters, the soft hyphen, bidi controls;
2. NFKC, one character at a time (full-width ``ｐ`` -> ``p``, ``：`` -> ``:``, ``①`` -> ``1``);
3. confusable letters fold to the Latin letter they imitate (Cyrillic and Greek look-alikes, dotless ``ı``), and
   hyphen look-alikes (``‐``, ``‑``, ``−``) to ``-``;
4. HTML entities are decoded (``&#119;`` -> ``w``);
5. tags become their text: a formatting element of HTML (``<b>``, ``<code>`` …) disappears, an HTML table's rows
   become pipe rows (``<tr><td>password</td><td>x</td></tr>`` -> ``| password | x |``, a row of ``<th>`` its
   header), any other element is data and keeps its name as a key (``<password>x</password>`` -> ``password:
   x``); comments lose their delimiters, not their text;
6. markdown: code fences and code spans lose their backticks (their places are kept in
   :attr:`NormalForm.code_spans`), emphasis (``**x**``, ``*x*``, ``__x__``, ``_x_`` between word boundaries,
   ``~~x~~``; markers around no letter or digit, ``******`` or ``*:*``, stay) its markers, links become ``text (url)``,
   heading, quote and bullet markers go, and a table's rows become text: a data row of a table with a header
   reads ``header: cell; header: cell``, the header row ``cell; cell``, a lone pipe row ``cell: cell``.

The result remembers where each of its characters came from (:meth:`NormalForm.source_span`), so a detector that
finds a secret in the normal form can redact it in the text as written, and the user always sees the original.
Normalising a normal form changes nothing. Plain ASCII with none of ``*`_~|<>&[#`` costs one regex search, and
ASCII in which no step finds anything to undo (a log line with a ``_``) one search per step.
"""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass

from contract.normal_form.characters import INVISIBLE_RUN, fold_confusables, nfkc
from contract.normal_form.edit import remove
from contract.normal_form.markup import (
    AUTOLINK,
    CODE_SPAN,
    ENTITY,
    FENCE,
    LINE_MARKER,
    LINK,
    TAG,
    code,
    entities,
    markdown,
    tags,
)

__all__ = ["NormalForm", "normal_form", "normalised"]

_MARKUP = re.compile(r"[*`_~|<>&\[#]")


@dataclass(frozen=True)
class NormalForm:
    """``text`` as the rules read it; ``origin[i]`` is the index in the source of ``text[i]`` (None: the same)."""

    text: str
    origin: tuple[int, ...] | None
    code_spans: tuple[tuple[int, int], ...] = ()
    """Where ``text`` holds what was written as code (in backticks or a fence): commands and SQL live there."""

    def source_span(self, start: int, end: int) -> tuple[int, int]:
        """The span of the source that ``text[start:end]`` came from."""
        if self.origin is None or start >= end:
            return start, end
        return self.origin[start], self.origin[end - 1] + 1

    def in_code(self, start: int, end: int) -> bool:
        return any(a <= start and end <= b for a, b in self.code_spans)


@functools.lru_cache(maxsize=8192)
def normal_form(text: str) -> NormalForm:
    """``text`` with invisible characters, compatibility forms, confusables, entities, tags and markdown undone."""
    if text.isascii() and (_MARKUP.search(text) is None or _nothing_to_undo(text)):
        return NormalForm(text, None)
    origin = list(range(len(text)))
    if "&" in text:
        text, origin = entities(text, origin)
    text, origin = remove(INVISIBLE_RUN, text, origin)
    if not text.isascii():
        text, origin = nfkc(text, origin)
        text = fold_confusables(text)
    spans: list[tuple[int, int]] = []
    if _MARKUP.search(text):
        text, origin = tags(text, origin)
        text, origin, spans = code(text, origin)
        text, origin = markdown(text, origin)
    return NormalForm(text, tuple(origin), tuple(_normal_spans(spans, origin)))


_STEPS = (ENTITY, TAG, FENCE, CODE_SPAN, AUTOLINK, LINK)
_STEP_MARKS = re.compile(r"[&<`]|~~~|\]\(")
"""What every match of one of ``_STEPS`` holds."""


def _nothing_to_undo(text: str) -> bool:
    """Whether no step would change the ASCII ``text`` (a log line with a ``_`` or a ``[``): a few searches
    instead of rebuilding it step by step."""
    if "|" in text or _may_be_emphasis(text):
        return False
    starts = {line.lstrip(" \t")[:1] for line in text.split("\n")} if "\n" in text else {text.lstrip(" \t")[:1]}
    if not starts.isdisjoint("#>-*+") and LINE_MARKER.search(text):
        return False
    return _STEP_MARKS.search(text) is None or not any(pattern.search(text) for pattern in _STEPS)


def _may_be_emphasis(text: str) -> bool:
    """Whether ``text`` holds what every match of ``EMPHASIS`` holds: a ``*``, a ``~`` or a ``_`` that starts no
    word's second part (``ERR_TIMEOUT`` and ``order_no`` start no emphasis)."""
    if "*" in text or "~" in text:
        return True
    at = text.find("_")
    while at >= 0:
        if at == 0 or not (text[at - 1].isalnum() or text[at - 1] == "_"):
            return True
        at = text.find("_", at + 1)
    return False


def _normal_spans(spans: list[tuple[int, int]], origin: list[int]) -> list[tuple[int, int]]:
    """Source spans as spans of the normal form: the characters whose origin lies inside each."""
    found = []
    for start, end in sorted(spans):
        first, last = bisect.bisect_left(origin, start), bisect.bisect_left(origin, end)
        if first < last:
            found.append((first, last))
    return found


def normalised(text: str) -> str:
    """The normal form's text."""
    return normal_form(text).text
