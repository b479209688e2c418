"""The run's ``fallback_reason`` codes (the audit's ``run.fallback_reason``), typed.

A reason is one of the fixed codes of :class:`Reason`, or a :class:`ReasonFamily` followed by the cause it names
(``GUARD_TIMEOUT``, ``BUDGET_TOOL_CALLS:query_mysql``, ``AGENT_ValueError``): the cause is a failure kind, a
budget's reason or the gate's problem code, each already a stable code of its own. The claim rules' reasons
(``CLAIM_*``) are chosen in :mod:`harness.fallbacks`.
"""

from __future__ import annotations

from enum import StrEnum


class Reason(StrEnum):
    """The fixed reasons."""

    HARNESS_ERROR = "HARNESS_ERROR"
    """The run failed in the Harness's own code, or the agent ended without a draft for no known reason."""
    ROUTING_UNAVAILABLE = "ROUTING_UNAVAILABLE"
    KNOWLEDGE_NOT_CONFIGURED = "KNOWLEDGE_NOT_CONFIGURED"
    KNOWLEDGE_UNAVAILABLE = "KNOWLEDGE_UNAVAILABLE"
    KNOWLEDGE_INVALID_OUTPUT = "KNOWLEDGE_INVALID_OUTPUT"
    INVENTED_REFERENCES_REMOVED = "INVENTED_REFERENCES_REMOVED"
    """A released knowledge answer whose references the Harness could not check were left out."""
    EVIDENCE_CHECK_FAILED = "EVIDENCE_CHECK_FAILED"
    GUARD_INPUT_TOO_LARGE = "GUARD_INPUT_TOO_LARGE"
    GUARD_INPUT_INVALID = "GUARD_INPUT_INVALID"
    GUARD_UNSUPPORTED = "GUARD_UNSUPPORTED"


class ReasonFamily(StrEnum):
    """The reasons that name their cause after the family's code."""

    AGENT = "AGENT"
    """The agent ended without a draft: the last failure kind of its retries, or the error's class."""
    MODEL = "MODEL"
    """A model call failed: its failure kind (``MODEL_UNAVAILABLE`` when none is known)."""
    GUARD = "GUARD"
    """The SemanticGuard gave no verdict: its last failure kind, or the budget that clipped it."""
    BUDGET = "BUDGET"
    """A budget or the deadline ended the investigation: the budget's reason."""
    SYSTEM_ANSWER = "SYSTEM_ANSWER"
    """The model's system answer was replaced by the capability text: the gate's problem code."""

    def of(self, cause: str) -> str:
        return f"{self.value}_{cause}"
