"""The Agent-facing tool contract shared by the three evidence tools (ISS-014 §5, §6).

A tool is split in two, as the specification's processing order has it:

    validated arguments -> EvidenceTool.run (data source; returns the *raw* response, Harness-only)
                        -> ToolResultProjector.project (deterministic; returns the bounded agent_result)

Raw responses may hold anything the data source returned (full documents, log lines with secrets, rows with
hidden columns, internal error detail); they are stored in the canonical invocation store and never reach an
agent. Only the projection does, and it is built here by deterministic code.

A failure inside a tool is not an exception crossing the boundary: ``run`` returns ``failure_raw(...)`` with
a stable code and a *safe* message (what was wrong with the call and how to fix it), plus optional internal
detail for the audit record only. Projectors turn it into the ERROR envelope.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict

from contract.vocabulary import EvidenceStatus


class ToolArguments(BaseModel):
    """Base of each tool's argument model: unknown arguments are rejected, nothing is coerced silently."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


@dataclass(frozen=True)
class ToolSpec:
    """What the model sees of a tool: its name, its ACI description and its argument schema."""

    name: str
    description: str
    arguments: type[ToolArguments]

    def parameters_schema(self) -> dict[str, Any]:
        schema = self.arguments.model_json_schema()
        schema.pop("title", None)
        schema.pop("description", None)
        for prop in schema.get("properties", {}).values():
            prop.pop("title", None)
        return schema

    def openai_tool(self) -> dict[str, Any]:
        """The tool as an OpenAI ``tools`` entry (function calling)."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters_schema(),
            },
        }


@dataclass(frozen=True)
class Projection:
    agent_result: dict[str, Any]
    evidence_status: EvidenceStatus
    error_code: str | None = None


class ToolResultProjector(Protocol):
    """Raw response -> bounded agent_result. Deterministic, no LLM, never passes raw content through."""

    def project(self, tool_call_id: str, arguments: dict[str, Any], raw: dict[str, Any]) -> Projection: ...


class EvidenceTool(Protocol):
    """A read-only evidence tool. ``run`` blocks (the tool actor runs it in a thread); ``cancel`` may be
    called from another thread while ``run`` is in progress and must make it return promptly."""

    @property
    def spec(self) -> ToolSpec: ...

    @property
    def projector(self) -> ToolResultProjector: ...

    def run(self, call_id: str, arguments: dict[str, Any]) -> dict[str, Any]: ...

    def cancel(self, call_id: str) -> None: ...


def failure_raw(code: str, message: str, detail: str | None = None) -> dict[str, Any]:
    """The raw response of a failed call. ``message`` reaches the agent; ``detail`` stays in the audit record."""
    error: dict[str, Any] = {"code": code, "message": message}
    if detail is not None:
        error["detail"] = detail
    return {"error": error}


def failure_of(raw: dict[str, Any]) -> tuple[str, str] | None:
    """(code, safe message) when ``raw`` is a failure produced by ``failure_raw``."""
    error = raw.get("error")
    if isinstance(error, dict) and isinstance(error.get("code"), str) and isinstance(error.get("message"), str):
        return error["code"], error["message"]
    return None


def error_envelope(tool_call_id: str, code: str, message: str, **context: Any) -> dict[str, Any]:
    """The Agent-facing ERROR result: a stable code and a safe, recoverable message, nothing internal."""
    return {
        "evidence_status": EvidenceStatus.ERROR.value,
        "tool_call_id": tool_call_id,
        **context,
        "error": {"code": code, "message": message},
    }


def error_projection(tool_call_id: str, code: str, message: str, **context: Any) -> Projection:
    return Projection(error_envelope(tool_call_id, code, message, **context), EvidenceStatus.ERROR, code)


def clip(text: str, limit: int) -> tuple[str, bool]:
    """``text`` cut to ``limit`` characters, and whether it was cut (marked with an ellipsis)."""
    if len(text) <= limit:
        return text, False
    return text[: max(0, limit - 1)] + "…", True


# Stable error codes common to every tool (tool-specific ones live with the tool).
INVALID_ARGUMENTS = "INVALID_ARGUMENTS"
TOOL_BUSY = "TOOL_BUSY"
TOOL_TIMEOUT = "TOOL_TIMEOUT"
TOOL_UNAVAILABLE = "TOOL_UNAVAILABLE"
TOOL_CANCELLED = "TOOL_CANCELLED"
PROJECTION_FAILED = "PROJECTION_FAILED"
RAW_RESULT_TOO_LARGE = "RESULT_TOO_LARGE"

SAFE_MESSAGES = {
    TOOL_BUSY: "The tool is at its concurrency limit; try again shortly or continue with the evidence you have.",
    TOOL_TIMEOUT: "The tool did not answer in time; narrow the request (shorter time range, more specific query).",
    TOOL_UNAVAILABLE: "The tool's data source is unavailable right now; continue with other evidence.",
    TOOL_CANCELLED: "The call was cancelled.",
    PROJECTION_FAILED: "The tool's result could not be prepared safely; it is not available as evidence.",
    RAW_RESULT_TOO_LARGE: "The result was too large to keep as evidence; narrow the request.",
}
"""Fixed user-safe messages for failures that do not come from the tool's own validation."""
