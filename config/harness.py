"""The Harness's own settings (``harness:``): the run's deadline, the agent's budgets, the SemanticGuard, the
retry matrix, the invocation store, and the time plan they must fit."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from config.tool_budgets import LogsBudget, MetricsBudget, MysqlBudget, MysqlToolSettings, RagBudget
from config.tools import default_calls_per_tool
from config.types import NonNegativeInt, PositiveDuration, PositiveInt, PositiveSize, Section, ToolName, kebab
from config.units import duration, format_duration, parse_duration, size
from config.wording import ActionSettings, ClaimSettings, PlanSettings, SystemChatSettings

FIXED_MAX_ATTEMPTS = {
    "intent_router": 2,
    "diagnosis_agent": 1,
    "tool_call": 1,
    "semantic_guard": 2,
    "evidence_repair": 1,
}
"""The retry matrix of the specification (§4.2). Configuration may lower an entry, never raise it."""

TTL_SAFETY_BUFFER_S = 300.0


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
        default_factory=default_calls_per_tool,
        description="Calls per tool name; each bundled tool's default is its kind's max_calls, and a tool not named "
        "here is bounded by max-tool-calls only.",
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
        return {**default_calls_per_tool(), **value} if isinstance(value, dict) else value

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
                    {"field": kebab(name), "ceiling": ceiling},
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
    agent: AgentBudget = Field(default_factory=AgentBudget)
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
