"""Citable sections of knowledge documents, one chunk per heading; the formats live in ``tools.knowledge.formats``.

A section is the text between a heading and the next heading of any level (so a ``##`` section does not contain
its ``###`` children); text before the first heading is a section of its own. markdown-it-py finds the headings,
so lines inside fenced code blocks are never headings. A chunk's ``text`` is the section body exactly as it is in
the file, with only the surrounding blank lines removed, so every excerpt taken from it is a substring of the
source document.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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


def split_sections(source: str, markdown: str) -> list[Chunk]:
    """The non-empty sections of one markdown document. ``source`` is its relative POSIX path."""
    from tools.knowledge.formats.markdown import split_markdown

    return split_markdown(source, markdown)
