"""The words both sides of a tool call use: what a result shows, and the root of every error the project raises."""

from __future__ import annotations

from enum import StrEnum


class EvidenceStatus(StrEnum):
    """What a tool result shows (§5.2). Only a READY record is EVIDENCE_FOUND or NO_EVIDENCE."""

    EVIDENCE_FOUND = "EVIDENCE_FOUND"
    NO_EVIDENCE = "NO_EVIDENCE"
    ERROR = "ERROR"


class HarnessError(Exception):
    """The root error: every subclass carries a stable ``code``; user-visible text is chosen from the code, never
    from a message, and messages never hold tool payloads, prompts or credentials."""

    code = "HARNESS_ERROR"

    def __init__(self, message: str = "") -> None:
        super().__init__(message or self.code)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, {self.args[0]!r})"
