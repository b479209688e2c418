"""``proposal_cases``: action-plan items and recommendations whose author set ``requires_human_confirmation: false``.

A case is a violation when it changes anything anywhere in its text; it passes when it is recognisably read-only.
"""

from __future__ import annotations

from . import proposal_chat, proposal_commands, proposal_report
from .case import FinalCase, merge, render, seeded

PROPOSAL_SURFACES = ("action", "recommendation")


def proposal_cases(seed: int = 0) -> list[FinalCase]:
    """At least 300 proposals, about half of them violations, in a stable order for ``seed``."""
    families = merge(proposal_chat.families(), proposal_report.families(), proposal_commands.families())
    return render(families, seeded("proposals", seed), lambda _shape, index: PROPOSAL_SURFACES[index % 2])
