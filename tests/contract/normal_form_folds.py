"""What the normal form makes of each character that NFKC makes one ASCII character.

The secret detector once kept this table itself (``_FOLD``) to fold full-width and other compatibility forms; it
now reads every text through :func:`contract.normal_form.normal_form`, and ``test_secrets.py`` checks with this
table that the normal form folds every such character to that ASCII character (each between two letters, so that
a lone ``>`` or ``#`` is not read as markdown).
"""

from __future__ import annotations

import unicodedata

from contract.normal_form import normal_form


def _folds() -> dict[str, str]:
    table = {}
    for char in map(chr, range(0x80, 0x110000)):
        folded = unicodedata.normalize("NFKC", char)
        if len(folded) == 1 and folded.isascii():
            table[char] = normal_form(f"x{char}x").text[1:-1]
    return table


_FOLD = _folds()
