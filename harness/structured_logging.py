"""Structured application logs: one JSON object per line, every line carrying session_id and run_id, and the
trace id of the span current where it was written (:mod:`harness.tracing`).

Logs never carry tool requests, raw responses, prompts or secrets: call sites log codes and counts only, and
this formatter drops exception *messages* (which can quote data) and keeps the exception type and the stack
frames (file, line, function). The run's ids come from a context variable bound once per run (and per HTTP
request), so asyncio tasks started inside inherit them.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sys
import traceback
from collections.abc import Iterator
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any, TextIO

from opentelemetry.trace import format_trace_id, get_current_span

_IDS: ContextVar[tuple[str | None, str | None]] = ContextVar("superbiz_log_ids", default=(None, None))
SAFE_EXTRAS = ("role", "tool", "code", "intent", "outcome", "status", "principal", "duration_ms", "path", "method")
"""Record attributes copied into the line; anything else passed as ``extra`` is ignored."""


@contextlib.contextmanager
def bound(session_id: str | None = None, run_id: str | None = None) -> Iterator[None]:
    """Within the block (and tasks started in it) every log line carries these ids."""
    current_session, current_run = _IDS.get()
    token = _IDS.set((session_id or current_session, run_id or current_run))
    try:
        yield
    finally:
        _IDS.reset(token)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        session_id, run_id = _IDS.get()
        line: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "session_id": getattr(record, "session_id", None) or session_id,
            "run_id": getattr(record, "run_id", None) or run_id,
        }
        span_context = get_current_span().get_span_context()
        if span_context.is_valid:
            line["trace_id"] = format_trace_id(span_context.trace_id)
        for name in SAFE_EXTRAS:
            if hasattr(record, name):
                line[name] = getattr(record, name)
        if record.exc_info and record.exc_info[0] is not None:
            kind, _, trace = record.exc_info
            line["exception"] = kind.__name__
            line["stack"] = [f"{frame.filename}:{frame.lineno}:{frame.name}" for frame in traceback.extract_tb(trace)]
        return json.dumps(line, ensure_ascii=False)


def configure_logging(level: str = "INFO", stream: TextIO | None = None) -> None:
    """Route the root logger (and this package's loggers) to JSON lines on ``stream`` (stderr)."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    for existing in list(root.handlers):
        if isinstance(existing.formatter, JsonFormatter):
            root.removeHandler(existing)
    root.addHandler(handler)
    root.setLevel(level)
    for noisy in ("aiohttp", "httpx", "httpcore", "openai", "sqlglot", "urllib3"):
        logging.getLogger(noisy).setLevel(logging.WARNING if noisy != "sqlglot" else logging.ERROR)
