"""The Harness's configured wording: the capability statement SYSTEM_CHAT answers from, and the words and
patterns the release gate and the plan read (non-fact words, side-effect patterns, assertion markers)."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, Field
from pydantic_core import PydanticCustomError

from config.types import Section

DEFAULT_CAPABILITIES = (
    "SuperBiz 运维助手可以：1) 排查线上故障（例如支付超时、连接池耗尽），依据四类证据给出带证据引用的诊断报告："
    "内部知识库、服务日志、订单库（MySQL）的只读查询和监控指标（Prometheus）；2) 回答内部知识库中的排障手册、错误码、"
    "数据字典等问题。所有诊断结论都经过证据校验和独立审查，证据不足时只返回安全的降级说明，不会编造结论。它不会修改"
    "任何线上数据或配置。"
)
DEFAULT_CAPABILITIES_EN = (
    "The SuperBiz operations assistant can: 1) investigate production incidents (for example payment timeouts or an "
    "exhausted connection pool) and give a diagnosis report with evidence references, from four sources: the "
    "knowledge base, the service logs, read-only queries of the order database (MySQL) and the monitoring metrics "
    "(Prometheus); 2) answer questions about the runbooks, error codes, data dictionary and other content of the "
    "internal knowledge base. Every diagnosis conclusion passes an evidence check and an independent review; when the "
    "evidence is not enough it returns only a safe fallback and never invents a conclusion. It never changes any "
    "production data or configuration."
)


class SystemChatSettings(Section):
    capabilities: Annotated[str, Field(min_length=1, max_length=4000)] = Field(
        default=DEFAULT_CAPABILITIES,
        description="The short, controlled capability statement SYSTEM_CHAT answers from (never model knowledge).",
    )
    capabilities_en: Annotated[str, Field(min_length=1, max_length=4000)] | None = Field(
        default=None,
        description="The same statement for questions asked in English. Unset: the built-in English text while "
        "`capabilities` is the built-in one, else `capabilities` itself (never a text the operator did not write).",
    )

    @property
    def is_default_capabilities(self) -> bool:
        return self.capabilities == DEFAULT_CAPABILITIES


DEFAULT_NON_FACT_WORDS = (
    # time zones and data labels
    "UTC", "GMT", "CST", "MOCK", "UTF-8", "UTF8",
    # protocols, formats and roles an SRE report names without stating a fact
    "SQL", "HTTP", "HTTPS", "API", "APIs", "JSON", "YAML", "XML", "URL", "URI", "ID", "IDs", "OK", "DB", "DBA", "SRE",
    "RAG", "LLM", "AI", "CPU", "GPU", "JVM", "GC", "TCP", "UDP", "IP", "DNS", "TLS", "SSL", "SLA", "SLO", "QPS",
    "TPS", "RT", "TTL", "ACL", "OOM", "IO", "I/O", "ETA", "FAQ", "TODO", "N/A", "HA", "DDL", "DML", "PR",
    # the report's own vocabulary
    "NORMAL", "NEGATIVE_OBSERVATION", "EVIDENCE_FOUND", "NO_EVIDENCE", "SUPPORTED", "UNSUPPORTED",
    # English words that look like identifiers
    "read-only", "real-time", "long-running", "end-to-end", "up-to-date", "built-in", "follow-up", "non-null",
    "so-called", "well-known", "time-out", "one-time", "top-level", "per-request", "re-run", "e-mail", "e.g",
    "i.e", "etc", "vs", "k8s", "md5", "sha1", "sha256", "ipv4", "ipv6", "http2", "x86", "amd64", "arm64",
    "4xx", "5xx", "2xx", "3xx",
)  # fmt: skip
DEFAULT_CONFIRMATION_PATTERNS = (
    r"\b(?:re)?start(?:s|ed|ing)?\b", r"\breboot", r"\bre-?deploy", r"\broll(?:ing)?[ -]?back",
    r"\bscal(?:e|es|ed|ing)\b", r"\bfail[ -]?over", r"\bswitch[ -]?over", r"\bpromot(?:e|ing)\b", r"\bkill",
    r"\bterminat", r"\bdelet", r"\bdrop\b", r"\btruncat", r"\bflush", r"\bpurge", r"\bupdate\b",
    r"\binsert\b", r"\balter\b", r"\bcreate\s+(?:table|index|database|user)", r"\bgrant\b", r"\brevoke\b",
    r"\bshut\s*down", r"\bstop(?:s|ped|ping)?\b", r"\bdisable", r"\bdrain", r"\bevict", r"\bcordon",
    r"\breset\b", r"\brm\s+-", r"\bset\s+global\b", r"\b(?:enable|turn on)\s+(?:throttling|rate[ -]?limit)",
    r"\bbounce", r"\breplay", r"\brecycle", r"\bre-?trigger", r"\bre-?send", r"\bre-?run\s+(?:the\s+)?(?:job|task)",
    r"\bmark\s+\S+\s+as\b", r"\bset\s+\S+\s+to\b",
    "重启", "重新启动", "扩容", "缩容", "扩大", "调大", "调小", "调整", "回滚", "切换", "清空", "清理", "清除",
    "删除", "修改", "更新", "下线", "停止", "停用", "关闭", "终止", "杀掉", "杀死", "重置", "迁移", "禁用",
    "摘除", "写入", "插入", "重放", "重新执行", r"(?:开启|打开|启用|触发|执行)(?:限流|熔断|降级|隔离)",
    "改为", "改成", "置为", "设为", "设置为", "调高", "调低", "加大", "减小", "增大", "缩小", "回退", "补单", "重发",
    "重推", "重新投递", r"触发(?:补偿|重试|重放|任务|作业|回调|补单|job)",
    r"(?:增加|新增|加)[^，。；]{0,4}(?:台|个)?实例",
)  # fmt: skip
DEFAULT_ASSERTION_MARKERS = (
    "根因是", "根因为", "根本原因是", "原因已查明", "已查明", "已确认", "已定位到", "问题出在", "结论是", "可以断定",
    "肯定是", "一定是", "就是因为",
    "confirmed", "root cause is", "root cause was", "the cause is", "is caused by", "was caused by",
)  # fmt: skip


def _compiles(pattern: str) -> str:
    try:
        re.compile(pattern)
    except re.error:
        raise PydanticCustomError(
            "pattern", "{pattern!r} is not a valid regular expression", {"pattern": pattern}
        ) from None
    return pattern


class ClaimSettings(Section):
    """What the release gate treats as a fact token (``harness/gate/grounding.py``)."""

    non_fact_words: list[Annotated[str, Field(min_length=1, max_length=64)]] = Field(
        default_factory=lambda: list(DEFAULT_NON_FACT_WORDS),
        description="Words that look like identifiers but state no fact (compared case-insensitively).",
    )


class ActionSettings(Section):
    """The Harness's own side-effect policy (§10.2: the Harness/HITL policy has the final decision)."""

    confirmation_patterns: Annotated[
        list[Annotated[str, Field(min_length=1, max_length=200), AfterValidator(_compiles)]], Field(min_length=1)
    ] = Field(
        default_factory=lambda: list(DEFAULT_CONFIRMATION_PATTERNS),
        description="Regular expressions (case-insensitive): an action or recommendation that matches one must "
        "have requires_human_confirmation: true, or the EvidenceGuard refuses the draft.",
    )


class PlanSettings(Section):
    """The Diagnosis Plan streamed as a status: instructions, never findings."""

    assertion_markers: list[Annotated[str, Field(min_length=1, max_length=64)]] = Field(
        default_factory=lambda: list(DEFAULT_ASSERTION_MARKERS),
        description="Phrases that state a finding (compared case-insensitively); a plan step with one is dropped.",
    )
