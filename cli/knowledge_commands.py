"""``superbiz kb index [PATH]`` and ``superbiz kb search "…"``: the knowledge index built and tried from a shell.

``index`` brings the on-disk index of the configured folder (or ``PATH``) up to date, reading only the files
that changed, with a progress bar while it reads; it reports documents, sections, every skipped file with its
reason, and the index's size. ``search`` runs one query as ``lookup_knowledge`` does and prints the hits.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from cli.options import CONFIG_OPTION, configured
from tools.knowledge.index import KnowledgeIndex, KnowledgeUnavailable
from tools.knowledge.settings import KnowledgeToolSettings
from tools.knowledge.store import IndexUnusable
from tools.knowledge.sync import SyncReport
from tools.knowledge.tool import index_location, knowledge_folder

EXIT_OK = 0
EXIT_UNAVAILABLE = 1
EXIT_INVALID_CONFIG = 2
SEARCH_PREVIEW_CHARS = 160


def _open(args: argparse.Namespace) -> KnowledgeIndex | None:
    config = configured(args)
    if config is None:
        return None
    settings: KnowledgeToolSettings = config.tools.lookup_knowledge
    folder = Path(args.path).expanduser() if getattr(args, "path", None) else knowledge_folder(settings)
    location = index_location(settings, folder)
    return KnowledgeIndex(folder, location, watch=False, refresh_interval_s=float("inf"), defer_sync=True)


def _report(console: Console, index: KnowledgeIndex, report: SyncReport) -> None:
    totals = index.totals
    console.print(f"folder    {index.folder}")
    console.print(f"index     {index.store.path} ({index.store.size_bytes() / 1e6:.2f} MB)")
    console.print(f"documents {totals.documents}   sections {totals.sections}   skipped {len(totals.skipped)}")
    console.print(
        f"this run  read {len(report.parsed)}, restamped {len(report.touched)}, removed {len(report.removed)}, "
        f"unchanged {report.scanned - len(report.parsed) - len(report.touched) - len(report.removed)}"
    )
    for path, reason in totals.skipped:
        console.print(f"skipped   {path}: {reason}", markup=False)


def kb_index(args: argparse.Namespace) -> int:
    index = _open(args)
    if index is None:
        return EXIT_INVALID_CONFIG
    console = Console(stderr=False)
    columns = (TextColumn("indexing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    try:
        with Progress(*columns, console=console, transient=True, disable=not console.is_terminal) as progress:
            task = progress.add_task("indexing", total=None)
            report = index.refresh(lambda done, total: progress.update(task, completed=done, total=total))
        if index.totals.sections == 0:
            print(f"no readable document under {index.folder}", file=sys.stderr)
            return EXIT_UNAVAILABLE
        _report(console, index, report)
        return EXIT_OK
    except IndexUnusable as exc:
        print(f"{exc}; try again when it has finished", file=sys.stderr)
        return EXIT_UNAVAILABLE
    finally:
        index.close()


def kb_search(args: argparse.Namespace) -> int:
    index = _open(args)
    if index is None:
        return EXIT_INVALID_CONFIG
    try:
        try:
            index.refresh()
        except IndexUnusable as exc:
            print(f"{exc}; searching the index as it stands", file=sys.stderr)
        result = index.search(args.query, args.limit)
    except KnowledgeUnavailable as exc:
        print(exc, file=sys.stderr)
        return EXIT_UNAVAILABLE
    finally:
        index.close()
    if not result.hits:
        print("no section qualifies (the tool would answer NO_EVIDENCE)")
    for rank, hit in enumerate(result.hits, start=1):
        preview = " ".join(hit.chunk.text.split())[:SEARCH_PREVIEW_CHARS]
        print(f"{rank}. {hit.chunk.document_id}  score {hit.score:.2f}  coverage {hit.coverage:.0%}")
        print(f"   {hit.chunk.breadcrumb}")
        print(f"   {preview}")
    return EXIT_OK


def add_kb_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    kb = commands.add_parser("kb", help="build and query the knowledge base index")
    actions = kb.add_subparsers(dest="kb_command", metavar="ACTION", required=True)
    index = actions.add_parser(
        "index", parents=[CONFIG_OPTION], help="bring the on-disk index of the knowledge folder up to date"
    )
    index.add_argument("path", nargs="?", help="folder of documents (default: tools.lookup-knowledge.path)")
    index.set_defaults(handler=kb_index)
    search = actions.add_parser("search", parents=[CONFIG_OPTION], help="run one query against the index")
    search.add_argument("query", help="what to look up, as the agent would ask")
    search.add_argument("--path", help="folder of documents (default: tools.lookup-knowledge.path)")
    search.add_argument("--limit", type=int, default=5, help="hits to show (default: 5)")
    search.set_defaults(handler=kb_search)
