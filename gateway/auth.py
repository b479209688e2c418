"""Who a request speaks for: with ``gateway.auth: api-keys`` the principal whose key its bearer token is (compared
in constant time), with ``off`` everyone is ``anonymous``."""

from __future__ import annotations

import hmac
from collections.abc import Mapping

from starlette.requests import Request

from config.env_refs import Secret
from gateway.errors import MISSING_KEY, UNKNOWN_KEY, RequestRejected

ANONYMOUS = "anonymous"


class ApiKeys:
    def __init__(self, required: bool, keys: Mapping[str, Secret]) -> None:
        self.required = required
        self._keys = {principal: secret.reveal().encode() for principal, secret in keys.items()}

    def principal_of(self, request: Request) -> str:
        """The caller's principal, or ``RequestRejected`` (401) when a key is required and none of ours is shown."""
        if not self.required:
            return ANONYMOUS
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token:
            raise RequestRejected(MISSING_KEY)
        presented = token.strip().encode()
        matched = [name for name, key in self._keys.items() if hmac.compare_digest(presented, key)]
        if not matched:
            raise RequestRejected(UNKNOWN_KEY)
        return matched[0]
