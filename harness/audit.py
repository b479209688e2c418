"""What the Harness records about each run, as it happens (durable audit: metadata, never raw responses).

``AuditSink`` is the port: one write, ``record``, for every ``AuditRecord``; ``MemoryAudit`` keeps everything
in this process (unit tests, single-process use); the SQL store in ``stores/audit/store.py`` is the durable
one. A session's ``previous_turn`` and the router's ``last_intent``/``last_user_query`` are read back from the
same records (§4.6).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from harness.messages import PreviousTurn


@dataclass(frozen=True)
class RunStarted:
    run_id: str
    session_id: str
    principal: str
    query: str
    started_at: datetime
    trace_id: str | None = None
    """The run's trace (:mod:`harness.tracing`), so a trace found in a tracing backend leads to the audit and back."""


@dataclass(frozen=True)
class ModelStep:
    run_id: str
    session_id: str
    step_index: int
    role: str
    duration_ms: int
    input_tokens: int
    output_tokens: int
    has_tool_call: bool
    outcome: str
    """``OK``, or the failure kind/code that ended the attempt, or the kind of a reply the Harness refused
    (``INVALID_OUTPUT``: the router's or the knowledge answer's output did not match its schema)."""
    attempt: int
    """The attempt number within its operation: the retry executor's number for the router and the
    SemanticGuard, 1 for a call that is never retried (an agent turn, a repair, a knowledge or system answer)."""


@dataclass(frozen=True)
class ToolInvocation:
    run_id: str
    session_id: str
    tool_call_id: str
    tool_name: str
    input_params: dict[str, Any]
    """The validated arguments (or a bounded excerpt of unparsed ones); the durable store redacts and caps them."""
    output_preview: str
    """A bounded preview of the agent_result (never the raw response)."""
    output_length: int
    """Characters of the raw response as stored in the invocation store (0 when there was none)."""
    evidence_status: str
    is_truncated: bool
    duration_ms: int
    success: bool
    error_code: str | None
    error_message: str | None
    """The safe message the agent saw, never exception text."""
    step_index: int | None = None
    """The ``step_index`` of the model step whose reply asked for this call; None for a call the Harness made
    itself (a KNOWLEDGE_QUERY's lookup). The durable store links it to that step's ``agent_step.id``."""


@dataclass(frozen=True)
class GuardCheck:
    """One decision of a guard on the run's draft: each EvidenceGuard check (the first, then one per repair)
    and the SemanticGuard's review. Codes and Harness-written messages only, never the draft or evidence."""

    run_id: str
    session_id: str
    check_index: int
    """1, 2, … in the order the checks ran within the run."""
    guard: str
    """``evidence`` or ``semantic``."""
    verdict: str
    """evidence: ``PASS`` | ``FAIL``; semantic: ``SUPPORTED`` | ``UNSUPPORTED`` | ``UNAVAILABLE``."""
    step_index: int | None
    """The step that produced what was judged (the draft's agent or repair step), or the guard step whose reply
    gave the verdict; None when no model step is involved (a guard input refused before the call)."""
    failures: tuple[tuple[str, str], ...] = ()
    """(code, message) of each failure: the EvidenceGuard's rule failures, the SemanticGuard's reason for
    UNSUPPORTED or the failure kind that left it UNAVAILABLE."""


@dataclass(frozen=True)
class RunFinished:
    run_id: str
    session_id: str
    intent: str | None
    status: str
    """SUCCESS | FALLBACK | FAILED | CANCELLED (also the release outcome)."""
    fallback_type: str | None
    fallback_reason: str | None
    published_result: dict[str, Any] | None
    model_calls: int | None
    """None (with the token and tool counts) when the writer cannot know them (a gateway recording a run its
    lost supervisor never finished): the durable store counts them from the run's rows."""
    input_tokens: int | None
    output_tokens: int | None
    tool_calls: int | None
    duration_ms: int
    finished_at: datetime
    guard_verdict: str | None = None
    guard_reason: str | None = None
    """Audit only; never shown to users."""
    released_content: dict[str, Any] | None = None
    """The data of the run's ``content`` event exactly as it was sent (``{"content_type", "payload"}``: the report,
    fallback, knowledge or system answer the user saw, already redacted and bounded by the release); None when the
    run sent no content (a failure, a cancellation)."""
    cited_tool_calls: list[dict[str, str]] | None = None
    """For a released DIAGNOSIS_REPORT, ``[{"ref": "R1", "tool_call_id": "call_…"}, …]``: the tool call behind each
    of its references, in order; None otherwise."""


AuditRecord = RunStarted | ModelStep | ToolInvocation | GuardCheck | RunFinished
"""What a run records as it happens: its start, each model attempt, tool call and guard decision, its finish."""


class AuditSink(Protocol):
    async def record(self, record: AuditRecord) -> None:
        """Keep ``record``, whatever its kind; a durable sink returns once it is committed."""

    async def last_turn(self, session_id: str) -> tuple[str | None, str | None]:
        """(last_intent, last_user_query) of the session's latest finished run."""

    async def previous_turn(self, session_id: str) -> PreviousTurn | None:
        """From the latest DIAGNOSIS run of the session released SUCCESS with a published result, else None."""

    async def session_owner(self, session_id: str) -> str | None:
        """The principal the session belongs to, None if the session is unknown."""

    async def claim_session(self, session_id: str, principal: str) -> bool:
        """True if the session is new (now ``principal``'s) or already ``principal``'s; False if another
        principal owns it. Atomic: of concurrent first claims by different principals exactly one wins."""

    async def ping(self) -> bool:
        """Whether the store answers; never raises."""


@dataclass
class MemoryAudit:
    started: list[RunStarted] = field(default_factory=list)
    steps: list[ModelStep] = field(default_factory=list)
    tools: list[ToolInvocation] = field(default_factory=list)
    checks: list[GuardCheck] = field(default_factory=list)
    finished: list[RunFinished] = field(default_factory=list)
    owners: dict[str, str] = field(default_factory=dict)
    """session_id -> principal, set by the first claim or the first run of the session."""
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)

    async def record(self, record: AuditRecord) -> None:
        match record:
            case RunStarted():
                self.owners.setdefault(record.session_id, record.principal)
                self.started.append(record)
            case ModelStep():
                self.steps.append(record)
            case ToolInvocation():
                self.tools.append(record)
            case GuardCheck():
                self.checks.append(record)
            case RunFinished():
                self.finished.append(record)

    async def last_turn(self, session_id: str) -> tuple[str | None, str | None]:
        queries = {record.run_id: record.query for record in self.started}
        for record in reversed(self.finished):
            if record.session_id == session_id:
                return record.intent, queries.get(record.run_id)
        return None, None

    async def previous_turn(self, session_id: str) -> PreviousTurn | None:
        for record in reversed(self.finished):
            if record.session_id != session_id or record.intent != "DIAGNOSIS":
                continue
            if record.status == "SUCCESS" and record.published_result:
                return PreviousTurn.model_validate(record.published_result)
            return None
        return None

    async def session_owner(self, session_id: str) -> str | None:
        return self.owners.get(session_id)

    async def claim_session(self, session_id: str, principal: str) -> bool:
        # No await between the read and the write: atomic within the event loop.
        return self.owners.setdefault(session_id, principal) == principal

    async def ping(self) -> bool:
        return True
