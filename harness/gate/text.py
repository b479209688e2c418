"""The text every release rule reads: the one normal form of :mod:`contract.normal_form`.

Each rule is given a text as the user would see it and reads it through :func:`normal` (invisible characters,
compatibility forms, confusables, entities, tags and markdown undone), so the same trick cannot hide a fact, a
secret, a side effect or a finding from one rule and not from another. The user still sees the original text. The
value rule also reads Chinese numerals that count something as digits (:func:`value_text`).
"""

from __future__ import annotations

from contract.normal_form import NormalForm, normal_form
from harness.gate.quantities import replace_cn_numbers

__all__ = ["NormalForm", "normal", "value_text"]


def normal(text: str) -> NormalForm:
    """``text`` as every rule reads it."""
    return normal_form(text)


def value_text(text: str) -> str:
    """``text`` as the value rule reads it: the normal form, with 七十二次 as 72次."""
    return replace_cn_numbers(normal_form(text).text)
