"""Slot filling and rendering: each template becomes 1-3 cases with different fillings, de-duplicated, shuffled."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Mapping

from .case import BlindCase, Family

SLOT = re.compile(r"\{([a-z][a-z0-9_]*)\}")
"""A slot is a lower-case name in single braces: ``{svc}``, ``{svc2}`` (a second, different service), ``{pw}``."""

Maker = Callable[[random.Random], str]
SurfaceOf = Callable[[int, Family, random.Random], str]


def fill(template: str, rng: random.Random, makers: Mapping[str, Maker]) -> str:
    """Fill every slot; a repeated slot keeps its value, ``name2`` draws from ``name``'s pool but differs from it."""
    chosen: dict[str, str] = {}

    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in chosen:
            maker = makers[name] if name in makers else makers[name.rstrip("0123456789")]
            value = maker(rng)
            for _ in range(20):
                if value not in chosen.values():
                    break
                value = maker(rng)
            chosen[name] = value
        return chosen[name]

    return SLOT.sub(one, template)


def render(
    kind: str, seed: int, families: Iterable[Family], makers: Mapping[str, Maker], surface_of: SurfaceOf
) -> list[BlindCase]:
    """Render every template of every family; a text rendered twice is kept once, a text with two labels is a bug."""
    labels: dict[str, bool] = {}
    rendered: list[tuple[str, bool, Family]] = []
    for family in families:
        for violation, templates in ((True, family.violations), (False, family.controls)):
            for index, template in enumerate(templates):
                rng = random.Random(f"gate_blind/{kind}/{seed}/{family.shape}/{violation}/{index}")
                for _ in range(rng.randint(1, 3)):
                    text = fill(template, rng, makers)
                    if text in labels:
                        if labels[text] != violation:
                            raise ValueError(f"{kind}: {text!r} rendered with both labels")
                        continue
                    labels[text] = violation
                    rendered.append((text, violation, family))
    random.Random(f"gate_blind/{kind}/{seed}/order").shuffle(rendered)
    surface_rng = random.Random(f"gate_blind/{kind}/{seed}/surface")
    return [
        BlindCase(text=text, violation=violation, shape=family.shape, surface=surface_of(i, family, surface_rng))
        for i, (text, violation, family) in enumerate(rendered)
    ]
