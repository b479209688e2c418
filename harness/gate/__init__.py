"""The release gate: the deterministic rules every user-visible text passes before a reviewer or a user reads it.

:func:`check` is the one entry point (:mod:`harness.gate.check`). Each rule has its module and reads the same
normal form of every text (:mod:`harness.gate.text`):

==============================  ==================================================================================
:mod:`~harness.gate.citations`  §4.3: cited calls are READY calls of this run whose status the item may cite
:mod:`~harness.gate.shape`      a report says something (a conclusion with text, an analysis that cites evidence)
:mod:`~harness.gate.grounding`  values: every fact token occurs in what the cited sources returned
:mod:`~harness.gate.quotes`     a passage quoted as returned text is returned text, not the agent's own query
:mod:`~harness.gate.secrets`    no secret in any user-visible text
:mod:`~harness.gate.proposals`  a proposal that does not wait for a human only reads (default-deny)
:mod:`~harness.gate.findings`   plan steps are instructions; neither they nor system answers state findings
:mod:`~harness.gate.answers`    the knowledge answer, the system answer and the plan
==============================  ==================================================================================
"""

from harness.gate.answers import GENERIC_PLAN, KnowledgeRelease
from harness.gate.check import (
    EvidenceCheck,
    KnowledgeReply,
    Plan,
    PlanVerdict,
    Report,
    SystemReply,
    SystemVerdict,
    VerifiedReport,
    check,
    failure_texts,
)
from harness.gate.citations import cited_tool_call_ids, fetch_cited
from harness.gate.failures import EvidenceFailure, EvidenceFailureCode
from harness.gate.policy import ClaimPolicy

__all__ = [
    "GENERIC_PLAN",
    "ClaimPolicy",
    "EvidenceCheck",
    "EvidenceFailure",
    "EvidenceFailureCode",
    "KnowledgeRelease",
    "KnowledgeReply",
    "Plan",
    "PlanVerdict",
    "Report",
    "SystemReply",
    "SystemVerdict",
    "VerifiedReport",
    "check",
    "cited_tool_call_ids",
    "failure_texts",
    "fetch_cited",
]
