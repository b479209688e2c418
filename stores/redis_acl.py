"""Least privilege for the invocation store: a Redis ACL user that can only do what the store does."""

from __future__ import annotations

import hashlib

STORE_COMMANDS = (
    "evalsha",
    "script|load",
    "hmget",
    "hget",
    "hset",
    "exists",
    "get",
    "set",
    "incrby",
    "pexpire",
    "ping",
)
"""Commands the store sends, and those its Lua scripts call (scripts run under the caller's ACL)."""


def acl_setuser_args(username: str, password: str, key_prefix: str) -> list[str]:
    """Arguments of ``ACL SETUSER`` for a Harness-only user.

    The user starts from ``-@all`` (key patterns alone do not restrict KEYS, SCAN or FLUSHALL), may touch only
    ``{key_prefix}:*``, and has no pub/sub channels. The password is given as its SHA-256 (``#<hex>``), so
    the command can be printed and logged without the secret.
    """
    if not password:
        raise ValueError("the Harness user needs a password")
    digest = hashlib.sha256(password.encode()).hexdigest()
    commands = [f"+{command}" for command in STORE_COMMANDS]
    return [username, "reset", "on", f"#{digest}", "resetkeys", f"~{key_prefix}:*", "resetchannels", "-@all", *commands]
