"""The one ``ChatModel`` boundary used by the router, the agent, the repair and the guard.

Messages follow the OpenAI chat format (roles system / user / assistant / tool; assistant tool calls with an
``id`` that becomes the ``tool_call_id``). A model call either returns a ``ModelReply`` or raises
``OperationFailed(kind)`` with a ``FailureKind``: TIMEOUT, TRANSPORT (connection, HTTP status) or
INVALID_OUTPUT (malformed tool-call JSON, no choices). The Harness decides whether to retry; a model never
retries by itself.
"""

from __future__ import annotations

from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

Role = Literal["router", "agent", "repair", "guard", "knowledge", "system_chat"]
"""Who is calling: budgets and token accounting are kept per role."""


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


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


class ChatModel(Protocol):
    @property
    def label(self) -> str:
        """How the model is named to users, e.g. ``gpt-4o-mini`` or the offline model's label."""

    async def complete(self, request: ModelRequest, timeout_s: float) -> ModelReply: ...

    async def aclose(self) -> None: ...
