"""Where ``query_logs`` reads events from: the ``LogSource`` protocol and the bundled mock dataset.

The projector only sees the raw response the tool builds from ``LogEvent`` values, so a real backend (CLS,
Loki, Elasticsearch …) is another ``LogSource`` and nothing else changes.

``MockLogSource`` reads a JSONL file whose lines are::

    {"seconds_ago": 1530, "topic": "APPLICATION", "service": "order-service", "level": "ERROR", "message": "…"}

Times are relative to the source's own clock: an event is stamped ``anchor - seconds_ago``, where ``anchor`` is
``clock.now()`` at the first search. The anchor stays while searches keep coming and moves to the clock's now
only after the source was not searched for longer than a run lasts (``run_deadline_s``): the calls of one run all
see one clock, so the same event has the same timestamp in each of them, and a demo opened later still finds the
incident in "the last 30 minutes". Matching follows :mod:`tools.logs.matching`, applied to the *redacted* text, so
a secret value in a log line cannot be found by searching for it.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from pathlib import Path
from typing import Any, Protocol

from config.harness import RunSettings
from contract.clock import Clock, isoformat
from contract.secrets import redact
from contract.vocabulary import HarnessError
from tools.logs.matching import matches

BUNDLED_DATASET = Path(__file__).resolve().parent / "data" / "mock_logs.jsonl"
DEFAULT_RUN_DEADLINE_S = RunSettings().deadline
"""How long a run lasts unless configured (``harness.run.deadline``): the mock clock holds at least that long."""


class LogTopic(StrEnum):
    """The logical log topics an agent may search; each event belongs to exactly one."""

    APPLICATION = "APPLICATION"
    ACCESS = "ACCESS"
    SLOW_SQL = "SLOW_SQL"


@dataclass(frozen=True)
class LogEvent:
    """One log event as a source returns it: raw, unredacted, with an absolute UTC timestamp."""

    timestamp: datetime
    topic: LogTopic
    service: str
    level: str
    message: str

    def to_raw(self) -> dict[str, str]:
        return {
            "timestamp": isoformat(self.timestamp),
            "topic": self.topic.value,
            "service": self.service,
            "level": self.level,
            "message": self.message,
        }


class LogSourceUnavailable(HarnessError):
    """The source cannot answer. The message is for the audit record only, never for the agent."""

    code = "LOG_SOURCE_UNAVAILABLE"


class LogSource(Protocol):
    """A searchable log store. ``kind`` is what the agent is told the evidence comes from (``MOCK``, ``CLS`` …)."""

    kind: str

    def search(self, topic: LogTopic, terms: Sequence[str], start: datetime, end: datetime) -> list[LogEvent]:
        """Every event of ``topic`` in ``[start, end]`` matching ``terms``, oldest first.

        Raises ``LogSourceUnavailable`` when the store cannot be read.
        """
        ...


@dataclass(frozen=True)
class _MockRecord:
    seconds_ago: int
    topic: LogTopic
    service: str
    level: str
    message: str
    haystack: str


class MockLogSource:
    """The bundled (or a configured) JSONL dataset, loaded on first use and kept once it loaded cleanly; its events
    are stamped relative to an anchor that holds for the calls of a run (see the module docstring)."""

    kind = "MOCK"

    def __init__(self, clock: Clock, path: Path | None = None, run_deadline_s: float = DEFAULT_RUN_DEADLINE_S) -> None:
        self._clock = clock
        self._path = path or BUNDLED_DATASET
        self._run_deadline_s = run_deadline_s
        self._records: list[_MockRecord] | None = None
        self._anchor: datetime | None = None
        self._last_search_s = 0.0
        self._lock = threading.Lock()

    def search(self, topic: LogTopic, terms: Sequence[str], start: datetime, end: datetime) -> list[LogEvent]:
        records, anchor = self._load()
        found: list[LogEvent] = []
        for record in records:
            if record.topic is not topic:
                continue
            timestamp = anchor - timedelta(seconds=record.seconds_ago)
            if start <= timestamp <= end and matches(terms, record.haystack):
                found.append(LogEvent(timestamp, topic, record.service, record.level, record.message))
        found.sort(key=lambda event: event.timestamp)
        return found

    def _load(self) -> tuple[list[_MockRecord], datetime]:
        with self._lock:
            if self._records is None:
                self._records = _read_dataset(self._path)
            searched_s = self._clock.monotonic()
            # two searches further apart than a run lasts cannot be calls of one run: only then may the clock move
            if self._anchor is None or searched_s - self._last_search_s > self._run_deadline_s:
                self._anchor = self._clock.now()
            self._last_search_s = searched_s
            return self._records, self._anchor


def _read_dataset(path: Path) -> list[_MockRecord]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise LogSourceUnavailable(f"mock log dataset unreadable: {type(exc).__name__}") from exc
    records: list[_MockRecord] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            records.append(_record(json.loads(line)))
        except (ValueError, TypeError, KeyError) as exc:
            raise LogSourceUnavailable(f"mock log dataset line {number} is malformed: {type(exc).__name__}") from exc
    return records


def _record(data: Any) -> _MockRecord:
    if not isinstance(data, dict):
        raise TypeError("not an object")
    seconds_ago, service, level, message = data["seconds_ago"], data["service"], data["level"], data["message"]
    if not isinstance(seconds_ago, int) or isinstance(seconds_ago, bool) or seconds_ago < 0:
        raise ValueError("seconds_ago must be a non-negative integer")
    if not all(isinstance(value, str) and value for value in (service, level, message)):
        raise TypeError("service, level and message must be non-empty strings")
    searchable, _ = redact(f"{service} {message}")
    return _MockRecord(seconds_ago, LogTopic(data["topic"]), service, level, message, searchable.lower())
