"""Bring the on-disk index up to date with a folder, reading only the files that changed.

A file is looked at again when its ``(mtime_ns, size)`` differs from what the index holds. It is then read and
hashed: the same SHA-256 only restamps it (a ``touch`` or a checkout costs no parse); another one replaces its
sections. Files that are gone are dropped. A file that cannot be read or parsed is kept as *skipped*, with the
reason, so the operator sees it named and it is not re-read until it changes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from tools.knowledge.formats import SUPPORTED_SUFFIXES, UnreadableDocument, parse_document
from tools.knowledge.store import Indexed, Store

Progress = Callable[[int, int], None]
"""Called with ``(files looked at, files to look at)`` while a sync reads changed files."""


@dataclass(frozen=True)
class FileState:
    mtime_ns: int
    size: int


@dataclass
class SyncReport:
    """What one sync did."""

    scanned: int = 0
    parsed: list[str] = field(default_factory=list)
    """Files read and (re)indexed: new or changed content."""
    touched: list[str] = field(default_factory=list)
    """Files whose stamp changed but whose content did not."""
    removed: list[str] = field(default_factory=list)


def scan(folder: Path) -> dict[str, FileState] | None:
    """Every supported, non-hidden file under ``folder`` by relative POSIX path; None if it cannot be listed."""
    try:
        if not folder.is_dir():
            return None
        files: dict[str, FileState] = {}
        for path in folder.rglob("*"):
            relative = path.relative_to(folder)
            if path.suffix.lower() not in SUPPORTED_SUFFIXES or any(part.startswith(".") for part in relative.parts):
                continue
            if path.is_file():
                stat = path.stat()
                files[relative.as_posix()] = FileState(stat.st_mtime_ns, stat.st_size)
    except OSError:
        return None
    return files


def stat_file(folder: Path, relative: str) -> FileState | None:
    """The stamp of one supported file, None when it is gone or not a file."""
    path = folder / relative
    if path.suffix.lower() not in SUPPORTED_SUFFIXES:
        return None
    try:
        stat = path.stat()
    except OSError:
        return None
    return FileState(stat.st_mtime_ns, stat.st_size) if path.is_file() else None


def read(folder: Path, relative: str, state: FileState, known_sha256: str | None) -> Indexed:
    """The file as the index takes it in; ``chunks`` is left empty when its content is ``known_sha256``."""
    try:
        data = (folder / relative).read_bytes()
    except OSError as exc:
        return Indexed(relative, state.mtime_ns, state.size, "", skipped=f"cannot be read: {exc.strerror}")
    digest = hashlib.sha256(data).hexdigest()
    stamp = Indexed(relative, state.mtime_ns, state.size, digest)
    if digest == known_sha256:
        return stamp
    try:
        chunks = parse_document(relative, data)
    except UnreadableDocument as exc:
        return Indexed(relative, state.mtime_ns, state.size, digest, skipped=str(exc))
    if not chunks:
        return Indexed(relative, state.mtime_ns, state.size, digest, skipped="no text")
    return Indexed(relative, state.mtime_ns, state.size, digest, chunks=tuple(chunks))


def sync(
    store: Store,
    folder: Path,
    files: dict[str, FileState],
    *,
    only: Iterable[str] | None = None,
    progress: Progress | None = None,
) -> SyncReport:
    """Make ``store`` hold ``files`` (the folder's current listing, or the part of it named by ``only``)."""
    known = store.files(None if only is None else list(only))
    paths = set(files) | set(known) if only is None else set(only)
    stamps = {path: (stored.mtime_ns, stored.size) for path, stored in known.items()}
    changed = [
        path for path in sorted(paths) if path in files and stamps.get(path) != (files[path].mtime_ns, files[path].size)
    ]
    removed = sorted(path for path in paths if path in known and path not in files)
    report = SyncReport(scanned=len(paths), removed=removed)
    indexed, touched = [], []
    for done, path in enumerate(changed, start=1):
        item = read(folder, path, files[path], known[path].sha256 if path in known else None)
        if item.chunks or item.skipped or path not in known:
            indexed.append(item)
            report.parsed.append(path)
        else:
            touched.append(item)
            report.touched.append(path)
        if progress is not None:
            progress(done, len(changed))
    if indexed or touched or removed:
        store.apply(indexed, touched, removed)
    return report
