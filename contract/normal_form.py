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
5. tags become their text: a formatting element of HTML (``<b>``, ``<code>``, ``<td>`` …) disappears, any other
   element is data and keeps its name as a key (``<password>x</password>`` -> ``password: x``); comments lose
   their delimiters, not their text;
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
import html
import re
import unicodedata
from dataclasses import dataclass

_INVISIBLE = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff"
)
_INVISIBLE_RUN = re.compile(f"[{_INVISIBLE}]+")

_CONFUSABLES = {
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t",
    "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j", "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h", "ѵ": "v",
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T", "У": "Y",
    "Х": "X", "Ѕ": "S", "І": "I", "Ј": "J", "Ԛ": "Q", "Ԝ": "W",
    # Greek
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P",
    "Τ": "T", "Υ": "Y", "Χ": "X", "α": "a", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u",
    "χ": "x",
    # Latin and Armenian look-alikes
    "ı": "i", "ȷ": "j", "ɡ": "g", "ɑ": "a", "օ": "o", "ս": "u", "ց": "g",
    # hyphens that read as '-'
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2212": "-", "\ufe63": "-",
}  # fmt: skip
"""Characters that imitate an ASCII letter or hyphen, from Unicode's confusables for Latin."""
_CONFUSABLE = re.compile("[" + "".join(_CONFUSABLES) + "]")


def _nfkc_changes() -> re.Pattern[str]:
    """A class of every character NFKC changes: the BMP scanned once, plus the supplementary blocks that fold."""
    spans: list[list[int]] = []
    for code in range(0x80, 0x10000):
        char = chr(code)
        if 0xD800 <= code < 0xE000 or unicodedata.normalize("NFKC", char) == char:
            continue
        if spans and code == spans[-1][1] + 1:
            spans[-1][1] = code
        else:
            spans.append([code, code])
    # (0x1FBF0-0x1FBF9: the segmented digits 🯰-🯹, NFKC 0-9)
    spans += [[0x10780, 0x107BF], [0x1D400, 0x1D7FF], [0x1F100, 0x1F2FF], [0x1FBF0, 0x1FBF9], [0x2F800, 0x2FA1F]]
    return re.compile("[" + "".join(f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in spans) + "]")


_NFKC_CHANGES = _nfkc_changes()
_MARKUP = re.compile(r"[*`_~|<>&\[#]")

_FORMATTING_TAGS = frozenset(
    [
        "a",
        "abbr",
        "address",
        "article",
        "aside",
        "b",
        "bdi",
        "bdo",
        "big",
        "blockquote",
        "body",
        "br",
        "caption",
        "center",
        "cite",
        "code",
        "col",
        "colgroup",
        "dd",
        "del",
        "details",
        "dfn",
        "div",
        "dl",
        "dt",
        "em",
        "figcaption",
        "figure",
        "font",
        "footer",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "head",
        "header",
        "hr",
        "html",
        "i",
        "img",
        "ins",
        "kbd",
        "label",
        "li",
        "main",
        "mark",
        "nav",
        "ol",
        "p",
        "pre",
        "q",
        "rp",
        "rt",
        "ruby",
        "s",
        "samp",
        "section",
        "small",
        "span",
        "strike",
        "strong",
        "sub",
        "summary",
        "sup",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "time",
        "title",
        "tr",
        "tt",
        "u",
        "ul",
        "var",
        "wbr",
    ]
)
"""HTML elements that only shape how a text looks: they carry no key of their own."""
_BLOCK_TAGS = frozenset({
    "address", "article", "aside", "blockquote", "body", "br", "div", "dl", "dt", "dd", "figure", "footer", "h1", "h2",
    "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table", "tbody", "tfoot",
    "thead", "tr", "ul",
})  # fmt: skip
_TAG = re.compile(
    r"<!--(?P<comment>.*?)-->"
    r"|<(?P<close>/)?(?P<name>[A-Za-z][A-Za-z0-9_.:-]{0,63})(?P<attrs>(?:\s+[^<>]*?)?)\s*(?P<self>/)?>",
    re.DOTALL,
)
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")

_FENCE = re.compile(r"^[ \t]{0,3}(?:```|~~~)[^\n]*(?:\n|$)", re.MULTILINE)
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(?P<code>.+?)(?<!`)\1(?!`)", re.DOTALL)
_LINK = re.compile(r"!?\[(?P<text>[^\[\]\n]{0,500})\]\((?P<url>[^()\s]{1,2000})(?:\s+\"[^\"\n]*\")?\)")
_AUTOLINK = re.compile(r"<(?P<url>[A-Za-z][A-Za-z0-9+.-]{1,31}:[^<>\s]{1,2000})>")
_EMPHASIS = re.compile(
    # ** and ~~ anywhere but between ASCII letters or digits (2**3**4 is arithmetic; 密码**x** is emphasis), *x*
    # likewise, __x__ and _x_ only between word boundaries (snake_case and __init__-like names stay)
    r"(?<![A-Za-z0-9*~])(?P<m>\*\*|~~)(?=\S)(?P<inner>[^\n]+?)(?<=\S)(?P=m)(?![A-Za-z0-9*~])"
    r"|(?<![\w_])__(?=[^\s_])(?P<dunder>[^\n]+?)(?<=[^\s_])__(?![\w_])"
    r"|(?<![A-Za-z0-9*])\*(?=[^\s*])(?P<star>[^*\n]+?)(?<=[^\s*])\*(?![A-Za-z0-9*])"
    r"|(?<![\w_])_(?=[^\s_])(?P<under>[^_\n]+?)(?<=[^\s_])_(?![\w_])"
)
_LINE_MARKER = re.compile(r"^[ \t]{0,3}(?:#{1,6}[ \t]+|>[ \t]?|[-*+][ \t]+)", re.MULTILINE)
_LONE_ROW = re.compile(r"[ \t]*\|[^\n|]*\|[^\n]*")
_TABLE_RULE = re.compile(r"^[ \t]*\|?[ \t]*:?-{2,}:?[ \t]*(?:\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*$")


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


class _Edit:
    """A text and the source index of each of its characters, rebuilt by one transformation."""

    def __init__(self, text: str, origin: list[int]) -> None:
        self.text, self.origin = text, origin
        self._parts: list[str] = []
        self._origin: list[int] = []
        self._at = 0

    def keep_to(self, end: int) -> None:
        self._parts.append(self.text[self._at : end])
        self._origin.extend(self.origin[self._at : end])
        self._at = end

    def replace(self, start: int, end: int, new: str, *, anchor: int | None = None) -> None:
        """``text[start:end]`` becomes ``new``; its characters point at ``anchor`` (default: ``start``)."""
        self.keep_to(start)
        source = self.origin[min(anchor if anchor is not None else start, len(self.origin) - 1)] if self.origin else 0
        self._parts.append(new)
        self._origin.extend([source] * len(new))
        self._at = end

    def done(self) -> tuple[str, list[int]]:
        self.keep_to(len(self.text))
        return "".join(self._parts), self._origin


def _remove(pattern: re.Pattern[str], text: str, origin: list[int]) -> tuple[str, list[int]]:
    edit = _Edit(text, origin)
    for found in pattern.finditer(text):
        edit.replace(found.start(), found.end(), "")
    return edit.done()


def _nfkc(text: str, origin: list[int]) -> tuple[str, list[int]]:
    edit = _Edit(text, origin)
    for found in _NFKC_CHANGES.finditer(text):
        edit.replace(found.start(), found.end(), unicodedata.normalize("NFKC", found.group()))
    return edit.done()


def _entities(text: str, origin: list[int]) -> tuple[str, list[int]]:
    edit = _Edit(text, origin)
    for found in _ENTITY.finditer(text):
        decoded = html.unescape(found.group())
        if decoded != found.group() and _INVISIBLE_RUN.fullmatch(decoded) is None:
            edit.replace(found.start(), found.end(), decoded)
        elif decoded != found.group():
            edit.replace(found.start(), found.end(), "")
    return edit.done()


def _tags(text: str, origin: list[int]) -> tuple[str, list[int]]:
    edit = _Edit(text, origin)
    for found in _TAG.finditer(text):
        if found["comment"] is not None:
            edit.replace(found.start(), found.start("comment"), " ")
            edit.replace(found.end("comment"), found.end(), " ")
            continue
        name = found["name"].lower()
        attrs = " ".join(found["attrs"].split())
        if name in _FORMATTING_TAGS:
            new = "\n" if name in _BLOCK_TAGS else ""
            new += f" {attrs} " if attrs and not found["close"] else ""
        elif found["close"]:
            new = " "
        else:
            new = f" {found['name']}{' ' + attrs if attrs else ''}{'' if found['self'] else ': '}"
        edit.replace(found.start(), found.end(), new)
    return edit.done()


def _code(text: str, origin: list[int]) -> tuple[str, list[int], list[tuple[int, int]]]:
    """Backticks off; the source spans of what they held."""
    spans: list[tuple[int, int]] = []
    edit = _Edit(text, origin)
    fenced = list(_FENCE.finditer(text))
    for opening, closing in zip(fenced[::2], fenced[1::2], strict=False):
        edit.replace(opening.start(), opening.end(), "")
        if closing.start() > opening.end():
            spans.append((origin[opening.end()], origin[closing.start() - 1] + 1))
        edit.replace(closing.start(), closing.end(), "\n")
    text, origin = edit.done()
    edit = _Edit(text, origin)
    for found in _CODE_SPAN.finditer(text):
        start, end = found.span("code")
        edit.replace(found.start(), start, "")
        spans.append((origin[start], origin[end - 1] + 1))
        edit.keep_to(end)
        edit.replace(end, found.end(), "")
    text, origin = edit.done()
    return text, origin, spans


def _markdown(text: str, origin: list[int]) -> tuple[str, list[int]]:
    edit = _Edit(text, origin)
    for found in _AUTOLINK.finditer(text):
        edit.replace(found.start(), found.start("url"), "")
        edit.keep_to(found.end("url"))
        edit.replace(found.end("url"), found.end(), "")
    text, origin = edit.done()
    edit = _Edit(text, origin)
    for found in _LINK.finditer(text):
        edit.replace(found.start(), found.start("text"), "")
        edit.keep_to(found.end("text"))
        edit.replace(found.end("text"), found.start("url"), " (")
        edit.keep_to(found.end("url"))
        edit.replace(found.end("url"), found.end(), ")")
    text, origin = edit.done()
    for _ in range(3):  # nested emphasis: ***x***, **_x_**
        edit = _Edit(text, origin)
        changed = False
        for found in _EMPHASIS.finditer(text):
            inner = next(name for name in ("inner", "dunder", "star", "under") if found[name] is not None)
            if not any(char.isalnum() for char in found[inner]):
                continue  # markers around no word are a mask (``******``) or punctuation (``*:*``), not emphasis
            edit.replace(found.start(), found.start(inner), "")
            edit.keep_to(found.end(inner))
            edit.replace(found.end(inner), found.end(), "")
            changed = True
        text, origin = edit.done()
        if not changed:
            break
    text, origin = _remove(_LINE_MARKER, text, origin)
    return _tables(text, origin)


def _cells(row: str) -> list[tuple[int, int]]:
    """The spans of a pipe row's cells, stripped, outer pipes dropped."""
    spans, start = [], 0
    stripped = row.strip()
    offset = row.index(stripped[0]) if stripped else 0
    body = stripped[1:] if stripped.startswith("|") else stripped
    offset += 1 if stripped.startswith("|") else 0
    body = body[:-1] if body.endswith("|") and not body.endswith("\\|") else body
    for part in body.split("|"):
        left = len(part) - len(part.lstrip())
        spans.append((offset + start + left, offset + start + len(part.rstrip())))
        start += len(part) + 1
    return spans


def _tables(text: str, origin: list[int]) -> tuple[str, list[int]]:
    """A table (a header row, a rule row ``|---|---|``, then rows) and a lone row starting with ``|`` as text."""
    lines = list(re.finditer(r"[^\n]*", text))
    lines = [line for line in lines if line.start() == 0 or text[line.start() - 1] == "\n"]
    edit = _Edit(text, origin)
    index = 0
    while index < len(lines):
        line = lines[index]
        ruled = index + 1 < len(lines) and "|" in line.group() and _TABLE_RULE.fullmatch(lines[index + 1].group())
        if ruled:
            header = [text[line.start() + a : line.start() + b] for a, b in _cells(line.group())]
            _render(edit, line, [], "; ")
            edit.replace(lines[index + 1].start(), lines[index + 1].end(), "")
            index += 2
            while index < len(lines) and "|" in lines[index].group() and lines[index].group().strip():
                _render(edit, lines[index], header, "; ")
                index += 1
            continue
        if _LONE_ROW.fullmatch(line.group()):
            _render(edit, line, [], ": ")
        index += 1
    return edit.done()


def _render(edit: _Edit, row: re.Match[str], header: list[str], joiner: str) -> None:
    """One pipe row as text: its cells joined, each after its header (``header: cell``) when there is one."""
    cells = [(row.start() + a, row.start() + b) for a, b in _cells(row.group())]
    previous = row.start()
    for position, (start, end) in enumerate(cells):
        label = header[position] if position < len(header) and header[position] else ""
        glue = "" if position == 0 else joiner
        edit.replace(previous, start, glue + (f"{label}: " if label else ""), anchor=start)
        edit.keep_to(end)
        previous = end
    edit.replace(previous, row.end(), "")


def _confusables(text: str) -> str:
    return _CONFUSABLE.sub(lambda found: _CONFUSABLES[found.group()], text)


@functools.lru_cache(maxsize=8192)
def normal_form(text: str) -> NormalForm:
    """``text`` with invisible characters, compatibility forms, confusables, entities, tags and markdown undone."""
    if text.isascii() and (_MARKUP.search(text) is None or _nothing_to_undo(text)):
        return NormalForm(text, None)
    origin = list(range(len(text)))
    if "&" in text:
        text, origin = _entities(text, origin)
    text, origin = _remove(_INVISIBLE_RUN, text, origin)
    if not text.isascii():
        text, origin = _nfkc(text, origin)
        text = _confusables(text)
    spans: list[tuple[int, int]] = []
    if _MARKUP.search(text):
        text, origin = _tags(text, origin)
        text, origin, spans = _code(text, origin)
        text, origin = _markdown(text, origin)
    return NormalForm(text, tuple(origin), tuple(_normal_spans(spans, origin)))


_STEPS = (_ENTITY, _TAG, _FENCE, _CODE_SPAN, _AUTOLINK, _LINK)
_STEP_MARKS = re.compile(r"[&<`]|~~~|\]\(")
"""What every match of one of ``_STEPS`` holds."""


def _nothing_to_undo(text: str) -> bool:
    """Whether no step would change the ASCII ``text`` (a log line with a ``_`` or a ``[``): a few searches
    instead of rebuilding it step by step."""
    if "|" in text or _may_be_emphasis(text):
        return False
    starts = {line.lstrip(" \t")[:1] for line in text.split("\n")} if "\n" in text else {text.lstrip(" \t")[:1]}
    if not starts.isdisjoint("#>-*+") and _LINE_MARKER.search(text):
        return False
    return _STEP_MARKS.search(text) is None or not any(pattern.search(text) for pattern in _STEPS)


def _may_be_emphasis(text: str) -> bool:
    """Whether ``text`` holds what every match of ``_EMPHASIS`` holds: a ``*``, a ``~`` or a ``_`` that starts no
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
