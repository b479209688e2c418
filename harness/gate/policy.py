"""The configured vocabulary of the release rules: ``harness.claims``, ``harness.actions``, ``harness.plan``."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from config.harness import HarnessSettings


@dataclass(frozen=True)
class ClaimPolicy:
    """What configuration adds to the rules: words that state no fact, and two extra deny lists."""

    non_facts: frozenset[str]
    """Lower-case words that look like identifiers but state nothing (``harness.claims.non-fact-words``)."""
    confirmation_patterns: tuple[re.Pattern[str], ...]
    """Side effects the operator names (``harness.actions.confirmation-patterns``): a proposal that proposes one
    waits for a human even where the built-in rule would let it through."""
    assertion_markers: tuple[str, ...]
    """Phrases that state a finding (``harness.plan.assertion-markers``), lower-case: found in a plan step or a
    system answer, even inside an instruction, they make it a finding."""

    @classmethod
    def from_settings(cls, settings: HarnessSettings) -> ClaimPolicy:
        return cls(
            non_facts=frozenset(word.lower() for word in settings.claims.non_fact_words),
            confirmation_patterns=tuple(
                re.compile(pattern, re.IGNORECASE) for pattern in settings.actions.confirmation_patterns
            ),
            assertion_markers=tuple(marker.lower() for marker in settings.plan.assertion_markers),
        )

    @classmethod
    @functools.cache
    def default(cls) -> ClaimPolicy:
        """The policy of the default configuration (the offline model and the bundled evaluation use it)."""
        return cls.from_settings(HarnessSettings())
