"""Fakes that ship with the package, for tests and benchmarks (never wired into a real configuration)."""

from __future__ import annotations

import threading
import time
from typing import Any

from contract.tool import Projection, ToolArguments, ToolSpec
from contract.vocabulary import EvidenceStatus


class SlowEchoArguments(ToolArguments):
    text: str
    delay_s: float | None = None


class EchoProjector:
    def project(self, tool_call_id: str, arguments: dict[str, Any], raw: dict[str, Any]) -> Projection:
        result = {"evidence_status": "EVIDENCE_FOUND", "tool_call_id": tool_call_id, "echo": raw.get("echo")}
        return Projection(result, EvidenceStatus.EVIDENCE_FOUND)


class SlowEchoTool:
    """Answers ``{"echo": text}`` after ``delay_s`` (or the call's own ``delay_s``); ``cancel`` makes a running
    call return at once."""

    def __init__(self, delay_s: float = 0.2) -> None:
        self.spec = ToolSpec("slow_echo", "Echo the text back after a delay (test tool).", SlowEchoArguments)
        self.projector = EchoProjector()
        self._delay_s = delay_s
        self._cancelled: dict[str, threading.Event] = {}
        self._lock = threading.Lock()

    def run(self, call_id: str, arguments: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            event = self._cancelled.setdefault(call_id, threading.Event())
        try:
            delay_s = arguments.get("delay_s")
            if event.wait(self._delay_s if delay_s is None else float(delay_s)):
                return {"error": {"code": "TOOL_CANCELLED", "message": "The call was cancelled."}}
            return {"echo": arguments.get("text"), "finished_at": time.time()}
        finally:
            with self._lock:
                self._cancelled.pop(call_id, None)

    def cancel(self, call_id: str) -> None:
        with self._lock:
            self._cancelled.setdefault(call_id, threading.Event()).set()


def slow_echo_tool(delay_s: float = 0.2) -> SlowEchoTool:
    return SlowEchoTool(delay_s)
