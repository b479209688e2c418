"""The budget ledger of one run: what was consumed, and the typed reason when a limit is reached."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from config.harness import AgentBudget
from contract.clock import Clock
from harness.errors import BudgetExhausted

MODEL_CALLS = "MODEL_CALLS"
TOOL_CALLS = "TOOL_CALLS"
TOKENS = "TOKENS"
DEADLINE = "DEADLINE"


def tool_calls_reason(tool_name: str) -> str:
    return f"{TOOL_CALLS}:{tool_name}"


@dataclass(frozen=True)
class BudgetLimits:
    max_model_calls: int
    max_tool_calls: int
    max_tool_calls_per_tool: Mapping[str, int]
    max_total_tokens: int

    @classmethod
    def from_settings(cls, settings: AgentBudget) -> BudgetLimits:
        return cls(
            max_model_calls=settings.max_model_calls,
            max_tool_calls=settings.max_tool_calls,
            max_tool_calls_per_tool=MappingProxyType({str(k): v for k, v in settings.max_tool_calls_per_tool.items()}),
            max_total_tokens=settings.max_total_tokens,
        )

    def calls_of(self, tool_name: str) -> int:
        """The limit of one tool: its own, or the total when the configuration names no limit for it."""
        return self.max_tool_calls_per_tool.get(tool_name, self.max_tool_calls)

    def tool_calls_left(self, usage: BudgetUsage, tool_name: str | None = None) -> int:
        """How many more tool calls the budget admits: in total, or of ``tool_name`` (never more than the total)."""
        total = max(0, self.max_tool_calls - usage.tool_calls)
        if tool_name is None:
            return total
        return min(total, max(0, self.calls_of(tool_name) - usage.tool_calls_by_tool.get(tool_name, 0)))


@dataclass(frozen=True)
class BudgetUsage:
    """A snapshot of consumption, as recorded on the run."""

    model_calls: int
    tool_calls: int
    tool_calls_by_tool: Mapping[str, int]
    input_tokens: int
    output_tokens: int
    elapsed_s: float
    exhausted_reason: str | None

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens


@dataclass
class BudgetLedger:
    """Counts model calls, tool calls (total and per tool), tokens and time against :class:`BudgetLimits`.

    ``charge_*`` is called *before* the work it pays for and raises :class:`BudgetExhausted` instead of
    spending past a limit; tokens are recorded after a model call and checked before the next one.
    The first exhaustion reason is kept for the run's record.
    """

    limits: BudgetLimits
    clock: Clock
    started_at: float = field(init=False)
    _model_calls: int = field(default=0, init=False)
    _tool_calls: dict[str, int] = field(default_factory=dict, init=False)
    _unattributed: int = field(default=0, init=False)
    """Tool actions charged to the total only: calls of a tool the run does not offer."""
    _input_tokens: int = field(default=0, init=False)
    _output_tokens: int = field(default=0, init=False)
    _exhausted_reason: str | None = field(default=None, init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    def __post_init__(self) -> None:
        self.started_at = self.clock.monotonic()

    def charge_model_call(self) -> None:
        with self._lock:
            if self._model_calls >= self.limits.max_model_calls:
                self._exhaust(MODEL_CALLS)
            if self._input_tokens + self._output_tokens >= self.limits.max_total_tokens:
                self._exhaust(TOKENS)
            self._model_calls += 1

    def record_tokens(self, input_tokens: int, output_tokens: int) -> None:
        if input_tokens < 0 or output_tokens < 0:
            raise ValueError("token counts cannot be negative")
        with self._lock:
            self._input_tokens += input_tokens
            self._output_tokens += output_tokens

    def charge_tool_call(self, tool_name: str | None) -> None:
        """Charge one tool action (§4.2: every new one counts, whatever its outcome) to the total and to
        ``tool_name``'s own limit; None: an action that names no tool of the run, charged to the total only."""
        with self._lock:
            if sum(self._tool_calls.values()) + self._unattributed >= self.limits.max_tool_calls:
                self._exhaust(TOOL_CALLS)
            if tool_name is None:
                self._unattributed += 1
                return
            if self._tool_calls.get(tool_name, 0) >= self.limits.calls_of(tool_name):
                self._exhaust(tool_calls_reason(tool_name))
            self._tool_calls[tool_name] = self._tool_calls.get(tool_name, 0) + 1

    def note_exhausted(self, reason: str) -> None:
        """Record an exhaustion found elsewhere (the run deadline) without raising."""
        with self._lock:
            if self._exhausted_reason is None:
                self._exhausted_reason = reason

    def usage(self) -> BudgetUsage:
        with self._lock:
            return BudgetUsage(
                model_calls=self._model_calls,
                tool_calls=sum(self._tool_calls.values()) + self._unattributed,
                tool_calls_by_tool=MappingProxyType(dict(self._tool_calls)),
                input_tokens=self._input_tokens,
                output_tokens=self._output_tokens,
                elapsed_s=self.clock.monotonic() - self.started_at,
                exhausted_reason=self._exhausted_reason,
            )

    def _exhaust(self, reason: str) -> None:
        if self._exhausted_reason is None:
            self._exhausted_reason = reason
        raise BudgetExhausted(reason)
