"""Which detectors a text can hold a match of, found in one scan (the package docstring says how)."""

from __future__ import annotations

import re

from ._base import Detector, trie


def _any_of(words: tuple[str, ...]) -> re.Pattern[str]:
    """A regex that finds any of ``words``, built as a trie (``a(?:kia|sia|…)``): one scan that fails fast."""
    return re.compile(trie(words))


_STEM_STARTS = frozenset("abcegilmopstvwx2-:@_")
"""The characters a stem may start with: those most trigger words start with anyway. A search tries only the
positions of a text with one of them, so a word that starts with another (``key=``, ``npm_``) gives a stem one
character in (``ey=``, ``pm_``) when that is rare too."""


def _rare(stem: str) -> bool:
    """Whether ``stem`` is rare in ordinary text: three characters or more, not all letters (``api`` is common)."""
    return len(stem) >= 3 and not stem.isalpha()


def _stems(words: tuple[str, ...]) -> tuple[str, ...]:
    """Fewer, shorter words one of which each of ``words`` holds: each without the separator after it or the
    dash before it when at least four characters remain (``password=`` -> ``password``, ``-pass`` -> ``pass``),
    from a character of ``_STEM_STARTS`` on; then only those that hold no other (``pass``, not ``password``)."""
    cores = set()
    for word in words:
        core = word.rstrip("\\\"' \t:=：").lstrip("-")
        core = core if len(core) >= 4 else word
        skip = next((at for at, char in enumerate(core) if char in _STEM_STARTS and _rare(core[at:])), 0)
        cores.add(core[skip:] if core.isascii() else core)
    return tuple(sorted(core for core in cores if not any(other != core and other in core for other in cores)))


def _opening(pattern: str) -> str:
    """The character ``pattern`` opens with when it matches only itself (``:`` of ``:[0-9]+:``), else ``""``."""
    first = pattern[:1]
    return first if first and re.escape(first) == first else ""


class Triggers:
    """Which of ``detectors`` a text can hold a match of, and where each is to start scanning."""

    def __init__(self, detectors: tuple[Detector, ...]) -> None:
        self.detectors = detectors
        self.words = tuple(dict.fromkeys(word for each in detectors for word in each.triggers))
        self.stems = _stems(self.words)
        self.any_stem = _any_of(self.stems)
        """What a text holds when it holds any trigger word: most texts hold none, and no detector runs."""
        self.any_ascii_stem = _any_of(tuple(stem for stem in self.stems if stem.isascii()))
        self.stem_at_most = max(min(word.find(stem) for stem in self.stems if stem in word) for word in self.words)
        """How far into a trigger word its first stem can lie: no trigger word starts further before it."""
        self.any_word = _any_of(self.words)
        """The longest trigger word at the first position that has one (a trie is greedy): every trigger word
        there is a prefix of it."""
        self.run_at = {
            word: frozenset(
                index for index, each in enumerate(detectors) for other in each.triggers if word.startswith(other)
            )
            for word in self.words
        }
        """The detectors to run where a word is the longest trigger word: those with a trigger word it starts with."""
        self.untriggered = [
            (index, _opening(each.untriggered.pattern), each.untriggered)
            for index, each in enumerate(detectors)
            if each.untriggered
        ]
        """Each detector without a trigger word, with the character its pattern opens with when that is a plain
        one (a text without it is not searched: a test far cheaper than a search, for short texts)."""

    def detectors_for(self, text: str) -> dict[int, int]:
        """The detectors (by index) whose trigger words ``text`` (a normal form) holds, each with where to start
        scanning (its ``lead`` before its first trigger word): one scan, none at all for most lines."""
        if text.isascii():
            folded = text.lower()
            stem = self.any_ascii_stem.search(folded)
        else:
            # (?i) also lets "İ" stand for "i"; casefold() gives "i" + U+0307 for it.
            folded = text.casefold().replace("\u0307", "")
            stem = self.any_stem.search(folded)
        found = {index: 0 for index, opening, pattern in self.untriggered if opening in text and pattern.search(text)}
        if stem is None:
            return found
        at = max(0, stem.start() - self.stem_at_most)
        while (match := self.any_word.search(folded, at)) is not None:
            at = match.start()
            for index in self.run_at[match.group()]:
                if index not in found:
                    lead = self.detectors[index].lead
                    found[index] = 0 if lead is None else max(0, at - lead)
            at += 1
        return dict(sorted(found.items()))
