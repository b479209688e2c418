"""Which files of a knowledge folder changed since the last look, from the operating system's events.

``watchdog`` runs an observer thread (inotify on Linux) that records the relative path of every created,
modified, deleted or moved file. A change to a directory (one moved, created or deleted) can stand for many
files, so it asks for a full rescan instead. ``take()`` hands over what was recorded and starts afresh.
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver, ObservedWatch


@dataclass(frozen=True)
class Changes:
    paths: frozenset[str]
    everything: bool


class _Recorder(FileSystemEventHandler):
    def __init__(self, folder: Path) -> None:
        self._folder = folder
        self._lock = threading.Lock()
        self._paths: set[str] = set()
        self._everything = False

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in ("opened", "closed_no_write"):
            return
        with self._lock:
            if event.is_directory and event.event_type != "modified":
                self._everything = True
                return
            for raw in (event.src_path, getattr(event, "dest_path", "")):
                relative = self._relative(raw)
                if relative:
                    self._paths.add(relative)

    def _relative(self, raw: str | bytes) -> str:
        if not raw:
            return ""
        path = Path(raw.decode() if isinstance(raw, bytes) else raw)
        try:
            relative = path.relative_to(self._folder)
        except ValueError:
            return ""
        if any(part.startswith(".") for part in relative.parts):
            return ""
        return relative.as_posix()

    def take(self) -> Changes:
        with self._lock:
            changes = Changes(frozenset(self._paths), self._everything)
            self._paths, self._everything = set(), False
        return changes


class _SharedObserver:
    """One observer thread, and so one inotify instance, for the whole process.

    A process may open many indexes over time (each in-process diagnosis builds its tools), and Linux allows a
    user 128 inotify instances. Every folder watch is scheduled on this one observer, and a watch is unscheduled
    when the last index using it is closed or collected.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._observer: BaseObserver | None = None
        self._users: dict[ObservedWatch, int] = {}

    def subscribe(self, recorder: _Recorder, folder: Path) -> ObservedWatch | None:
        with self._lock:
            try:
                if self._observer is None or not self._observer.is_alive():
                    observer = Observer()
                    observer.daemon = True
                    observer.start()
                    self._observer, self._users = observer, {}
                watch = self._observer.schedule(recorder, str(folder), recursive=True)
            except OSError:
                return None
            self._users[watch] = self._users.get(watch, 0) + 1
            return watch

    def unsubscribe(self, recorder: _Recorder, watch: ObservedWatch) -> None:
        with self._lock:
            if self._observer is None or watch not in self._users:
                return
            self._observer.remove_handler_for_watch(recorder, watch)
            self._users[watch] -= 1
            if self._users[watch] == 0:
                del self._users[watch]
                self._observer.unschedule(watch)

    def watching(self, watch: ObservedWatch) -> bool:
        with self._lock:
            return self._observer is not None and self._observer.is_alive() and watch in self._users


_SHARED = _SharedObserver()


class FolderWatch:
    """A watch of one folder; ``alive`` is False when no observer could start (the index then polls)."""

    def __init__(self, recorder: _Recorder, watch: ObservedWatch | None) -> None:
        self._recorder = recorder
        self._watch = watch
        self._release = weakref.finalize(self, _SHARED.unsubscribe, recorder, watch) if watch is not None else None

    @classmethod
    def start(cls, folder: Path) -> FolderWatch:
        resolved = folder.resolve()
        recorder = _Recorder(resolved)
        if not resolved.is_dir():
            return cls(recorder, None)
        return cls(recorder, _SHARED.subscribe(recorder, resolved))

    @property
    def alive(self) -> bool:
        return self._watch is not None and _SHARED.watching(self._watch)

    def take(self) -> Changes:
        return self._recorder.take()

    def stop(self) -> None:
        if self._release is not None:
            self._release()
