"""``superbiz config check`` and ``superbiz config show``: validate or print the effective configuration."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cli.options import CONFIG_OPTION
from config import environment
from config.loader import CONFIG_ENV_VAR, ConfigError, dump_config, load_config, resolve_path

EXIT_OK = 0
EXIT_INVALID_CONFIG = 2


def _config_path(args: argparse.Namespace) -> Path:
    """``PATH`` argument, else the global ``--config``, else ``SUPERBIZ_CONFIG``, else the bundled default."""
    return resolve_path(args.path or args.config, environment.variables())


def config_check(args: argparse.Namespace) -> int:
    source = _config_path(args)
    try:
        load_config(source)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return EXIT_INVALID_CONFIG
    print(f"OK {source}")
    return EXIT_OK


def config_show(args: argparse.Namespace) -> int:
    source = _config_path(args)
    try:
        config = load_config(source)
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
