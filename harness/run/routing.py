"""Before a run is routed: the session's earlier turns (§4.6), and the intent router with its retries."""

from __future__ import annotations

import asyncio
import logging
from typing import NamedTuple

from harness.audit import AuditSink
from harness.intents import INTENTS, Intent, RouterInput, parse_intent, router_messages
from harness.messages import PreviousTurn
from harness.run.model_calls import ModelCalls, refused_by
from harness.run.services import RunServices
from harness.run_context import RunContext

log = logging.getLogger(__name__)


class History(NamedTuple):
    """What the run reads of its session's earlier turns: the router's context and the previous turn."""

    last_intent: str | None
    last_query: str | None
    previous: PreviousTurn | None


async def session_history(audit: AuditSink, session_id: str, run_id: str) -> History:
    """The session's earlier turns; none when the audit store cannot be read (they are context, §4.6, not
    a precondition: the run is answered as a first turn)."""
    try:
        (last_intent, last_query), previous = await asyncio.gather(
            audit.last_turn(session_id), audit.previous_turn(session_id)
        )
    except Exception as exc:
        log.warning("session history unavailable: %s", type(exc).__name__, extra={"run_id": run_id})
        return History(None, None, None)
    return History(last_intent, last_query, previous)


async def route(ctx: RunContext, services: RunServices, calls: ModelCalls, query: str, history: History) -> Intent:
    """The question's intent; ``RetriesExhausted`` when the router gave no valid one."""
    config = services.config
    timeout_s = min(config.model.timeout_s, config.harness.run.router_attempt_timeout)  # its share of the run
    last_intent = history.last_intent if history.last_intent in INTENTS else None
    router_input = RouterInput(query=query, last_intent=last_intent, last_user_query=history.last_query)

    async def attempt(number: int) -> Intent:
        messages = router_messages(router_input)
        reply = await calls.ask(
            "router", messages, timeout_s, json_output=True, attempt=number, refusal=refused_by(parse_intent)
        )
        return parse_intent(reply.content)

    return await ctx.retry_executor().run("intent_router", ctx.retry_policies.intent_router, attempt)
