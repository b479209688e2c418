"""Every case of a dataset through the guard, a bounded number in flight, one attempt each, timed."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence

from harness.evaluation.dataset import GuardCase
from harness.evaluation.results import INPUT_TOO_LARGE, UNAVAILABLE, CaseResult, result_of
from harness.gate import ClaimPolicy
from harness.messages import GuardAttempt, GuardRequest
from harness.snapshot import Kinds

Evaluate = Callable[[GuardRequest], Awaitable[GuardAttempt]]


async def evaluate_cases(
    cases: Sequence[GuardCase],
    evaluate: Evaluate,
    concurrency: int,
    *,
    max_input_bytes: int | None = None,
    on_result: Callable[[CaseResult], None] | None = None,
    policy: ClaimPolicy | None = None,
    kinds: Kinds | None = None,
) -> list[CaseResult]:
    """Every case through ``evaluate`` with at most ``concurrency`` in flight; results in dataset order.

    One attempt per case, no retry: this measures the guard, not the Harness's retry policy. A case with tool
    results gets the bounded view a run sends (:mod:`harness.guard_view`) within ``max_input_bytes``; one still
    larger (an old case, or a draft over the bound by itself) is not sent and is UNAVAILABLE. An exception from
    ``evaluate`` (a dead replica, a cancelled call) makes that case UNAVAILABLE; it never stops the run. With a
    ``policy``, each case also goes through the deterministic gate (``CaseResult.gate``). A case with tool
    results needs the run's evidence ``kinds``.
    """
    if concurrency < 1:
        raise ValueError("concurrency must be at least 1")
    semaphore = asyncio.Semaphore(concurrency)
    # Built up front: building them while calls are in flight would be counted in those calls' latency.
    requests = [case.request(kinds, max_input_bytes) for case in cases]
    gates = [case.gate_codes(policy, kinds) if policy is not None else () for case in cases]
    too_large = [
        max_input_bytes is not None and len(request.content().encode()) > max_input_bytes for request in requests
    ]

    async def one(index: int) -> CaseResult:
        case, request = cases[index], requests[index]
        if too_large[index]:
            result = CaseResult(
                case.id, case.category, case.expected, UNAVAILABLE, 0.0, INPUT_TOO_LARGE, gate=gates[index]
            )
        else:
            async with semaphore:
                started = time.perf_counter()
                try:
                    attempt = await evaluate(request)
                except Exception as exc:
                    elapsed = time.perf_counter() - started
                    failure = type(exc).__name__
                    result = CaseResult(
                        case.id, case.category, case.expected, UNAVAILABLE, elapsed, failure, gate=gates[index]
                    )
                else:
                    result = result_of(case, attempt, time.perf_counter() - started, gates[index])
        if on_result is not None:
            on_result(result)
        return result

    return list(await asyncio.gather(*(one(index) for index in range(len(cases)))))
