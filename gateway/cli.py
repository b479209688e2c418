"""The ``superbiz`` command line.

Each command is one small function that adds its own subparser and sets its handler with
``set_defaults(handler=...)``; a new command (serve, ask, demo, db init, ...) is a new function appended
to ``COMMANDS``, without touching the others. Handlers take the parsed arguments and return the exit code.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path

from sqlalchemy.exc import SQLAlchemyError

from config.loader import CONFIG_ENV_VAR, ConfigError, dump_config, load_config, resolve_path
from gateway.eval_command import add_eval_command
from gateway.run_commands import add_run_commands
from gateway.runs_command import add_runs_command
from harness.audit_store import TABLES, AuditSchemaError, SqlAuditStore
from harness.redis_acl import acl_setuser_args
from harness.selfcheck import run_selfcheck
from tools.mysql.demo_db import mysql_script
from tools.mysql.sql_allowlist import SqlAllowlist
from tools.mysql.sql_validator import SqlRejected, validate_sql

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_INVALID_CONFIG = 2
DEFAULT_REDIS_USER = "superbiz-harness"

Handler = Callable[[argparse.Namespace], int]


def _config_option() -> argparse.ArgumentParser:
    """``--config`` accepted after any command too (``superbiz selfcheck --config x.yaml``)."""
    option = argparse.ArgumentParser(add_help=False)
    option.add_argument("--config", metavar="PATH", default=argparse.SUPPRESS, help="configuration file")
    return option


CONFIG_OPTION = _config_option()


def _config_path(args: argparse.Namespace) -> Path:
    """``PATH`` argument, else the global ``--config``, else ``SUPERBIZ_CONFIG``, else the bundled default."""
    return resolve_path(args.path or args.config, os.environ)


def config_check(args: argparse.Namespace) -> int:
    source = _config_path(args)
    try:
        load_config(source, os.environ)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return EXIT_INVALID_CONFIG
    print(f"OK {source}")
    return EXIT_OK


def config_show(args: argparse.Namespace) -> int:
    source = _config_path(args)
    try:
        config = load_config(source, os.environ)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return EXIT_INVALID_CONFIG
    print(f"# effective configuration from {source}")
    print(dump_config(config), end="")
    return EXIT_OK


def add_config_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("config", parents=[CONFIG_OPTION], help="validate or print the configuration")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    path_help = f"configuration file (default: --config, then ${CONFIG_ENV_VAR}, then the bundled default)"

    check = actions.add_parser(
        "check", parents=[CONFIG_OPTION], help="validate the configuration; exit 2 if it is invalid"
    )
    check.add_argument("path", nargs="?", metavar="PATH", help=path_help)
    check.set_defaults(handler=config_check)

    show = actions.add_parser(
        "show", parents=[CONFIG_OPTION], help="print the effective configuration (secrets as ${ENV} references)"
    )
    show.add_argument("path", nargs="?", metavar="PATH", help=path_help)
    show.set_defaults(handler=config_show)


def redis_acl(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config, os.environ)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return EXIT_INVALID_CONFIG
    if config.redis.password is None:
        print("redis.password is not configured: set it to an ${ENV_VAR} reference first", file=sys.stderr)
        return EXIT_INVALID_CONFIG
    username = args.user or config.redis.username or DEFAULT_REDIS_USER
    arguments = acl_setuser_args(username, config.redis.password.reveal(), config.harness.evidence.key_prefix)
    print(" ".join(["ACL", "SETUSER", *arguments]))
    return EXIT_OK


def add_redis_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("redis", parents=[CONFIG_OPTION], help="Redis administration for the invocation store")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    acl = actions.add_parser(
        "acl",
        parents=[CONFIG_OPTION],
        help="print the ACL SETUSER command of the Harness-only user (pipe it into redis-cli as an admin)",
    )
    acl.add_argument("--user", help=f"ACL user name (default: redis.username, else {DEFAULT_REDIS_USER})")
    acl.set_defaults(handler=redis_acl)


def selfcheck(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config, os.environ)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return EXIT_INVALID_CONFIG
    print(f"superbiz self-check ({resolve_path(args.config, os.environ)})")
    results = asyncio.run(run_selfcheck(config))
    for result in results:
        print(f"  [{'ok' if result.ok else 'FAIL'}] {result.name}: {result.detail}")
    return EXIT_OK if all(result.ok for result in results) else EXIT_FAILED


def add_selfcheck_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "selfcheck", parents=[CONFIG_OPTION], help="check the configuration, Redis and the Harness core"
    )
    parser.set_defaults(handler=selfcheck)


def _sql_check_line(line: str, allowlist: SqlAllowlist, max_rows: int) -> dict[str, object]:
    try:
        request = json.loads(line)
    except ValueError:
        request = None
    if (
        not isinstance(request, dict)
        or not request.keys() <= {"sql", "params"}
        or not isinstance(request.get("sql"), str)
        or not isinstance(request.get("params", []), list)
    ):
        message = 'each line must be a JSON object {"sql": "<text>", "params": [...]} (params optional)'
        return {"allowed": False, "code": "INPUT_INVALID", "message": message, "sql": None}
    try:
        query = validate_sql(request["sql"], request.get("params", []), allowlist, max_rows)
    except SqlRejected as rejected:
        return {"allowed": False, "code": rejected.code, "message": rejected.message, "sql": None}
    message = f"allowed; reads {', '.join(query.tables)}; LIMIT {query.limit}"
    return {"allowed": True, "code": "OK", "message": message, "sql": query.sql}


def sql_check(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config, os.environ)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return EXIT_INVALID_CONFIG
    source = config.harness.mysql_tools.data_sources.get(args.data_source)
    if source is None:
        known = ", ".join(sorted(config.harness.mysql_tools.data_sources)) or "none configured"
        print(f"unknown data source {args.data_source!r} (known: {known})", file=sys.stderr)
        return EXIT_INVALID_CONFIG
    allowlist = SqlAllowlist.from_settings(source, config.harness.mysql)
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")  # undecodable bytes make an invalid line, not a crash
    for line in sys.stdin:
        if line.strip():
            result = _sql_check_line(line, allowlist, config.harness.mysql.max_rows)
            print(json.dumps(result, ensure_ascii=False), flush=True)
    return EXIT_OK


def add_sql_check_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "sql-check",
        parents=[CONFIG_OPTION],
        help="validate query_mysql SQL read as JSON lines from stdin; print one verdict per line",
        description='Reads {"sql": "...", "params": [...]} per line; writes {"allowed", "code", "message", "sql"}.',
    )
    parser.add_argument("--data-source", required=True, metavar="ID", help="logical data source id (its allowlist)")
    parser.set_defaults(handler=sql_check)


def demo_sql(args: argparse.Namespace) -> int:
    print(mysql_script(datetime.now(UTC)), end="")
    return EXIT_OK


def add_demo_sql_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "demo-sql",
        parents=[CONFIG_OPTION],
        help="print the SQL script that loads the demo order_db into MariaDB/MySQL (timestamps relative to now)",
    )
    parser.set_defaults(handler=demo_sql)


def db_init(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config, os.environ)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return EXIT_INVALID_CONFIG
    url = config.audit.url
    try:
        store = SqlAuditStore(config.audit)
    except OSError as exc:  # the SQLite file's folder cannot be created
        print(f"cannot prepare the audit database at {url}: {exc.strerror or type(exc).__name__}", file=sys.stderr)
        return EXIT_FAILED
    try:
        changes = store.init_schema()
    except AuditSchemaError as exc:
        print(f"audit database at {url}: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except (SQLAlchemyError, OSError) as exc:
        # Only the error's kind and code: driver messages may quote the host, the user or the statement.
        print(f"cannot reach the audit database at {url}: {_db_error(exc)}", file=sys.stderr)
        return EXIT_FAILED
    finally:
        store.close()
    print(f"audit schema ready at {url}")
    for table in TABLES:
        print(f"  {table}: {'created' if table in changes.created_tables else 'present'}")
    for index in changes.created_indexes:
        print(f"  index {index}: created")
    for column in changes.added_columns:
        print(f"  column {column}: added")
    return EXIT_OK


def _db_error(exc: BaseException) -> str:
    original = getattr(exc, "orig", None) or exc
    code = getattr(original, "args", (None,))[0] if getattr(original, "args", None) else None
    return f"{type(original).__name__} {code}" if isinstance(code, int) else type(original).__name__


def add_db_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("db", parents=[CONFIG_OPTION], help="administration of the audit database")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    init = actions.add_parser(
        "init",
        parents=[CONFIG_OPTION],
        help="create or upgrade the audit schema at audit.url (missing tables, indexes and the nullable columns "
        "a later version added; never alters an existing column)",
    )
    init.set_defaults(handler=db_init)


COMMANDS: tuple[Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None], ...] = (
    add_config_command,
    add_redis_command,
    add_selfcheck_command,
    add_sql_check_command,
    add_demo_sql_command,
    add_db_command,
    lambda commands: add_run_commands(commands, CONFIG_OPTION),
    lambda commands: add_eval_command(commands, CONFIG_OPTION),
    lambda commands: add_runs_command(commands, CONFIG_OPTION),
)
"""Each entry adds one top-level command to the parser."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="superbiz", description="SuperBiz SRE diagnosis agent.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {version('superbiz-harness')}")
    parser.add_argument(
        "--config",
        metavar="PATH",
        help=f"configuration file (default: ${CONFIG_ENV_VAR}, then the bundled default)",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for add_command in COMMANDS:
        add_command(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    handler: Handler = args.handler
    return handler(args)


if __name__ == "__main__":
    raise SystemExit(main())
