"""Plain text: paragraphs (runs of non-blank lines) grouped in order into sections of at most
``SECTION_CHARS`` characters; a paragraph is never split, so a longer one is a section alone."""

from __future__ import annotations

from pathlib import PurePosixPath

from tools.knowledge.chunks import Chunk
from tools.knowledge.formats.sections import decode_utf8, document_of

SECTION_CHARS = 1500


def _paragraphs(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` offsets of each paragraph, without its trailing line break."""
    spans: list[tuple[int, int]] = []
    start: int | None = None
    end = offset = 0
    for line in text.splitlines(keepends=True):
        begin, offset = offset, offset + len(line)
        if not line.strip():
            if start is not None:
                spans.append((start, end))
            start = None
            continue
        if start is None:
            start = begin
        end = begin + len(line.rstrip("\r\n"))
    if start is not None:
        spans.append((start, end))
    return spans


def _groups(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    groups: list[tuple[int, int]] = []
    for start, end in spans:
        if groups and end - groups[-1][0] <= SECTION_CHARS:
            groups[-1] = (groups[-1][0], end)
        else:
            groups.append((start, end))
    return groups


def split_text(relative: str, text: str) -> list[Chunk]:
    """The sections ``part-1``, ``part-2``… of one plain text; each is an exact substring of it."""
    title = PurePosixPath(relative).stem
    document = document_of(relative)
    chunks = []
    for start, end in _groups(_paragraphs(text)):
        body = text[start:end].strip()
        if body:
            chunks.append(Chunk(f"{document}#part-{len(chunks) + 1}", relative, title, title, body))
    return chunks


def parse_text(relative: str, data: bytes) -> list[Chunk]:
    """A plain-text file's sections; it must be UTF-8."""
    return split_text(relative, decode_utf8(data))
