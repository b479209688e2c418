"""The operator's set-up commands: ``superbiz db init`` (the audit schema), ``redis acl`` (the Harness-only Redis
user), ``selfcheck`` (the configuration, Redis and the Harness core) and ``demo-sql`` (the demo order_db)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from datetime import UTC, datetime

from sqlalchemy.exc import SQLAlchemyError

from cli.options import CONFIG_OPTION, configured
from config import environment
from config.app import AppConfig
from config.loader import resolve_path
from harness.selfcheck import CheckResult, run_selfcheck
from stores.audit.migrations import AuditSchemaError
from stores.audit.schema import TABLES
from stores.audit.store import SqlAuditStore
from stores.invocation_store import InvocationStore
from stores.redis_acl import acl_setuser_args
from stores.redis_client import connect_redis
from tools.mysql.demo_db import mysql_script

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_INVALID_CONFIG = 2
DEFAULT_REDIS_USER = "superbiz-harness"


def redis_acl(args: argparse.Namespace) -> int:
    config = configured(args)
    if config is None:
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
    config = configured(args)
    if config is None:
        return EXIT_INVALID_CONFIG
    print(f"superbiz self-check ({resolve_path(args.config, environment.variables())})")
    results = asyncio.run(_selfcheck(config))
    for result in results:
        print(f"  [{'ok' if result.ok else 'FAIL'}] {result.name}: {result.detail}")
    return EXIT_OK if all(result.ok for result in results) else EXIT_FAILED


async def _selfcheck(config: AppConfig) -> list[CheckResult]:
    client = connect_redis(config.redis)
    try:
        return await run_selfcheck(config, InvocationStore(client, config.harness.evidence))
    finally:
        await client.aclose()


def add_selfcheck_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "selfcheck", parents=[CONFIG_OPTION], help="check the configuration, Redis and the Harness core"
    )
    parser.set_defaults(handler=selfcheck)


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
    config = configured(args)
    if config is None:
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
