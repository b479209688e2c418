"""``superbiz sql-check``: the SQL validator audited from outside, JSON lines in (``{"sql", "params"}``) and one
verdict per line out, against a data source's allowlist."""

from __future__ import annotations

import argparse
import io
import json
import sys

from cli.options import CONFIG_OPTION, configured
from tools.mysql.sql_allowlist import SqlAllowlist
from tools.mysql.sql_validator import SqlRejected, validate_sql

EXIT_OK = 0
EXIT_INVALID_CONFIG = 2


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
    config = configured(args)
    if config is None:
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
