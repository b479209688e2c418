"""Markup a text can hide behind: HTML entities and tags, code fences and spans, links, emphasis and line
markers (tables are :mod:`contract.normal_form.tables`)."""

from __future__ import annotations

import html
import re

from contract.normal_form.characters import INVISIBLE_RUN
from contract.normal_form.edit import Edit, remove
from contract.normal_form.tables import tables

_FORMATTING_TAGS = frozenset({
    "a", "abbr", "address", "article", "aside", "b", "bdi", "bdo", "big", "blockquote", "body", "br", "caption",
    "center", "cite", "code", "col", "colgroup", "dd", "del", "details", "dfn", "div", "dl", "dt", "em", "figcaption",
    "figure", "font", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr", "html", "i", "img", "ins",
    "kbd", "label", "li", "main", "mark", "nav", "ol", "p", "pre", "q", "rp", "rt", "ruby", "s", "samp", "section",
    "small", "span", "strike", "strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot", "th", "thead",
    "time", "title", "tr", "tt", "u", "ul", "var", "wbr",
})  # fmt: skip
"""HTML elements that only shape how a text looks: they carry no key of their own."""
_BLOCK_TAGS = frozenset({
    "address", "article", "aside", "blockquote", "body", "br", "div", "dl", "dt", "dd", "figure", "footer", "h1", "h2",
    "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table", "tbody", "tfoot",
    "thead", "tr", "ul",
})  # fmt: skip
_ROW_ENDS = frozenset({"tr", "table", "thead", "tbody", "tfoot"})
"""Elements whose start or end closes a table row that is open."""
TAG = re.compile(
    r"<!--(?P<comment>.*?)-->"
    r"|<(?P<close>/)?(?P<name>[A-Za-z][A-Za-z0-9_.:-]{0,63})(?P<attrs>(?:\s+[^<>]*?)?)\s*(?P<self>/)?>",
    re.DOTALL,
)
ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")

FENCE = re.compile(r"^[ \t]{0,3}(?:```|~~~)[^\n]*(?:\n|$)", re.MULTILINE)
CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(?P<code>.+?)(?<!`)\1(?!`)", re.DOTALL)
LINK = re.compile(r"!?\[(?P<text>[^\[\]\n]{0,500})\]\((?P<url>[^()\s]{1,2000})(?:\s+\"[^\"\n]*\")?\)")
AUTOLINK = re.compile(r"<(?P<url>[A-Za-z][A-Za-z0-9+.-]{1,31}:[^<>\s]{1,2000})>")
EMPHASIS = re.compile(
    # ** and ~~ anywhere but between ASCII letters or digits (2**3**4 is arithmetic; 密码**x** is emphasis), *x*
    # likewise, __x__ and _x_ only between word boundaries (snake_case and __init__-like names stay)
    r"(?<![A-Za-z0-9*~])(?P<m>\*\*|~~)(?=\S)(?P<inner>[^\n]+?)(?<=\S)(?P=m)(?![A-Za-z0-9*~])"
    r"|(?<![\w_])__(?=[^\s_])(?P<dunder>[^\n]+?)(?<=[^\s_])__(?![\w_])"
    r"|(?<![A-Za-z0-9*])\*(?=[^\s*])(?P<star>[^*\n]+?)(?<=[^\s*])\*(?![A-Za-z0-9*])"
    r"|(?<![\w_])_(?=[^\s_])(?P<under>[^_\n]+?)(?<=[^\s_])_(?![\w_])"
)
LINE_MARKER = re.compile(r"^[ \t]{0,3}(?:#{1,6}[ \t]+|>[ \t]?|[-*+][ \t]+)", re.MULTILINE)


def entities(text: str, origin: list[int]) -> tuple[str, list[int]]:
    edit = Edit(text, origin)
    for found in ENTITY.finditer(text):
        decoded = html.unescape(found.group())
        if decoded != found.group() and INVISIBLE_RUN.fullmatch(decoded) is None:
            edit.replace(found.start(), found.end(), decoded)
        elif decoded != found.group():
            edit.replace(found.start(), found.end(), "")
    return edit.done()


class _Rows:
    """An HTML table's rows as the pipe rows of markdown (``<td>a</td><td>b</td>`` -> ``| a | b |``), a row of
    ``<th>`` cells followed by a rule row, one row to a line, so that the reading of a markdown table (``header:
    cell``) applies to it."""

    def __init__(self) -> None:
        self.cells = 0
        self.headers = True
        self.at_line_start = False
        """Whether a row has just ended its line (the next boundary adds none)."""

    def cell(self, name: str, closing: bool) -> str:
        if closing:
            return " "
        self.cells += 1
        self.headers = self.headers and name == "th"
        self.at_line_start = False
        return "| "

    def boundary(self) -> str:
        """What a row's start or end, or a table's, becomes: the end of the row open, or a line break."""
        if not self.cells:
            return "" if self.at_line_start else "\n"
        rule = "\n|" + "---|" * self.cells if self.headers else ""
        self.cells, self.headers, self.at_line_start = 0, True, True
        return " |" + rule + "\n"


def tags(text: str, origin: list[int]) -> tuple[str, list[int]]:
    edit = Edit(text, origin)
    rows = _Rows()
    last = 0
    for found in TAG.finditer(text):
        if found["comment"] is not None:
            edit.replace(found.start(), found.start("comment"), " ")
            edit.replace(found.end("comment"), found.end(), " ")
            continue
        name = found["name"].lower()
        attrs = " ".join(found["attrs"].split())
        if name in _ROW_ENDS and rows.at_line_start and text[last : found.start()].isspace():
            edit.replace(last, found.start(), "")  # the layout between two rows would part them
        if name in _ROW_ENDS:
            new = rows.boundary()
        elif name in _FORMATTING_TAGS:
            new = rows.cell(name, bool(found["close"])) if name in ("td", "th") else ""
            new += "\n" if name in _BLOCK_TAGS else ""
            new += f" {attrs} " if attrs and not found["close"] else ""
        elif found["close"]:
            new = " "
        else:
            new = f" {found['name']}{' ' + attrs if attrs else ''}{'' if found['self'] else ': '}"
        edit.replace(found.start(), found.end(), new)
        last = found.end()
    if rows.cells:
        edit.replace(len(text), len(text), rows.boundary())
    return edit.done()


def code(text: str, origin: list[int]) -> tuple[str, list[int], list[tuple[int, int]]]:
    """Backticks off; the source spans of what they held."""
    spans: list[tuple[int, int]] = []
    edit = Edit(text, origin)
    fenced = list(FENCE.finditer(text))
    for opening, closing in zip(fenced[::2], fenced[1::2], strict=False):
        edit.replace(opening.start(), opening.end(), "")
        if closing.start() > opening.end():
            spans.append((origin[opening.end()], origin[closing.start() - 1] + 1))
        edit.replace(closing.start(), closing.end(), "\n")
    text, origin = edit.done()
    edit = Edit(text, origin)
    for found in CODE_SPAN.finditer(text):
        start, end = found.span("code")
        edit.replace(found.start(), start, "")
        spans.append((origin[start], origin[end - 1] + 1))
        edit.keep_to(end)
        edit.replace(end, found.end(), "")
    text, origin = edit.done()
    return text, origin, spans


def markdown(text: str, origin: list[int]) -> tuple[str, list[int]]:
    edit = Edit(text, origin)
    for found in AUTOLINK.finditer(text):
        edit.replace(found.start(), found.start("url"), "")
        edit.keep_to(found.end("url"))
        edit.replace(found.end("url"), found.end(), "")
    text, origin = edit.done()
    edit = Edit(text, origin)
    for found in LINK.finditer(text):
        edit.replace(found.start(), found.start("text"), "")
        edit.keep_to(found.end("text"))
        edit.replace(found.end("text"), found.start("url"), " (")
        edit.keep_to(found.end("url"))
        edit.replace(found.end("url"), found.end(), ")")
    text, origin = edit.done()
    for _ in range(3):  # nested emphasis: ***x***, **_x_**
        edit = Edit(text, origin)
        changed = False
        for found in EMPHASIS.finditer(text):
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
    text, origin = remove(LINE_MARKER, text, origin)
    return tables(text, origin)
