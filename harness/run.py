"""One run, start to terminal state (ISS-014 §3, §4): route, take the intent's path, validate, release.

``Run`` owns the run's ``RunContext`` and is the model and tool boundary its agent talks to
(``AgentGateway``). It pushes ``RunEvent``s to ``events`` in the fixed order and ends in exactly one terminal
state. It reasons about nothing: it enforces, records and releases. Everything remote comes in through the
ports of ``RunServices``, so the whole flow runs in-process in unit tests and on Ray in production.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from pydantic import ValidationError

from config.app import AppConfig
from contract.clock import Clock
from contract.kind import EvidenceKind
from contract.vocabulary import EvidenceStatus
from harness import events, gate
from harness.audit import AuditSink, GuardCheck, ModelStep, RunFinished, RunStarted, ToolInvocation
from harness.budget import TOOL_CALLS
from harness.deadline import Deadline
from harness.errors import (
    BudgetExhausted,
    InvocationStoreError,
    OperationFailed,
    RetriesExhausted,
    RunCancelled,
    StoreUnavailable,
)
from harness.execution import bounded, ensure_open
from harness.fallbacks import GUARD_UNSUPPORTED, Fallback, after_budget, after_evidence_check, guard_unavailable
from harness.fixed_texts import capabilities as capability_text
from harness.fixed_texts import texts
from harness.gate import ClaimPolicy, EvidenceCheck, KnowledgeRelease, failure_texts
from harness.intents import (
    INTENTS,
    Intent,
    RouterInput,
    knowledge_messages,
    parse_intent,
    parse_knowledge_answer,
    router_messages,
    system_chat_messages,
)
from harness.invocation import InvocationRecord, InvocationStorePort, ToolCallStatus
from harness.language import language_of
from harness.logs import bound
from harness.messages import (
    AgentTask,
    ChatMessage,
    GuardRequest,
    GuardVerdict,
    ModelReply,
    ModelRequest,
    PreviousTurn,
    Role,
    StartRun,
    ToolCall,
    Turn,
    Usage,
)
from harness.metrics import NoMetrics, RunMetrics
from harness.ports import AgentPort, ChatModel, GuardPort, ToolPort
from harness.release import FallbackType, fallback_payload, knowledge_fallback_payload, reference_labels, report_payload
from harness.run_context import RunContext
from harness.run_state import RunStatus
from harness.snapshot import Kinds, build_snapshot, snapshot_bytes, source_documents, verified_sources
from harness.tool_boundary import OfferedTool, ToolBoundary
from harness.turn_budget import budget_line, final_instruction, offer

log = logging.getLogger(__name__)

_REQUESTING_STEP: ContextVar[int | None] = ContextVar("requesting_step", default=None)
"""The step whose reply asked for the tool calls running in this context (set per turn, read by the audit)."""


@dataclass
class RunServices:
    config: AppConfig
    kinds: Kinds
    """The evidence kinds this configuration offers, by tool name (``tools.registry.configured_kinds``): the
    Harness asks them about results and never names a tool itself."""
    store: InvocationStorePort
    model: ChatModel
    tools: ToolPort
    agent: AgentPort
    guard: GuardPort
    audit: AuditSink
    clock: Clock
    metrics: RunMetrics = field(default_factory=NoMetrics)
    """Where the run's application metrics go (``actors.metrics.RayRunMetrics`` on Ray)."""
    offered: dict[str, OfferedTool] = field(init=False)
    """The tools every run offers (spec and projector), built once from the kinds."""
    openai_tools: tuple[dict[str, Any], ...] = field(init=False)
    policy: ClaimPolicy = field(init=False)
    """The claim rules' configured vocabulary (non-fact words, side-effect patterns, assertion markers)."""
    knowledge: EvidenceKind | None = field(init=False)
    """The kind a KNOWLEDGE_QUERY is answered from (§4.5), if the configuration offers one."""

    def __post_init__(self) -> None:
        self.policy = ClaimPolicy.from_settings(self.config.harness)
        self.offered = {
            name: OfferedTool(kind.spec(self.config), kind.projector(self.config)) for name, kind in self.kinds.items()
        }
        self.openai_tools = tuple(tool.spec.openai_tool() for tool in self.offered.values())
        self.knowledge = next((kind for kind in self.kinds.values() if kind.answers_knowledge_queries), None)


@dataclass
class _Stop:
    """Why the agent's work ended early, noted at the boundary where it happened."""

    budget: str | None = None
    model_failure: str | None = None


@dataclass
class _Outcome:
    status: RunStatus
    fallback_type: str | None = None
    fallback_reason: str | None = None
    published_result: dict[str, Any] | None = None
    guard: GuardVerdict | None = None
    cited_tool_calls: list[dict[str, str]] | None = None
    """The tool call behind each reference of a released report (``harness.audit.RunFinished``)."""


@dataclass
class _RoleUsage:
    input_tokens: int = 0
    output_tokens: int = 0


class _History(NamedTuple):
    """What the run reads of its session's earlier turns (§4.6): the router's context and the previous turn."""

    last_intent: str | None
    last_query: str | None
    previous: PreviousTurn | None


def _refusal(parse: Callable[[str | None], object]) -> Callable[[ModelReply], str | None]:
    """The failure kind ``parse`` gives a reply's content, None when it accepts it."""

    def refused(reply: ModelReply) -> str | None:
        try:
            parse(reply.content)
        except OperationFailed as failed:
            return str(failed.kind)
        return None

    return refused


def _returned_evidence(record: InvocationRecord, kinds: Kinds) -> bool:
    """Whether ``record`` is a READY call of an evidence kind that found evidence, with an agent_result of its kind."""
    kind = kinds.get(record.tool_name)
    return (
        kind is not None
        and record.status is ToolCallStatus.READY
        and record.evidence_status is EvidenceStatus.EVIDENCE_FOUND
        and isinstance(record.agent_result, dict)
        and kind.read(record.agent_result) is not None
    )


class Run:
    def __init__(self, services: RunServices, start: StartRun, announced: bool = False) -> None:
        """``announced``: the caller already sent this run's metadata event (with ``start.run_id``)."""
        self._services = services
        self._start = start
        self.ctx = RunContext.start(services.config.harness, start.session_id, start.run_id, services.clock)
        self.events: asyncio.Queue[events.RunEvent] = asyncio.Queue()
        self._announced = announced
        self._sequence = events.EventSequence(announced)
        self._started = self.ctx.clock.monotonic()
        self.language = language_of(start.query)
        """The question's language: the model is asked to answer in it, and the fixed texts are its own."""
        self._stop = _Stop()
        self._usage: dict[str, _RoleUsage] = {}
        self._steps = 0
        self._plan_sent = False
        self._intent: Intent | None = None
        self._offered = services.offered
        self._openai_tools = services.openai_tools
        self._tool_definitions = dict(zip(services.offered, services.openai_tools, strict=True))
        self._agent_until: Deadline | None = None
        """The agent's deadline, set when it starts (``harness.agent.max-duration``, inside the run's)."""
        self._tool_boundary = ToolBoundary(
            self.ctx, services.store, services.tools, self._offered, self._tool_event, self._audit_tool
        )
        self._pending_audit: list[asyncio.Task[None]] = []
        self._tools_recorded = 0
        """Tool calls of any kind recorded for this run (the agent's and the Harness's own knowledge lookup)."""
        self._found: list[str] = []
        """The tool_call_ids of this run's calls that returned evidence, in the order they finished."""
        self._checks = 0
        """Guard decisions recorded for this run (``guard_check`` rows)."""
        self._guard_step: int | None = None
        """The step of the SemanticGuard's latest attempt, None before its first."""
        self._released: dict[str, Any] | None = None
        """The data of the ``content`` event this run sent, as sent: the audit keeps it with the finish record."""

    @property
    def run_id(self) -> str:
        return self.ctx.run_id

    def cancel(self, reason: str) -> None:
        self.ctx.cancellation.cancel(reason)

    # -- the flow ---------------------------------------------------------------------------------------

    async def execute(self) -> RunStatus:
        """Run to one terminal state; never raises for the run's own failures."""
        with bound(self._start.session_id, self.run_id):
            return await self._execute()

    async def _execute(self) -> RunStatus:
        start = self._start
        if not self._announced:
            self._emit(events.metadata(start.session_id, self.run_id, model=self._services.model.label))
        log.info("run started", extra={"principal": start.principal})
        started = RunStarted(self.run_id, start.session_id, start.principal, start.query, self.ctx.clock.now())
        self._pending_audit.append(asyncio.ensure_future(self._audited(self._services.audit.record(started))))
        # Both reads of the session's earlier turns start at once, beside the write: none waits for another.
        history = asyncio.ensure_future(self._session_history())
        outcome: _Outcome
        try:
            outcome = await self._route_and_answer(history)
        except (RunCancelled, asyncio.CancelledError):
            outcome = self._stopped()
        except Exception:
            log.exception("run failed", extra={"run_id": self.run_id, "session_id": start.session_id})
            self._emit_final(events.failure("HARNESS_ERROR"), "FAILED")
            outcome = _Outcome(RunStatus.FAILED, fallback_reason="HARNESS_ERROR")
        finally:
            history.cancel()
        self.ctx.lifecycle.finish(outcome.status)
        await self._finish(outcome)
        return outcome.status

    def _stopped(self) -> _Outcome:
        """A run its client left is CANCELLED. One stopped by its gateway's shutdown is FAILED for
        SERVICE_STOPPING: the gateway ended its stream with ``failure(SERVICE_STOPPING)`` + ``done(FAILED)``, and
        the record says what the user was told."""
        if self.ctx.cancellation.reason == events.SERVICE_STOPPING:
            return _Outcome(RunStatus.FAILED, fallback_reason=events.SERVICE_STOPPING)
        return _Outcome(RunStatus.CANCELLED)

    async def _session_history(self) -> _History:
        """The session's earlier turns; none when the audit store cannot be read (they are context, §4.6, not
        a precondition: the run is answered as a first turn)."""
        audit, session_id = self._services.audit, self._start.session_id
        try:
            (last_intent, last_query), previous = await asyncio.gather(
                audit.last_turn(session_id), audit.previous_turn(session_id)
            )
        except Exception as exc:
            log.warning("session history unavailable: %s", type(exc).__name__, extra={"run_id": self.run_id})
            return _History(None, None, None)
        return _History(last_intent, last_query, previous)

    async def _route_and_answer(self, history: asyncio.Future[_History]) -> _Outcome:
        self.ctx.cancellation.raise_if_cancelled()  # cancelled before it started (while QUEUED): nothing runs
        self._emit(events.status("ROUTING"))
        last_intent, last_query, previous = await history
        try:
            self._intent = await self._route(
                RouterInput(
                    query=self._start.query,
                    last_intent=last_intent if last_intent in INTENTS else None,
                    last_user_query=last_query,
                )
            )
        except RetriesExhausted:
            self._emit_final(events.failure("ROUTING_UNAVAILABLE"), "FAILED")
            return _Outcome(RunStatus.FAILED, fallback_reason="ROUTING_UNAVAILABLE")
        self._emit(events.status("ROUTED", intent=self._intent))
        if self._intent == "SYSTEM_CHAT":
            return await self._system_chat()
        if self._intent == "KNOWLEDGE_QUERY":
            return await self._knowledge()
        return await self._diagnose(previous)

    async def _route(self, router_input: RouterInput) -> Intent:
        config = self._services.config
        timeout_s = min(config.model.timeout_s, config.harness.run.router_attempt_timeout)  # its share of the run

        async def attempt(number: int) -> Intent:
            messages = router_messages(router_input)
            reply = await self._harness_model(
                "router", messages, timeout_s, json_output=True, attempt=number, refusal=_refusal(parse_intent)
            )
            return parse_intent(reply.content)

        return await self.ctx.retry_executor().run("intent_router", self.ctx.retry_policies.intent_router, attempt)

    async def _system_chat(self) -> _Outcome:
        capabilities = capability_text(self._services.config.harness.system_chat, self.language)
        messages = system_chat_messages(self._start.query, capabilities, self.language)
        try:
            reply = await self._harness_model("system_chat", messages, self._model_timeout())
        except OperationFailed:
            return self._model_unavailable()
        answer = (reply.content or "").strip()
        problem = gate.check(gate.SystemReply(answer, capabilities, self._start.query), self._services.policy).problem
        if problem is not None:  # the capability text, fixed and safe, instead of what the model wrote
            self._emit_final(events.content("SYSTEM_ANSWER", {"answer": capabilities}), "FALLBACK")
            return _Outcome(RunStatus.FALLBACK, fallback_reason=f"SYSTEM_ANSWER_{problem}")
        self._emit_final(events.content("SYSTEM_ANSWER", {"answer": answer}), "SUCCESS")
        return _Outcome(RunStatus.SUCCESS)

    async def _knowledge(self) -> _Outcome:
        kind = self._services.knowledge
        if kind is None:
            self._emit_final(events.failure("KNOWLEDGE_UNAVAILABLE"), "FAILED")
            return _Outcome(RunStatus.FAILED, fallback_reason="KNOWLEDGE_NOT_CONFIGURED")
        self._emit(events.status("KNOWLEDGE_SEARCHING"))
        offered = self._offered[kind.name]
        result = await self._tool_boundary.execute(
            "call_knowledge_1", kind.name, {"query": self._start.query}, offered.projector
        )
        status = result.get("evidence_status")
        if status == "ERROR":
            self._emit_final(events.failure("KNOWLEDGE_UNAVAILABLE"), "FAILED")
            return _Outcome(RunStatus.FAILED, fallback_reason="KNOWLEDGE_UNAVAILABLE")
        if status == "NO_EVIDENCE":
            fixed = texts(self.language)
            payload = {
                "answer": fixed.knowledge_nothing_found,
                "references": [],
                "limitations": list(fixed.knowledge_nothing_found_limitations),
            }
            self._emit_final(events.content("KNOWLEDGE_ANSWER", payload), "SUCCESS")
            return _Outcome(RunStatus.SUCCESS)
        evidence = list(result.get("evidence", []))
        self._emit(events.status("ANSWERING"))
        try:
            reply = await self._harness_model(
                "knowledge",
                knowledge_messages(self._start.query, evidence, self.language),
                self._model_timeout(),
                json_output=True,
                refusal=_refusal(parse_knowledge_answer),
            )
        except OperationFailed:
            return self._model_unavailable()
        try:
            answer = parse_knowledge_answer(reply.content)
            subject = gate.KnowledgeReply(answer, evidence, self._start.query, self.language)
            release = gate.check(subject, self._services.policy)
        except OperationFailed:
            release = KnowledgeRelease(None, "KNOWLEDGE_INVALID_OUTPUT")
        if release.payload is None:
            self._emit_final(events.content("FALLBACK", knowledge_fallback_payload(self.language)), "FALLBACK")
            return _Outcome(RunStatus.FALLBACK, FallbackType.EVIDENCE_VALIDATION_FAILED.value, release.refused)
        self._emit_final(events.content("KNOWLEDGE_ANSWER", release.payload), "SUCCESS")
        invented = "INVENTED_REFERENCES_REMOVED" if release.invented_references else None
        return _Outcome(RunStatus.SUCCESS, fallback_reason=invented)

    async def _diagnose(self, previous: PreviousTurn | None) -> _Outcome:
        services = self._services
        task = AgentTask(run_id=self.run_id, query=self._start.query, previous_turn=previous, tools=self._openai_tools)
        agent_deadline = self._agent_deadline()
        policies = self.ctx.retry_policies

        async def investigate(_attempt: int) -> str | None:
            remote = services.agent.investigate(task, self)
            return await bounded(self.ctx, remote.result, deadline=agent_deadline, on_abort=remote.cancel)

        try:
            text = await self.ctx.retry_executor().run("diagnosis_agent", policies.diagnosis_agent, investigate)
            self._emit(events.status("EVIDENCE_VALIDATING"))
            check = await self._check(text)
            for _ in range(policies.evidence_repair.max_attempts):
                if check.ok:
                    break
                self._emit(events.status("EVIDENCE_REPAIRING"))
                remote = services.agent.repair(self.run_id, failure_texts(check), self)
                text = await bounded(self.ctx, remote.result, deadline=agent_deadline, on_abort=remote.cancel)
                check = await self._check(text)
        except RunCancelled:
            raise
        except Exception as exc:  # the agent ended without a draft: decide from what the boundaries saw
            return await self._agent_failed(exc)
        finally:
            services.agent.forget(self.run_id)
        if not check.ok:
            fallback = after_evidence_check(failure.code for failure in check.failures)
            return self._fallback(fallback, verified_sources(check.verified, services.kinds))
        return await self._review_and_release(check)

    async def _review_and_release(self, check: EvidenceCheck) -> _Outcome:
        assert check.draft is not None
        draft, config = check.draft, self._services.config.harness.semantic_guard
        kinds = self._services.kinds
        sources = verified_sources(check.verified, kinds)
        snapshot = build_snapshot(draft, check.verified, kinds)
        if snapshot_bytes(snapshot, draft.user_visible(), self._start.query) > config.max_input_bytes:
            self._audit_check("semantic", "UNAVAILABLE", None, (("GUARD_INPUT_TOO_LARGE", "input over its limit"),))
            return self._fallback(guard_unavailable("GUARD_INPUT_TOO_LARGE"), sources)
        try:
            request = GuardRequest(query=self._start.query, draft=draft.user_visible(), verified_evidence=snapshot)
        except ValidationError:
            self._audit_check("semantic", "UNAVAILABLE", None, (("GUARD_INPUT_INVALID", "input not valid"),))
            return self._fallback(guard_unavailable("GUARD_INPUT_INVALID"), sources)
        self._emit(events.status("SEMANTIC_VALIDATING"))
        guard_started = self.ctx.clock.monotonic()
        try:
            verdict = await self._semantic_guard(request)
        except RetriesExhausted as exhausted:
            self._services.metrics.guard_verdict("UNAVAILABLE", self.ctx.clock.monotonic() - guard_started)
            message = f"no valid verdict after {exhausted.attempts} attempt(s)"
            self._audit_check("semantic", "UNAVAILABLE", self._guard_step, ((str(exhausted.last_kind), message),))
            return self._fallback(guard_unavailable(f"GUARD_{exhausted.last_kind}"), sources)
        except BudgetExhausted as exhausted:  # the run's deadline clipped the guard: a guard timeout (§4.4, §10.3)
            self._services.metrics.guard_verdict("UNAVAILABLE", self.ctx.clock.monotonic() - guard_started)
            message = "the run's deadline passed before a verdict"
            self._audit_check("semantic", "UNAVAILABLE", self._guard_step, ((exhausted.reason, message),))
            return self._fallback(guard_unavailable(f"GUARD_{exhausted.reason}"), sources)
        self._services.metrics.guard_verdict(verdict.verdict, self.ctx.clock.monotonic() - guard_started)
        failures = () if verdict.verdict == "SUPPORTED" else (("UNSUPPORTED", verdict.reason),)
        self._audit_check("semantic", verdict.verdict, self._guard_step, failures)
        if verdict.verdict != "SUPPORTED":
            outcome = self._fallback(GUARD_UNSUPPORTED, sources)
            outcome.guard = verdict
            return outcome
        self._emit_final(events.content("DIAGNOSIS_REPORT", report_payload(draft, check.verified, kinds)), "SUCCESS")
        published = PreviousTurn(
            user_query=self._start.query,
            published_conclusion=draft.conclusion.text if draft.conclusion else None,
            scope=draft.limitations.scope,
            limitations=list(draft.limitations.missing_info),
            source_documents=source_documents(check.verified, kinds),
        )
        cited = [{"ref": label, "tool_call_id": call} for call, label in reference_labels(draft).items()]
        return _Outcome(
            RunStatus.SUCCESS, published_result=published.model_dump(), guard=verdict, cited_tool_calls=cited
        )

    async def _semantic_guard(self, request: GuardRequest) -> GuardVerdict:
        config = self._services.config.harness.semantic_guard
        total = self.ctx.deadline.within(config.total_timeout)

        async def attempt(number: int) -> GuardVerdict:
            timeout_s = min(config.attempt_timeout, total.remaining_s())
            if timeout_s <= 0:
                raise OperationFailed("TIMEOUT", "guard total time used up")
            remote = self._services.guard.evaluate(request, number, timeout_s)
            self._steps += 1
            step, started = self._steps, self.ctx.clock.monotonic()
            self._guard_step = step
            with self._ended_step(step, "guard", started, number):
                try:
                    result = await bounded(self.ctx, remote.result, timeout_s=timeout_s, on_abort=remote.cancel)
                except (OperationFailed, RunCancelled, BudgetExhausted):
                    raise
                except Exception as exc:  # the replica died or could not be reached: retry on another one
                    raise OperationFailed("TRANSPORT", type(exc).__name__) from None
            self._count("guard", result.usage.input_tokens, result.usage.output_tokens)
            outcome = "OK" if result.verdict is not None else str(result.failure or "INVALID_OUTPUT")
            self._audit_step(step, "guard", started, outcome, result.usage, attempt=number)
            if result.verdict is None:
                raise OperationFailed(result.failure or "INVALID_OUTPUT", f"replica {result.replica}")
            return result.verdict

        return await self.ctx.retry_executor().run("semantic_guard", self.ctx.retry_policies.semantic_guard, attempt)

    async def _check(self, text: str | None) -> EvidenceCheck:
        try:
            records = await gate.fetch_cited(self._services.store, self.run_id, gate.cited_tool_call_ids(text))
        except StoreUnavailable:
            records = {}
        services = self._services
        check = gate.check(gate.Report(text, records, services.kinds, self._start.query), services.policy)
        failures = tuple((str(failure.code), failure.message) for failure in check.failures)
        self._audit_check("evidence", "PASS" if check.ok else "FAIL", self._steps, failures)
        return check

    # -- the boundaries the agent talks to ----------------------------------------------------------------

    async def model(self, request: ModelRequest) -> ModelReply:
        """The model boundary for the agent: only ``agent`` and ``repair`` turns, with the Harness's own tool
        list (a repair is tool-less), budget and deadline checked before, tokens recorded after."""
        reply, _step = await self._agent_model(request)
        return reply

    async def _agent_model(
        self, request: ModelRequest, tools: tuple[dict[str, Any], ...] | None = None
    ) -> tuple[ModelReply, int]:
        """``tools``: what this call offers (an investigation turn's choice); by default every tool of the run
        to an ``agent`` call and none to a repair."""
        if request.role not in ("agent", "repair"):
            raise OperationFailed("INVALID_OUTPUT", "the agent may only make agent or repair calls")
        if tools is None:
            tools = self._openai_tools if request.role == "agent" else ()
        call = ModelRequest(
            role=request.role,
            messages=request.messages,
            tools=tools,
            tool_choice=request.tool_choice if tools else None,
            json_output=request.json_output,
        )
        agent_deadline = self._agent_deadline()
        try:
            ensure_open(self.ctx, agent_deadline)
            self.ctx.budget.charge_model_call()
        except BudgetExhausted as exhausted:
            self._stop.budget = self._stop.budget or exhausted.reason
            raise
        try:
            reply, step = await self._call_model(call, self._model_timeout(), agent_deadline)
        except BudgetExhausted as exhausted:
            self._stop.budget = self._stop.budget or exhausted.reason
            raise
        except OperationFailed as failed:
            self._stop.model_failure = self._stop.model_failure or failed.kind
            raise
        self.ctx.budget.record_tokens(reply.usage.input_tokens, reply.usage.output_tokens)
        return reply, step

    async def turn(self, request: ModelRequest) -> Turn:
        """An investigation turn: the model call, then every tool call of its reply, run together.

        The Harness decides what the turn offers (:mod:`harness.turn_budget`): only the tools with calls left,
        and the request ends with the line of what is left of the budget. When no tool has a call left, or the
        agent's time is down to ``final-call-reserve``, the turn is the final one: no tool is offered, the
        request ends with the instruction to write the draft, and no tool call of its reply is run.
        """
        if request.role != "agent":
            raise OperationFailed("INVALID_OUTPUT", "an investigation turn is an agent call")
        names = tuple(self._tool_definitions)
        limits, usage = self.ctx.budget.limits, self.ctx.budget.usage()
        reserve = self._services.config.harness.agent.final_call_reserve
        tool_time_s = self._agent_deadline().remaining_s() - reserve
        offered = offer(limits, usage, names, tool_time_s)
        if offered.withdrawn is not None:
            if offered.withdrawn == TOOL_CALLS:  # spent exactly, with no refusal: still the reason tools ended
                self.ctx.budget.note_exhausted(TOOL_CALLS)
            log.info("tools withdrawn for the final draft", extra={"run_id": self.run_id, "code": offered.withdrawn})
            context = (ChatMessage(role="user", content=final_instruction(offered.withdrawn)),)
            final = request.model_copy(update={"messages": request.messages + context, "json_output": True})
            reply, _step = await self._agent_model(final, tools=())
            return Turn(reply=reply, context=context, final=True)
        context = (ChatMessage(role="user", content=budget_line(limits, usage, names, tool_time_s)),)
        tools = tuple(self._tool_definitions[name] for name in offered.tools)
        reply, step = await self._agent_model(
            request.model_copy(update={"messages": request.messages + context}), tools=tools
        )
        requesting = _REQUESTING_STEP.set(step)  # each call's task copies it: its audit row names this step
        try:
            results = await asyncio.gather(*(self._tool(call) for call in reply.tool_calls))
        finally:
            _REQUESTING_STEP.reset(requesting)
        return Turn(reply=reply, results=tuple(results), context=context)

    async def _tool(self, call: ToolCall) -> dict[str, Any]:
        try:
            return await self._tool_boundary.call(call)
        except BudgetExhausted as exhausted:
            self._stop.budget = self._stop.budget or exhausted.reason
            raise

    async def plan(self, steps: Sequence[str]) -> None:
        """The agent's Diagnosis Plan, sent once as a status: 3–5 short instructions
        (:func:`harness.gate.answers.plan_steps`), never a finding, SQL or a secret."""
        if self._plan_sent:
            return
        self._plan_sent = True
        verdict = gate.check(gate.Plan(steps, self.language), self._services.policy)
        self._emit(events.status("PLANNING", steps=verdict.steps))

    # -- helpers ------------------------------------------------------------------------------------------

    async def _harness_model(
        self,
        role: Role,
        messages: tuple[ChatMessage, ...],
        timeout_s: float,
        json_output: bool = False,
        attempt: int = 1,
        refusal: Callable[[ModelReply], str | None] | None = None,
    ) -> ModelReply:
        ensure_open(self.ctx)
        request = ModelRequest(role=role, messages=messages, json_output=json_output)
        reply, _step = await self._call_model(request, timeout_s, self.ctx.deadline, attempt, refusal)
        return reply

    async def _call_model(
        self,
        request: ModelRequest,
        timeout_s: float,
        deadline: Any,
        attempt: int = 1,
        refusal: Callable[[ModelReply], str | None] | None = None,
    ) -> tuple[ModelReply, int]:
        """The model call and its ``agent_step`` row; ``refusal`` names what the Harness will refuse in the reply
        (the row's outcome then), the caller still decides what to do with it."""
        started = self.ctx.clock.monotonic()
        self._steps += 1
        step = self._steps
        try:
            with self._ended_step(step, request.role, started, attempt):
                reply = await bounded(
                    self.ctx, self._services.model.complete(request, timeout_s), deadline=deadline, timeout_s=timeout_s
                )
        except OperationFailed as failed:
            log.warning(
                "model call failed: %s %s",
                failed.kind,
                failed.detail,
                extra={"run_id": self.run_id, "session_id": self._start.session_id, "role": request.role},
            )
            raise
        self._count(request.role, reply.usage.input_tokens, reply.usage.output_tokens)
        outcome = (refusal(reply) if refusal is not None else None) or "OK"
        self._audit_step(step, request.role, started, outcome, reply.usage, bool(reply.tool_calls), attempt)
        return reply, step

    @contextlib.contextmanager
    def _ended_step(self, step: int, role: str, started: float, attempt: int) -> Iterator[None]:
        """The ``agent_step`` row of a model call (any role) that did not return, by how it ended: its failure's
        kind, the budget or cancellation that stopped it, or a cancelled task (its run cancelled, or out of
        time). The error goes on to the caller."""
        try:
            yield
        except OperationFailed as failed:
            self._audit_step(step, role, started, str(failed.kind), attempt=attempt)
            raise
        except (BudgetExhausted, RunCancelled) as stopped:
            self._audit_step(step, role, started, stopped.code, attempt=attempt)
            raise
        except asyncio.CancelledError:
            self._audit_step(step, role, started, RunCancelled.code, attempt=attempt)
            raise

    def _agent_deadline(self) -> Deadline:
        """The agent's own deadline, fixed when it is first asked for (the agent's start)."""
        if self._agent_until is None:
            self._agent_until = self.ctx.deadline.within(self._services.config.harness.agent.max_duration)
        return self._agent_until

    def _model_timeout(self) -> float:
        return self._services.config.model.timeout_s

    def _count(self, role: str, input_tokens: int, output_tokens: int) -> None:
        usage = self._usage.setdefault(role, _RoleUsage())
        usage.input_tokens += input_tokens
        usage.output_tokens += output_tokens

    async def _agent_failed(self, error: BaseException) -> _Outcome:
        reason = self._stop.budget or (error.reason if isinstance(error, BudgetExhausted) else None)
        if reason is None and self.ctx.deadline.expired:
            reason = "DEADLINE"
        if reason is not None:  # the evidence found is real and supports no report yet: say what ran out
            return self._fallback(after_budget(reason), await self._found_sources())
        if self._stop.model_failure is not None:
            return self._model_unavailable()
        log.warning("agent ended without a draft", extra={"run_id": self.run_id, "error": type(error).__name__})
        self._emit_final(events.failure("HARNESS_ERROR"), "FAILED")
        cause = error.last_kind if isinstance(error, RetriesExhausted) else type(error).__name__
        return _Outcome(RunStatus.FAILED, fallback_reason=f"AGENT_{cause}")

    def _model_unavailable(self) -> _Outcome:
        self._emit_final(events.failure("MODEL_UNAVAILABLE"), "FAILED")
        return _Outcome(RunStatus.FAILED, fallback_reason=f"MODEL_{self._stop.model_failure or 'UNAVAILABLE'}")

    async def _found_sources(self) -> list[dict[str, str]]:
        """The sources of this run's calls that returned evidence, read from their canonical records: what a
        fallback may show when there is no checked draft (none when the store cannot be read)."""
        try:
            records = await gate.fetch_cited(self._services.store, self.run_id, self._found)
        except InvocationStoreError:
            return []
        kinds = self._services.kinds
        found = {
            call: record
            for call, record in records.items()
            if record is not None and record.run_id == self.run_id and _returned_evidence(record, kinds)
        }
        return verified_sources(found, kinds)

    def _fallback(self, fallback: Fallback, sources: list[dict[str, str]]) -> _Outcome:
        """The fixed fallback in the question's language; ``sources`` are shown only when its type allows."""
        shown = sources if fallback.shows_sources else []
        payload = fallback_payload(fallback.type, shown, self.language, fallback.limitation_category)
        self._emit_final(events.content("FALLBACK", payload), "FALLBACK")
        return _Outcome(RunStatus.FALLBACK, fallback.type.value, fallback.reason)

    def _emit(self, event: events.RunEvent) -> None:
        if self.ctx.cancellation.cancelled:
            return
        self.events.put_nowait(self._sequence.accept(event))
        if event.event == "content":
            self._released = event.data

    def _emit_final(self, final: events.RunEvent, outcome: events.Outcome) -> None:
        self._emit(final)
        self._emit(events.done(outcome))

    def _tool_event(self, code: str, details: dict[str, Any]) -> None:
        self._emit(events.status(code, **details))

    def _audit_tool(self, record: ToolInvocation) -> None:
        """Called exactly once per tool call, however it ended: also the one place tool calls are counted."""
        self._tools_recorded += 1
        if record.success and record.evidence_status == EvidenceStatus.EVIDENCE_FOUND.value:
            self._found.append(record.tool_call_id)
        record = dataclasses.replace(record, step_index=_REQUESTING_STEP.get())
        tool = record.tool_name if record.tool_name in self._offered else "unknown_tool"
        self._services.metrics.tool_call(tool, "READY" if record.success else "ERROR", record.evidence_status)
        self._pending_audit.append(asyncio.ensure_future(self._audited(self._services.audit.record(record))))

    def _audit_step(
        self,
        step: int,
        role: str,
        started: float,
        outcome: str,
        usage: Usage | None = None,
        has_tool_call: bool = False,
        attempt: int = 1,
    ) -> None:
        """One ``agent_step`` row per model attempt of any role, whatever its outcome (never a prompt)."""
        record = ModelStep(
            run_id=self.run_id,
            session_id=self._start.session_id,
            step_index=step,
            role=role,
            duration_ms=int((self.ctx.clock.monotonic() - started) * 1000),
            input_tokens=usage.input_tokens if usage else 0,
            output_tokens=usage.output_tokens if usage else 0,
            has_tool_call=has_tool_call,
            outcome=outcome,
            attempt=attempt,
        )
        self._pending_audit.append(asyncio.ensure_future(self._audited(self._services.audit.record(record))))
        self._services.metrics.model_call(role, str(outcome), record.input_tokens, record.output_tokens)

    def _audit_check(self, guard: str, verdict: str, step: int | None, failures: tuple[tuple[str, str], ...]) -> None:
        """One ``guard_check`` row per guard decision on the run's draft."""
        self._checks += 1
        record = GuardCheck(self.run_id, self._start.session_id, self._checks, guard, verdict, step, failures)
        self._pending_audit.append(asyncio.ensure_future(self._audited(self._services.audit.record(record))))

    async def _audited(self, write: Awaitable[None]) -> None:
        """Audit writes never change what the user gets; a failed write is logged (without payloads)."""
        try:
            await write
        except Exception as exc:
            log.error("audit write failed: %s", type(exc).__name__, extra={"run_id": self.run_id})

    def _count_finish(self, outcome: _Outcome) -> None:
        """The run's metrics, once, at its terminal state (a budget counts by the first reason it ran out)."""
        metrics = self._services.metrics
        if outcome.status is RunStatus.CANCELLED:
            metrics.cancelled()
        if outcome.fallback_type is not None:
            metrics.fallback(outcome.fallback_type)
        exhausted = self.ctx.budget.usage().exhausted_reason
        if exhausted is not None:
            metrics.budget_exhausted(exhausted)
        metrics.run_finished(
            self._intent or "UNROUTED", outcome.status.value, self.ctx.clock.monotonic() - self._started
        )

    async def _finish(self, outcome: _Outcome) -> None:
        self._count_finish(outcome)
        if self._pending_audit:
            await asyncio.gather(*self._pending_audit)
        totals = list(self._usage.values())
        record = RunFinished(
            run_id=self.run_id,
            session_id=self._start.session_id,
            intent=self._intent,
            status=outcome.status.value,
            fallback_type=outcome.fallback_type,
            fallback_reason=outcome.fallback_reason,
            published_result=outcome.published_result,
            model_calls=self._steps,
            input_tokens=sum(role.input_tokens for role in totals),
            output_tokens=sum(role.output_tokens for role in totals),
            tool_calls=self._tools_recorded,
            duration_ms=int((self.ctx.clock.monotonic() - self._started) * 1000),
            finished_at=self.ctx.clock.now(),
            guard_verdict=outcome.guard.verdict if outcome.guard else None,
            guard_reason=outcome.guard.reason if outcome.guard else None,
            released_content=self._released,
            cited_tool_calls=outcome.cited_tool_calls if self._released is not None else None,
        )
        await self._audited(self._services.audit.record(record))
        log.info(
            "run finished",
            extra={
                "intent": record.intent,
                "outcome": record.status,
                "code": record.fallback_reason,
                "duration_ms": record.duration_ms,
            },
        )
