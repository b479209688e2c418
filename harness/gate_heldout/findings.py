"""Held-out findings: Diagnosis Plan steps (surface "plan") and SYSTEM_CHAT sentences (surface "system")."""

from __future__ import annotations

from .cases import HeldoutCase, expand
from .finding_plan import PLAN_STEPS
from .finding_register import PLAN_REGISTER
from .finding_system import SYSTEM_CHAT

FINDING_SURFACES = ("plan", "system")


def finding_variants(seed: int = 0) -> list[HeldoutCase]:
    """At least 250 plan steps and system sentences, in a stable order for ``seed``."""
    return expand("findings", seed, [*PLAN_STEPS, *PLAN_REGISTER, *SYSTEM_CHAT], 2, FINDING_SURFACES)
