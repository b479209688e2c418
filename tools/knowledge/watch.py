"""Which files of a knowledge folder changed since the last look, from the operating system's events.

``watchdog`` runs an observer thread (inotify on Linux) that records the relative path of every created,
modified, deleted or moved file. A change to a directory (one moved, created or deleted) can stand for many
files, so it asks for a full rescan instead. ``take()`` hands over what was recorded and starts afresh.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer


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


class FolderWatch:
    """A running watch of one folder; ``alive`` is False when the observer could not start or has died."""

    def __init__(self, observer: object | None, recorder: _Recorder) -> None:
        self._observer = observer
        self._recorder = recorder

    @classmethod
    def start(cls, folder: Path) -> FolderWatch:
        recorder = _Recorder(folder.resolve())
        if not folder.is_dir():
            return cls(None, recorder)
        observer = Observer()
        observer.daemon = True
        try:
            observer.schedule(recorder, str(folder.resolve()), recursive=True)
            observer.start()
        except OSError:
            return cls(None, recorder)
        return cls(observer, recorder)

    @property
    def alive(self) -> bool:
        return self._observer is not None and self._observer.is_alive()

    def take(self) -> Changes:
        return self._recorder.take()

    def stop(self) -> None:
        if self._observer is not None:
            self._observer.stop()
            self._observer.join(timeout=2)
