"""Markdown tables as text: a data row reads ``header: cell; header: cell``, the header row ``cell; cell``, a lone
pipe row ``cell: cell``."""

from __future__ import annotations

import re

from contract.normal_form.edit import Edit

_LONE_ROW = re.compile(r"[ \t]*\|[^\n|]*\|[^\n]*")
_TABLE_RULE = re.compile(r"^[ \t]*\|?[ \t]*:?-{2,}:?[ \t]*(?:\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*$")


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


def tables(text: str, origin: list[int]) -> tuple[str, list[int]]:
    """A table (a header row, a rule row ``|---|---|``, then rows) and a lone row starting with ``|`` as text."""
    lines = list(re.finditer(r"[^\n]*", text))
    lines = [line for line in lines if line.start() == 0 or text[line.start() - 1] == "\n"]
    edit = Edit(text, origin)
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


def _render(edit: Edit, row: re.Match[str], header: list[str], joiner: str) -> None:
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
