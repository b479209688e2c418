"""Markdown split at its headings, found by markdown-it-py (CommonMark): ATX and setext headings count, a ``#``
line inside fenced or indented code does not. Headings nested in block quotes or lists are body text. A
section's text is the source between the heading's last line and the next heading, exact."""

from __future__ import annotations

import re

from markdown_it import MarkdownIt

from tools.knowledge.chunks import Chunk
from tools.knowledge.formats.sections import Section, UnreadableDocument, assemble, decode_utf8, title_of

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_PARSER = MarkdownIt("commonmark")


def _line_starts(markdown: str) -> list[int]:
    """The offset of each line as markdown-it numbers them, plus the end of the text."""
    return [0, *(match.end() for match in _LINE_BREAK.finditer(markdown)), len(markdown)]


def _headings(markdown: str) -> list[tuple[int, str, int, int]]:
    """``(level, text, first line, line after)`` for each top-level heading."""
    try:
        tokens = _PARSER.parse(markdown)
    except Exception as exc:
        raise UnreadableDocument(f"markdown could not be parsed: {type(exc).__name__}") from exc
    headings = []
    for index, token in enumerate(tokens):
        if token.type != "heading_open" or token.level != 0 or token.map is None:
            continue
        inline = tokens[index + 1] if index + 1 < len(tokens) else None
        content = inline.content if inline is not None and inline.type == "inline" else ""
        text = " ".join(line.strip() for line in content.splitlines()).strip()
        headings.append((int(token.tag[1]), text, token.map[0], token.map[1]))
    return headings


def split_markdown(relative: str, markdown: str) -> list[Chunk]:
    """The non-empty sections of one markdown text. ``relative`` is its POSIX path in the knowledge folder."""
    starts = _line_starts(markdown)

    def offset(line: int) -> int:
        return starts[min(line, len(starts) - 1)]

    headings = _headings(markdown)
    sections = []
    for index, (level, text, _, after) in enumerate(headings):
        end = offset(headings[index + 1][2]) if index + 1 < len(headings) else len(markdown)
        sections.append(Section(level, text, markdown[offset(after) : end]))
    preamble = markdown[: offset(headings[0][2])] if headings else markdown
    return assemble(relative, title_of(relative, sections), preamble, sections)


def parse_markdown(relative: str, data: bytes) -> list[Chunk]:
    """A markdown file's sections; it must be UTF-8."""
    return split_markdown(relative, decode_utf8(data))
