"""The ``superbiz`` command line.

Each command is one small function that adds its own subparser and sets its handler with
``set_defaults(handler=...)``; a new command (serve, ask, demo, db init, ...) is a new function appended
to ``COMMANDS``, without touching the others. Handlers take the parsed arguments and return the exit code.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from importlib.metadata import version

from cli.admin_commands import add_db_command, add_demo_sql_command, add_redis_command, add_selfcheck_command
from cli.config_commands import add_config_command
from cli.eval_command import add_eval_command
from cli.knowledge_commands import add_kb_command
from cli.options import CONFIG_OPTION
from cli.runs import add_runs_command
from cli.service_commands import add_service_commands
from cli.sql_check import add_sql_check_command
from config.loader import CONFIG_ENV_VAR

Handler = Callable[[argparse.Namespace], int]


COMMANDS: tuple[Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None], ...] = (
    add_config_command,
    add_redis_command,
    add_selfcheck_command,
    add_sql_check_command,
    add_demo_sql_command,
    add_db_command,
    add_kb_command,
    lambda commands: add_service_commands(commands, CONFIG_OPTION),
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
