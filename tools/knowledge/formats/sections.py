"""What every format shares: the error for an unreadable file, strict UTF-8 decoding, and the heading rules
(nesting, breadcrumbs, de-duplicated anchors, empty sections dropped) that turn headed bodies into chunks."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath

from contract.vocabulary import HarnessError
from tools.knowledge.chunks import BREADCRUMB_SEPARATOR, Chunk, slug


class UnreadableDocument(HarnessError):
    """A knowledge file that cannot be read as text; the message is a short reason for an operator."""

    code = "KNOWLEDGE_DOCUMENT_UNREADABLE"


@dataclass(frozen=True)
class Section:
    """One heading and the body under it, up to the next heading of any level."""

    level: int
    heading: str
    body: str


def decode_utf8(data: bytes) -> str:
    """The bytes as UTF-8 text (a byte-order mark is dropped); anything else, or NUL bytes, is unreadable."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UnreadableDocument("not UTF-8 text") from None
    if "\x00" in text:
        raise UnreadableDocument("not UTF-8 text")
    return text


def document_of(relative: str) -> str:
    """The id prefix of a document: its path without the suffix."""
    return str(PurePosixPath(relative).with_suffix(""))


def title_of(relative: str, sections: list[Section], fallback: str = "") -> str:
    """The first level-1 heading, else ``fallback``, else the file name without extension."""
    first = next((s.heading for s in sections if s.level == 1), None)
    return first if first is not None else (fallback or PurePosixPath(relative).stem)


def assemble(relative: str, title: str, preamble: str, sections: list[Section]) -> list[Chunk]:
    """The non-empty chunks: the text before the first heading, then one per heading; bodies are stripped."""
    document = document_of(relative)
    chunks: list[Chunk] = []
    if preamble.strip():
        chunks.append(Chunk(document, relative, title, title, preamble.strip()))
    taken: set[str] = set()
    stack: list[Section] = []
    for section in sections:
        while stack and stack[-1].level >= section.level:
            stack.pop()
        stack.append(section)
        base = anchor = slug(section.heading) or "section"
        repeat = 0
        while anchor in taken:
            repeat += 1
            anchor = f"{base}-{repeat}"
        taken.add(anchor)
        text = section.body.strip()
        if text:
            breadcrumb = BREADCRUMB_SEPARATOR.join(s.heading for s in stack)
            chunks.append(Chunk(f"{document}#{anchor}", relative, title, breadcrumb, text))
    return chunks
