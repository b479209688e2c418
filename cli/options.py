"""What every ``superbiz`` command shares: the ``--config`` option, accepted after any command too."""

from __future__ import annotations

import argparse


def _config_option() -> argparse.ArgumentParser:
    """``--config`` accepted after any command too (``superbiz selfcheck --config x.yaml``)."""
    option = argparse.ArgumentParser(add_help=False)
    option.add_argument("--config", metavar="PATH", default=argparse.SUPPRESS, help="configuration file")
    return option


CONFIG_OPTION = _config_option()
