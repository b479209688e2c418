"""Markdown documents split into citable sections, one chunk per heading.

A section is the text between a heading line and the next heading of any level (so a ``##`` section does not
contain its ``###`` children); text before the first heading is a section of its own. Lines inside fenced code
blocks are never headings. A chunk's ``text`` is the section body exactly as it is in the file, with only the
surrounding blank lines removed, so every excerpt taken from it is a substring of the source document.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$")
_FENCE = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})")
_SLUG_DROP = re.compile(r"[^\w\- ]")
MAX_ANCHOR_CHARS = 80
BREADCRUMB_SEPARATOR = " > "


@dataclass(frozen=True)
class Chunk:
    """One section of one document: what a hit cites."""

    document_id: str
    """``<path without .md>#<heading anchor>``; stable while the path and the heading stay the same."""
    source: str
    """The document's path relative to the knowledge folder (POSIX separators)."""
    title: str
    """The document title: its first ``#`` heading, else the file name without extension."""
    breadcrumb: str
    """The headings above and including this section, joined by ``" > "``."""
    text: str
    """The section body, exact."""


def slug(heading: str) -> str:
    """A GitHub-style anchor that keeps CJK: lower-case, punctuation dropped, spaces to hyphens."""
    anchor = _SLUG_DROP.sub("", heading.strip().lower()).replace(" ", "-")
    return anchor[:MAX_ANCHOR_CHARS]


@dataclass(frozen=True)
class _Heading:
    level: int
    text: str
    start: int
    end: int


def _headings(markdown: str) -> list[_Heading]:
    headings: list[_Heading] = []
    fence: str | None = None
    offset = 0
    for line in markdown.splitlines(keepends=True):
        start, offset = offset, offset + len(line)
        stripped = line.rstrip("\r\n")
        opened = _FENCE.match(stripped)
        if fence is not None:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = None
            continue
        if opened:
            fence = opened.group(1)
            continue
        match = _HEADING.match(stripped)
        if match:
            headings.append(_Heading(len(match.group(1)), match.group(2).strip(), start, offset))
    return headings


def split_sections(source: str, markdown: str) -> list[Chunk]:
    """The non-empty sections of one document. ``source`` is its relative POSIX path."""
    document = str(PurePosixPath(source).with_suffix(""))
    headings = _headings(markdown)
    title = next((h.text for h in headings if h.level == 1), PurePosixPath(source).stem)
    chunks: list[Chunk] = []
    taken: set[str] = set()

    def add(anchor: str, breadcrumb: str, body_start: int, body_end: int) -> None:
        text = markdown[body_start:body_end].strip()
        if not text:
            return
        document_id = f"{document}#{anchor}" if anchor else document
        chunks.append(Chunk(document_id, source, title, breadcrumb, text))

    first_start = headings[0].start if headings else len(markdown)
    add("", title, 0, first_start)
    stack: list[_Heading] = []
    for index, heading in enumerate(headings):
        while stack and stack[-1].level >= heading.level:
            stack.pop()
        stack.append(heading)
        base = anchor = slug(heading.text) or "section"
        repeat = 0
        while anchor in taken:
            repeat += 1
            anchor = f"{base}-{repeat}"
        taken.add(anchor)
        body_end = headings[index + 1].start if index + 1 < len(headings) else len(markdown)
        add(anchor, BREADCRUMB_SEPARATOR.join(h.text for h in stack), heading.end, body_end)
    return chunks
