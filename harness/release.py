"""What the Harness releases (ISS-014 §10.2, §10.3): the agent's report unchanged, or the fixed Fallback.

A released report is the Draft's own text in the fixed section order, its tool_call_ids replaced by reference
labels ``R1, R2, ...`` and a reference list deterministically expanded from the cited calls (first citation
first) with their exact excerpts and values, every secret in them masked (the SQL a reference shows is the
agent's own, and may hold a literal the projectors never saw). Nothing is summarised, reworded, added or dropped, and no
tool_call_id leaves. The Fallback is a fixed template: no draft text, no guard reason, no vendor error.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any

from contract.secrets import redact, secret_kinds
from harness.draft import Draft
from harness.invocation_store import InvocationRecord
from harness.snapshot import Kinds, cited_evidence, source_of

FALLBACK_MESSAGE = "当前证据不足，无法确认根因"
FALLBACK_NEXT_STEPS = (
    "补充当前缺失的数据后重新发起诊断",
    "缩小查询范围（服务、时间窗口或数据范围）后重新发起诊断",
    "稍后重试",
)


class FallbackType(StrEnum):
    EVIDENCE_VALIDATION_FAILED = "EVIDENCE_VALIDATION_FAILED"
    """The EvidenceGuard failed again after the one repair; no source is shown."""
    SEMANTIC_UNSUPPORTED = "SEMANTIC_UNSUPPORTED"
    """The evidence is real but does not support the report."""
    SEMANTIC_UNAVAILABLE = "SEMANTIC_UNAVAILABLE"
    """The SemanticGuard timed out, failed or answered invalidly on its last attempt."""


FALLBACK_LIMITATIONS: Mapping[FallbackType, tuple[str, ...]] = {
    FallbackType.EVIDENCE_VALIDATION_FAILED: ("诊断报告未通过证据引用校验",),
    FallbackType.SEMANTIC_UNSUPPORTED: ("已验证证据不足以支持诊断结论",),
    FallbackType.SEMANTIC_UNAVAILABLE: ("语义校验暂不可用",),
}


def report_payload(draft: Draft, verified: Mapping[str, InvocationRecord], kinds: Kinds) -> dict[str, Any]:
    """The DIAGNOSIS_REPORT content: conclusion, analysis, action_plan, recommendations, limitations, references.

    Raises ValueError when the draft cites a call that is not in ``verified``: release only a checked draft.
    """
    labels = {call: f"R{index}" for index, call in enumerate(draft.cited_tool_call_ids(), start=1)}
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


KNOWLEDGE_FALLBACK_MESSAGE = "知识库回答未能通过证据校验，本次不提供回答"
KNOWLEDGE_FALLBACK_LIMITATIONS = ("回答的内容或引用无法在本次检索到的文档中核实",)
KNOWLEDGE_FALLBACK_NEXT_STEPS = (
    "换用更具体的关键词（错误码、服务名、配置项）重新提问",
    "直接查阅知识库中的相关文档",
    "稍后重试",
)


def knowledge_fallback_payload() -> dict[str, Any]:
    """The fixed fallback of a knowledge answer that failed its checks: the Fallback schema, a knowledge
    answer's wording, no source (as for every EVIDENCE_VALIDATION_FAILED)."""
    return {
        "type": FallbackType.EVIDENCE_VALIDATION_FAILED.value,
        "conclusion": None,
        "message": KNOWLEDGE_FALLBACK_MESSAGE,
        "verified_sources": [],
        "limitations": list(KNOWLEDGE_FALLBACK_LIMITATIONS),
        "next_steps": list(KNOWLEDGE_FALLBACK_NEXT_STEPS),
    }


def fallback_payload(fallback_type: FallbackType, verified_sources: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The fixed §10.3 Fallback. Sources are dropped for EVIDENCE_VALIDATION_FAILED and reduced to
    ``source_type/source/scope`` otherwise, so no other text can ride along (a source holding a secret is left
    out)."""
    kind = FallbackType(fallback_type)
    sources: list[dict[str, str]] = []
    if kind is not FallbackType.EVIDENCE_VALIDATION_FAILED:
        for item in verified_sources:
            entry = {name: str(item.get(name, "")) for name in ("source_type", "source", "scope")}
            if entry not in sources and not any(secret_kinds(value) for value in entry.values()):
                sources.append(entry)
    return {
        "type": kind.value,
        "conclusion": None,
        "message": FALLBACK_MESSAGE,
        "verified_sources": sources,
        "limitations": list(FALLBACK_LIMITATIONS[kind]),
        "next_steps": list(FALLBACK_NEXT_STEPS),
    }
