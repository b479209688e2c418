"""A fact: one true statement derived from cited results, in each language, with the pattern it follows.

The patterns are the ways real models write a true statement about tool results (issue 18): each builder in
:mod:`.time_facts`, :mod:`.count_facts` and :mod:`.name_facts` computes its values from the results and returns
facts whose tokens are marked (:mod:`.marks`). A writer (:mod:`.styles`) only arranges facts; it adds no token.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from harness.gate_mutations.marks import mark, with_meta

LANGUAGES = ("zh", "en", "mix")

PATTERNS = (
    "duration_implicit",
    "duration_operands",
    "unit_conversion",
    "range_rounded",
    "date_notation",
    "zone_conversion",
    "count_shown",
    "sum_cells",
    "share",
    "two_step",
    "ratio_worked",
    "ratio_bare",
    "compound_id",
    "zh_approx_numeral",
    "unit_in_name",
    "plain_quote",
)
"""Every pattern a faithful draft uses (the rows of ``superbiz eval --mutations``)."""


@dataclass(frozen=True)
class Cell:
    """One row of a markdown table: a label in Chinese and English, and a marked value."""

    zh: str
    en: str
    value: str


@dataclass(frozen=True)
class Fact:
    """A true statement about the results of ``calls``, following ``pattern``.

    ``text`` holds, per language, one or more phrasings (marked text); ``worked`` the same statement with its
    operands shown, where the pattern derives a value; ``cells`` the statement as table rows."""

    pattern: str
    calls: tuple[str, ...]
    text: Mapping[str, tuple[str, ...]]
    worked: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    cells: tuple[Cell, ...] = ()

    def __post_init__(self) -> None:
        if self.pattern not in PATTERNS:
            raise ValueError(f"unknown pattern {self.pattern!r}")
        if set(self.text) != set(LANGUAGES):
            raise ValueError(f"a fact needs a text in each language: {self.pattern}")

    def phrasings(self, language: str, *, worked: bool = False) -> tuple[str, ...]:
        return (self.worked.get(language) if worked else None) or self.text[language]


def facts(
    pattern: str,
    calls: tuple[str, ...],
    zh: str | tuple[str, ...],
    en: str | tuple[str, ...],
    mix: str | tuple[str, ...],
    **extra: object,
) -> Fact:
    """A fact from its phrasings (a single string or alternatives per language)."""

    def alternatives(value: str | tuple[str, ...]) -> tuple[str, ...]:
        return tuple(with_meta(text, pattern=pattern) for text in ((value,) if isinstance(value, str) else value))

    worked = extra.pop("worked", None)
    cells = extra.pop("cells", ())
    if extra:
        raise TypeError(f"unknown fields {sorted(extra)}")
    text = {"zh": alternatives(zh), "en": alternatives(en), "mix": alternatives(mix)}
    done = {key: alternatives(value) for key, value in (worked or {}).items()}  # type: ignore[attr-defined]
    tagged = tuple(Cell(c.zh, c.en, with_meta(c.value, pattern=pattern)) for c in cells)  # type: ignore[attr-defined]
    return Fact(pattern, calls, text, done, tagged)


# -- identifiers and status words, marked with the shape a sibling must have ---------------------------------


def ident(text: str, shape: str) -> str:
    """An identifier token: ``shape`` is order, payment, service, errcode, pool, table, column or compound."""
    return mark("id", text, shape=shape)


def service(name: str) -> str:
    return ident(name, "service")


def order(order_id: str) -> str:
    return ident(order_id, "order")


def code(error_code: str) -> str:
    return ident(error_code, "errcode")


def status(word: str, group: str = "payment") -> str:
    """A status word; ``group`` says which others replace it (payment, level, health, outcome)."""
    return mark("status", word, group=group)
