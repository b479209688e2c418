"""Every message that crosses an actor boundary, in one module: read it and you know the protocol.

=========================================  ==================================================================
from → to                                  messages
=========================================  ==================================================================
gateway → RunSupervisor                    :class:`StartRun`
RunSupervisor → gateway (``poll``)         :class:`RunEvent`
RunSupervisor → DiagnosisAgent             :class:`AgentTask` (with the session's :class:`PreviousTurn`)
DiagnosisAgent → RunSupervisor             :class:`ModelRequest` (``model_call``, ``turn``)
RunSupervisor → DiagnosisAgent             :class:`ModelReply`, :class:`Turn`
RunSupervisor → SemanticGuard replica      :class:`GuardRequest`
SemanticGuard replica → RunSupervisor      :class:`GuardAttempt` (a :class:`GuardVerdict` or a failure kind)
=========================================  ==================================================================

All are small frozen pydantic models. The only rules kept here are what makes a message valid (a guard request never
carries a tool_call_id or a raw response) and the guard request's one serialisation.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from harness.language import Language, language_of

Role = Literal["router", "agent", "repair", "guard", "knowledge", "system_chat"]
"""Who is calling the model: budgets and token accounting are kept per role."""

EventName = Literal["metadata", "status", "content", "failure", "done"]

FORBIDDEN_KEYS = frozenset({"tool_call_id", "tool_call_ids", "raw_response"})
"""Keys a guard request may hold nowhere (:class:`GuardRequest`)."""
MAX_REASON_CHARS = 1000


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class StartRun(Frozen):
    """The gateway's request to start a run. ``previous_turn`` and the router's context come from the audit
    store when the supervisor starts the run; a caller never supplies them."""

    session_id: str = Field(min_length=1, max_length=64)
    query: str = Field(min_length=1)
    """Bounded where it enters: the gateway's request model (``gateway.max-query-chars``)."""
    principal: str = Field(default="anonymous", max_length=128)
    run_id: str | None = None
    traceparent: str | None = Field(default=None, max_length=55)
    """The W3C ``traceparent`` of the gateway's request span: the run's spans are its children
    (:mod:`harness.tracing`)."""


class RunEvent(Frozen):
    """One event of a run's stream (:mod:`harness.events` builds them and fixes their order)."""

    event: EventName
    data: dict[str, Any]


# -- the model boundary (OpenAI chat format) ------------------------------------------------------------------


class ToolCall(Frozen):
    id: str
    name: str
    arguments: str
    """The arguments exactly as the model wrote them: a JSON text, parsed and validated by the Harness."""


class ChatMessage(Frozen):
    role: Literal["system", "user", "assistant", "tool"]
    content: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None

    def openai(self) -> dict[str, Any]:
        message: dict[str, Any] = {"role": self.role, "content": self.content}
        if self.tool_calls:
            message["tool_calls"] = [
                {"id": call.id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}
                for call in self.tool_calls
            ]
        if self.tool_call_id is not None:
            message["tool_call_id"] = self.tool_call_id
        return message


class Usage(Frozen):
    input_tokens: int = Field(default=0, ge=0)
    output_tokens: int = Field(default=0, ge=0)


class ModelReply(Frozen):
    content: str | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    usage: Usage = Usage()
    model: str = ""

    def message(self) -> ChatMessage:
        return ChatMessage(role="assistant", content=self.content, tool_calls=self.tool_calls)


class ModelRequest(Frozen):
    """One model call. ``tools`` are OpenAI tool definitions; none means a tool-less call."""

    role: Role
    messages: tuple[ChatMessage, ...]
    tools: tuple[dict[str, Any], ...] = ()
    tool_choice: Literal["auto", "none"] | None = None
    json_output: bool = False
    """Ask for a JSON object reply (``response_format``), for structured outputs without tools."""


# -- the Diagnosis agent ----------------------------------------------------------------------------------------


class PreviousTurn(Frozen):
    """The last safely published diagnosis of the session (§4.6), assembled by the Harness, never by a model."""

    user_query: str
    published_conclusion: str | None
    scope: str
    limitations: list[str] = []
    source_documents: list[dict[str, str]] = []


class AgentTask(Frozen):
    run_id: str
    query: str
    previous_turn: PreviousTurn | None = None
    tools: tuple[dict[str, Any], ...]
    """The OpenAI tool definitions the Harness offers this run."""


class Turn(Frozen):
    """One investigation turn as the Harness ran it: the model's reply and, when it asked for tools, the
    agent_result of each of its tool calls, in the same order."""

    reply: ModelReply
    results: tuple[dict[str, Any], ...] = ()
    context: tuple[ChatMessage, ...] = ()
    """What the Harness added to the request of this turn (the line of what is left of the budget; on a final
    turn the instruction to write the draft): the agent keeps it in its conversation, before the reply."""
    final: bool = False
    """The Harness offered no tool in this turn: the reply is the Draft, and no tool call of it was run."""


# -- the SemanticGuard ------------------------------------------------------------------------------------------


class GuardRequest(Frozen):
    """Everything the SemanticGuard may see; a tool_call_id or raw response anywhere in it is refused."""

    query: str = Field(min_length=1)
    draft: dict[str, Any]
    """The user-visible draft (``Draft.user_visible()``)."""
    verified_evidence: list[dict[str, Any]]
    """The snapshot (:func:`harness.snapshot.build_snapshot`), or its bounded view (:mod:`harness.guard_view`)."""
    language: Language
    """The language the guard writes its ``reason`` in: the question's (:func:`harness.language.language_of` of
    ``query`` unless given). The prompt names it; it is no part of the guard's input (:meth:`content`)."""

    @model_validator(mode="before")
    @classmethod
    def _the_question_s_language(cls, data: Any) -> Any:
        if isinstance(data, dict) and "language" not in data and isinstance(data.get("query"), str):
            return {**data, "language": language_of(data["query"])}
        return data

    @model_validator(mode="after")
    def _no_internal_keys(self) -> GuardRequest:
        if _has_forbidden_key(self.draft) or _has_forbidden_key(self.verified_evidence):
            raise ValueError("the guard input must not contain tool_call_ids or raw responses")
        return self

    def content(self) -> str:
        return guard_input_json(self.query, self.draft, self.verified_evidence)


class GuardVerdict(BaseModel):
    """The report-level verdict; ``reason`` is for the audit, never shown to the user."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True, str_strip_whitespace=True)

    verdict: Literal["SUPPORTED", "UNSUPPORTED"]
    reason: str = Field(min_length=1, max_length=MAX_REASON_CHARS)


class GuardAttempt(Frozen):
    """One SemanticGuard evaluation: a verdict, or the technical failure kind (TIMEOUT / TRANSPORT /
    INVALID_OUTPUT) that the Harness may retry once."""

    verdict: GuardVerdict | None
    failure: str | None
    usage: Usage
    replica: str

    def __init__(self, verdict: GuardVerdict | None, failure: str | None, usage: Usage, replica: str) -> None:
        """Positional, as every replica (and the evaluation's stand-ins) writes an attempt."""
        super().__init__(verdict=verdict, failure=failure, usage=usage, replica=replica)


def guard_input_json(query: str, draft: Mapping[str, Any], verified_evidence: list[dict[str, Any]]) -> str:
    """The SemanticGuard's user message: one JSON object, the only serialisation of the guard's input."""
    payload = {"query": query, "draft": draft, "verified_evidence": verified_evidence}
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))


def _has_forbidden_key(value: Any) -> bool:
    if isinstance(value, dict):
        return any(key in FORBIDDEN_KEYS or _has_forbidden_key(item) for key, item in value.items())
    if isinstance(value, list | tuple):
        return any(_has_forbidden_key(item) for item in value)
    return False
