"""SYSTEM_CHAT (§4.5): the model answers about the system itself, from the configured capability text; an
answer the gate refuses is replaced by that text, fixed and safe."""

from __future__ import annotations

from harness import events, gate
from harness.errors import OperationFailed
from harness.fixed_texts import capabilities as capability_text
from harness.intents import system_chat_messages
from harness.reasons import ReasonFamily
from harness.run.outcome import Outcome, model_unavailable
from harness.run.scope import Scope
from harness.run_state import RunStatus


async def answer(scope: Scope) -> Outcome:
    capabilities = capability_text(scope.config.harness.system_chat, scope.language)
    messages = system_chat_messages(scope.query, capabilities, scope.language)
    try:
        reply = await scope.calls.ask("system_chat", messages, scope.model_timeout_s)
    except OperationFailed:
        return model_unavailable(scope.stream)
    text = (reply.content or "").strip()
    problem = gate.check(gate.SystemReply(text, capabilities, scope.query), scope.policy).problem
    if problem is not None:  # the capability text, fixed and safe, instead of what the model wrote
        scope.stream.end(events.content("SYSTEM_ANSWER", {"answer": capabilities}), "FALLBACK")
        return Outcome(RunStatus.FALLBACK, fallback_reason=ReasonFamily.SYSTEM_ANSWER.of(problem))
    scope.stream.end(events.content("SYSTEM_ANSWER", {"answer": text}), "SUCCESS")
    return Outcome(RunStatus.SUCCESS)
