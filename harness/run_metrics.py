"""The application metrics port: what a run reports about itself, kept apart from where the numbers go.

``Run`` calls a ``RunMetrics`` once per event (a finished run, a model call, a tool call, a guard verdict, an
exhausted budget, a fallback, a cancellation). ``NoMetrics`` is the default; ``actors.ray_metrics.RayRunMetrics``
sends the same calls to ``ray.util.metrics`` so they show up next to Ray's own metrics. Label values are
plain strings from small fixed sets (intents, roles, failure kinds, tool names, fallback types).
"""

from __future__ import annotations

from typing import Protocol


class RunMetrics(Protocol):
    def run_finished(self, intent: str, outcome: str, duration_s: float) -> None:
        """A run reached its terminal state; ``outcome`` is SUCCESS, FALLBACK, FAILED or CANCELLED."""

    def model_call(self, role: str, outcome: str, input_tokens: int, output_tokens: int) -> None:
        """One model request of ``role``; ``outcome`` is OK or the failure kind (TIMEOUT, TRANSPORT, …)."""

    def tool_call(self, tool: str, status: str, evidence_status: str) -> None:
        """One tool call through the tool boundary; ``status`` is READY or ERROR."""

    def guard_verdict(self, verdict: str, latency_s: float) -> None:
        """The SemanticGuard's answer for a run: SUPPORTED, UNSUPPORTED, or UNAVAILABLE (retries used up)."""

    def budget_exhausted(self, reason: str) -> None:
        """A run spent a budget: MODEL_CALLS, TOOL_CALLS, TOOL_CALLS:<tool>, TOKENS or DEADLINE."""

    def fallback(self, fallback_type: str) -> None:
        """A run ended in the fallback of ``fallback_type`` (e.g. SEMANTIC_UNSUPPORTED)."""

    def cancelled(self) -> None:
        """A run was cancelled (client gone)."""


class NoMetrics:
    """Records nothing: the default for in-process runs and unit tests."""

    def run_finished(self, intent: str, outcome: str, duration_s: float) -> None:
        pass

    def model_call(self, role: str, outcome: str, input_tokens: int, output_tokens: int) -> None:
        pass

    def tool_call(self, tool: str, status: str, evidence_status: str) -> None:
        pass

    def guard_verdict(self, verdict: str, latency_s: float) -> None:
        pass

    def budget_exhausted(self, reason: str) -> None:
        pass

    def fallback(self, fallback_type: str) -> None:
        pass

    def cancelled(self) -> None:
        pass
