"""``RunContext``: everything one run carries, passed explicitly to every boundary (no thread-locals)."""

from __future__ import annotations

import functools
import uuid
from dataclasses import dataclass, field

from config.harness import HarnessSettings, RetrySettings
from contract.clock import Clock, SystemClock
from harness.budget import BudgetLedger, BudgetLimits
from harness.cancellation import CancellationToken
from harness.deadline import Deadline
from harness.ids import is_run_id
from harness.retry import AttemptLog, HarnessRetryExecutor, HarnessRetryPolicies
from harness.run_state import RunLifecycle


def new_run_id() -> str:
    return uuid.uuid4().hex


@dataclass(frozen=True)
class RunContext:
    """Immutable identity and limits of one run; the ledger, log and token inside record what happens."""

    session_id: str
    run_id: str
    deadline: Deadline
    cancellation: CancellationToken
    budget: BudgetLedger
    retry_policies: HarnessRetryPolicies
    clock: Clock
    attempts: AttemptLog = field(default_factory=AttemptLog)
    lifecycle: RunLifecycle = field(default_factory=RunLifecycle)

    @classmethod
    def start(
        cls,
        settings: HarnessSettings,
        session_id: str,
        run_id: str | None = None,
        clock: Clock | None = None,
    ) -> RunContext:
        clock = clock or SystemClock()
        run_id = new_run_id() if run_id is None else run_id
        if not is_run_id(run_id):
            raise ValueError("run_id must be 1-64 characters of [A-Za-z0-9_-]")
        return cls(
            session_id=session_id,
            run_id=run_id,
            deadline=Deadline.after(clock, settings.run.deadline),
            cancellation=CancellationToken(),
            budget=BudgetLedger(BudgetLimits.from_settings(settings.agent), clock),
            retry_policies=_retry_policies(settings.retry),
            clock=clock,
        )

    def retry_executor(self) -> HarnessRetryExecutor:
        return HarnessRetryExecutor(self.attempts, self.clock, self.cancellation, self.deadline)


@functools.lru_cache(maxsize=16)
def _retry_policies(settings: RetrySettings) -> HarnessRetryPolicies:
    """The policies of a configuration, built once (a run starts with them)."""
    return HarnessRetryPolicies.from_settings(settings)
