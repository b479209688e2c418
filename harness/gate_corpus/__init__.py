"""Deterministic labelled corpora for three release rules, written from the rules' descriptions and never from
their code: unconfirmed proposals, findings stated in plan steps or SYSTEM_CHAT sentences, and secrets in
user-visible text. Each case is what a careful senior SRE would decide; ``shape`` names the generating family.

The generators import nothing of the project but this package: they measure the rules, they do not follow them."""

from __future__ import annotations

from .cases import RuleCase
from .credentials import secret_cases
from .findings import finding_cases
from .proposals import proposal_cases

__all__ = ["RuleCase", "finding_cases", "proposal_cases", "secret_cases"]
