"""Redaction of secrets in free text (log messages, SQL cells, query parameters) before it reaches an agent.

``redact(text)`` replaces the *value* of each secret with ``[REDACTED]`` and keeps what is around it, so the
line stays readable as evidence::

    jdbc:mysql://app:Sup3rS3cret@db-1:3306/order_db   -> jdbc:mysql://[REDACTED]@db-1:3306/order_db
    Authorization: Basic dXNlcjpwYXNz                  -> Authorization: Basic [REDACTED]
    Bearer mF_9.B5f-4.1JqM                             -> Bearer [REDACTED]
    eyJhbGciOi....eyJzdWIiOi....SflKxw                 -> [REDACTED]
    ?user=ops&password=Passw0rd!23&next=/              -> ?user=ops&password=[REDACTED]&next=/
    {"password": "Tr0ub4dor&3"}                        -> {"password": "[REDACTED]"}
    AKIAIOSFODNN7EXAMPLE                               -> [REDACTED]

Rules, applied in this order: a URL's whole user-info part (``user:pass@``, ``:pass@``, ``token@``);
``Authorization``/``Proxy-Authorization`` header values (the scheme word is kept when it is a known one);
``Bearer`` tokens; JWTs; AWS access key ids; ``key=value`` / ``key: value`` / ``"key": "value"`` pairs whose
key ends in password, passwd, pwd, passphrase, secret, token, api_key/apikey/api-key, access_key or private_key
(``db_password``, ``client_secret``, ``X-Api-Key`` and ``access_token`` included). MySQL's
``(using password: YES)`` / ``NO)`` is kept readable. An unquoted value ends at whitespace, ``&``, ``,`` or
``;``, so the rest of a password containing those characters is not recognised; quoted values are whole.

Every pattern is linear in the input: each can start only at the beginning of a token (a look-behind rules out
the positions inside it) and no quantified part can fail after scanning far, so adversarial input cannot
make a pattern backtrack quadratically.
"""

from __future__ import annotations

import re
from collections.abc import Callable

REDACTED = "[REDACTED]"
_NOT_DONE = r"(?!\[REDACTED\])"

_URL_USERINFO = re.compile(r"(?<![A-Za-z0-9+.-])(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*://)" + _NOT_DONE + r"[^\s/?#]+@")
_AUTH_SCHEMES = r"(?:bearer|basic|digest|negotiate|ntlm|token|apikey|hmac|aws4-hmac-sha256)"
_AUTHORIZATION = re.compile(
    r"(?i)(?<![\w-])(?P<head>(?:proxy-)?authorization[\"']?[ \t]*[:=][ \t]*[\"']?"
    r"(?>(?:" + _AUTH_SCHEMES + r"[ \t]+)?))" + _NOT_DONE + r"[^\s\"',;]+"
)
_BEARER = re.compile(
    r"(?i)(?<![\w-])(?P<head>bearer[ \t]+)" + _NOT_DONE + r"(?!(?:tokens?|auth|authentication|header|scheme|realm)\b)"
    r"[A-Za-z0-9._~+/-]+=*"
)
_JWT = re.compile(r"(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*")
_AWS_KEY_ID = re.compile(r"(?<![A-Z0-9])(?:AKIA|ASIA|AIDA|AROA|AGPA|ANPA)[A-Z0-9]{16}(?![A-Z0-9])")
_SECRET_KEY = r"(?:password|passwd|pwd|passphrase|secret|token|api[_-]?key|access[_-]?key|private[_-]?key)"
_KEY_VALUE = re.compile(
    r"(?i)(?<![A-Za-z0-9])(?P<head>[A-Za-z0-9]{0,24}?"
    + _SECRET_KEY
    + r"\\?[\"']?[ \t]*[:=][ \t]*)"
    + r"(?!(?:\\\"|\"|')?\[REDACTED\])(?!(?:YES|NO)\))"
    r"(?P<value>\\\"[^\"\\\n]*(?:\\\")?|\"(?:[^\"\\\n]|\\.)*\"?|'[^'\n]*'?|[^\s&,;\"'<>)\]}]+)"
)


def _keep_head(match: re.Match[str]) -> str:
    return match["head"] + REDACTED


def _keep_scheme(match: re.Match[str]) -> str:
    return match["scheme"] + REDACTED + "@"


def _keep_quotes(match: re.Match[str]) -> str:
    value = match["value"]
    for quote in ('\\"', '"', "'"):
        if value.startswith(quote):
            closed = len(value) >= 2 * len(quote) and value.endswith(quote)
            return match["head"] + quote + REDACTED + (quote if closed else "")
    return match["head"] + REDACTED


_RULES: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = (
    (_URL_USERINFO, _keep_scheme),
    (_AUTHORIZATION, _keep_head),
    (_BEARER, _keep_head),
    (_JWT, REDACTED),
    (_AWS_KEY_ID, REDACTED),
    (_KEY_VALUE, _keep_quotes),
)


_ANY_TRIGGER = re.compile(
    r"(?i)://|authorization|bearer|eyJ|AKIA|ASIA|AIDA|AROA|AGPA|ANPA|" + _SECRET_KEY.removeprefix("(?:")[:-1]
)
"""One scan for the words every rule needs; text without any of them (most log lines) skips the rules."""


def redact(text: str) -> tuple[str, bool]:
    """``text`` with every secret value replaced by ``[REDACTED]``, and whether anything was replaced.

    Idempotent: redacting a redacted text changes nothing and reports ``False``.
    """
    if not _ANY_TRIGGER.search(text):
        return text, False
    changed = False
    for pattern, replacement in _RULES:
        text, count = pattern.subn(replacement, text)
        changed = changed or count > 0
    return text, changed
