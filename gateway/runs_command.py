"""``superbiz runs list`` and ``superbiz runs show``: the audit store read back for an on-call engineer.

Both read the configured ``audit.url`` (the same database the gateway writes) and nothing else: no Ray, no
Redis, no model. Exit codes: 0 found, 1 not found or the store unreachable, 2 a bad argument or configuration.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from config.loader import ConfigError, load_config
from config.units import parse_duration
from harness.audit_store import SqlAuditStore

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


def _open_store(args: argparse.Namespace) -> SqlAuditStore | None:
    try:
        config = load_config(args.config, os.environ)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return None
    return SqlAuditStore(config.audit)


def _unreachable(store: SqlAuditStore, exc: BaseException) -> int:
    original = getattr(exc, "orig", None) or exc
    print(f"cannot read the audit database at {store.url}: {type(original).__name__}", file=sys.stderr)
    return EXIT_NOT_FOUND


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, default=str)


def runs_list(args: argparse.Namespace) -> int:
    from rich.console import Console

    from gateway.run_trail import runs_table

    store = _open_store(args)
    if store is None:
        return EXIT_INVALID
    try:
        runs = asyncio.run(store.runs(args.since, args.outcome, args.limit))
    except (SQLAlchemyError, OSError) as exc:
        return _unreachable(store, exc)
    finally:
        store.close()
    if args.json:
        print(_json(runs))
    else:
        Console(width=None if sys.stdout.isatty() else 200).print(runs_table(runs, args.since, args.outcome))
    return EXIT_OK


async def _trail(store: SqlAuditStore, wanted: str) -> tuple[str | None, list[str]]:
    """(the run id, []) when ``wanted`` is one run's id or the unique start of one; else (None, candidates)."""
    if await store.run(wanted) is not None:
        return wanted, []
    if len(wanted) < MIN_PREFIX_CHARS:
        return None, []
    candidates = await store.run_ids_starting_with(wanted)
    return (candidates[0], []) if len(candidates) == 1 else (None, candidates)


def runs_show(args: argparse.Namespace) -> int:
    from rich.console import Console

    from gateway.run_trail import RunTrail, trail_tree

    store = _open_store(args)
    if store is None:
        return EXIT_INVALID

    async def read() -> tuple[RunTrail | None, list[str]]:
        run_id, candidates = await _trail(store, args.run_id)
        if run_id is None:
            return None, candidates
        run, steps, tools, checks = await asyncio.gather(
            store.run(run_id), store.steps(run_id), store.tool_invocations(run_id), store.guard_checks(run_id)
        )
        assert run is not None
        return RunTrail(run, steps, tools, checks), []

    try:
        trail, candidates = asyncio.run(read())
    except (SQLAlchemyError, OSError) as exc:
        return _unreachable(store, exc)
    finally:
        store.close()
    if trail is None:
        more = f" ({len(candidates)} or more runs start with it; give more of the id)" if candidates else ""
        print(f"no run {args.run_id!r} in the audit database at {store.url}{more}", file=sys.stderr)
        return EXIT_NOT_FOUND
    if args.json:
        print(_json({"run": trail.run, "steps": trail.steps, "tool_calls": trail.tools, "guard_checks": trail.checks}))
    else:
        Console(width=None if sys.stdout.isatty() else 200).print(trail_tree(trail))
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
