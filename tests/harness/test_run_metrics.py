"""The run reports each event to its ``RunMetrics`` exactly once (in-process runs, a recording fake)."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from actors.in_process_ports import local_services
from harness.errors import OperationFailed
from harness.messages import StartRun
from harness.run.flow import Run
from harness.run_state import RunStatus
from harness.scripted_model import Delay, ScriptedChatModel, reply
from tests.harness.run_support import (
    GOOD_DRAFT,
    PLAN,
    QUERY,
    UNSUPPORTED,
    config,
    diagnosis_model,
    draft,
    run_once,
    wait_until,
)

TOKENS = (10, 5)
"""What every scripted reply reports."""


@dataclass
class RecordingMetrics:
    """Every call as a tuple, in order; times are kept apart so the calls compare exactly."""

    calls: list[tuple[Any, ...]] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)

    def run_finished(self, intent: str, outcome: str, duration_s: float) -> None:
        self.calls.append(("run", intent, outcome))
        self.seconds.append(duration_s)

    def model_call(self, role: str, outcome: str, input_tokens: int, output_tokens: int) -> None:
        self.calls.append(("model", role, outcome, input_tokens, output_tokens))

    def tool_call(self, tool: str, status: str, evidence_status: str) -> None:
        self.calls.append(("tool", tool, status, evidence_status))

    def guard_verdict(self, verdict: str, latency_s: float) -> None:
        self.calls.append(("guard", verdict))
        self.seconds.append(latency_s)

    def budget_exhausted(self, reason: str) -> None:
        self.calls.append(("budget", reason))

    def fallback(self, fallback_type: str) -> None:
        self.calls.append(("fallback", fallback_type))

    def cancelled(self) -> None:
        self.calls.append(("cancelled",))

    def of(self, kind: str) -> Counter[tuple[Any, ...]]:
        return Counter(call[1:] for call in self.calls if call[0] == kind)

    def model_calls(self, role: str) -> Counter[tuple[Any, ...]]:
        return Counter(call[2:] for call in self.calls if call[:2] == ("model", role))

    def labels_are_strings(self) -> bool:
        return all(isinstance(value, str) for call in self.calls for value in call if not isinstance(value, int))


async def run_with(model: ScriptedChatModel, query: str = QUERY, **harness: Any) -> tuple[RunStatus, RecordingMetrics]:
    metrics = RecordingMetrics()
    outcome = await run_once(local_services(config(**harness), model, metrics=metrics), query)
    assert metrics.labels_are_strings() and all(seconds >= 0 for seconds in metrics.seconds)
    return outcome.status, metrics


async def test_a_supported_diagnosis_counts_each_event_once() -> None:
    status, metrics = await run_with(diagnosis_model())
    assert status is RunStatus.SUCCESS
    assert Counter(metrics.calls) == {
        ("model", "router", "OK", *TOKENS): 1,
        ("model", "agent", "OK", *TOKENS): 4,
        ("tool", "lookup_knowledge", "READY", "EVIDENCE_FOUND"): 1,
        ("tool", "query_logs", "READY", "EVIDENCE_FOUND"): 1,
        ("tool", "query_mysql", "READY", "EVIDENCE_FOUND"): 1,
        ("model", "guard", "OK", *TOKENS): 1,
        ("guard", "SUPPORTED"): 1,
        ("run", "DIAGNOSIS", "SUCCESS"): 1,
    }
    assert metrics.calls[-1] == ("run", "DIAGNOSIS", "SUCCESS")


BAD = draft(("a1", "NORMAL", ["call_fabricated"]), conclusion=["a1"])


@pytest.mark.parametrize(
    ("scripted", "fallback_type", "guard", "guard_calls"),
    [
        (
            lambda: diagnosis_model(GOOD_DRAFT, UNSUPPORTED),
            "SEMANTIC_UNSUPPORTED",
            {("UNSUPPORTED",): 1},
            {("OK", *TOKENS): 1},
        ),
        (
            lambda: diagnosis_model(GOOD_DRAFT, reply("not json"), reply("not json")),
            "SEMANTIC_UNAVAILABLE",
            {("UNAVAILABLE",): 1},
            {("INVALID_OUTPUT", *TOKENS): 2},
        ),
        (lambda: diagnosis_model(BAD).script("repair", reply(BAD)), "EVIDENCE_VALIDATION_FAILED", {}, {}),
    ],
    ids=["unsupported", "unavailable", "evidence"],
)
async def test_each_fallback_is_counted_once_with_its_type(
    scripted: Callable[[], ScriptedChatModel], fallback_type: str, guard: dict, guard_calls: dict
) -> None:
    status, metrics = await run_with(scripted())
    assert status is RunStatus.FALLBACK
    assert metrics.of("fallback") == {(fallback_type,): 1}
    assert metrics.of("run") == {("DIAGNOSIS", "FALLBACK"): 1}
    assert metrics.of("guard") == guard
    assert metrics.model_calls("guard") == guard_calls
    assert not metrics.of("budget") and not metrics.of("cancelled")


def looping_agent(model: ScriptedChatModel) -> None:
    counter = iter(range(1000))
    model.script("agent", reply(PLAN))
    model.default(
        "agent", lambda request: reply(None, (f"call_{next(counter)}", "lookup_knowledge", {"query": "支付超时"}))
    )


@pytest.mark.parametrize(
    ("limits", "reason", "agent_calls", "tool_calls"),
    [
        # The tool budget runs out first (the final turn offers no tool; the looping model asks for one all the
        # same, so there is no draft), then the model-call budget stops its repair: counted once, by the first.
        ({"max-model-calls": 4, "max-tool-calls": 2}, "TOOL_CALLS", 4, {"READY": 2}),
        ({"max-model-calls": 3, "max-tool-calls": 50}, "MODEL_CALLS", 3, {"READY": 2}),
    ],
)
async def test_a_spent_budget_is_counted_once_with_its_reason(
    limits: dict, reason: str, agent_calls: int, tool_calls: dict
) -> None:
    model = ScriptedChatModel().script("router", reply({"intent": "DIAGNOSIS"}))
    looping_agent(model)
    status, metrics = await run_with(model, agent=limits)
    assert status is RunStatus.FALLBACK
    assert metrics.of("budget") == {(reason,): 1}
    assert metrics.of("fallback") == {("SEMANTIC_UNSUPPORTED",): 1}
    assert metrics.model_calls("agent") == {("OK", *TOKENS): agent_calls}
    assert Counter(status for _, status, _ in metrics.of("tool").elements()) == tool_calls
    assert metrics.of("run") == {("DIAGNOSIS", "FALLBACK"): 1}


async def test_a_cancelled_run_counts_one_cancellation_and_one_cancelled_run() -> None:
    model = ScriptedChatModel().script("router", reply({"intent": "DIAGNOSIS"}))
    model.script("agent", reply(PLAN), Delay(30, reply(GOOD_DRAFT)))
    metrics = RecordingMetrics()
    run = Run(local_services(config(), model, metrics=metrics), StartRun(session_id="s-1", query=QUERY))
    execution = asyncio.create_task(run.execute())
    await wait_until(lambda: len(model.requests_of("agent")) == 2)
    run.cancel("CLIENT_DISCONNECTED")
    assert await asyncio.wait_for(execution, 5) is RunStatus.CANCELLED
    assert metrics.of("cancelled") == {(): 1}
    assert metrics.of("run") == {("DIAGNOSIS", "CANCELLED"): 1}
    assert metrics.of("model") == {
        ("router", "OK", *TOKENS): 1,
        ("agent", "OK", *TOKENS): 1,
        ("agent", "CANCELLED", 0, 0): 1,
    }
    assert not metrics.of("fallback") and not metrics.of("budget") and not metrics.of("guard")


async def test_a_knowledge_query_counts_its_one_lookup() -> None:
    model = ScriptedChatModel().script("router", reply({"intent": "KNOWLEDGE_QUERY"}))
    model.script("knowledge", reply({"answer": "编造的答案", "references": ["nope"], "limitations": []}))
    status, metrics = await run_with(model, "ERR_TIMEOUT 是什么意思？")
    assert status is RunStatus.FALLBACK
    assert metrics.of("tool") == {("lookup_knowledge", "READY", "EVIDENCE_FOUND"): 1}
    assert metrics.of("model") == {("router", "OK", *TOKENS): 1, ("knowledge", "OK", *TOKENS): 1}
    assert metrics.of("fallback") == {("EVIDENCE_VALIDATION_FAILED",): 1}
    assert metrics.of("run") == {("KNOWLEDGE_QUERY", "FALLBACK"): 1}


async def test_a_run_that_was_never_routed_counts_as_unrouted_with_the_failure_kinds() -> None:
    model = ScriptedChatModel().script("router", OperationFailed("TRANSPORT", "500"), OperationFailed("TIMEOUT", "x"))
    status, metrics = await run_with(model)
    assert status is RunStatus.FAILED
    assert metrics.of("model") == {("router", "TRANSPORT", 0, 0): 1, ("router", "TIMEOUT", 0, 0): 1}
    assert metrics.of("run") == {("UNROUTED", "FAILED"): 1}


async def test_a_refused_tool_call_is_counted_as_an_error_of_an_unknown_tool() -> None:
    model = ScriptedChatModel().script("router", reply({"intent": "DIAGNOSIS"}))
    cited = draft(("a1", "NORMAL", ["call_x"]))
    model.script("agent", reply(PLAN), reply(None, ("call_x", "delete_everything", {})), reply(cited))
    model.script("repair", reply(cited))
    _, metrics = await run_with(model)
    assert metrics.of("tool") == {("unknown_tool", "ERROR", "ERROR"): 1}
