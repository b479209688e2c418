"""``superbiz runs list`` and ``superbiz runs show``: the audit store read back for an on-call engineer.

Both read the configured ``audit.url`` (the same database the gateway writes) and nothing else: no Ray, no
Redis, no model. Exit codes: 0 found, 1 not found or the store unreachable, 2 a bad argument or configuration.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy.exc import SQLAlchemyError

from config.loader import ConfigError, load_config
from config.units import parse_duration
from contract.vocabulary import HarnessError
from stores.audit.engine import connect_url
from stores.audit.store import SqlAuditStore
from stores.audit.trail import released_content

if TYPE_CHECKING:
    from rich.console import Console

    from cli.trail_render import RunTrail

T = TypeVar("T")

EXIT_OK = 0
EXIT_NOT_FOUND = 1
EXIT_INVALID = 2
OUTCOMES = ("SUCCESS", "FALLBACK", "FAILED", "CANCELLED", "RUNNING")
MIN_PREFIX_CHARS = 6


def _since(text: str) -> datetime:
    """``1h``, ``30m``, ``2d`` back from now, or an ISO 8601 instant (UTC when it has no zone)."""
    try:
        return datetime.now(UTC) - timedelta(seconds=parse_duration(text))
    except ValueError:
        pass
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is neither a duration (1h, 30m, 2d) nor an ISO time") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number")
    return value


class _Unreadable(HarnessError):
    """Nothing to show, and why: a bad configuration, no audit database yet, no such run, an unreachable store."""

    code = "RUN_TRAIL_UNREADABLE"

    def __init__(self, message: str, exit_code: int = EXIT_NOT_FOUND) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def _read(args: argparse.Namespace, read: Callable[[SqlAuditStore], Coroutine[Any, Any, T]]) -> T:
    """``read`` on the configured audit store. Never creates a database or a folder; raises ``_Unreadable``."""
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        raise _Unreadable(str(exc), EXIT_INVALID) from None
    url = connect_url(config.audit)
    if url.get_backend_name() == "sqlite" and url.database and not Path(url.database).exists():
        raise _Unreadable(f"no audit database at {config.audit.url} (no run was recorded with this configuration)")
    store = SqlAuditStore(config.audit)
    try:
        missing = store.missing_tables()
        if missing:
            tables = ", ".join(missing)
            raise _Unreadable(f"the audit database at {store.url} lacks {tables}: `superbiz db init` creates them")
        return asyncio.run(read(store))
    except (SQLAlchemyError, OSError) as exc:
        original = getattr(exc, "orig", None) or exc  # only its kind: a driver's message may quote the host or user
        raise _Unreadable(f"cannot read the audit database at {store.url}: {type(original).__name__}") from None
    finally:
        store.close()


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, default=str)


def _console() -> Console:
    from rich.console import Console

    return Console(width=None if sys.stdout.isatty() else 200)


def runs_list(args: argparse.Namespace) -> int:
    from cli.trail_render import runs_table

    try:
        runs = _read(args, lambda store: store.runs(args.since, args.outcome, args.limit))
    except _Unreadable as failed:
        print(failed, file=sys.stderr)
        return failed.exit_code
    if args.json:
        print(_json(runs))
    else:
        _console().print(runs_table(runs, args.since, args.outcome))
    return EXIT_OK


async def _trail(store: SqlAuditStore, wanted: str) -> RunTrail:
    """The trail of the run whose id is ``wanted`` or starts with it (one run only, and 6+ characters)."""
    from cli.trail_render import RunTrail

    run_id: str | None = wanted if await store.run(wanted) is not None else None
    candidates = [] if run_id or len(wanted) < MIN_PREFIX_CHARS else await store.run_ids_starting_with(wanted)
    if run_id is None and len(candidates) == 1:
        run_id = candidates[0]
    if run_id is None:
        more = f" ({len(candidates)} or more runs start with it; give more of the id)" if candidates else ""
        raise _Unreadable(f"no run {wanted!r} in the audit database at {store.url}{more}")
    run, steps, tools, checks = await asyncio.gather(
        store.run(run_id), store.steps(run_id), store.tool_invocations(run_id), store.guard_checks(run_id)
    )
    assert run is not None
    return RunTrail(run, steps, tools, checks)


def runs_show(args: argparse.Namespace) -> int:
    from cli.trail_render import trail_tree

    try:
        trail = _read(args, lambda store: _trail(store, args.run_id))
    except _Unreadable as failed:
        print(failed, file=sys.stderr)
        return failed.exit_code
    if args.json:
        run = {**trail.run, "released_content": released_content(trail.run)}  # the stored JSON text, parsed
        print(_json({"run": run, "steps": trail.steps, "tool_calls": trail.tools, "guard_checks": trail.checks}))
    else:
        _console().print(trail_tree(trail))
    return EXIT_OK


def add_runs_command(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], config_option: argparse.ArgumentParser
) -> None:
    parser = commands.add_parser("runs", parents=[config_option], help="read runs back from the audit database")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", parents=[config_option], help="the runs started since a time, newest first")
    listing.add_argument(
        "--since", type=_since, default="1h", metavar="WHEN", help="1h, 30m, 2d or an ISO time (default: 1h)"
    )
    listing.add_argument("--outcome", choices=OUTCOMES, help="only runs that ended so (RUNNING: not ended)")
    listing.add_argument("--limit", type=_positive, default=100, metavar="N", help="at most N runs (default: 100)")
    listing.add_argument("--json", action="store_true", help="JSON instead of a table")
    listing.set_defaults(handler=runs_list)
    show = actions.add_parser(
        "show", parents=[config_option], help="one run's whole trail: steps, tool calls, guard decisions, release"
    )
    show.add_argument("run_id", metavar="RUN_ID", help=f"a run id, or its first {MIN_PREFIX_CHARS}+ characters")
    show.add_argument("--json", action="store_true", help="the rows as JSON instead of a tree")
    show.set_defaults(handler=runs_show)
