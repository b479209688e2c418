"""Every fixed user-visible text of the Harness, in Chinese and in English (:mod:`harness.language`).

The Chinese texts are the spec's values (ISS-014 §10.3 and the fixed answers built on them), byte for byte; the
English ones say the same. A fallback's ``limitations`` is one stable category (never a guard's reason, a vendor
error or an exception): the fallback type's own, or the cause that chose it (the claim rule that failed, the budget
that ran out, the run's time limit), keyed as :class:`harness.fallbacks.Fallback` names it. The capability text is
configuration (``harness.system-chat``); :func:`capabilities` picks the one of a language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from config.wording import DEFAULT_CAPABILITIES_EN, SystemChatSettings
from harness.language import Language


@dataclass(frozen=True)
class FixedTexts:
    """The fixed texts of one language."""

    fallback_message: str
    fallback_next_steps: tuple[str, ...]
    limitations: Mapping[str, str]
    """A fallback's limitation by category: a fallback type, ``CLAIM_<rule>`` or ``BUDGET_<what ran out>``."""
    knowledge_fallback_message: str
    knowledge_fallback_limitations: tuple[str, ...]
    knowledge_fallback_next_steps: tuple[str, ...]
    knowledge_nothing_found: str
    knowledge_nothing_found_limitations: tuple[str, ...]
    invented_references_removed: str
    generic_plan: tuple[str, ...]
    """Streamed when the agent's own plan has fewer than three usable steps."""
    answer_in: str
    """What a prompt tells the model about the language of its answer."""
    reason_in: str
    """What the SemanticGuard's prompt tells it about the language of its ``reason`` (the audit's, read by whoever
    reviews the run, in the language of the question)."""


LIMITATION_CATEGORIES = (
    "EVIDENCE_VALIDATION_FAILED",
    "SEMANTIC_UNSUPPORTED",
    "SEMANTIC_UNAVAILABLE",
    "CLAIM_UNGROUNDED_VALUE",
    "CLAIM_UNGROUNDED_QUOTE",
    "CLAIM_SECRET",
    "CLAIM_UNCONFIRMED_ACTION",
    "BUDGET_MODEL_CALLS",
    "BUDGET_TOKENS",
    "BUDGET_TOOL_CALLS",
    "BUDGET_DEADLINE",
    "BUDGET",
)

ZH = FixedTexts(
    fallback_message="当前证据不足，无法确认根因",
    fallback_next_steps=(
        "补充当前缺失的数据后重新发起诊断",
        "缩小查询范围（服务、时间窗口或数据范围）后重新发起诊断",
        "稍后重试",
    ),
    limitations=MappingProxyType(
        {
            "EVIDENCE_VALIDATION_FAILED": "诊断报告未通过证据引用校验",
            "SEMANTIC_UNSUPPORTED": "已验证证据不足以支持诊断结论",
            "SEMANTIC_UNAVAILABLE": "语义校验暂不可用",
            "CLAIM_UNGROUNDED_VALUE": "诊断报告中有数值或标识无法在已验证的证据中找到",
            "CLAIM_UNGROUNDED_QUOTE": "诊断报告引用的原文不是证据返回的内容",
            "CLAIM_SECRET": "诊断报告包含不能展示的凭据信息",
            "CLAIM_UNCONFIRMED_ACTION": "诊断报告中有会改变系统的操作没有标明需要人工确认",
            "BUDGET_MODEL_CALLS": "诊断在用完模型调用预算前未能完成报告",
            "BUDGET_TOKENS": "诊断在用完模型 token 预算前未能完成报告",
            "BUDGET_TOOL_CALLS": "诊断在用完工具调用预算前未能完成报告",
            "BUDGET_DEADLINE": "诊断超过了运行时限，未能完成报告",
            "BUDGET": "诊断在用完运行预算前未能完成报告",
        }
    ),
    knowledge_fallback_message="知识库回答未能通过证据校验，本次不提供回答",
    knowledge_fallback_limitations=("回答的内容或引用无法在本次检索到的文档中核实",),
    knowledge_fallback_next_steps=(
        "换用更具体的关键词（错误码、服务名、配置项）重新提问",
        "直接查阅知识库中的相关文档",
        "稍后重试",
    ),
    knowledge_nothing_found="知识库中没有找到与该问题相关的内容。",
    knowledge_nothing_found_limitations=("知识库检索没有匹配结果，回答不包含任何推测。",),
    invented_references_removed="回答中有引用未能在本次检索结果中找到，已移除。",
    generic_plan=(
        "确认问题现象、涉及的服务和时间范围",
        "查阅知识库中相关的排障手册和错误码说明",
        "查询相关服务的日志和只读业务数据",
        "汇总证据，给出结论、下一步行动和诊断范围说明",
    ),
    answer_in="用户用中文提问：用中文回答。",
    reason_in="用户用中文提问：reason 用中文写。",
)

EN = FixedTexts(
    fallback_message="The current evidence is not enough to confirm the root cause",
    fallback_next_steps=(
        "Add the data that is missing now and start the diagnosis again",
        "Narrow the query (service, time window or data range) and start the diagnosis again",
        "Try again later",
    ),
    limitations=MappingProxyType(
        {
            "EVIDENCE_VALIDATION_FAILED": "The diagnosis report did not pass the evidence citation check",
            "SEMANTIC_UNSUPPORTED": "The verified evidence is not enough to support a diagnosis conclusion",
            "SEMANTIC_UNAVAILABLE": "The semantic check is unavailable for now",
            "CLAIM_UNGROUNDED_VALUE": (
                "The diagnosis report states values or identifiers the verified evidence does not hold"
            ),
            "CLAIM_UNGROUNDED_QUOTE": "The diagnosis report quotes text the evidence did not return",
            "CLAIM_SECRET": "The diagnosis report contains credentials that cannot be shown",
            "CLAIM_UNCONFIRMED_ACTION": (
                "The diagnosis report proposes actions that change the system without asking for human confirmation"
            ),
            "BUDGET_MODEL_CALLS": "The diagnosis used up its model-call budget before it finished a report",
            "BUDGET_TOKENS": "The diagnosis used up its model token budget before it finished a report",
            "BUDGET_TOOL_CALLS": "The diagnosis used up its tool-call budget before it finished a report",
            "BUDGET_DEADLINE": "The diagnosis ran past its time limit before it finished a report",
            "BUDGET": "The diagnosis used up its run budget before it finished a report",
        }
    ),
    knowledge_fallback_message="The knowledge answer did not pass the evidence check; no answer is given this time",
    knowledge_fallback_limitations=(
        "The content or the references of the answer could not be verified in the documents found this time",
    ),
    knowledge_fallback_next_steps=(
        "Ask again with more specific keywords (error code, service name, configuration key)",
        "Read the related documents in the knowledge base directly",
        "Try again later",
    ),
    knowledge_nothing_found="The knowledge base holds nothing related to this question.",
    knowledge_nothing_found_limitations=("The knowledge base search found no match; the answer guesses nothing.",),
    invented_references_removed=(
        "References of the answer that are not among the documents found this time were removed."
    ),
    generic_plan=(
        "Confirm the symptom, the services involved and the time range",
        "Read the related runbooks and error code notes in the knowledge base",
        "Query the logs and read-only business data of the services involved",
        "Summarise the evidence into a conclusion, next actions and the diagnosis scope",
    ),
    answer_in="The user asked in English: answer in English.",
    reason_in="The user asked in English: write the reason in English.",
)

TEXTS: Mapping[Language, FixedTexts] = MappingProxyType({"zh": ZH, "en": EN})


def texts(language: Language) -> FixedTexts:
    return TEXTS[language]


def capabilities(settings: SystemChatSettings, language: Language) -> str:
    """The capability text a SYSTEM_CHAT answer of ``language`` is given and checked against, and released instead
    of an answer that fails its checks. English is ``capabilities-en``; when it is not set, the built-in English
    text while ``capabilities`` is the built-in one, else ``capabilities`` itself: a run never describes
    capabilities the operator did not write."""
    if language == "zh":
        return settings.capabilities
    if settings.capabilities_en is not None:
        return settings.capabilities_en
    return DEFAULT_CAPABILITIES_EN if settings.is_default_capabilities else settings.capabilities
