"""HTML exports read with BeautifulSoup ("html.parser"): boilerplate (scripts, navigation, banners, footers,
forms) dropped, only ``<main>`` or the ``<article>`` elements when the page has them, ``h1``–``h6`` start sections.
A section's text is the visible text under its heading, one line per block element, entities decoded."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bs4 import BeautifulSoup, NavigableString, Tag
from bs4.dammit import EncodingDetector
from bs4.element import CData, Comment, Declaration, Doctype, ProcessingInstruction

from tools.knowledge.chunks import Chunk
from tools.knowledge.formats.sections import Section, UnreadableDocument, assemble, title_of

BOILERPLATE = (
    "script", "style", "noscript", "template", "nav", "header", "footer", "aside", "form", "button", "iframe", "svg",
)  # fmt: skip
BOILERPLATE_ROLES = frozenset({"navigation", "banner", "contentinfo"})
HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
BLOCKS = frozenset(
    {
        "p", "li", "tr", "td", "th", "div", "br", "pre", "ul", "ol", "dl", "dt", "dd", "table", "thead", "tbody",
        "blockquote", "section", "article", "main", "figure", "figcaption", "hr", "caption", "details", "summary",
    }
)  # fmt: skip
_HIDDEN = (Comment, CData, Declaration, Doctype, ProcessingInstruction)
_SPACE = re.compile(r"\s+")


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    declared = EncodingDetector.find_declared_encoding(data, is_html=True)
    if not declared:
        raise UnreadableDocument("not UTF-8 text and no charset declared")
    try:
        return data.decode(declared)
    except LookupError:
        raise UnreadableDocument(f"unknown charset {declared}") from None
    except UnicodeDecodeError:
        raise UnreadableDocument(f"not valid {declared} text") from None


def _inline(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


@dataclass
class _Collector:
    """The sections as the walk meets them: finished lines of the open section, the inline text being built."""

    preamble: list[str] = field(default_factory=list)
    sections: list[tuple[int, str, list[str]]] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        return self.sections[-1][2] if self.sections else self.preamble

    def flush(self) -> None:
        line = _inline("".join(self.pending))
        self.pending.clear()
        if line:
            self.lines().append(line)

    def heading(self, level: int, text: str) -> None:
        self.flush()
        self.sections.append((level, text, []))

    def preformatted(self, text: str) -> None:
        self.flush()
        text = text.strip("\r\n")
        if text.strip():
            self.lines().append(text)


def _drop_boilerplate(soup: BeautifulSoup) -> None:
    doomed = [
        tag
        for tag in soup.find_all(True)
        if (tag.name in BOILERPLATE and not (tag.name == "header" and tag.find_parent(("article", "main"))))
        or BOILERPLATE_ROLES & set(str(tag.get("role") or "").lower().split())
    ]
    for tag in doomed:
        if not tag.decomposed:
            tag.decompose()


def _roots(soup: BeautifulSoup) -> list[Tag | BeautifulSoup]:
    main = soup.find("main")
    if isinstance(main, Tag):
        return [main]
    articles = [a for a in soup.find_all("article") if not a.find_parent("article")]
    return articles or [soup.body if isinstance(soup.body, Tag) else soup]


def _walk(root: Tag | BeautifulSoup, sink: _Collector) -> None:
    stack: list[object] = list(reversed(root.contents))
    while stack:
        node = stack.pop()
        if node is None:
            sink.flush()
        elif isinstance(node, NavigableString):
            if not isinstance(node, _HIDDEN):
                sink.pending.append(str(node))
        elif isinstance(node, Tag):
            if node.name in HEADINGS:
                sink.heading(int(node.name[1]), _inline(node.get_text(" ")))
            elif node.name == "pre":
                sink.preformatted(node.get_text())
            elif node.name in BLOCKS:
                sink.flush()
                stack.append(None)
                stack.extend(reversed(node.contents))
            else:
                stack.extend(reversed(node.contents))
    sink.flush()


def parse_html(relative: str, data: bytes) -> list[Chunk]:
    """An HTML file's sections; it must be UTF-8 or carry a charset declaration."""
    markup = _decode(data)
    try:
        soup = BeautifulSoup(markup, "html.parser")
    except Exception as exc:
        raise UnreadableDocument(f"HTML could not be parsed: {type(exc).__name__}") from exc
    page_title = _inline(soup.title.get_text()) if soup.title is not None else ""
    _drop_boilerplate(soup)
    sink = _Collector()
    for root in _roots(soup):
        _walk(root, sink)
    sections = [Section(level, text, "\n".join(lines)) for level, text, lines in sink.sections]
    return assemble(relative, title_of(relative, sections, page_title), "\n".join(sink.preamble), sections)
