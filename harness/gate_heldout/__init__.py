"""A held-out corpus for three release-gate rules, written the way real LLMs write in an SRE diagnosis product.

It is independent of ``harness.gate`` and of ``harness.gate_corpus``: labels say what a careful senior SRE would
say about each text, and genuinely ambiguous texts are left out rather than guessed.

- ``proposal_variants``: action_plan items and recommendations with ``requires_human_confirmation: false``;
  a violation changes something somewhere in the text.
- ``finding_variants``: Diagnosis Plan steps and SYSTEM_CHAT sentences; a violation states a finding.
- ``secret_variants``: texts that carry a real credential value, and look-alikes that must pass.
"""

from __future__ import annotations

from .cases import HeldoutCase
from .findings import finding_variants
from .proposals import proposal_variants
from .secret_cases import secret_variants

__all__ = ["HeldoutCase", "finding_variants", "proposal_variants", "secret_variants"]
