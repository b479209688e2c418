"""The run event contract (ISS-014 §4.7): exactly ``metadata -> status* -> content|failure -> done``, and a done
whose outcome is the one the final event released (issue 19)."""

from __future__ import annotations

import pytest

from harness import events
from harness.errors import InvalidTransition
from harness.events import EventSequence

REPORT = events.content("DIAGNOSIS_REPORT", {"conclusion": None})
FALLBACK = events.content("FALLBACK", {"type": "SEMANTIC_UNAVAILABLE"})


def started(*more: events.RunEvent) -> EventSequence:
    sequence = EventSequence()
    for event in (events.metadata("s-1", "run-1"), events.status("ROUTING"), *more):
        sequence.accept(event)
    return sequence


@pytest.mark.parametrize("outcome", ["SUCCESS", "FALLBACK", "FAILED"])
def test_done_straight_after_metadata_or_a_status_is_refused(outcome: events.Outcome) -> None:
    bare = EventSequence()
    bare.accept(events.metadata("s-1", "run-1"))
    with pytest.raises(InvalidTransition):
        bare.accept(events.done(outcome))
    with pytest.raises(InvalidTransition):
        started().accept(events.done(outcome))


@pytest.mark.parametrize(
    ("final", "allowed"),
    [
        (REPORT, {"SUCCESS"}),
        (events.content("KNOWLEDGE_ANSWER", {"answer": "x"}), {"SUCCESS"}),
        (events.content("SYSTEM_ANSWER", {"answer": "x"}), {"SUCCESS", "FALLBACK"}),
        (FALLBACK, {"FALLBACK"}),
        (events.failure("HARNESS_ERROR"), {"FAILED"}),
    ],
)
def test_done_must_match_what_the_final_event_released(final: events.RunEvent, allowed: set[str]) -> None:
    for outcome in ("SUCCESS", "FALLBACK", "FAILED"):
        sequence = started(final)
        if outcome in allowed:
            assert sequence.accept(events.done(outcome)).data == {"outcome": outcome}  # type: ignore[arg-type]
        else:
            with pytest.raises(InvalidTransition):
                sequence.accept(events.done(outcome))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("final", "outcome"),
    [
        (REPORT, "SUCCESS"),
        (events.content("KNOWLEDGE_ANSWER", {"answer": "x"}), "SUCCESS"),
        (events.content("SYSTEM_ANSWER", {"answer": "x"}), "SUCCESS"),
        (FALLBACK, "FALLBACK"),
        (events.failure("MODEL_UNAVAILABLE"), "FAILED"),
    ],
)
def test_a_stream_lost_after_its_final_event_still_ends_with_the_done_it_released(
    final: events.RunEvent, outcome: str
) -> None:
    """The supervisor died between the final event and done: the stream is closed with the matching done."""
    sequence = started(final)
    assert sequence.closing("RUN_UNAVAILABLE") == [events.done(outcome)]  # type: ignore[arg-type]
    assert sequence.finished


def test_a_stream_lost_before_its_final_event_ends_with_failure_then_done_failed() -> None:
    sequence = started()
    assert sequence.closing("RUN_UNAVAILABLE") == [events.failure("RUN_UNAVAILABLE"), events.done("FAILED")]
    assert sequence.finished
    assert sequence.closing("RUN_UNAVAILABLE") == []  # nothing may follow done
