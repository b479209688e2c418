"""Held-out secrets: real credential values (violations) and look-alikes that must pass, on every text surface."""

from __future__ import annotations

from .cases import HeldoutCase, expand
from .secret_leaks import LEAKS
from .secret_lookalikes import LOOKALIKES
from .secret_values import LOOKALIKE_FILLERS, SECRET_FILLERS

SECRET_SURFACES = (
    "analysis",
    "conclusion",
    "action",
    "limitations",
    "knowledge_answer",
    "system_answer",
    "plan_step",
    "sql_reference",
)


def secret_variants(seed: int = 0) -> list[HeldoutCase]:
    """At least 300 texts, at least 40% of them look-alikes, in a stable order for ``seed``."""
    fillers = {**SECRET_FILLERS, **LOOKALIKE_FILLERS}
    return expand("secrets", seed, [*LEAKS, *LOOKALIKES], 2, SECRET_SURFACES, fillers)
