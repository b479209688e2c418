"""Knowledge documents in the formats an operator exports: markdown, HTML and plain text, each parsed by a
maintained library into citable sections (:class:`tools.knowledge.chunks.Chunk`). A file that cannot be read
raises :class:`UnreadableDocument` and nothing else; an empty one gives no chunks."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import PurePosixPath

from tools.knowledge.chunks import Chunk
from tools.knowledge.formats.html import parse_html
from tools.knowledge.formats.markdown import parse_markdown
from tools.knowledge.formats.sections import UnreadableDocument
from tools.knowledge.formats.text import parse_text

__all__ = ["SUPPORTED_SUFFIXES", "UnreadableDocument", "parse_document"]

_PARSERS: dict[str, Callable[[str, bytes], list[Chunk]]] = {
    ".md": parse_markdown,
    ".markdown": parse_markdown,
    ".html": parse_html,
    ".htm": parse_html,
    ".txt": parse_text,
}
SUPPORTED_SUFFIXES = (".md", ".markdown", ".html", ".htm", ".txt")


def parse_document(relative: str, data: bytes) -> list[Chunk]:
    """The sections of the file at ``relative`` (POSIX, inside the knowledge folder) whose bytes are ``data``."""
    suffix = PurePosixPath(relative).suffix.lower()
    parser = _PARSERS.get(suffix)
    if parser is None:
        raise UnreadableDocument(f"unsupported format {suffix or '(no suffix)'}")
    try:
        return parser(relative, data)
    except UnreadableDocument:
        raise
    except (ValueError, LookupError, RecursionError, AssertionError) as exc:
        raise UnreadableDocument(f"could not be read: {type(exc).__name__}") from exc
