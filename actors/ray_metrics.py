"""Application metrics on ``ray.util.metrics``: they are exported with Ray's own (dashboard, Prometheus).

Ray prefixes every name with ``ray_`` on export (``superbiz_runs_total`` -> ``ray_superbiz_runs_total``) and
exports a series only after it was recorded once, so every counter series of a known label value is recorded at
0 when its process starts (``start_at_zero``): an alert on it reads 0, not "no data". Ray metric objects are
meant to be created once per worker process, so they live in one lazily built ``_Instruments`` per process;
``RayRunMetrics`` (the Harness's ``RunMetrics``) and ``RayToolMetrics`` (the tool actor's) are thin views over
it.

A Ray gauge is exported only in the report interval it was set in, and the metrics agent drops a series not
refreshed for two intervals (Ray 2.60: ~2 s with ``RAY_metrics_report_interval_ms=1000``, ~20 s by default).
A gauge set only on change would vanish while its tool is idle, so ``RayToolMetrics`` also sets its last value
again every ``GAUGE_REFRESH_S`` from a daemon thread.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import get_args

from ray.util.metrics import Counter, Gauge, Histogram

from harness.budget import DEADLINE, MODEL_CALLS, TOKENS, TOOL_CALLS, tool_calls_reason
from harness.errors import RunCancelled
from harness.intents import INTENTS
from harness.messages import Role
from harness.release import FallbackType
from harness.retry import FailureKind
from harness.run_state import TERMINAL

log = logging.getLogger(__name__)

GAUGE_REFRESH_S = 1.0
RUN_DURATION_BUCKETS_S = [0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 30.0, 60.0, 90.0, 120.0, 180.0, 240.0]
MODEL_ROLES = get_args(Role)
GUARD_VERDICTS = ("SUPPORTED", "UNSUPPORTED", "UNAVAILABLE")
GUARD_LATENCY_BUCKETS_S = [0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 30.0]


@dataclass(frozen=True)
class _Instruments:
    runs: Counter
    run_duration: Histogram
    model_calls: Counter
    model_tokens: Counter
    tool_calls: Counter
    tool_in_flight: Gauge
    tool_busy: Counter
    guard_verdicts: Counter
    guard_latency: Histogram
    budget_exhausted: Counter
    fallbacks: Counter
    cancellations: Counter
    trace_export_failures: Counter

    @classmethod
    def create(cls) -> _Instruments:
        return cls(
            runs=Counter("superbiz_runs_total", "Runs by intent and terminal outcome.", ("intent", "outcome")),
            run_duration=Histogram(
                "superbiz_run_duration_seconds",
                "Run duration, start to terminal state.",
                RUN_DURATION_BUCKETS_S,
                ("intent",),
            ),
            model_calls=Counter(
                "superbiz_model_calls_total", "Model requests by role and outcome.", ("role", "outcome")
            ),
            model_tokens=Counter("superbiz_model_tokens_total", "Model tokens by role and kind.", ("role", "kind")),
            tool_calls=Counter(
                "superbiz_tool_calls_total",
                "Tool calls through the tool boundary.",
                ("tool", "status", "evidence_status"),
            ),
            tool_in_flight=Gauge("superbiz_tool_in_flight", "Calls running in the tool actor.", ("tool",)),
            tool_busy=Counter("superbiz_tool_busy_total", "Calls the tool actor refused with TOOL_BUSY.", ("tool",)),
            guard_verdicts=Counter("superbiz_guard_verdicts_total", "SemanticGuard verdicts.", ("verdict",)),
            guard_latency=Histogram(
                "superbiz_guard_latency_seconds",
                "SemanticGuard evaluation time, retries included.",
                GUARD_LATENCY_BUCKETS_S,
            ),
            budget_exhausted=Counter("superbiz_budget_exhausted_total", "Runs that spent a budget.", ("reason",)),
            fallbacks=Counter("superbiz_fallbacks_total", "Runs that ended in a fallback.", ("type",)),
            cancellations=Counter("superbiz_cancellations_total", "Cancelled runs."),
            trace_export_failures=Counter(
                "superbiz_trace_export_failures_total",
                "Batches of spans a process could not export to telemetry.otlp-endpoint.",
                ("component",),
            ),
        )


_instruments: _Instruments | None = None
_lock = threading.Lock()


def instruments() -> _Instruments:
    """This process's metric objects, created on first use."""
    global _instruments
    with _lock:
        if _instruments is None:
            _instruments = _Instruments.create()
        return _instruments


def _zero(counter: Counter, **tags: str) -> None:
    # Ray's Counter.inc refuses 0 and a series is exported only once recorded, so an alert on a counter would
    # read "no data" until its first event: the series of every known label value are recorded at 0 instead.
    counter._record(0, tags=tags)


def start_at_zero(tools: Sequence[str]) -> None:
    """Export every run-level counter series at 0 for each known label value (and each of ``tools``)."""
    metrics = instruments()
    for intent in (*INTENTS, "UNROUTED"):
        for outcome in sorted(TERMINAL):
            _zero(metrics.runs, intent=intent, outcome=outcome)
    for role in MODEL_ROLES:
        for outcome in ("OK", *FailureKind, RunCancelled.code):
            _zero(metrics.model_calls, role=role, outcome=outcome)
        for kind in ("input", "output"):
            _zero(metrics.model_tokens, role=role, kind=kind)
    for tool in tools:
        for status, evidence in (("READY", "EVIDENCE_FOUND"), ("READY", "NO_EVIDENCE"), ("ERROR", "ERROR")):
            _zero(metrics.tool_calls, tool=tool, status=status, evidence_status=evidence)
        _zero(metrics.budget_exhausted, reason=tool_calls_reason(tool))
    for verdict in GUARD_VERDICTS:
        _zero(metrics.guard_verdicts, verdict=verdict)
    for reason in (MODEL_CALLS, TOOL_CALLS, TOKENS, DEADLINE):
        _zero(metrics.budget_exhausted, reason=reason)
    for fallback in FallbackType:
        _zero(metrics.fallbacks, type=fallback)
    _zero(metrics.cancellations)


class RayRunMetrics:
    """``harness.run_metrics.RunMetrics`` on Ray metrics (used by the RunSupervisor); every series of the known
    label values (and of ``tools``) starts at 0."""

    def __init__(self, tools: Sequence[str]) -> None:
        start_at_zero(tools)

    def run_finished(self, intent: str, outcome: str, duration_s: float) -> None:
        metrics = instruments()
        metrics.runs.inc(tags={"intent": str(intent), "outcome": str(outcome)})
        metrics.run_duration.observe(max(duration_s, 0.0), tags={"intent": str(intent)})

    def model_call(self, role: str, outcome: str, input_tokens: int, output_tokens: int) -> None:
        metrics = instruments()
        metrics.model_calls.inc(tags={"role": str(role), "outcome": str(outcome)})
        for kind, tokens in (("input", input_tokens), ("output", output_tokens)):
            if tokens > 0:  # a Ray counter refuses an increment of 0
                metrics.model_tokens.inc(tokens, tags={"role": str(role), "kind": kind})

    def tool_call(self, tool: str, status: str, evidence_status: str) -> None:
        tags = {"tool": str(tool), "status": str(status), "evidence_status": str(evidence_status)}
        instruments().tool_calls.inc(tags=tags)

    def guard_verdict(self, verdict: str, latency_s: float) -> None:
        metrics = instruments()
        metrics.guard_verdicts.inc(tags={"verdict": str(verdict)})
        metrics.guard_latency.observe(max(latency_s, 0.0))

    def budget_exhausted(self, reason: str) -> None:
        instruments().budget_exhausted.inc(tags={"reason": str(reason)})

    def fallback(self, fallback_type: str) -> None:
        instruments().fallbacks.inc(tags={"type": str(fallback_type)})

    def cancelled(self) -> None:
        instruments().cancellations.inc()


class RayToolMetrics:
    """The tool actor's metrics: calls in flight (set on every change, and again every ``refresh_s`` so an
    idle tool still shows 0) and TOOL_BUSY refusals."""

    def __init__(self, tool: str, refresh_s: float = GAUGE_REFRESH_S) -> None:
        self._tags = {"tool": str(tool)}
        _zero(instruments().tool_busy, tool=str(tool))
        self._in_flight = 0
        self._lock = threading.Lock()
        threading.Thread(target=self._refresh, args=(refresh_s,), name=f"metrics-{tool}", daemon=True).start()

    def in_flight(self, count: int) -> None:
        with self._lock:
            self._in_flight = count
            instruments().tool_in_flight.set(count, tags=self._tags)

    def busy(self) -> None:
        instruments().tool_busy.inc(tags=self._tags)

    def _refresh(self, refresh_s: float) -> None:
        while True:
            time.sleep(refresh_s)
            try:
                with self._lock:
                    instruments().tool_in_flight.set(self._in_flight, tags=self._tags)
            except Exception:
                log.exception("refreshing the in-flight gauge failed", extra={"tool": self._tags["tool"]})


def trace_export_failures(component: str) -> Callable[[], None]:
    """What counts this process's failed trace exports (``harness.tracing.configure_tracing``'s ``on_failure``),
    its series exported at 0 from the start."""
    counter = instruments().trace_export_failures
    _zero(counter, component=component)
    return lambda: counter.inc(tags={"component": component})
