"""A run's deadline: one point in monotonic time, checked at every boundary and used as every await's timeout."""

from __future__ import annotations

from dataclasses import dataclass

from contract.clock import Clock
from harness.budget import DEADLINE
from harness.errors import BudgetExhausted


@dataclass(frozen=True)
class Deadline:
    expires_at: float
    clock: Clock

    @classmethod
    def after(cls, clock: Clock, seconds: float) -> Deadline:
        return cls(clock.monotonic() + seconds, clock)

    def remaining_s(self) -> float:
        return max(0.0, self.expires_at - self.clock.monotonic())

    @property
    def expired(self) -> bool:
        return self.clock.monotonic() >= self.expires_at

    def check(self) -> None:
        if self.expired:
            raise BudgetExhausted(DEADLINE)

    def within(self, seconds: float) -> Deadline:
        """The earlier of this deadline and ``seconds`` from now: a phase never outlives its run."""
        return Deadline(min(self.expires_at, self.clock.monotonic() + seconds), self.clock)
