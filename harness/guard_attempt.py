"""One SemanticGuard evaluation: a fresh two-message context, no tools, no memory, one model call.

Runs inside a guard replica; every technical failure comes back as data (``GuardAttempt.failure``) so the
Harness, not the replica, decides about the one retry.
"""

from __future__ import annotations

import asyncio

from harness.errors import OperationFailed
from harness.messages import GuardAttempt, GuardRequest, ModelRequest, Usage
from harness.ports import ChatModel
from harness.retry import FailureKind
from harness.semantic_guard import guard_messages, parse_verdict


async def evaluate_once(model: ChatModel, request: GuardRequest, timeout_s: float, replica: str) -> GuardAttempt:
    call = ModelRequest(role="guard", messages=guard_messages(request), json_output=True)
    try:
        reply = await asyncio.wait_for(model.complete(call, timeout_s), timeout_s)
    except TimeoutError:
        return GuardAttempt(None, FailureKind.TIMEOUT.value, Usage(), replica)
    except OperationFailed as failed:
        return GuardAttempt(None, failed.kind, Usage(), replica)
    try:
        verdict = parse_verdict(reply.content)
    except OperationFailed as failed:
        return GuardAttempt(None, failed.kind, reply.usage, replica)
    return GuardAttempt(verdict, None, reply.usage, replica)
