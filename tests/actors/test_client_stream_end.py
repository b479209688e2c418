"""How ``HarnessClient.chat`` ends a stream whose supervisor is lost (issue 19), without Ray: a fake supervisor
and a hand-fed event pump stand in for the actor and its long poll."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from ray.exceptions import RayError

from actors.runtime import EventPump, HarnessClient
from harness import events
from harness.events import LostRun
from harness.messages import RunEvent


class _Method:
    def __init__(self, awaited: bool) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self._awaited = awaited

    def remote(self, *args: Any) -> Any:
        self.calls.append(args)
        if not self._awaited:
            return None
        future = asyncio.get_running_loop().create_future()
        future.set_result(None)
        return future


class _Supervisor:
    def __init__(self) -> None:
        self.open, self.close = _Method(awaited=True), _Method(awaited=False)


class _Pump(EventPump):
    """Hands the run the batches a test gives it, then the supervisor's loss."""

    def __init__(self, batches: list[list[RunEvent] | BaseException]) -> None:
        super().__init__(_Supervisor())  # type: ignore[arg-type]
        self._batches = batches

    def opened(self, run_id: str) -> None:
        for batch in self._batches:
            self._queues[run_id].put_nowait(batch)


async def _stream(*batches: list[RunEvent] | BaseException, lost: list[LostRun] | None = None) -> list[RunEvent]:
    client = HarnessClient.__new__(HarnessClient)
    supervisor = _Supervisor()
    client._supervisors = [supervisor]  # type: ignore[list-item]
    client.model_label = "fake"
    client._pumps = {(0, asyncio.get_running_loop()): _Pump(list(batches))}
    streamed: list[RunEvent] = []

    async def on_lost(run: LostRun) -> None:
        assert lost is not None
        assert streamed[-1].event != "done"  # recorded before its client hears the end
        lost.append(run)

    async for event in client.chat("s-1", "q", on_lost=on_lost):
        streamed.append(event)
    return streamed


@pytest.mark.parametrize(
    ("final", "outcome"),
    [
        (events.content("DIAGNOSIS_REPORT", {"conclusion": None}), "SUCCESS"),
        (events.content("FALLBACK", {"type": "SEMANTIC_UNAVAILABLE"}), "FALLBACK"),
        (events.failure("HARNESS_ERROR"), "FAILED"),
    ],
)
async def test_a_supervisor_lost_after_the_final_event_still_ends_the_stream_with_its_done(
    final: RunEvent, outcome: str
) -> None:
    lost: list[LostRun] = []
    streamed = await _stream([events.status("ROUTING"), final], RayError(), lost=lost)
    assert [event.event for event in streamed] == ["metadata", "status", final.event, "done"]
    assert streamed[-1].data == {"outcome": outcome}
    # Its supervisor never recorded its end: the caller is told what the client was sent, to record it.
    run_id = streamed[0].data["run_id"]
    content = final.data if final.event == "content" else None
    assert lost == [LostRun(run_id=run_id, session_id="s-1", outcome=outcome, content=content)]


async def test_a_supervisor_lost_before_the_final_event_ends_with_run_unavailable() -> None:
    lost: list[LostRun] = []
    streamed = await _stream([events.status("ROUTING")], RayError(), lost=lost)
    assert [event.event for event in streamed] == ["metadata", "status", "failure", "done"]
    assert (streamed[-2].data["code"], streamed[-1].data) == ("RUN_UNAVAILABLE", {"outcome": "FAILED"})
    assert [(run.outcome, run.content) for run in lost] == [("FAILED", None)]


async def test_a_run_that_ends_is_never_reported_lost() -> None:
    lost: list[LostRun] = []
    final = events.content("DIAGNOSIS_REPORT", {"conclusion": None})
    await _stream([events.status("ROUTING"), final, events.done("SUCCESS")], lost=lost)
    assert lost == []
