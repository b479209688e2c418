"""The text every release rule reads: the one normal form of :mod:`contract.normal_form`.

Each rule is given a text as the user would see it and reads it through :func:`normal` (invisible characters,
compatibility forms, confusables, entities, tags and markdown undone), so the same trick cannot hide a fact, a
secret, a side effect or a finding from one rule and not from another. The user still sees the original text. The
value rule also reads Chinese numerals that count something as digits (:func:`value_text`).
"""

from __future__ import annotations

import dataclasses
import re

from contract.normal_form import NormalForm, normal_form
from harness.gate.quantities import replace_cn_numbers

__all__ = ["NormalForm", "normal", "value_text"]

_ENUMERATOR = re.compile(r"[\u2460-\u2473\u2776-\u277f\u2780-\u2793]")
"""①-⑳, ❶-❿, ➀-➓: NFKC reads them as plain digits (① 查看 ② 重启 -> 1 查看 2 重启), a reader as list items."""


def normal(text: str) -> NormalForm:
    """``text`` as every rule reads it; an enumerator such as ① starts a line of its own (it was a list item)."""
    form = normal_form(text)
    if form.origin is None or _ENUMERATOR.search(text) is None:
        return form
    listed = "".join(
        "\n" if _ENUMERATOR.fullmatch(text[source]) else char
        for char, source in zip(form.text, form.origin, strict=True)
    )
    return dataclasses.replace(form, text=listed)


def value_text(text: str) -> str:
    """``text`` as the value rule reads it: the normal form (an enumerator such as ③ a list item, not the number 3),
    with 七十二次 as 72次."""
    return replace_cn_numbers(normal(text).text)
