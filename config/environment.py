"""The process environment, read and written here only.

Three things come from it: the ``${ENV}`` values of a configuration (``variables``, the loader's default), a
variable a command names (``variable``: the API key of ``superbiz ask``), and Ray's token authentication
(``RAY_AUTH_TOKEN``, ``RAY_AUTH_TOKEN_PATH``, ``RAY_AUTH_MODE``), which Ray itself reads from the environment, so a
driver joining a cluster sets them here before ``ray.init``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

RAY_AUTH_TOKEN = "RAY_AUTH_TOKEN"
RAY_AUTH_TOKEN_PATH = "RAY_AUTH_TOKEN_PATH"
RAY_AUTH_MODE = "RAY_AUTH_MODE"


def variables() -> Mapping[str, str]:
    """This process's environment variables (live: a later change shows)."""
    return os.environ


def variable(name: str) -> str | None:
    return os.environ.get(name)


def ray_token_source() -> str | None:
    """Where Ray finds its authentication token (``RAY_AUTH_TOKEN``, ``RAY_AUTH_TOKEN_PATH``, then
    ``~/.ray/auth_token``), or None."""
    if os.environ.get(RAY_AUTH_TOKEN):
        return RAY_AUTH_TOKEN
    if os.environ.get(RAY_AUTH_TOKEN_PATH) and Path(os.environ[RAY_AUTH_TOKEN_PATH]).is_file():
        return os.environ[RAY_AUTH_TOKEN_PATH]
    default = Path.home() / ".ray" / "auth_token"
    return str(default) if default.is_file() else None


def set_ray_auth_token(token: str) -> None:
    """The token Ray sends when this process joins a cluster."""
    os.environ[RAY_AUTH_TOKEN] = token


def ray_auth_mode() -> str | None:
    return os.environ.get(RAY_AUTH_MODE)


def default_ray_auth_mode(mode: str) -> bool:
    """Set Ray's authentication mode to ``mode`` unless one is set already; True when this call set it."""
    if RAY_AUTH_MODE in os.environ:
        return False
    os.environ[RAY_AUTH_MODE] = mode
    return True
