"""Which fixed fallback a diagnosis gets, and why (ISS-014 §10.3): a pure mapping the run asks.

| after the one repair | type | verified_sources | fallback_reason | limitation |
| --- | --- | --- | --- | --- |
| a citation rule failed (claim rules too or not) | EVIDENCE_VALIDATION_FAILED | none | EVIDENCE_CHECK_FAILED | type's |
| only claim rules failed: citations held | SEMANTIC_UNSUPPORTED | calls whose citations held | CLAIM_<rule> | rule's |
| a budget or the deadline ended it | SEMANTIC_UNSUPPORTED | calls that found evidence | BUDGET_<reason> | its own |
| the SemanticGuard said UNSUPPORTED | SEMANTIC_UNSUPPORTED | verified | GUARD_UNSUPPORTED | type's |
| the SemanticGuard timed out or failed | SEMANTIC_UNAVAILABLE | verified | GUARD_<kind> | type's |
| the run's deadline passed during the SemanticGuard | SEMANTIC_UNAVAILABLE | verified | GUARD_DEADLINE | type's |

Citation rules are the §4.3 rules and the shape of the draft: it parses, its analyses cite READY calls of this run
whose evidence status their kind may cite, its conclusion, actions and recommendations rest on its analyses, and
it says something. When one fails, what the report rests on is not known, so nothing is shown. Claim rules judge
the words of a report whose evidence is real (a value or quote its evidence does not hold, a secret, an action
that does not wait for a human): the evidence does not support the report, and the SRE still sees what was really
looked at. When several claim rules fail, the reason names the first of :data:`CLAIM_REASONS` (secret, action,
value, quote). A budget or the deadline leaves no report to judge: the evidence the run did find is real and
supports nothing yet, so it is the same type, its limitation naming what ran out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from harness.budget import DEADLINE, MODEL_CALLS, TOKENS, TOOL_CALLS
from harness.gate.failures import EvidenceFailureCode as Code
from harness.reasons import Reason, ReasonFamily
from harness.release import FallbackType

CITATION_CODES = frozenset(
    {
        Code.DRAFT_SCHEMA,
        Code.DUPLICATE_ANALYSIS_ID,
        Code.EMPTY_TOOL_CALL_IDS,
        Code.UNKNOWN_TOOL_CALL,
        Code.TOOL_CALL_NOT_READY,
        Code.TOOL_CALL_FAILED,
        Code.MISSING_AGENT_RESULT,
        Code.NORMAL_CITES_NO_EVIDENCE,
        Code.NEGATIVE_OBSERVATION_WITHOUT_SCOPE,
        Code.CONCLUSION_WITHOUT_ANALYSIS,
        Code.ACTION_WITHOUT_ANALYSIS,
        Code.RECOMMENDATION_WITHOUT_ANALYSIS,
        Code.UNKNOWN_ANALYSIS_ID,
        Code.EMPTY_CONCLUSION,
        Code.NO_CITED_ANALYSIS,
    }
)
"""Failures after which nothing the report rests on is known: the fallback shows no source."""

CLAIM_REASONS: Mapping[Code, str] = MappingProxyType(
    {
        Code.SECRET_IN_TEXT: "CLAIM_SECRET",
        Code.UNCONFIRMED_ACTION: "CLAIM_UNCONFIRMED_ACTION",
        Code.UNGROUNDED_VALUE: "CLAIM_UNGROUNDED_VALUE",
        Code.UNGROUNDED_QUOTE: "CLAIM_UNGROUNDED_QUOTE",
    }
)
"""Failures of the words of a report whose citations held, by precedence: the run's reason names the first."""

_BUDGET_LIMITATIONS = {MODEL_CALLS: "BUDGET_MODEL_CALLS", TOKENS: "BUDGET_TOKENS", DEADLINE: "BUDGET_DEADLINE"}


@dataclass(frozen=True)
class Fallback:
    """The fallback to release: its type, the run's internal ``fallback_reason`` and the category of its
    limitation text (:data:`harness.fixed_texts.FixedTexts.limitations`; the type's own when empty)."""

    type: FallbackType
    reason: str
    limitation: str = ""

    @property
    def limitation_category(self) -> str:
        return self.limitation or self.type.value

    @property
    def shows_sources(self) -> bool:
        return self.type is not FallbackType.EVIDENCE_VALIDATION_FAILED


def after_evidence_check(codes: Iterable[Code | str]) -> Fallback:
    """The fallback of a draft that failed the EvidenceGuard again after the repair, from its failure codes."""
    failed = {Code(code) for code in codes}
    claims = [reason for code, reason in CLAIM_REASONS.items() if code in failed]
    if failed & CITATION_CODES or not claims:
        return Fallback(FallbackType.EVIDENCE_VALIDATION_FAILED, Reason.EVIDENCE_CHECK_FAILED)
    return Fallback(FallbackType.SEMANTIC_UNSUPPORTED, claims[0], claims[0])


def after_budget(reason: str) -> Fallback:
    """The fallback of an investigation a budget or the deadline ended before it had a valid draft; ``reason`` is
    the budget's (MODEL_CALLS, TOKENS, TOOL_CALLS, TOOL_CALLS:<tool>, DEADLINE)."""
    if reason == TOOL_CALLS or reason.startswith(f"{TOOL_CALLS}:"):
        limitation = "BUDGET_TOOL_CALLS"
    else:
        limitation = _BUDGET_LIMITATIONS.get(reason, "BUDGET")
    return Fallback(FallbackType.SEMANTIC_UNSUPPORTED, ReasonFamily.BUDGET.of(reason), limitation)


GUARD_UNSUPPORTED = Fallback(FallbackType.SEMANTIC_UNSUPPORTED, Reason.GUARD_UNSUPPORTED)
"""The fallback of a draft the SemanticGuard found UNSUPPORTED."""


def guard_unavailable(reason: str) -> Fallback:
    """The fallback of a draft the SemanticGuard could not judge (``reason``: GUARD_<kind>, GUARD_INPUT_*)."""
    return Fallback(FallbackType.SEMANTIC_UNAVAILABLE, reason)
