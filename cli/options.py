"""What every ``superbiz`` command shares: the ``--config`` option, accepted after any command too, and reading
the configuration it names."""

from __future__ import annotations

import argparse
import sys

from config.app import AppConfig
from config.loader import ConfigError, load_config


def _config_option() -> argparse.ArgumentParser:
    """``--config`` accepted after any command too (``superbiz selfcheck --config x.yaml``)."""
    option = argparse.ArgumentParser(add_help=False)
    option.add_argument("--config", metavar="PATH", default=argparse.SUPPRESS, help="configuration file")
    return option


CONFIG_OPTION = _config_option()


def configured(args: argparse.Namespace) -> AppConfig | None:
    """The configuration ``--config`` names (or the default one); None once its errors are printed to stderr."""
    try:
        return load_config(args.config)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return None
