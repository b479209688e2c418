"""The EvidenceGuard's verdict on one broken rule: a stable code and a short message for the repair turn."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class EvidenceFailureCode(StrEnum):
    DRAFT_SCHEMA = "DRAFT_SCHEMA"
    DUPLICATE_ANALYSIS_ID = "DUPLICATE_ANALYSIS_ID"
    EMPTY_TOOL_CALL_IDS = "EMPTY_TOOL_CALL_IDS"
    UNKNOWN_TOOL_CALL = "UNKNOWN_TOOL_CALL"
    TOOL_CALL_NOT_READY = "TOOL_CALL_NOT_READY"
    TOOL_CALL_FAILED = "TOOL_CALL_FAILED"
    MISSING_AGENT_RESULT = "MISSING_AGENT_RESULT"
    NORMAL_CITES_NO_EVIDENCE = "NORMAL_CITES_NO_EVIDENCE"
    NEGATIVE_OBSERVATION_WITHOUT_SCOPE = "NEGATIVE_OBSERVATION_WITHOUT_SCOPE"
    CONCLUSION_WITHOUT_ANALYSIS = "CONCLUSION_WITHOUT_ANALYSIS"
    ACTION_WITHOUT_ANALYSIS = "ACTION_WITHOUT_ANALYSIS"
    RECOMMENDATION_WITHOUT_ANALYSIS = "RECOMMENDATION_WITHOUT_ANALYSIS"
    UNKNOWN_ANALYSIS_ID = "UNKNOWN_ANALYSIS_ID"
    EMPTY_CONCLUSION = "EMPTY_CONCLUSION"
    """A conclusion without text (null is the way to say that the evidence allows none)."""
    NO_CITED_ANALYSIS = "NO_CITED_ANALYSIS"
    """No analysis item cites evidence: the report says nothing."""
    UNGROUNDED_VALUE = "UNGROUNDED_VALUE"
    """A fact token of a claim that its own evidence (or the question) does not hold."""
    UNGROUNDED_QUOTE = "UNGROUNDED_QUOTE"
    """A passage quoted as what a source returned that is the agent's own query, not a returned line."""
    SECRET_IN_TEXT = "SECRET_IN_TEXT"
    UNCONFIRMED_ACTION = "UNCONFIRMED_ACTION"
    """An action or recommendation with a side effect that does not wait for a human."""


@dataclass(frozen=True)
class EvidenceFailure:
    """One broken rule: a stable ``code`` and a short message for the agent's repair turn."""

    code: EvidenceFailureCode
    message: str
