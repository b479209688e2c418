"""Characters a text can hide behind: invisible ones, compatibility forms (NFKC) and look-alike letters."""

from __future__ import annotations

import re
import unicodedata

from contract.normal_form.edit import Edit

_INVISIBLE = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff"
)
INVISIBLE_RUN = re.compile(f"[{_INVISIBLE}]+")

_CONFUSABLES = {
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t",
    "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j", "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h", "ѵ": "v",
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T", "У": "Y",
    "Х": "X", "Ѕ": "S", "І": "I", "Ј": "J", "Ԛ": "Q", "Ԝ": "W",
    # Greek
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P",
    "Τ": "T", "Υ": "Y", "Χ": "X", "α": "a", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u",
    "χ": "x",
    # Latin and Armenian look-alikes
    "ı": "i", "ȷ": "j", "ɡ": "g", "ɑ": "a", "օ": "o", "ս": "u", "ց": "g",
    # hyphens that read as '-'
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2212": "-", "\ufe63": "-",
}  # fmt: skip
"""Characters that imitate an ASCII letter or hyphen, from Unicode's confusables for Latin."""
_CONFUSABLE = re.compile("[" + "".join(_CONFUSABLES) + "]")


def _nfkc_changes() -> re.Pattern[str]:
    """A class of every character NFKC changes: the BMP scanned once, plus the supplementary blocks that fold."""
    spans: list[list[int]] = []
    for code in range(0x80, 0x10000):
        char = chr(code)
        if 0xD800 <= code < 0xE000 or unicodedata.normalize("NFKC", char) == char:
            continue
        if spans and code == spans[-1][1] + 1:
            spans[-1][1] = code
        else:
            spans.append([code, code])
    # (0x1FBF0-0x1FBF9: the segmented digits 🯰-🯹, NFKC 0-9)
    spans += [[0x10780, 0x107BF], [0x1D400, 0x1D7FF], [0x1F100, 0x1F2FF], [0x1FBF0, 0x1FBF9], [0x2F800, 0x2FA1F]]
    return re.compile("[" + "".join(f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in spans) + "]")


_NFKC_CHANGES = _nfkc_changes()


def nfkc(text: str, origin: list[int]) -> tuple[str, list[int]]:
    edit = Edit(text, origin)
    for found in _NFKC_CHANGES.finditer(text):
        edit.replace(found.start(), found.end(), unicodedata.normalize("NFKC", found.group()))
    return edit.done()


def fold_confusables(text: str) -> str:
    return _CONFUSABLE.sub(lambda found: _CONFUSABLES[found.group()], text)
