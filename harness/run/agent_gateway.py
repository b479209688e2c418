"""``RunGateway``: the model and tool boundary of one run, the object its agent calls back into
(:class:`harness.ports.AgentGateway`: ``model``, ``turn``, ``plan``).

Every agent call is checked against the run's budget and the agent's own deadline before it is made, and its
tokens are charged after; the Harness, not the agent, decides what each turn offers (:mod:`harness.turn_budget`).
Where the agent's work ran out (a budget) or failed (the model) is noted in ``stop``: the diagnosis path decides
from it when the agent ends without a draft.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from harness import gate
from harness.budget import TOOL_CALLS
from harness.deadline import Deadline
from harness.errors import BudgetExhausted, OperationFailed
from harness.execution import ensure_open
from harness.language import Language
from harness.messages import ChatMessage, ModelReply, ModelRequest, ToolCall, Turn
from harness.run.model_calls import ModelCalls
from harness.run.recorder import Recorder
from harness.run.services import RunServices
from harness.run.stream import RunStream
from harness.run_context import RunContext
from harness.tool_boundary import ToolBoundary
from harness.tracing import span
from harness.turn_budget import budget_line, final_instruction, offer

log = logging.getLogger(__name__)


@dataclass
class Stop:
    """Why the agent's work ended early, noted at the boundary where it happened."""

    budget: str | None = None
    model_failure: str | None = None


class RunGateway:
    def __init__(
        self,
        services: RunServices,
        ctx: RunContext,
        stream: RunStream,
        recorder: Recorder,
        calls: ModelCalls,
        tools: ToolBoundary,
        language: Language,
    ) -> None:
        self._services = services
        self._ctx = ctx
        self._stream = stream
        self._recorder = recorder
        self._calls = calls
        self._tools = tools
        self._language = language
        self._definitions = dict(zip(services.offered, services.openai_tools, strict=True))
        self._plan_sent = False
        self._agent_until: Deadline | None = None
        """The agent's deadline, set when it starts (``harness.agent.max-duration``, inside the run's)."""
        self.stop = Stop()

    def agent_deadline(self) -> Deadline:
        """The agent's own deadline, fixed when it is first asked for (the agent's start)."""
        if self._agent_until is None:
            self._agent_until = self._ctx.deadline.within(self._services.config.harness.agent.max_duration)
        return self._agent_until

    async def model(self, request: ModelRequest) -> ModelReply:
        """The model boundary for the agent: only ``agent`` and ``repair`` turns, with the Harness's own tool
        list (a repair is tool-less), budget and deadline checked before, tokens recorded after."""
        reply, _step = await self._agent_model(request)
        return reply

    async def turn(self, request: ModelRequest) -> Turn:
        """An investigation turn: the model call, then every tool call of its reply, run together.

        The Harness decides what the turn offers (:mod:`harness.turn_budget`): only the tools with calls left,
        and the request ends with the line of what is left of the budget. When no tool has a call left, or the
        agent's time is down to ``final-call-reserve``, the turn is the final one: no tool is offered, the
        request ends with the instruction to write the draft, and no tool call of its reply is run.
        """
        if request.role != "agent":
            raise OperationFailed("INVALID_OUTPUT", "an investigation turn is an agent call")
        with span("agent turn") as current:
            turn = await self._turn(request)
            current.set_attributes({"superbiz.final": turn.final, "superbiz.tool_calls": len(turn.results)})
            return turn

    async def _turn(self, request: ModelRequest) -> Turn:
        names = tuple(self._definitions)
        limits, usage = self._ctx.budget.limits, self._ctx.budget.usage()
        reserve = self._services.config.harness.agent.final_call_reserve
        tool_time_s = self.agent_deadline().remaining_s() - reserve
        offered = offer(limits, usage, names, tool_time_s)
        if offered.withdrawn is not None:
            if offered.withdrawn == TOOL_CALLS:  # spent exactly, with no refusal: still the reason tools ended
                self._ctx.budget.note_exhausted(TOOL_CALLS)
            log.info(
                "tools withdrawn for the final draft", extra={"run_id": self._ctx.run_id, "code": offered.withdrawn}
            )
            context = (ChatMessage(role="user", content=final_instruction(offered.withdrawn)),)
            final = request.model_copy(update={"messages": request.messages + context, "json_output": True})
            reply, _step = await self._agent_model(final, tools=())
            return Turn(reply=reply, context=context, final=True)
        context = (ChatMessage(role="user", content=budget_line(limits, usage, names, tool_time_s)),)
        tools = tuple(self._definitions[name] for name in offered.tools)
        reply, step = await self._agent_model(
            request.model_copy(update={"messages": request.messages + context}), tools=tools
        )
        with self._recorder.requested_by(step):  # each call's task copies it: its audit row names this step
            results = await asyncio.gather(*(self._tool(call) for call in reply.tool_calls))
        return Turn(reply=reply, results=tuple(results), context=context)

    async def plan(self, steps: Sequence[str]) -> None:
        """The agent's Diagnosis Plan, sent once as a status: 3–5 short instructions
        (:func:`harness.gate.answers.plan_steps`), never a finding, SQL or a secret."""
        if self._plan_sent:
            return
        self._plan_sent = True
        with span("plan") as current:
            verdict = gate.check(gate.Plan(steps, self._language), self._services.policy)
            current.set_attribute("superbiz.steps", len(verdict.steps))
        self._stream.status("PLANNING", steps=verdict.steps)

    async def _agent_model(
        self, request: ModelRequest, tools: tuple[dict[str, Any], ...] | None = None
    ) -> tuple[ModelReply, int]:
        """``tools``: what this call offers (an investigation turn's choice); by default every tool of the run
        to an ``agent`` call and none to a repair."""
        if request.role not in ("agent", "repair"):
            raise OperationFailed("INVALID_OUTPUT", "the agent may only make agent or repair calls")
        if tools is None:
            tools = self._services.openai_tools if request.role == "agent" else ()
        call = ModelRequest(
            role=request.role,
            messages=request.messages,
            tools=tools,
            tool_choice=request.tool_choice if tools else None,
            json_output=request.json_output,
        )
        agent_deadline = self.agent_deadline()
        try:
            ensure_open(self._ctx, agent_deadline)
            self._ctx.budget.charge_model_call()
            reply, step = await self._calls.complete(call, self._services.config.model.timeout_s, agent_deadline)
        except BudgetExhausted as exhausted:
            self.stop.budget = self.stop.budget or exhausted.reason
            raise
        except OperationFailed as failed:
            self.stop.model_failure = self.stop.model_failure or failed.kind
            raise
        self._ctx.budget.record_tokens(reply.usage.input_tokens, reply.usage.output_tokens)
        return reply, step

    async def _tool(self, call: ToolCall) -> dict[str, Any]:
        try:
            return await self._tools.call(call)
        except BudgetExhausted as exhausted:
            self.stop.budget = self.stop.budget or exhausted.reason
            raise
