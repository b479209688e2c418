"""``finding_cases``: Diagnosis Plan steps (surface ``plan``) and SYSTEM_CHAT sentences (surface ``system``)."""

from __future__ import annotations

from . import findings_plan, findings_system
from .case import FinalCase, merge, render, seeded


def _surface(shape: str, _index: int) -> str:
    return "plan" if shape.startswith("plan_") else "system"


def finding_cases(seed: int = 0) -> list[FinalCase]:
    """At least 250 plan steps and SYSTEM_CHAT sentences, every family holding both labels."""
    families = merge(findings_plan.families(), findings_system.families())
    return render(families, seeded("findings", seed), _surface)
