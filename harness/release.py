"""What the Harness releases (ISS-014 §10.2, §10.3): the agent's report unchanged, or the fixed Fallback.

A released report is the Draft's own text in the fixed section order, its tool_call_ids replaced by reference
labels ``R1, R2, ...`` and a reference list deterministically expanded from the cited calls (first citation
first) with their exact excerpts and values, every secret in them masked (the SQL a reference shows is the
agent's own, and may hold a literal the projectors never saw). Nothing is summarised, reworded, added or dropped, and no
tool_call_id leaves. The Fallback is a fixed template in the question's language (:mod:`harness.fixed_texts`): no draft
text, no guard reason, no vendor error.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any

from contract.secrets import redact, secret_kinds
from harness.draft import Draft
from harness.fixed_texts import texts
from harness.invocation import InvocationRecord
from harness.language import DEFAULT_LANGUAGE, Language
from harness.snapshot import Kinds, cited_evidence, source_of


class FallbackType(StrEnum):
    EVIDENCE_VALIDATION_FAILED = "EVIDENCE_VALIDATION_FAILED"
    """A citation rule of the EvidenceGuard failed again after the one repair; no source is shown."""
    SEMANTIC_UNSUPPORTED = "SEMANTIC_UNSUPPORTED"
    """The evidence is real but does not support the report: the SemanticGuard said so, a claim rule failed again
    after the repair, or a budget or the deadline ended the investigation before a report (:mod:`harness.fallbacks`)."""
    SEMANTIC_UNAVAILABLE = "SEMANTIC_UNAVAILABLE"
    """The SemanticGuard timed out, failed or answered invalidly on its last attempt."""


def reference_labels(draft: Draft) -> dict[str, str]:
    """``tool_call_id -> "R1", "R2", …``: the label each cited call's reference carries in the report, in order of
    first citation (the audit keeps the same mapping, so a reference names the tool call behind it)."""
    return {call: f"R{index}" for index, call in enumerate(draft.cited_tool_call_ids(), start=1)}


def report_payload(draft: Draft, verified: Mapping[str, InvocationRecord], kinds: Kinds) -> dict[str, Any]:
    """The DIAGNOSIS_REPORT content: conclusion, analysis, action_plan, recommendations, limitations, references.

    Raises ValueError when the draft cites a call that is not in ``verified``: release only a checked draft.
    """
    labels = reference_labels(draft)
    missing = [call for call in labels if call not in verified]
    if missing:
        raise ValueError("the draft cites tool calls that did not pass the EvidenceGuard")
    conclusion = draft.conclusion
    return {
        "conclusion": None
        if conclusion is None
        else {"text": conclusion.text, "based_on_analysis_ids": list(conclusion.based_on_analysis_ids)},
        "analysis": [
            {
                "analysis_id": item.analysis_id,
                "kind": item.kind,
                "text": item.text,
                "references": list(dict.fromkeys(labels[call] for call in item.tool_call_ids)),
            }
            for item in draft.analysis
        ],
        "action_plan": [
            {
                "action": action.action,
                "based_on_analysis_ids": list(action.based_on_analysis_ids),
                "requires_human_confirmation": action.requires_human_confirmation,
            }
            for action in draft.action_plan
        ],
        "recommendations": [
            {
                "text": item.text,
                "based_on_analysis_ids": list(item.based_on_analysis_ids),
                "requires_human_confirmation": item.requires_human_confirmation,
            }
            for item in draft.recommendations
        ],
        "limitations": {"scope": draft.limitations.scope, "missing_info": list(draft.limitations.missing_info)},
        "references": [
            _masked(
                {"ref": label, **source_of(verified[call], kinds), "evidence": cited_evidence(verified[call], kinds)}
            )
            for call, label in labels.items()
        ],
    }


def _masked(value: Any) -> Any:
    """``value`` with every secret in its texts masked: a reference shows the agent's own query (its SQL, its log
    query) next to what the source returned, and the agent may have written a secret into it."""
    if isinstance(value, str):
        return redact(value)[0]
    if isinstance(value, Mapping):
        return {key: _masked(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_masked(item) for item in value]
    return value


def knowledge_fallback_payload(language: Language = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """The fixed fallback of a knowledge answer that failed its checks: the Fallback schema, a knowledge
    answer's wording, no source (as for every EVIDENCE_VALIDATION_FAILED)."""
    fixed = texts(language)
    return {
        "type": FallbackType.EVIDENCE_VALIDATION_FAILED.value,
        "conclusion": None,
        "message": fixed.knowledge_fallback_message,
        "verified_sources": [],
        "limitations": list(fixed.knowledge_fallback_limitations),
        "next_steps": list(fixed.knowledge_fallback_next_steps),
    }


def fallback_payload(
    fallback_type: FallbackType,
    verified_sources: Sequence[Mapping[str, Any]],
    language: Language = DEFAULT_LANGUAGE,
    limitation: str | None = None,
) -> dict[str, Any]:
    """The fixed §10.3 Fallback in ``language``. Sources are dropped for EVIDENCE_VALIDATION_FAILED and reduced to
    ``source_type/source/scope`` otherwise, so no other text can ride along (a source holding a secret is left
    out). ``limitation`` is the category of its one limitation (:data:`harness.fixed_texts.LIMITATION_CATEGORIES`):
    the cause that chose the fallback, the type's own by default."""
    kind = FallbackType(fallback_type)
    fixed = texts(language)
    sources: list[dict[str, str]] = []
    if kind is not FallbackType.EVIDENCE_VALIDATION_FAILED:
        for item in verified_sources:
            entry = {name: str(item.get(name, "")) for name in ("source_type", "source", "scope")}
            if entry not in sources and not any(secret_kinds(value) for value in entry.values()):
                sources.append(entry)
    return {
        "type": kind.value,
        "conclusion": None,
        "message": fixed.fallback_message,
        "verified_sources": sources,
        "limitations": [fixed.limitations[limitation or kind.value]],
        "next_steps": list(fixed.fallback_next_steps),
    }
