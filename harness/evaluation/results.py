"""One case's result: what the guard predicted, what the release gate decided, and which layer decided it.

The positive class is UNSUPPORTED: a draft that must not be released. A guard that failed (timeout, transport,
invalid output) predicts UNAVAILABLE, which is never a correct answer: it counts as wrong for accuracy and as a
missed positive for recall (the Harness would fall back, but the guard did not judge).
"""

from __future__ import annotations

from dataclasses import dataclass

from harness.evaluation.dataset import GuardCase
from harness.messages import GuardAttempt

SUPPORTED, UNSUPPORTED, UNAVAILABLE = "SUPPORTED", "UNSUPPORTED", "UNAVAILABLE"
EXPECTED = (SUPPORTED, UNSUPPORTED)
PREDICTED = (SUPPORTED, UNSUPPORTED, UNAVAILABLE)
POSITIVE = UNSUPPORTED
INPUT_TOO_LARGE = "GUARD_INPUT_TOO_LARGE"
GATE, GUARD = "EVIDENCE_GUARD", "SEMANTIC_GUARD"
"""The layer that decided a case: the deterministic gate when it refused the draft, else the SemanticGuard."""


@dataclass(frozen=True)
class CaseResult:
    case_id: str
    category: str
    expected: str
    predicted: str
    latency_s: float
    failure: str | None = None
    """TIMEOUT / TRANSPORT / INVALID_OUTPUT / GUARD_INPUT_TOO_LARGE / the exception's type, when UNAVAILABLE."""
    reason: str | None = None
    """The guard's own reason (audit text), when it answered."""
    replica: str | None = None
    gate: tuple[str, ...] = ()
    """The claim rules the deterministic gate found broken; any makes the release gate refuse the draft."""

    @property
    def layer(self) -> str:
        return GATE if self.gate else GUARD

    @property
    def released_as(self) -> str:
        """What the release gate decided: UNSUPPORTED when the deterministic gate refused, else the guard's verdict."""
        return UNSUPPORTED if self.gate else self.predicted

    @property
    def correct(self) -> bool:
        return self.released_as == self.expected


def result_of(case: GuardCase, attempt: GuardAttempt, latency_s: float, gate: tuple[str, ...] = ()) -> CaseResult:
    verdict = attempt.verdict
    if verdict is None:
        failure = attempt.failure or "UNKNOWN"
        return CaseResult(
            case.id, case.category, case.expected, UNAVAILABLE, latency_s, failure, None, attempt.replica, gate
        )
    predicted, reason = verdict.verdict, verdict.reason
    return CaseResult(case.id, case.category, case.expected, predicted, latency_s, None, reason, attempt.replica, gate)
