"""One trace per run (issue 22): W3C traceparent in and out, the span tree of an in-process run, and what no
span may carry; the exporter's failures cost a counter and a rate-limited line."""

from __future__ import annotations

import json
import logging
import random
import re
from collections.abc import Iterator, Sequence

import pytest
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExporter, SpanExportResult
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import StatusCode, format_span_id, format_trace_id

from harness.messages import StartRun
from harness.run.flow import Run
from harness.run_state import RunStatus
from harness.scripted_model import Delay, ScriptedChatModel, reply
from harness.tracing import (
    FAILURE_LOG_INTERVAL_S,
    GuardedExporter,
    parent_context,
    span,
    trace_id_in,
    traceparent_of,
    tracer_provider,
    within,
)
from tests.harness.run_support import (
    GOOD_DRAFT,
    PLAN,
    QUERY,
    SUPPORTED,
    config,
    diagnosis_model,
    draft,
    services,
)

CALLER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736"
CALLER_SPAN = "00f067aa0ba902b7"
CALLER = f"00-{CALLER_TRACE}-{CALLER_SPAN}-01"


@pytest.fixture
def exported() -> Iterator[InMemorySpanExporter]:
    """Every span this process ends while the test runs."""
    memory = InMemorySpanExporter()
    processor = SimpleSpanProcessor(memory)
    tracer_provider().add_span_processor(processor)
    yield memory
    processor.shutdown()


def test_a_callers_traceparent_is_continued_and_a_bad_one_starts_a_new_trace() -> None:
    assert trace_id_in(CALLER) == CALLER_TRACE
    for bad in (None, "", "garbage", f"00-{'0' * 32}-{CALLER_SPAN}-01", f"00-{CALLER_TRACE}-{'0' * 16}-01"):
        assert parent_context(bad) is None and trace_id_in(bad) is None
    with span("child", parent=parent_context(CALLER)) as child:
        header = traceparent_of(child)
    assert header is not None and header.startswith(f"00-{CALLER_TRACE}-") and CALLER_SPAN not in header


async def test_a_run_is_one_tree_under_the_callers_span(exported: InMemorySpanExporter) -> None:
    model = diagnosis_model()
    shared = services(model)
    run = Run(shared, StartRun(session_id="s-1", query=QUERY, traceparent=CALLER))
    assert await run.execute() is RunStatus.SUCCESS
    assert [record.trace_id for record in shared.audit.started] == [CALLER_TRACE]  # diagnosis_run.trace_id
    spans = [each for each in exported.get_finished_spans() if each.context.trace_id == int(CALLER_TRACE, 16)]
    by_id = {each.context.span_id: each for each in spans}
    (root,) = [each for each in spans if each.name == "run"]
    assert root.parent is not None and format_span_id(root.parent.span_id) == CALLER_SPAN
    for each in spans:
        if each is not root:  # every other span descends from the run's
            ancestor = each
            while ancestor.parent is not None and ancestor.parent.span_id in by_id:
                ancestor = by_id[ancestor.parent.span_id]
            assert ancestor is root, each.name
    names = [each.name for each in spans]
    assert {"routing", "model call router", "plan", "evidence guard", "semantic guard", "release"} <= set(names)
    assert (names.count("tool call"), names.count("agent turn"), names.count("model call agent")) == (3, 3, 4)
    parents = {each.name: set() for each in spans}
    for each in spans:
        parents[each.name].add(by_id[each.parent.span_id].name if each.parent.span_id in by_id else "caller")
    assert parents["tool call"] == {"agent turn"}
    assert parents["model call agent"] == {"agent turn", "run"}  # the plan is the agent's one tool-less call
    evidence = next(each for each in spans if each.name == "evidence guard")
    assert evidence.attributes["superbiz.outcome"] == "PASS" and evidence.attributes["superbiz.failure_codes"] == ()
    routing = next(each for each in spans if each.name == "routing")
    assert routing.attributes["superbiz.intent"] == "DIAGNOSIS"
    tools = [each for each in spans if each.name == "tool call"]
    assert {each.attributes["superbiz.tool"] for each in tools} == {"lookup_knowledge", "query_logs", "query_mysql"}
    assert all(each.attributes["superbiz.evidence_status"] == "EVIDENCE_FOUND" for each in tools)
    assert all(re.fullmatch(r"[0-9a-f]{16}", str(each.attributes["superbiz.record_key_hash"])) for each in tools)
    guard = next(each for each in spans if each.name == "semantic guard")
    assert guard.attributes["superbiz.verdict"] == "SUPPORTED"
    release = next(each for each in spans if each.name == "release")
    assert release.attributes["superbiz.outcome"] == "SUCCESS"
    assert release.attributes["superbiz.content_type"] == "DIAGNOSIS_REPORT"
    agent = [each for each in spans if each.name == "model call agent"]
    assert all(each.attributes["gen_ai.usage.input_tokens"] >= 0 for each in agent)
    assert_no_forbidden_content(spans, [*prompt_lines(model), QUERY, f"{run.run_id}:"])


def run_spans(exported: InMemorySpanExporter, run: Run) -> list[ReadableSpan]:
    """The spans of ``run``'s trace, in the order they ended."""
    assert run.span is not None
    trace_id = run.span.get_span_context().trace_id
    return [each for each in exported.get_finished_spans() if each.context.trace_id == trace_id]


async def test_a_repaired_draft_shows_the_failed_check_the_repair_and_the_passed_check(
    exported: InMemorySpanExporter,
) -> None:
    model = diagnosis_model(draft(("a1", "NORMAL", ["call_fabricated"]), conclusion=["a1"]))
    model.script("repair", reply(GOOD_DRAFT))
    run = Run(services(model), StartRun(session_id="s-1", query=QUERY))
    assert await run.execute() is RunStatus.SUCCESS
    spans = run_spans(exported, run)
    checks = [each for each in spans if each.name == "evidence guard"]
    assert [each.attributes["superbiz.outcome"] for each in checks] == ["FAIL", "PASS"]
    assert "UNKNOWN_TOOL_CALL" in checks[0].attributes["superbiz.failure_codes"]
    (repair,) = [each for each in spans if each.name == "repair"]
    assert repair.attributes["superbiz.attempt"] == 1
    assert "model call repair" in [each.name for each in spans]


async def test_a_guard_timeout_is_the_failure_kind_of_each_attempt(exported: InMemorySpanExporter) -> None:
    model = diagnosis_model(GOOD_DRAFT, Delay(5, SUPPORTED), Delay(5, SUPPORTED))
    settings = config(**{"semantic-guard": {"attempt-timeout": "200ms", "total-timeout": "2s"}})
    run = Run(services(model, settings), StartRun(session_id="s-1", query=QUERY))
    assert await run.execute() is RunStatus.FALLBACK
    spans = run_spans(exported, run)
    guards = [each for each in spans if each.name == "semantic guard"]
    assert [(each.attributes["superbiz.attempt"], each.attributes["superbiz.outcome"]) for each in guards] == [
        (1, "TIMEOUT"),
        (2, "TIMEOUT"),
    ]
    assert all(each.status.status_code is StatusCode.ERROR for each in guards)
    release = next(each for each in spans if each.name == "release")
    assert release.attributes["superbiz.fallback_type"] == "SEMANTIC_UNAVAILABLE"


async def test_a_failed_tool_call_carries_its_error_code_as_the_span_status(exported: InMemorySpanExporter) -> None:
    model = ScriptedChatModel()
    model.script("router", reply({"intent": "DIAGNOSIS"}))
    model.script("agent", reply(PLAN), reply(None, ("call_bad", "query_logs", {"bogus": True})), reply(GOOD_DRAFT))
    model.script("guard", SUPPORTED)
    run = Run(services(model), StartRun(session_id="s-1", query=QUERY))
    await run.execute()
    (failed,) = [each for each in run_spans(exported, run) if each.name == "tool call"]
    assert failed.attributes["superbiz.tool"] == "query_logs"
    assert failed.attributes["superbiz.evidence_status"] == "ERROR"
    assert failed.attributes["superbiz.outcome"] == "INVALID_ARGUMENTS"
    assert failed.status.status_code is StatusCode.ERROR and failed.status.description == "INVALID_ARGUMENTS"


def prompt_lines(model: ScriptedChatModel) -> list[str]:
    """Every line of every message the model was sent (prompts, tool results, the question)."""
    return [
        line.strip()
        for role in ("router", "agent", "guard")
        for request in model.requests_of(role)
        for message in request.messages
        for line in (message.content or "").splitlines()
        if len(line.strip()) >= 8
    ]


def assert_no_forbidden_content(spans: Sequence[ReadableSpan], forbidden: list[str]) -> None:
    """No attribute, event or status of any span holds any of ``forbidden`` (prompts, the question, record keys)."""
    dumped = json.dumps(
        [
            {
                "name": each.name,
                "attributes": dict(each.attributes or {}),
                "events": [(event.name, dict(event.attributes or {})) for event in each.events],
                "status": each.status.description,
            }
            for each in spans
        ],
        ensure_ascii=False,
    )
    leaked = [text[:40] for text in forbidden if len(text) >= 8 and text in dumped]
    assert leaked == []


class Failing(SpanExporter):
    def __init__(self) -> None:
        self.raise_next = False

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        if self.raise_next:
            raise ConnectionError("collector at 10.0.0.1:4318 refused")
        return SpanExportResult.FAILURE


def test_a_failing_collector_costs_a_counter_and_one_line_a_minute(caplog: pytest.LogCaptureFixture) -> None:
    now, counted = [0.0], []
    inner = Failing()
    guarded = GuardedExporter(inner, clock=lambda: now[0], on_failure=lambda: counted.append(1))
    with caplog.at_level(logging.WARNING, logger="harness.tracing"):
        for step in range(10):
            now[0] = step * FAILURE_LOG_INTERVAL_S / 4
            inner.raise_next = step % 2 == 1
            assert guarded.export([]) is SpanExportResult.FAILURE
    assert guarded.failures == len(counted) == 10
    lines = [record for record in caplog.records if record.name == "harness.tracing"]
    assert len(lines) == 3  # at 0, 1 and 2 intervals
    assert all("10.0.0.1" not in record.getMessage() for record in lines)


def test_the_log_line_of_a_run_carries_its_trace_id() -> None:
    from harness.structured_logging import JsonFormatter

    record = logging.getLogger("t").makeRecord("t", logging.INFO, __file__, 1, "run started", (), None)
    with span("run", parent=parent_context(CALLER)):
        line = json.loads(JsonFormatter().format(record))
    assert line["trace_id"] == CALLER_TRACE
    assert "trace_id" not in json.loads(JsonFormatter().format(record))


def test_trace_ids_are_32_hex_digits() -> None:
    with span("root") as root:
        assert re.fullmatch(r"[0-9a-f]{32}", format_trace_id(root.get_span_context().trace_id))


def test_an_exception_leaves_no_message_on_any_span(exported: InMemorySpanExporter) -> None:
    with pytest.raises(ValueError), span("run") as run, within(run), span("tool call"):
        raise ValueError("password=Welcome2024! in the failing request")
    ended = [each for each in exported.get_finished_spans() if each.context.trace_id == run.get_span_context().trace_id]
    assert {each.name for each in ended} == {"run", "tool call"}
    assert all(not each.events and each.status.description is None for each in ended)


def test_making_spans_leaves_the_global_random_sequence_alone() -> None:
    random.seed(7)
    expected = [random.random() for _ in range(3)]
    random.seed(7)
    with span("run"), span("tool call"):
        pass
    assert [random.random() for _ in range(3)] == expected
