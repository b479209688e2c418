"""Typed retry policies and the one executor that applies them (§4.2 "重试策略装配").

Only a technical failure of the *same* operation is retried, only the kinds its policy lists, and never
more often than the fixed matrix allows. Cancellation, budget exhaustion, business results (UNSUPPORTED,
NO_EVIDENCE) and bugs are never retried. Every attempt is recorded.
"""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeVar

from config.harness import FIXED_MAX_ATTEMPTS, RetrySettings
from contract.clock import Clock
from harness.cancellation import CancellationToken
from harness.deadline import Deadline
from harness.errors import OperationFailed, RetriesExhausted

T = TypeVar("T")


class FailureKind(StrEnum):
    TIMEOUT = "TIMEOUT"
    TRANSPORT = "TRANSPORT"
    INVALID_OUTPUT = "INVALID_OUTPUT"
    """Unparseable output, a schema violation or a value outside the allowed enum."""


_TECHNICAL = frozenset(FailureKind)


@dataclass(frozen=True)
class RetryPolicy:
    max_attempts: int
    retryable_failures: frozenset[FailureKind]

    def allows_retry(self, attempt: int, kind: str) -> bool:
        return attempt < self.max_attempts and kind in self.retryable_failures


@dataclass(frozen=True)
class HarnessRetryPolicies:
    intent_router: RetryPolicy
    diagnosis_agent: RetryPolicy
    tool_call: RetryPolicy
    semantic_guard: RetryPolicy
    evidence_repair: RetryPolicy
    """Not a retry of the same operation: its ``max_attempts`` is the number of tool-less repair turns the
    Harness grants after a failed EvidenceGuard check (0 or 1)."""

    @classmethod
    def from_settings(cls, settings: RetrySettings) -> HarnessRetryPolicies:
        def policy(name: str, retryable: frozenset[FailureKind]) -> RetryPolicy:
            attempts = getattr(settings, name).max_attempts
            floor = 0 if name == "evidence_repair" else 1
            if not floor <= attempts <= FIXED_MAX_ATTEMPTS[name]:
                raise ValueError(f"{name}: max_attempts {attempts} is outside the fixed retry matrix")
            return RetryPolicy(attempts, retryable)

        return cls(
            intent_router=policy("intent_router", _TECHNICAL),
            diagnosis_agent=policy("diagnosis_agent", frozenset()),
            tool_call=policy("tool_call", frozenset()),
            semantic_guard=policy("semantic_guard", _TECHNICAL),
            evidence_repair=policy("evidence_repair", frozenset()),
        )


@dataclass(frozen=True)
class Attempt:
    operation: str
    number: int
    outcome: str
    """``OK`` or the :class:`FailureKind` / error code that ended the attempt."""
    duration_s: float


class AttemptLog:
    """Every attempt of every retried operation of one run, in order."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._attempts: list[Attempt] = []

    def add(self, attempt: Attempt) -> None:
        with self._lock:
            self._attempts.append(attempt)

    def entries(self, operation: str | None = None) -> list[Attempt]:
        with self._lock:
            return [a for a in self._attempts if operation is None or a.operation == operation]


class HarnessRetryExecutor:
    """Runs ``operation(attempt_number)`` under a policy; the only place a retry can happen."""

    def __init__(self, log: AttemptLog, clock: Clock, cancellation: CancellationToken, deadline: Deadline) -> None:
        self._log = log
        self._clock = clock
        self._cancellation = cancellation
        self._deadline = deadline

    async def run(self, name: str, policy: RetryPolicy, operation: Callable[[int], Awaitable[T]]) -> T:
        attempt = 0
        while True:
            attempt += 1
            self._cancellation.raise_if_cancelled()
            self._deadline.check()
            started = self._clock.monotonic()
            try:
                result = await operation(attempt)
            except OperationFailed as failure:
                self._log.add(Attempt(name, attempt, failure.kind, self._clock.monotonic() - started))
                if not policy.allows_retry(attempt, failure.kind):
                    raise RetriesExhausted(name, attempt, failure.kind) from failure
                continue
            except BaseException as error:
                outcome = getattr(error, "code", type(error).__name__)
                self._log.add(Attempt(name, attempt, outcome, self._clock.monotonic() - started))
                raise
            self._log.add(Attempt(name, attempt, "OK", self._clock.monotonic() - started))
            return result
