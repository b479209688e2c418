"""Where a secret found in a normal form lies in the text as written.

``NormalForm.source_span`` gives it for a character that stands for itself (a full-width letter, one kept inside
emphasis or a code span). Two kinds of characters share one source position and need more: those the normal
form wrote from a stretch of the source (a tag's attributes, ``<add key="db.password" value="x"/>`` ->
`` add key="db.password" value="x"``, and a table cell's header label) are found again in that stretch, in order;
one decoded from an entity (``&#49;`` -> ``1``) ends where the entity ends. When a character cannot be found
again, the span grows to the whole stretch it came from (more is replaced, never less). A span none of whose
characters is in the stretch it came from stands for text written elsewhere (a table's header label, which the
normal form repeats before each cell): it has nothing to replace here, and the header is read where it stands.
"""

from __future__ import annotations

import bisect
import re

from contract.normal_form import NormalForm, normal_form

_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


class _Runs:
    """The source positions of the characters of ``form`` that share theirs with their neighbours."""

    def __init__(self, form: NormalForm, source: str) -> None:
        assert form.origin is not None
        self.text, self.origin, self.source = form.text, form.origin, source
        self._aligned: dict[int, list[int | None]] = {}

    def run(self, index: int) -> tuple[int, int]:
        """The characters that share the source position of ``text[index]``."""
        at = self.origin[index]
        return bisect.bisect_left(self.origin, at), bisect.bisect_right(self.origin, at)

    def stop(self, last: int) -> int:
        """Where the stretch of the source behind a run ending before ``last`` ends."""
        return self.origin[last] if last < len(self.origin) else len(self.source)

    def elsewhere(self, start: int, end: int) -> bool:
        """Whether ``text[start:end]`` lies in one run and none of its characters is in the run's stretch."""
        first, last = self.run(start)
        if last - first < 2 or end > last:
            return False
        return all(self.aligned(index) is None for index in range(start, end))

    def aligned(self, index: int) -> int | None:
        """Where ``text[index]``, one of a run, stands in its stretch of the source; None when it is not there."""
        first, last = self.run(index)
        if first not in self._aligned:
            self._aligned[first] = self._align(first, last)
        return self._aligned[first][index - first]

    def _align(self, first: int, last: int) -> list[int | None]:
        """Each non-space character of the run matched to an equal one in its stretch, each character or entity
        of the stretch as the normal form reads it (``Ａ`` as ``A``, ``&#49;`` as ``1``, a zero-width space as
        nothing); the rest: None. Matched in order from the start and from the end, and the way that matches more
        is kept; on a tie the one from the end, since what the normal form puts before a cell's text (its header
        label) is written elsewhere and must not take the cell's own characters."""
        start, stop = self.origin[first], self.stop(last)
        stretch: list[tuple[str, int]] = []
        at = start
        while at < stop:
            written = _written_at(self.source, at, stop)
            read = written if written.isascii() and len(written) == 1 else normal_form(written).text
            stretch.extend((char, at) for char in read)
            at += len(written)
        places: dict[str, list[int]] = {}
        for index, (char, _) in enumerate(stretch):
            places.setdefault(char, []).append(index)
        text, last_index = self.text[first:last], len(stretch) - 1
        forward = _greedy(text, places, stretch)
        mirrored = {char: [last_index - index for index in reversed(at)] for char, at in places.items()}
        backward = _greedy(text[::-1], mirrored, stretch[::-1])[::-1]
        matched = [sum(position is not None for position in way) for way in (forward, backward)]
        return forward if matched[0] > matched[1] else backward


def _greedy(text: str, places: dict[str, list[int]], stretch: list[tuple[str, int]]) -> list[int | None]:
    """Each non-space character of ``text`` matched to the next equal one of ``stretch``, in order."""
    positions: list[int | None] = []
    after = 0
    for char in text:
        candidates = places.get(char, []) if not char.isspace() else []
        found = bisect.bisect_left(candidates, after)
        if found < len(candidates):
            positions.append(stretch[candidates[found]][1])
            after = candidates[found] + 1
        else:
            positions.append(None)
    return positions


def _written_at(source: str, at: int, stop: int) -> str:
    """The character at ``at``, or the whole entity starting there when the normal form decodes it."""
    entity = _ENTITY.match(source, at, stop)
    if entity and normal_form(entity.group()).text != entity.group():
        return entity.group()
    return source[at]


def source_spans(form: NormalForm, source: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The spans of ``source`` that ``spans`` of ``form.text`` came from, in order, overlapping ones merged."""
    if form.origin is None:
        mapped = sorted(span for span in spans if span[0] < span[1])
    else:
        runs = _Runs(form, source)
        mapped = sorted(
            _source_span(form, runs, start, end)
            for start, end in spans
            if start < end and not runs.elsewhere(start, end)
        )
    merged: list[tuple[int, int]] = []
    for start, end in mapped:
        if merged and start < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def _source_span(form: NormalForm, runs: _Runs, start: int, end: int) -> tuple[int, int]:
    low, high = form.source_span(start, end)
    first, last = runs.run(start)
    if last - first > 1:
        aligned = runs.aligned(start)
        low = low if aligned is None else aligned
    first, last = runs.run(end - 1)
    if last - first > 1:
        aligned = runs.aligned(end - 1)
        source = runs.source
        high = runs.stop(last) if aligned is None else aligned + len(_written_at(source, aligned, len(source)))
    elif runs.source.startswith("&", high - 1) and (entity := _ENTITY.match(runs.source, high - 1)):
        high = entity.end()
    return low, max(high, low + 1)
