"""How a run ended (``Outcome``), and the endings the intent paths share: each sends the final events and says
what the finish record keeps."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harness import events
from harness.fallbacks import Fallback
from harness.language import Language
from harness.messages import GuardVerdict
from harness.reasons import Reason, ReasonFamily
from harness.release import fallback_payload
from harness.run.stream import RunStream
from harness.run_state import RunStatus


@dataclass
class Outcome:
    status: RunStatus
    fallback_type: str | None = None
    fallback_reason: str | None = None
    published_result: dict[str, Any] | None = None
    guard: GuardVerdict | None = None
    cited_tool_calls: list[dict[str, str]] | None = None
    """The tool call behind each reference of a released report (``harness.audit.RunFinished``)."""


def failed(stream: RunStream, code: str, reason: str) -> Outcome:
    """FAILED with the failure ``code`` the client is shown and the ``reason`` the audit keeps."""
    stream.end(events.failure(code), "FAILED")
    return Outcome(RunStatus.FAILED, fallback_reason=reason)


def model_unavailable(stream: RunStream, kind: str | None = None) -> Outcome:
    """A model call failed (``kind``: how, when known)."""
    return failed(stream, "MODEL_UNAVAILABLE", ReasonFamily.MODEL.of(kind or "UNAVAILABLE"))


def harness_error(stream: RunStream, reason: str = Reason.HARNESS_ERROR) -> Outcome:
    return failed(stream, "HARNESS_ERROR", reason)


def fallback(stream: RunStream, language: Language, chosen: Fallback, sources: list[dict[str, str]]) -> Outcome:
    """The fixed fallback in the question's language; ``sources`` are shown only when its type allows."""
    shown = sources if chosen.shows_sources else []
    payload = fallback_payload(chosen.type, shown, language, chosen.limitation_category)
    stream.end(events.content("FALLBACK", payload), "FALLBACK")
    return Outcome(RunStatus.FALLBACK, chosen.type.value, chosen.reason)
