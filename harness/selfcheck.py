"""``superbiz selfcheck``: prove, against the configured invocation store, that the Harness core does its job.

Each check exercises the real code path (a throwaway run in the store it is given, a budget ledger built from
the configured limits, the retry matrix) and reports what it saw; nothing is assumed.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from config.app import AppConfig
from config.units import format_bytes, format_duration
from contract.clock import SystemClock
from contract.vocabulary import EvidenceStatus
from harness.budget import BudgetLedger, BudgetLimits
from harness.errors import BudgetExhausted, DuplicateToolCallId, HarnessError, InvalidTransition
from harness.invocation import InvocationStorePort, ToolCallStatus
from harness.retry import HarnessRetryPolicies
from harness.run_state import RunLifecycle, RunStatus

SELFCHECK_TOOL = "selfcheck"


class SelfCheckFailed(HarnessError):
    code = "SELF_CHECK_FAILED"
    pass


def _expect(condition: bool, failure: str) -> None:
    if not condition:
        raise SelfCheckFailed(failure)


@dataclass(frozen=True)
class CheckResult:
    name: str
    ok: bool
    detail: str


async def run_selfcheck(config: AppConfig, store: InvocationStorePort) -> list[CheckResult]:
    """Every check in order, against ``store`` (the caller opens it on ``config.redis`` and closes it)."""
    checks: list[tuple[str, Callable[[], Awaitable[str]]]] = [
        ("redis reachable", lambda: _ping(store, config)),
        ("invocation store lifecycle", lambda: _store_cycle(store)),
        ("budget ledger", lambda: _budget(config)),
        ("retry matrix", lambda: _retry(config)),
        ("one terminal state", _terminal_state),
    ]
    results = []
    for name, check in checks:
        try:
            results.append(CheckResult(name, True, await check()))
        except (HarnessError, SelfCheckFailed) as exc:
            results.append(CheckResult(name, False, getattr(exc, "code", None) or str(exc)))
    return results


async def _ping(store: InvocationStorePort, config: AppConfig) -> str:
    if not await store.ping():
        raise SelfCheckFailed("no answer from the configured Redis")
    where = "in-process fakeredis" if config.redis.url.startswith("fakeredis://") else config.redis.url
    return f"{where}, key prefix {store.settings.key_prefix}"


async def _store_cycle(store: InvocationStorePort) -> str:
    run_id = f"selfcheck-{uuid.uuid4().hex[:12]}"
    started = SystemClock().now()
    created = await store.record_raw(run_id, "call_selfcheck", SELFCHECK_TOOL, {"q": "ping"}, {"pong": 1}, started)
    _expect(created.status is ToolCallStatus.PROJECTING, "new record is not PROJECTING")
    ready = await store.record_projection(run_id, "call_selfcheck", {"ok": True}, EvidenceStatus.EVIDENCE_FOUND)
    _expect(ready.status is ToolCallStatus.READY, "projected record is not READY")
    try:
        await store.record_raw(run_id, "call_selfcheck", SELFCHECK_TOOL, {}, {}, started)
        raise SelfCheckFailed("a duplicate tool_call_id was accepted")
    except DuplicateToolCallId:
        pass
    record = await store.get(run_id, "call_selfcheck", include_raw=True)
    _expect(record.raw_response == {"pong": 1}, "raw response did not round-trip")
    ttl = format_duration(store.settings.ttl)
    return f"PROJECTING -> READY, duplicate refused, raw kept; ttl {ttl}, caps " + ", ".join(
        format_bytes(cap)
        for cap in (
            store.settings.max_record_bytes,
            store.settings.max_agent_result_bytes,
            store.settings.max_run_bytes,
        )
    )


async def _budget(config: AppConfig) -> str:
    limits = BudgetLimits.from_settings(config.harness.agent)
    ledger = BudgetLedger(limits, SystemClock())
    calls = 0
    try:
        while True:
            ledger.charge_model_call()
            calls += 1
    except BudgetExhausted as exhausted:
        _expect(exhausted.reason == "MODEL_CALLS" and calls == limits.max_model_calls, "model call limit not held")
    reserve = format_duration(config.harness.agent.final_call_reserve)
    return (
        f"model calls stop at {calls} (MODEL_CALLS); tool calls {limits.max_tool_calls}, "
        f"tokens {limits.max_total_tokens}; final-call reserve {reserve}"
    )


async def _retry(config: AppConfig) -> str:
    policies = HarnessRetryPolicies.from_settings(config.harness.retry)
    names = ("intent_router", "diagnosis_agent", "tool_call", "semantic_guard", "evidence_repair")
    return ", ".join(f"{name} {getattr(policies, name).max_attempts}" for name in names)


async def _terminal_state() -> str:
    lifecycle = RunLifecycle()
    lifecycle.finish(RunStatus.SUCCESS)
    try:
        lifecycle.finish(RunStatus.FAILED)
    except InvalidTransition:
        return "SUCCESS, then a second transition refused"
    raise SelfCheckFailed("a second terminal transition was accepted")
