"""The validated configuration: one frozen pydantic tree, read from YAML by :mod:`config.loader`.

YAML keys are kebab-case (``max-record-bytes``), as the specification writes them; the snake_case spelling
of a field (``max_record_bytes``) is accepted too. Every bound has a unit in its name or its type.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from config.env_refs import Secret
from config.units import ByteSize, Duration, duration, format_duration, parse_duration, size

DEFAULT_CAPABILITIES = (
    "SuperBiz 运维助手可以：1) 排查线上故障（例如支付超时、连接池耗尽），依据知识库、服务日志和订单库的只读查询给出"
    "带证据引用的诊断报告；2) 回答内部知识库中的排障手册、错误码、数据字典等问题。所有诊断结论都经过证据校验和独立"
    "审查，证据不足时只返回安全的降级说明，不会编造结论。它不会修改任何线上数据或配置。"
)
DEFAULT_CAPABILITIES_EN = (
    "The SuperBiz operations assistant can: 1) investigate production incidents (for example payment timeouts or an "
    "exhausted connection pool) and give a diagnosis report with evidence references, from the knowledge base, the "
    "service logs and read-only queries of the order database; 2) answer questions about the runbooks, error codes, "
    "data dictionary and other content of the internal knowledge base. Every diagnosis conclusion passes an evidence "
    "check and an independent review; when the evidence is not enough it returns only a safe fallback and never "
    "invents a conclusion. It never changes any production data or configuration."
)

FIXED_MAX_ATTEMPTS = {
    "intent_router": 2,
    "diagnosis_agent": 1,
    "tool_call": 1,
    "semantic_guard": 2,
    "evidence_repair": 1,
}
"""The retry matrix of the specification (§4.2). Configuration may lower an entry, never raise it."""

TTL_SAFETY_BUFFER_S = 300.0
ToolName = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{0,63}$")]
"""A tool's name as the model calls it and the configuration keys it."""
DEFAULT_CALLS_PER_TOOL: dict[str, int] = {
    # Calibrated from a real model on the demo question (issue 18), not from the offline model. Each tool gets
    # enough for the way a real model asks it, and none alone may spend more than ~40% of max-tool-calls (32).
    # knowledge: the runbook, the error signature found in the logs, the data dictionary (the offline model
    # asks 3) -> 6.
    "lookup_knowledge": 6,
    # logs are asked per service and per pattern (order-service, payment-service, the gateway; a broad window,
    # then a narrow one): the offline model asks 2, a real model asks several in one turn -> 12.
    "query_logs": 12,
    # MySQL: the order and its payment rows, then neighbours, counts and a corrected query after one the SQL
    # validator refused (the offline model asks 1) -> 8.
    "query_mysql": 8,
    # metrics are asked one metric name at a time (pool active/pending, requests by status, per service; the
    # offline model asks 4) -> 10.
    "query_metrics": 10,
}
KIND_PATH = r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$"


def _not_bool(value: Any) -> Any:
    if isinstance(value, bool):
        raise PydanticCustomError("bool_not_count", "expected a number, not true/false")
    return value


PositiveInt = Annotated[int, BeforeValidator(_not_bool), Field(gt=0)]
NonNegativeInt = Annotated[int, BeforeValidator(_not_bool), Field(ge=0)]
PositiveSize = Annotated[ByteSize, Field(gt=0)]
PositiveDuration = Annotated[Duration, Field(gt=0)]
Identifier = Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")]
FunctionName = Annotated[str, Field(pattern=r"^[A-Z][A-Z0-9_]{0,63}$")]
DEFAULT_SQL_FUNCTIONS = (
    "COUNT",
    "SUM",
    "AVG",
    "MIN",
    "MAX",
    "COALESCE",
    "IFNULL",
    "LOWER",
    "UPPER",
    "ROUND",
    "ABS",
    "DATE",
)
DEFAULT_MASKED_COLUMNS = ("password", "passwd", "token", "secret", "api_key", "phone", "mobile", "email", "id_card")


def _kebab(name: str) -> str:
    return name.replace("_", "-")


class Section(BaseModel):
    """Base of every configuration section: frozen, unknown keys rejected, kebab-case keys."""

    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        alias_generator=_kebab,
        validate_by_alias=True,
        validate_by_name=False,
        serialize_by_alias=True,
    )

    @model_validator(mode="before")
    @classmethod
    def _relaxed_keys(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        aliases = {field.alias or name for name, field in cls.model_fields.items()}
        normalised: dict[str, Any] = {}
        for key, value in data.items():
            canonical = _kebab(key) if isinstance(key, str) and _kebab(key) in aliases else key
            if canonical in normalised:
                raise PydanticCustomError(
                    "duplicate_key", "{key} is given twice (kebab-case and snake_case)", {"key": canonical}
                )
            normalised[canonical] = value
        return normalised


class RunSettings(Section):
    """The whole run, from routing to release."""

    # The run's time budgets must fit inside it (``HarnessSettings._time_budgets_fit``, issue 19): routing
    # (retry.intent-router.max-attempts 2 × router-attempt-timeout 10 s) + agent.max-duration (180 s, its repair
    # included) + the SemanticGuard (retry.semantic-guard.max-attempts 2 × attempt-timeout 20 s, at most its
    # total-timeout 45 s) = 240 s. So the deadline never clips the guard's last attempt under the defaults.
    deadline: PositiveDuration = Field(default=duration("240s"), description="Deadline of one run, set at StartRun.")
    # a router reply is one short JSON object (~1-3 s from a real model); a slow attempt is retried once.
    router_attempt_timeout: PositiveDuration = Field(
        default=duration("10s"),
        description="Ceiling of one intent-router attempt (and never more than model.timeout-s).",
    )


class AgentBudget(Section):
    """Budgets of the Diagnosis agent; the Harness enforces them at the model and tool boundaries and states
    what is left of each in every investigation turn's request (``harness.turn_budget``).

    A spent tool budget (in total, or of every tool) refuses further calls as a Tool ERROR ``BUDGET_EXHAUSTED``
    and the next turn offers no tool: the agent writes its draft from the evidence it has. So does an agent whose
    time is down to ``final-call-reserve``. A spent model-call or token budget ends the investigation without a
    draft (the fallback, the budget as its reason).

    The defaults come from a real model (every role through an OpenAI-compatible endpoint) on the demo question
    "订单 order-123 支付超时，帮我排查" (issue 18): it asked for 4, 8 and 3 tool calls in parallel in its first
    three turns, where the offline model asks 4 then 6 (10 in all). Token figures are for the bundled
    projection caps (``harness.logs``/``harness.metrics`` 8000 characters, ``harness.rag`` 3000 characters of
    excerpts, ``harness.mysql`` 32 KB) and about 3.3 characters a token for the mostly ASCII JSON of a result
    (about 1 character a token for Chinese). Recalibrate them from the recorded runs (``agent_step`` tokens and
    durations, ``tool_invocation`` counts) as traces accumulate.
    """

    # plan 1 + tool turns + the final draft 1 + one repair 1: 32 tool calls at 3-8 a turn are 4-10 tool turns,
    # so 7-13 calls; 16 leaves room for a model that asks two or three at a time. The real model had used 5
    # calls when its 12 tool calls were spent.
    max_model_calls: PositiveInt = 16
    # a real model asks 3-8 calls in parallel a turn and makes 3-5 tool turns: ~15-30 calls (15 in its first
    # three turns on the demo question); 32 lets such an investigation end by the model's choice, not the budget.
    max_tool_calls: PositiveInt = 32
    max_tool_calls_per_tool: dict[ToolName, PositiveInt] = Field(
        default_factory=lambda: dict(DEFAULT_CALLS_PER_TOOL),
        description="Calls per tool name; a tool not named here is bounded by max-tool-calls only.",
    )
    # Each agent request holds the system prompt and the task (~1.3K tokens), the four tool definitions (~2.5K)
    # and every result so far. A result measured on the demo data is 0.6-5.3K characters (2.4K on average,
    # ~820 tokens); at the caps a log or metrics result is ~2.4K tokens, a knowledge result ~3.3K. With 20
    # results in context one request is ~20K tokens (typical) to ~55K (every result at its cap).
    # A whole run of 30 typical results, 6 a turn over 5 tool turns: inputs of plan 3.8K, turns 3.9K, 8.8K,
    # 13.7K, 18.6K, 23.5K, the draft 28.5K and a repair 32K (~133K) plus outputs (~0.3K a tool turn, ~3K for a
    # long draft and again for its repair) ~ 140K; 200K leaves ~40% for longer results. Results near their caps
    # spend it around the fifth turn: a cost ceiling, which is its job.
    max_total_tokens: PositiveInt = Field(
        default=200000, description="Input plus output tokens of the agent's model calls (plan, turns, repair)."
    )
    # plan ~5 s + 5 tool turns of ~15 s each (a reply of <= 300 tokens over 10-30K tokens of context, then its
    # calls in parallel, each bounded by its query timeout: MySQL 5 s, Prometheus 10 s) ~ 80 s, + the reserve
    # below (90 s) = 170 s, inside 180 s.
    max_duration: PositiveDuration = Field(
        default=duration("180s"), description="Total time of the agent: plan, tool turns, final draft and repair."
    )
    # the final draft of a real model is long (~2-3K output tokens at ~50-70 tokens/s over ~30K of context:
    # ~45 s), and a repair rewrites it whole (~45 s again): 90 s, more than model.timeout-s (60 s), so the draft
    # may take as long as any model call may.
    final_call_reserve: PositiveDuration = Field(
        default=duration("90s"),
        description=(
            "Time kept at the end of max-duration for the agent's tool-less tail: the final draft and its repair. "
            "When the agent's time left is down to it, no tool is offered and the model writes its draft. "
            "Must be shorter than max-duration; when not given, 90s or half of max-duration, whichever is less."
        ),
    )

    @field_validator("max_tool_calls_per_tool", mode="before")
    @classmethod
    def _keep_unnamed_tool_defaults(cls, value: Any) -> Any:
        """A file that names one tool changes that tool's limit; the others keep their defaults."""
        return {**DEFAULT_CALLS_PER_TOOL, **value} if isinstance(value, dict) else value

    @model_validator(mode="before")
    @classmethod
    def _reserve_fits_a_short_agent(cls, data: Any) -> Any:
        """A configuration that shortens max-duration and says nothing of the reserve keeps half of it for the
        final draft, instead of being refused for a default it never wrote."""
        if not isinstance(data, dict) or any(key in data for key in ("final-call-reserve", "final_call_reserve")):
            return data
        given = data.get("max-duration", data.get("max_duration"))
        if given is None:
            return data
        try:
            seconds = parse_duration(given)
        except ValueError:
            return data  # max-duration itself is refused, with its own message
        default = float(cls.model_fields["final_call_reserve"].default)
        return {**data, "final-call-reserve": format_duration(min(default, seconds / 2))} if seconds > 0 else data

    @model_validator(mode="after")
    def _reserve_inside_max_duration(self) -> AgentBudget:
        if self.final_call_reserve >= self.max_duration:
            raise PydanticCustomError(
                "reserve_order", "final-call-reserve must be shorter than max-duration (tools need some of it)"
            )
        return self


_GUARD_TOTAL_DEFAULT_S = duration("45s")


class SemanticGuardSettings(Section):
    attempt_timeout: PositiveDuration = Field(default=duration("20s"))
    total_timeout: PositiveDuration = Field(default=_GUARD_TOTAL_DEFAULT_S)
    max_input_bytes: PositiveSize = Field(default=size("64KB"))
    replica_concurrency: Annotated[int, Field(gt=0, le=256)] = Field(
        default=4, description="Evaluations one guard replica runs at once; the pool's capacity is replicas × this."
    )

    @model_validator(mode="after")
    def _total_covers_attempt(self) -> SemanticGuardSettings:
        if self.total_timeout < self.attempt_timeout:
            raise PydanticCustomError("timeout_order", "total-timeout must be at least attempt-timeout")
        return self


class RetryPolicySettings(Section):
    max_attempts: PositiveInt


class RepairPolicySettings(Section):
    """How many tool-less repair turns the agent gets after a failed EvidenceGuard check; 0 disables them."""

    max_attempts: NonNegativeInt


class RetrySettings(Section):
    """Attempts per operation. Each entry may be lowered below the fixed matrix, never raised above it."""

    intent_router: RetryPolicySettings = RetryPolicySettings(max_attempts=2)
    diagnosis_agent: RetryPolicySettings = RetryPolicySettings(max_attempts=1)
    tool_call: RetryPolicySettings = RetryPolicySettings(max_attempts=1)
    semantic_guard: RetryPolicySettings = RetryPolicySettings(max_attempts=2)
    evidence_repair: RepairPolicySettings = RepairPolicySettings(max_attempts=1)

    @model_validator(mode="after")
    def _within_matrix(self) -> RetrySettings:
        for name, ceiling in FIXED_MAX_ATTEMPTS.items():
            if getattr(self, name).max_attempts > ceiling:
                raise PydanticCustomError(
                    "retry_above_matrix",
                    "{field}.max-attempts must be at most {ceiling} (fixed retry matrix)",
                    {"field": _kebab(name), "ceiling": ceiling},
                )
        return self


class EvidenceStoreSettings(Section):
    """The canonical invocation store in Redis (§4.2)."""

    key_prefix: Annotated[str, Field(pattern=r"^[A-Za-z0-9_\-]+(:[A-Za-z0-9_\-]+)*$")] = "superbiz:harness:tool-call"
    ttl: PositiveDuration = Field(default=duration("2h"))
    max_record_bytes: PositiveSize = Field(default=size("1MB"))
    max_agent_result_bytes: PositiveSize = Field(default=size("64KB"))
    max_run_bytes: PositiveSize = Field(default=size("5MB"))

    @model_validator(mode="after")
    def _caps_nest(self) -> EvidenceStoreSettings:
        if self.max_agent_result_bytes > self.max_record_bytes:
            raise PydanticCustomError("cap_order", "max-agent-result-bytes must not exceed max-record-bytes")
        if self.max_record_bytes > self.max_run_bytes:
            raise PydanticCustomError("cap_order", "max-record-bytes must not exceed max-run-bytes")
        return self


class RagBudget(Section):
    max_evidence: PositiveInt = 5
    max_excerpt_chars: PositiveInt = 600
    max_total_chars: PositiveInt = 3000


class LogsBudget(Section):
    max_patterns: PositiveInt = 8
    max_events: PositiveInt = 10
    max_message_chars: PositiveInt = 300
    default_lookback: PositiveDuration = Field(default=duration("30m"))
    max_lookback: PositiveDuration = Field(default=duration("24h"))
    max_total_chars: PositiveInt = 8000

    @model_validator(mode="after")
    def _lookback_order(self) -> LogsBudget:
        if self.default_lookback > self.max_lookback:
            raise PydanticCustomError("lookback_order", "default-lookback must not exceed max-lookback")
        return self


class MetricsBudget(Section):
    """Bounds of every query_metrics call: its window, its step and the size of what the agent gets back."""

    max_series: PositiveInt = Field(default=10, description="Series shown per call; the rest is counted only.")
    max_sample_points: Annotated[int, BeforeValidator(_not_bool), Field(ge=2, le=100)] = Field(
        default=8, description="Points of each series' downsampled sample (its first and last among them)."
    )
    max_total_chars: PositiveInt = Field(default=8000, description="The whole serialised agent_result.")
    default_lookback: Annotated[Duration, Field(ge=60)] = Field(default=duration("30m"))
    max_lookback: Annotated[Duration, Field(ge=60)] = Field(default=duration("24h"))
    min_step: Annotated[Duration, Field(ge=1)] = Field(
        default=duration("15s"), description="The smallest query step; the step is about lookback / 60."
    )
    query_timeout: PositiveDuration = Field(
        default=duration("10s"), description="Sent to Prometheus as the query's timeout; the client waits 2 s more."
    )
    max_response_bytes: PositiveSize = Field(
        default=size("512KB"), description="A larger Prometheus answer is refused (METRICS_RESULT_TOO_LARGE)."
    )

    @model_validator(mode="after")
    def _lookback_order(self) -> MetricsBudget:
        if self.default_lookback > self.max_lookback:
            raise PydanticCustomError("lookback_order", "default-lookback must not exceed max-lookback")
        return self


class MysqlBudget(Section):
    """Bounds of every query_mysql call, kept apart from the schema allowlist (§9.1)."""

    max_rows: PositiveInt = 50
    max_cell_chars: PositiveInt = 256
    max_total_bytes: PositiveSize = Field(default=size("32KB"))
    query_timeout: PositiveDuration = Field(default=duration("5s"))
    allowed_functions: Annotated[list[FunctionName], Field(min_length=1)] = Field(
        default_factory=lambda: list(DEFAULT_SQL_FUNCTIONS),
        description="SQL functions a query may call (upper-case names); anything else is rejected.",
    )
    masked_columns: list[Identifier] = Field(
        default_factory=lambda: list(DEFAULT_MASKED_COLUMNS),
        description="Column names (case-insensitive) whose values are masked in every result.",
    )


class TableAllowlist(Section):
    columns: Annotated[list[Identifier], Field(min_length=1)]


class SchemaAllowlist(Section):
    tables: Annotated[dict[Identifier, TableAllowlist], Field(min_length=1)]


class DataSourceSettings(Section):
    """One logical data source. The id (its key) is all the agent ever sees.

    ``driver: mysql`` connects with ``jdbc-url`` (``jdbc:mysql://host:port/db`` or ``jdbc:mariadb://…``) and a
    read-only account; ``driver: sqlite`` runs the same validated SQL, transpiled, on a SQLite file, or on the
    bundled demo ``order_db`` when ``sqlite-path`` is absent (embedded demo only).
    """

    driver: Literal["mysql", "sqlite"] = "mysql"
    jdbc_url: Secret | None = None
    username: Secret | None = None
    password: Secret | None = None
    sqlite_path: str | None = None
    pool_size: Annotated[int, Field(gt=0, le=64)] = 4
    default_schema: Identifier
    allowed_schemas: Annotated[dict[Identifier, SchemaAllowlist], Field(min_length=1)]

    @model_validator(mode="after")
    def _consistent(self) -> DataSourceSettings:
        if self.default_schema not in self.allowed_schemas:
            raise PydanticCustomError("default_schema", "default-schema must be one of allowed-schemas")
        if self.driver == "mysql" and (self.jdbc_url is None or self.sqlite_path is not None):
            raise PydanticCustomError("driver", "driver mysql needs jdbc-url (and no sqlite-path)")
        if self.driver == "sqlite" and self.jdbc_url is not None:
            raise PydanticCustomError("driver", "driver sqlite takes sqlite-path, not jdbc-url")
        return self


class MysqlToolSettings(Section):
    data_sources: dict[Identifier, DataSourceSettings] = Field(default_factory=dict)


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


def _seconds(value: float) -> str:
    return f"{value:g}s"


@dataclass(frozen=True)
class TimePlan:
    """The worst-case time of each phase of a run, which together must fit ``harness.run.deadline``: the router's
    attempts, the agent (plan, tool turns, final draft and its repair: all under agent.max-duration) and the
    SemanticGuard's attempts (bounded by its total-timeout)."""

    router_attempts: int
    router_attempt_s: float
    agent_s: float
    guard_attempts: int
    guard_attempt_s: float
    guard_total_s: float

    @property
    def guard_s(self) -> float:
        return min(self.guard_attempts * self.guard_attempt_s, self.guard_total_s)

    @property
    def around_agent_s(self) -> float:
        """What routing and the guard take: the time a derived agent.max-duration leaves to them."""
        return self.router_attempts * self.router_attempt_s + self.guard_s

    @property
    def total_s(self) -> float:
        return self.around_agent_s + self.agent_s

    def describe(self) -> str:
        guard = f"guard {self.guard_attempts}×{_seconds(self.guard_attempt_s)}"
        if self.guard_total_s < self.guard_attempts * self.guard_attempt_s:
            guard = f"guard {_seconds(self.guard_total_s)} (total-timeout)"
        return (
            f"router {self.router_attempts}×{_seconds(self.router_attempt_s)} + agent {_seconds(self.agent_s)} "
            f"(repair included) + {guard} = {_seconds(self.total_s)}"
        )


def _section(data: dict[str, Any], name: str) -> dict[str, Any] | None:
    """A section of a mapping still being validated, under either spelling; None when absent or not a mapping."""
    value = data.get(name, data.get(name.replace("-", "_"), {}))
    return value if isinstance(value, dict) else None


def _given(section: dict[str, Any], name: str) -> Any:
    return section.get(name, section.get(name.replace("-", "_")))


class HarnessSettings(Section):
    run: RunSettings = RunSettings()
    agent: AgentBudget = AgentBudget()
    semantic_guard: SemanticGuardSettings = SemanticGuardSettings()
    retry: RetrySettings = RetrySettings()
    evidence: EvidenceStoreSettings = EvidenceStoreSettings()
    rag: RagBudget = RagBudget()
    logs: LogsBudget = LogsBudget()
    metrics: MetricsBudget = MetricsBudget()
    mysql: MysqlBudget = MysqlBudget()
    mysql_tools: MysqlToolSettings = MysqlToolSettings()
    system_chat: SystemChatSettings = SystemChatSettings()
    claims: ClaimSettings = ClaimSettings()
    actions: ActionSettings = ActionSettings()
    plan: PlanSettings = PlanSettings()

    @model_validator(mode="before")
    @classmethod
    def _agent_time_from_a_shorter_deadline(cls, data: Any) -> Any:
        """A configuration that shortens run.deadline and says nothing of agent.max-duration gives the agent what
        the deadline leaves after routing and the SemanticGuard (:class:`TimePlan`), at most the default, instead
        of being refused for a default it never wrote."""
        if not isinstance(data, dict):
            return data
        agent, run, guard, retry = (_section(data, name) for name in ("agent", "run", "semantic-guard", "retry"))
        if agent is None or run is None or _given(agent, "max-duration") is not None:
            return data
        try:
            deadline = parse_duration(_given(run, "deadline"))
            plan = TimePlan(
                router_attempts=int(_attempts(retry, "intent-router", RetrySettings().intent_router.max_attempts)),
                router_attempt_s=_duration_of(run, RunSettings, "router-attempt-timeout"),
                agent_s=0.0,
                guard_attempts=int(_attempts(retry, "semantic-guard", RetrySettings().semantic_guard.max_attempts)),
                guard_attempt_s=_duration_of(guard, SemanticGuardSettings, "attempt-timeout"),
                guard_total_s=_duration_of(guard, SemanticGuardSettings, "total-timeout"),
            )
        except (ValueError, TypeError):
            return data  # refused below, with its own message
        default = float(AgentBudget.model_fields["max_duration"].default)
        left = deadline - plan.around_agent_s
        if left <= 0 or left >= default:
            return data
        return {**data, "agent": {**agent, "max-duration": format_duration(left)}}

    def time_plan(self) -> TimePlan:
        return TimePlan(
            router_attempts=self.retry.intent_router.max_attempts,
            router_attempt_s=self.run.router_attempt_timeout,
            agent_s=self.agent.max_duration,
            guard_attempts=self.retry.semantic_guard.max_attempts,
            guard_attempt_s=self.semantic_guard.attempt_timeout,
            guard_total_s=self.semantic_guard.total_timeout,
        )

    @model_validator(mode="after")
    def _time_budgets_fit(self) -> HarnessSettings:
        if self.agent.max_duration > self.run.deadline:
            raise PydanticCustomError("deadline_order", "agent.max-duration must not exceed run.deadline")
        if self.semantic_guard.total_timeout > self.run.deadline:
            raise PydanticCustomError("deadline_order", "semantic-guard.total-timeout must not exceed run.deadline")
        plan = self.time_plan()
        if plan.total_s > self.run.deadline:
            raise PydanticCustomError(
                "deadline_sum",
                "the run's time budgets cannot fit its deadline: {sum} > harness.run.deadline {deadline}",
                {"sum": plan.describe(), "deadline": _seconds(self.run.deadline)},
            )
        if self.evidence.ttl < self.run.deadline + TTL_SAFETY_BUFFER_S:
            raise PydanticCustomError(
                "ttl_too_short", "evidence.ttl must exceed run.deadline by at least a 5m safety buffer"
            )
        return self


def _attempts(retry: dict[str, Any] | None, name: str, default: int) -> Any:
    """``retry.<name>.max-attempts`` of a mapping still being validated, or its default."""
    policy = _section(retry or {}, name)
    given = _given(policy, "max-attempts") if policy is not None else None
    return default if given is None else given


def _duration_of(section: dict[str, Any] | None, model: type[Section], name: str) -> float:
    """A duration of a section still being validated, in seconds, or its field's default."""
    given = _given(section or {}, name)
    return parse_duration(given) if given is not None else float(model.model_fields[name.replace("-", "_")].default)


class RedisSettings(Section):
    """Where the invocation store lives. ``fakeredis://`` runs an in-process Redis (embedded demo only)."""

    url: str = "fakeredis://"
    username: str | None = None
    password: Secret | None = None
    max_connections: Annotated[int, Field(gt=0, le=10000)] = Field(
        default=64,
        description="Connections per process (each supervisor); a command beyond them waits for one to free up.",
    )

    @model_validator(mode="after")
    def _no_credentials_in_url(self) -> RedisSettings:
        parts = urlsplit(self.url)
        if parts.scheme not in ("redis", "rediss", "unix", "fakeredis"):
            raise PydanticCustomError("redis_url", "url must start with redis://, rediss://, unix:// or fakeredis://")
        if parts.password or parts.username:
            raise PydanticCustomError(
                "redis_url", "url must not carry credentials; use username and password: ${ENV_VAR}"
            )
        return self


RayResources = dict[Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")], Annotated[float, Field(gt=0)]]
"""Ray custom resources an actor needs; it is placed only on nodes that carry them."""


class ToolRuntime(Section):
    """One evidence tool: whether it is offered, which kind it is, and how many of its calls run at once (across
    the whole cluster) and may wait."""

    enabled: bool = Field(default=True, description="Offer this tool to the agent (false: not offered, no actor).")
    kind: Annotated[str, Field(pattern=KIND_PATH)] | None = Field(
        default=None,
        description='An operator\'s own tool: the import path of its EvidenceKind, "package.module:NAME". '
        "The bundled tools need none.",
    )
    options: dict[str, Any] = Field(
        default_factory=dict, description="An operator's tool's own settings, read by its kind's builder."
    )
    concurrency: Annotated[int, BeforeValidator(_not_bool), Field(gt=0, le=256)] = 2
    max_pending: Annotated[int, BeforeValidator(_not_bool), Field(ge=0, le=10000)] = 8
    resources: RayResources = Field(
        default_factory=dict,
        description="Ray custom resources the tool's actor needs, e.g. {mysql_access: 0.01}: it is placed only on "
        "nodes started with that resource (ray start --resources='{\"mysql_access\": 1}').",
    )


class KnowledgeToolSettings(ToolRuntime):
    path: str | None = Field(default=None, description="Folder of markdown documents; the bundled demo when absent.")


class LogsToolSettings(ToolRuntime):
    dataset: str | None = Field(default=None, description="Mock log dataset (JSONL); the bundled one when absent.")


MetricName = Annotated[str, Field(pattern=r"^[A-Za-z_:][A-Za-z0-9_:]{0,199}$")]
LabelName = Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")]
RESERVED_LABELS = frozenset({"le", "quantile"})
"""Labels the histogram and summary series use themselves: never a matcher or a grouping of the agent's."""
DEFAULT_METRICS: dict[str, dict[str, Any]] = {
    "hikaricp_connections_active": {
        "type": "gauge",
        "labels": ["service", "pool"],
        "help": "Connections in use in a HikariCP pool.",
    },
    "hikaricp_connections_pending": {
        "type": "gauge",
        "labels": ["service", "pool"],
        "help": "Threads waiting for a connection from a HikariCP pool.",
    },
    "hikaricp_connections_max": {
        "type": "gauge",
        "labels": ["service", "pool"],
        "help": "Maximum size of a HikariCP pool.",
    },
    "http_server_requests_seconds": {
        "type": "histogram",
        "labels": ["service", "uri", "status"],
        "help": "Duration of the HTTP requests a service answered, by route template and status code.",
    },
    "payment_order_callback_total": {
        "type": "counter",
        "labels": ["service", "outcome"],
        "help": "payment-service callbacks to order-service, by outcome (SUCCESS, ERR_TIMEOUT).",
    },
    "mysql_innodb_row_lock_waits_total": {
        "type": "counter",
        "labels": ["service"],
        "help": "InnoDB row lock waits of a database (service: the database, e.g. order_db).",
    },
}
"""The demo's allowlist: the metrics of the bundled dataset (``tools/metrics/data/mock_metrics.yaml``)."""


class MetricDefinition(Section):
    """One metric the agent may query: its type decides the aggregations, its labels the matchers and groupings."""

    type: Literal["counter", "gauge", "histogram"]
    labels: Annotated[list[LabelName], Field(max_length=16)] = Field(
        default_factory=list, description="Labels the agent may match on and group by; no other label is allowed."
    )
    help: Annotated[str, Field(max_length=200, pattern=r"^[^\r\n]*$")] = Field(
        default="", description="One line shown to the agent in the tool description."
    )

    @field_validator("labels")
    @classmethod
    def _plain_labels(cls, labels: list[str]) -> list[str]:
        if len(set(labels)) != len(labels):
            raise PydanticCustomError("metric_labels", "labels must not repeat")
        if any(label.startswith("__") or label in RESERVED_LABELS for label in labels):
            raise PydanticCustomError("metric_labels", "labels must not be __name__-like, le or quantile")
        return labels


class MetricsToolSettings(ToolRuntime):
    """``query_metrics``: the bundled demo metrics when ``url`` is absent, a Prometheus HTTP API when present.

    Credentials are ``${ENV}`` references, never in the URL: ``username`` and ``password`` (basic auth) or
    ``bearer-token``.
    """

    url: str | None = Field(
        default=None,
        description="Prometheus base URL (http or https; no credentials, query or fragment), e.g. "
        "https://prometheus.internal:9090; the bundled demo metrics (labelled MOCK) when absent.",
    )
    name: Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$")] = Field(
        default="prometheus", description="The source's name as references show it."
    )
    username: Secret | None = Field(default=None, description="Basic auth user, an ${ENV_VAR} reference.")
    password: Secret | None = Field(default=None, description="Basic auth password, an ${ENV_VAR} reference.")
    bearer_token: Secret | None = Field(default=None, description="An ${ENV_VAR} reference; instead of basic auth.")
    scrape_interval: Annotated[Duration, Field(ge=1)] = Field(
        default=duration("15s"), description="How often the metrics are scraped; a rate window is at least 4 × this."
    )
    dataset: str | None = Field(
        default=None, description="Demo metrics definition (YAML) used without url; the bundled one when absent."
    )
    metrics: Annotated[dict[MetricName, MetricDefinition], Field(min_length=1)] = Field(
        default_factory=lambda: {name: MetricDefinition.model_validate(spec) for name, spec in DEFAULT_METRICS.items()},
        description="The only metrics the agent may query, by name; the bundled demo's when absent.",
    )

    @field_validator("url")
    @classmethod
    def _plain_http_url(cls, value: str | None) -> str | None:
        # Messages never echo the URL: it may carry a credential.
        if value is None:
            return None
        try:
            parts = urlsplit(value)
            parts.port  # noqa: B018  (raises on a malformed port)
        except ValueError:
            raise PydanticCustomError("metrics_url", "url is not a valid URL") from None
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise PydanticCustomError("metrics_url", "url must be an http:// or https:// URL with a host")
        if parts.username is not None or parts.password is not None:
            raise PydanticCustomError(
                "metrics_url", "url must not carry credentials; use username and password or bearer-token: ${ENV_VAR}"
            )
        if parts.query or parts.fragment:
            raise PydanticCustomError("metrics_url", "url must not carry a query or a fragment")
        return value

    @model_validator(mode="after")
    def _credentials_consistent(self) -> MetricsToolSettings:
        basic = (self.username, self.password)
        if any(secret is not None for secret in basic) and None in basic:
            raise PydanticCustomError("metrics_auth", "basic auth needs both username and password")
        if self.bearer_token is not None and self.username is not None:
            raise PydanticCustomError("metrics_auth", "use either username and password or bearer-token, not both")
        secrets = [secret for secret in (*basic, self.bearer_token) if secret is not None]
        if secrets and self.url is None:
            raise PydanticCustomError("metrics_auth", "credentials need url (the demo metrics take none)")
        if any(not secret.reveal() for secret in secrets):
            raise PydanticCustomError("metrics_auth", "a credential is empty: its environment variable is set to ''")
        if self.url is not None and self.dataset is not None:
            raise PydanticCustomError("metrics_dataset", "dataset is for the demo metrics; it takes no url")
        return self


class ToolsSettings(Section):
    """Per-tool settings, keyed by tool name: the bundled tools below, and any other name for an operator's own
    tool (``kind`` required)."""

    model_config = ConfigDict(**{**Section.model_config, "extra": "allow"})

    lookup_knowledge: KnowledgeToolSettings = Field(
        default=KnowledgeToolSettings(concurrency=4, max_pending=16), alias="lookup_knowledge"
    )
    query_logs: LogsToolSettings = Field(default=LogsToolSettings(concurrency=4, max_pending=16), alias="query_logs")
    query_metrics: MetricsToolSettings = Field(
        default=MetricsToolSettings(concurrency=4, max_pending=16), alias="query_metrics"
    )
    query_mysql: ToolRuntime = Field(default=ToolRuntime(concurrency=2, max_pending=8), alias="query_mysql")

    @model_validator(mode="after")
    def _operator_tools(self) -> ToolsSettings:
        extra = self.__pydantic_extra__ or {}
        for name, value in list(extra.items()):
            if not re.fullmatch(r"[a-z][a-z0-9_]{0,63}", name):
                raise PydanticCustomError("tool_name", "{name} is not a tool name ([a-z][a-z0-9_]*)", {"name": name})
            runtime = value if isinstance(value, ToolRuntime) else ToolRuntime.model_validate(value)
            if runtime.kind is None:
                message = "tool {name} needs kind: an EvidenceKind's import path, package.module:NAME"
                raise PydanticCustomError("tool_kind", message, {"name": name})
            extra[name] = runtime
        return self

    def entries(self) -> dict[str, ToolRuntime]:
        """Every configured tool by name, bundled first."""
        bundled = {name: getattr(self, name) for name in type(self).model_fields}
        return {**bundled, **(self.__pydantic_extra__ or {})}


class ModelSettings(Section):
    """The chat model behind the one ``ChatModel`` boundary.

    ``offline`` is the bundled scripted model: no network, no credentials. ``openai`` speaks the OpenAI chat
    completions API to ``base-url`` (the OpenAI API when absent) with ``api-key``. An offline model never runs
    silently in place of a configured endpoint: ``provider: offline`` with a ``base-url`` or an ``api-key`` is
    rejected.
    """

    provider: Literal["openai", "offline"] = "offline"
    base_url: str | None = Field(
        default=None, description="An OpenAI-compatible endpoint (http or https, no credentials, no query)."
    )
    api_key: Secret | None = Field(default=None, description="An ${ENV_VAR} reference; required by provider openai.")
    name: Annotated[str, Field(min_length=1, max_length=200, pattern=r"^\S(?:.*\S)?$")] = Field(
        default="gpt-4o-mini", description="The model name sent with every request."
    )
    timeout_s: Annotated[float, BeforeValidator(_not_bool), Field(gt=0, le=600, allow_inf_nan=False)] = Field(
        default=60.0, description="Ceiling of one HTTP request to the model, in seconds."
    )
    temperature: Annotated[float, BeforeValidator(_not_bool), Field(ge=0, le=2, allow_inf_nan=False)] = 0.0

    @field_validator("base_url")
    @classmethod
    def _plain_http_url(cls, value: str | None) -> str | None:
        # Messages never echo the URL: it may carry a credential.
        if value is None:
            return None
        try:
            parts = urlsplit(value)
            parts.port  # noqa: B018  (raises on a malformed port)
        except ValueError:
            raise PydanticCustomError("model_url", "base-url is not a valid URL") from None
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise PydanticCustomError("model_url", "base-url must be an http:// or https:// URL with a host")
        if parts.username is not None or parts.password is not None:
            raise PydanticCustomError("model_url", "base-url must not carry credentials; use api-key: ${ENV_VAR}")
        if parts.query or parts.fragment:
            raise PydanticCustomError("model_url", "base-url must not carry a query or a fragment")
        return value

    @model_validator(mode="after")
    def _provider_consistent(self) -> ModelSettings:
        if self.provider == "openai":
            if self.api_key is None:
                raise PydanticCustomError("model_provider", "provider openai needs api-key (an ${ENV_VAR} reference)")
            if not self.api_key.reveal():
                raise PydanticCustomError(
                    "model_provider", "api-key is empty: its environment variable is set to an empty value"
                )
        elif self.base_url is not None or self.api_key is not None:
            raise PydanticCustomError(
                "model_provider",
                "provider offline takes no base-url or api-key; set provider: openai to use the endpoint",
            )
        return self


class RaySettings(Section):
    """Where the actors run and how many of each pool there are."""

    address: str | None = Field(
        default=None, description="auto | ray://host:10001 | host:6379; a local Ray is started when absent."
    )
    namespace: Annotated[str, Field(pattern=r"^[A-Za-z0-9_\-]{1,64}$")] = Field(
        default="superbiz", description="Ray namespace of every named actor; drivers sharing it share the actors."
    )
    supervisor_pool: Annotated[int, Field(gt=0, le=64)] = 2
    max_active_runs: Annotated[int, Field(gt=0, le=10000)] = Field(
        default=16,
        description="Runs one supervisor works on at once; later runs wait (status QUEUED) instead of "
        "overloading it. Cluster capacity is supervisor-pool × this.",
    )
    agent_pool: Annotated[int, Field(gt=0, le=64)] = 2
    guard_pool: Annotated[int, Field(gt=0, le=64)] = 2
    spread_guards: bool = Field(default=True, description="Place guard replicas on different nodes when possible.")
    resources: RayResources = Field(
        default_factory=dict,
        description="Ray custom resources the supervisors, agents and guards need, e.g. {harness: 0.01} to keep "
        "them on the nodes started with --resources='{\"harness\": 1}' (tools have their own, under tools).",
    )
    auth_token: Secret | None = Field(
        default=None,
        description="The token of a cluster that uses Ray's token authentication, as an ${ENV} reference; without "
        "it Ray's own RAY_AUTH_TOKEN, RAY_AUTH_TOKEN_PATH or ~/.ray/auth_token is used.",
    )
    client_lease: PositiveDuration = Field(
        default=duration("60s"),
        description="A run whose gateway has not fetched its events for this long is cancelled (the gateway is gone).",
    )
    event_linger: Annotated[Duration, Field(ge=0, le=1)] = Field(
        default=duration("20ms"),
        description="Once a gateway's poll finds a new event, how long it waits for more before it returns (never "
        "past a run's done event): a run's events then travel in a few messages rather than one each.",
    )
    max_restarts: Annotated[int, Field(ge=-1)] = Field(
        default=-1,
        description="Restarts of a dead actor (-1: always). Calls are never retried by Ray: a tool call or an agent "
        "step that was running fails, and the Harness decides (Tool ERROR, fallback, the guard's one retry).",
    )


class GatewaySettings(Section):
    """The HTTP gateway: where it listens, who may call it, and what a request may be."""

    host: str = "127.0.0.1"
    port: Annotated[int, Field(ge=0, le=65535)] = 8080
    auth: Literal["api-keys", "off"] = Field(
        default="off", description="api-keys: every request needs Authorization: Bearer <key>; off only on loopback."
    )
    api_keys: dict[Annotated[str, Field(pattern=r"^[A-Za-z0-9_\-]{1,64}$")], Secret] = Field(
        default_factory=dict, description="Principal name -> its key (an ${ENV} reference)."
    )
    max_query_chars: Annotated[int, Field(gt=0, le=20000)] = 2000
    max_body_bytes: PositiveSize = Field(default=size("16KB"))
    ping_interval: PositiveDuration = Field(default=duration("15s"), description="SSE keep-alive comment interval.")
    shutdown_grace: Annotated[Duration, Field(ge=0)] = Field(
        default=duration("30s"),
        description="On SIGTERM or Ctrl-C, how long runs in flight may still finish; the rest are cancelled.",
    )

    @model_validator(mode="after")
    def _keys_when_required(self) -> GatewaySettings:
        if self.auth == "api-keys" and not self.api_keys:
            raise PydanticCustomError("auth", "auth api-keys needs at least one entry in api-keys")
        return self


AUDIT_URL_SCHEMES = ("sqlite", "mysql+pymysql", "mariadb+pymysql")
_CREDENTIAL_QUERY_KEYS = frozenset({"user", "username", "password", "passwd"})


class AuditSettings(Section):
    """The durable audit store (``stores/audit/``): runs, model steps and tool invocations.

    ``url`` is a SQLAlchemy URL without credentials: ``sqlite:///var/superbiz-audit.db`` (a path relative to
    the working directory; its folder is created), ``sqlite://`` (in memory, tests only) or
    ``mysql+pymysql://host:3306/db`` / ``mariadb+pymysql://...`` with ``username`` and ``password: ${ENV_VAR}``.
    """

    url: str = Field(
        default="sqlite:///var/superbiz-audit.db",
        validate_default=True,
        description="SQLAlchemy URL (sqlite, mysql+pymysql or mariadb+pymysql), never with credentials; a relative "
        "sqlite path is resolved against the working directory when the configuration is loaded.",
    )
    username: Annotated[str, Field(min_length=1, max_length=128)] | None = None
    password: Secret | None = Field(default=None, description="An ${ENV_VAR} reference; joined to the URL at connect.")
    preview_chars: Annotated[int, BeforeValidator(_not_bool), Field(gt=0, le=16000)] = Field(
        default=500, description="Characters of a tool output preview kept in tool_invocation.output_preview."
    )
    previous_turn_chars: Annotated[int, BeforeValidator(_not_bool), Field(gt=0, le=4000)] = Field(
        default=500, description="Characters kept of each text field of previous_turn."
    )
    previous_turn_documents: Annotated[int, BeforeValidator(_not_bool), Field(ge=0, le=50)] = Field(
        default=5, description="Source documents kept in previous_turn (the first ones)."
    )
    outage_wait: PositiveDuration = Field(
        default=duration("60s"),
        description="How long a write waits out an unreachable database (a restart, a failover), retrying, before "
        "it fails and is logged; a run's done waits for its record at most this long.",
    )

    @field_validator("url")
    @classmethod
    def _plain_database_url(cls, value: str) -> str:
        # Imported here: an actor process that only receives a configuration never loads SQLAlchemy.
        from sqlalchemy.engine import make_url
        from sqlalchemy.exc import ArgumentError

        # Messages never echo the URL: it may carry a credential.
        try:
            url = make_url(value)
        except (ArgumentError, ValueError):
            raise PydanticCustomError("audit_url", "url is not a valid SQLAlchemy database URL") from None
        if url.drivername not in AUDIT_URL_SCHEMES:
            raise PydanticCustomError(
                "audit_url", "url must start with sqlite://, mysql+pymysql:// or mariadb+pymysql://"
            )
        if (
            url.username is not None
            or url.password is not None
            or _CREDENTIAL_QUERY_KEYS & {key.lower() for key in url.query}
        ):
            raise PydanticCustomError(
                "audit_url", "url must not carry credentials; use username and password: ${ENV_VAR}"
            )
        if url.drivername == "sqlite" and (url.host or url.port):
            raise PydanticCustomError("audit_url", "a sqlite url takes a path (sqlite:///relative.db), not a host")
        if url.drivername != "sqlite" and not (url.host and url.database):
            raise PydanticCustomError("audit_url", "a MySQL/MariaDB url needs a host and a database")
        if url.drivername == "sqlite" and url.database and not Path(url.database).is_absolute():
            # Resolved where the configuration is loaded: actors on other processes must open the same file.
            return url.set(database=str(Path(url.database).resolve())).render_as_string(hide_password=False)
        return value


class AppConfig(Section):
    """The root of the configuration file."""

    harness: HarnessSettings = HarnessSettings()
    redis: RedisSettings = RedisSettings()
    tools: ToolsSettings = ToolsSettings()
    model: ModelSettings = ModelSettings()
    ray: RaySettings = RaySettings()
    gateway: GatewaySettings = GatewaySettings()
    audit: AuditSettings = Field(default_factory=AuditSettings)

    def runtime_digest(self) -> str:
        """A short digest of what the actors are built from: everything but the gateway's own settings and how it
        reaches Ray (address, token). Secrets count by their ``${ENV}`` reference, not their value."""
        data = self.model_dump(mode="json", exclude={"gateway": True, "ray": {"address", "auth_token"}})
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]
