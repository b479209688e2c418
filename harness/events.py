"""Run events (ISS-014 §4.7): ``metadata -> status* -> content|failure -> done``.

The only things a client ever receives from a run. Builders here fix every shape; ``EventSequence`` enforces
the order (metadata first and once, content or failure exactly once and never both, done last and once, and only
after the content or failure) and that done's outcome is the one the final event released (``DONE_OUTCOMES``).
Whoever ends a stream the run itself cannot end (its supervisor lost) asks the sequence for the closing events
(``EventSequence.closing``): a failure and done(FAILED) before the final event, after it the done it released.
It is then told what the client was sent (``LostRun``), to record the run's end in its supervisor's place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from harness.errors import InvalidTransition
from harness.messages import EventName, RunEvent

Outcome = Literal["SUCCESS", "FALLBACK", "FAILED"]
ContentType = Literal["SYSTEM_ANSWER", "KNOWLEDGE_ANSWER", "DIAGNOSIS_REPORT", "FALLBACK"]

STATUS_MESSAGES = {
    "QUEUED": "诊断任务排队中，即将开始",
    "ROUTING": "正在识别问题类型",
    "ROUTED": "已识别问题类型",
    "PLANNING": "已制定排查计划",
    "TOOL_RUNNING": "正在查询证据",
    "TOOL_FINISHED": "证据查询完成",
    "KNOWLEDGE_SEARCHING": "正在检索知识库",
    "ANSWERING": "正在组织回答",
    "EVIDENCE_VALIDATING": "正在校验证据引用",
    "EVIDENCE_REPAIRING": "证据引用未通过校验，正在修正报告结构",
    "SEMANTIC_VALIDATING": "正在进行安全校验",
}
"""Fixed status codes and their user-safe messages; nothing else is ever sent as status."""

SERVICE_STOPPING = "SERVICE_STOPPING"
"""The failure a gateway that shuts down ends its unfinished streams with; also the reason it stops their runs."""

FAILURE_MESSAGES = {
    "ROUTING_UNAVAILABLE": "当前暂时无法处理该请求，请稍后重试",
    "MODEL_UNAVAILABLE": "模型服务暂时不可用，请稍后重试",
    "KNOWLEDGE_UNAVAILABLE": "知识库暂时不可用，请稍后重试",
    "HARNESS_ERROR": "当前暂时无法处理该请求，请稍后重试",
    "RUN_UNAVAILABLE": "诊断服务暂时不可用，请稍后重试",
    SERVICE_STOPPING: "服务正在停止，本次诊断已取消，请稍后重试",
}


DONE_OUTCOMES: dict[str, tuple[Outcome, ...]] = {
    "DIAGNOSIS_REPORT": ("SUCCESS",),
    "KNOWLEDGE_ANSWER": ("SUCCESS",),
    "SYSTEM_ANSWER": ("SUCCESS", "FALLBACK"),  # FALLBACK: the fixed capability text replaced the model's answer
    "FALLBACK": ("FALLBACK",),
    "failure": ("FAILED",),
}
"""The outcomes done may carry after each final event (a content by its type, or a failure); the first is the one a
stream closed on the run's behalf carries."""


def metadata(session_id: str, run_id: str, **extra: Any) -> RunEvent:
    """The run's first event; ``extra`` values that are None (no trace id) are left out."""
    given = {name: value for name, value in extra.items() if value is not None}
    return RunEvent(event="metadata", data={"session_id": session_id, "run_id": run_id, **given})


def status(code: str, **details: Any) -> RunEvent:
    if code not in STATUS_MESSAGES:
        raise ValueError(f"unknown status code {code}")
    return RunEvent(event="status", data={"code": code, "message": STATUS_MESSAGES[code], **details})


def content(content_type: ContentType, payload: dict[str, Any]) -> RunEvent:
    return RunEvent(event="content", data={"content_type": content_type, "payload": payload})


def failure(code: str) -> RunEvent:
    return RunEvent(event="failure", data={"code": code, "message": FAILURE_MESSAGES[code]})


def done(outcome: Outcome) -> RunEvent:
    return RunEvent(event="done", data={"outcome": outcome})


@dataclass(frozen=True)
class LostRun:
    """A run whose supervisor was lost before it recorded its end, and how its stream was ended: the ``done``
    outcome its client got and the data of the ``content`` event it had been sent (None if none)."""

    run_id: str
    session_id: str
    outcome: Outcome
    content: dict[str, Any] | None


class EventSequence:
    """Checks each event against the fixed order; raises ``InvalidTransition`` on the first violation."""

    def __init__(self, announced: bool = False) -> None:
        """``announced``: metadata was already sent on this run's behalf (by the supervisor, before admission)."""
        self._seen: list[EventName] = ["metadata"] if announced else []
        self._final: str | None = None
        """What the final event released: a content's type, ``failure``, or None before it."""

    @property
    def finished(self) -> bool:
        return bool(self._seen) and self._seen[-1] == "done"

    @property
    def started(self) -> bool:
        return bool(self._seen)

    @property
    def final_sent(self) -> bool:
        return self._final is not None

    def accept(self, event: RunEvent) -> RunEvent:
        name, seen = event.event, self._seen
        if self.finished:
            raise InvalidTransition("no event may follow done")
        if (name == "metadata") != (not seen):
            raise InvalidTransition("metadata must be the first event, and only the first")
        if name == "status" and self.final_sent:
            raise InvalidTransition("status after the final content/failure")
        if name in ("content", "failure") and self.final_sent:
            raise InvalidTransition("at most one content or failure")
        if name == "done":
            if self._final is None:
                raise InvalidTransition("done only after the final content or failure")
            if event.data.get("outcome") not in DONE_OUTCOMES[self._final]:
                raise InvalidTransition(f"done {event.data.get('outcome')} does not match the final {self._final}")
        if name in ("content", "failure"):
            self._final = str(event.data.get("content_type")) if name == "content" else "failure"
        seen.append(name)
        return event

    def closing(self, code: str) -> list[RunEvent]:
        """The events that end this stream when the run cannot (its supervisor lost), accepted here: ``failure(code)``
        and done(FAILED) before the final event, the done that event released after it, none after done."""
        if self.finished:
            return []
        if self._final is None:
            return [self.accept(failure(code)), self.accept(done("FAILED"))]
        return [self.accept(done(DONE_OUTCOMES[self._final][0]))]
