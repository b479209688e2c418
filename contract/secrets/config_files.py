"""``secret_key_value``, part five: the credentials of configuration files whose keys name no credential.

``server directive``: ``requirepass``/``masterauth`` (redis.conf, ``CONFIG SET``), then a space and a value as for
``key=value`` (any value, quoted or not; no placeholder, no Chinese prose).

``.netrc entry``: ``machine host [login user] [account a] password V`` (or ``default …``), on one line or over
several: the password, any value.

``.pgpass line``: ``host:port:database:user:password``, five fields and no more, the port digits or ``*``, the host
holding a letter, a dot or ``*``, at a token's start or right after ``pgpass:`` or a Chinese word's colon: the
fifth field, when it holds a digit or a sign (``\\:`` escapes a colon in it).

``Kubernetes Secret``: the values under ``data:`` or ``stringData:`` of a manifest of ``kind: Secret`` (before the
block, or after it within 80 lines, as ``kubectl get secret -o yaml`` prints it), each value of the block
(``password: czNjcjN0``, ``.dockerconfigjson: eyJhdXRocyI6…``) but a mask or a placeholder; and a Secret
written as JSON (``{"kind": "Secret", "data": {…}}``, ``kind`` before or after ``data``): each value of its
``data`` or ``stringData``.

Examples (before -> after)::

    requirepass R3dis~pw.9                              -> requirepass [REDACTED]
    CONFIG SET masterauth "Ops.2018"                    -> CONFIG SET masterauth "[REDACTED]"
    machine git.internal login ci password Kw-pyMlkQ    -> machine git.internal login ci password [REDACTED]
    ~/.pgpass: db-1:5432:orders:app:Ord3rs#db           -> ~/.pgpass: db-1:5432:orders:app:[REDACTED]
    kind: Secret …data:\\n  password: czNjcjN0           -> kind: Secret …data:\\n  password: [REDACTED]

Not secrets: ``requirepass`` with no value or Chinese prose after it (``requirepass 已配置``); the format line
``hostname:port:database:username:password``, a fingerprint (``C7:70:FB:C6:E0``), a timestamp; a Secret's
``data:`` whose values are masked (``password: '******'``, ``<redacted>``), and a ``data:`` block of any other
kind (a ConfigMap). (A credential key's block scalar, ``password: |`` and the value on the lines below, is
:mod:`.weak_values`.)
"""

from __future__ import annotations

import re

from ._base import (
    AFTER_CJK_COLON,
    CJK,
    NOT_DONE,
    NOT_DONE_QUOTED,
    PLACEHOLDER,
    Detector,
    detector,
    followed,
    not_placeholder,
    unquoted,
)
from .keys import NOT_A_VALUE, VALUE

_DIRECTIVE = (
    # requirepass V, masterauth V (redis.conf, CONFIG SET)
    r"(?=[RrMm])(?<![\w-])(?i:requirepass|masterauth)[ \t]++"
    + NOT_DONE_QUOTED
    + NOT_A_VALUE
    + r"(?P<directive>"
    + VALUE
    + ")"
)

_NETRC = (
    # machine git.internal login ci-bot password V, on one line or on several
    r"(?=[mMdD])(?<![\w.-])(?:machine[ \t]{1,8}+\S{1,253}+|default)"
    r"(?:\s{1,16}+(?:login|account|port)\s{1,16}+\S{1,128}+){0,3}+\s{1,16}+password[ \t]++"
    + NOT_DONE_QUOTED
    + NOT_A_VALUE
    + r"(?P<netrc>"
    + VALUE
    + ")"
)

_PGPASS_FIELD = r"(?:[^\s:\\\"'`<>" + CJK + r"]|\\.)"
_PGPASS = (
    # host:port:database:user:password, the host at a token's start (or after a Chinese label's colon, or after
    # "pgpass:", as the normal form reads "`.pgpass`：`db-1:…`")
    r"(?=[A-Za-z0-9*])(?:(?<![A-Za-z0-9_.:/@*$-])|(?<=pgpass:)|"
    + AFTER_CJK_COLON
    + r")(?![0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}:)"
    r"(?=[A-Za-z0-9_.*-]*?[A-Za-z.*])[A-Za-z0-9*][A-Za-z0-9_.*-]{0,252}+:(?:[0-9]{1,5}+|\*):[\w.*$-]{1,63}+:[\w.*@$-]{1,63}+:"
    + NOT_DONE
    + not_placeholder(r"\s")
    + rf"(?={_PGPASS_FIELD}*?[0-9!#$%&*+=?@^|~])(?P<pgpass>{_PGPASS_FIELD}++)(?!:)"
)
_PGPASS_SHAPE = r":(?:[0-9]{1,5}|\*):[\w.*$-]{1,63}:[\w.*@$-]{1,63}:"
"""What every ``.pgpass`` line holds: found with no trigger word."""

_SECRET_KIND = r"kind: [\"']?Secret[\"']?[ \t]*+(?=\n|$)"
_DATA = r"(?:string)?[dD]ata:[ \t]*+\n"
_ENTRY = r"(?P=indent)[ \t]{1,8}+[\w.-]{1,253}+:[ \t]*+"
_SECRET_DATA = (
    # kind: Secret, then (within 60 lines of the same document) data:; or data:, then kind: Secret within 80 lines
    r"(?=[kKdDsS \t])(?<![^\n])(?:"
    + _SECRET_KIND
    + r"\n(?:(?!---|[ \t]{0,8}+"
    + _DATA
    + r")[^\n]*+\n){0,60}+|(?=[ \t]{0,8}+"
    + _DATA
    + r"(?:(?!---)[^\n]*+\n){1,80}?[ \t]{0,8}+"
    + _SECRET_KIND
    + r"))(?P<indent>[ \t]{0,8}+)"
    + _DATA
    # the entries before the first secret hold none (a mask), then the first secret, then the other entries
    + r"(?:"
    + _ENTRY
    + r"[^\n]*+\n){0,64}?"
    + _ENTRY
    + NOT_DONE_QUOTED
    + not_placeholder(r"\s")
    + r"(?P<secret_data>"
    + VALUE
    + r")(?P<more_data>[^\n]*+(?:\n(?P=indent)[ \t]{1,8}+[\w.-]{1,253}+:[^\n]*+){0,64}+)"
)
_MORE_DATA = re.compile(
    r"\n[ \t]++[\w.-]{1,253}+:[ \t]*+" + NOT_DONE_QUOTED + not_placeholder(r"\s") + r"(" + VALUE + ")"
)


def _inside_quotes(value: str, start: int) -> tuple[int, int]:
    """Where a value's text lies, its quotes left out."""
    for quote in ('"', "'"):
        if len(value) >= 2 and value.startswith(quote) and value.endswith(quote):
            return start + 1, start + len(value) - 1
    return start, start + len(value)


def _secret_data(match: re.Match[str]) -> list[tuple[int, int]]:
    first = _inside_quotes(match["secret_data"], match.start("secret_data"))
    start = match.start("more_data")
    more = [_inside_quotes(entry[1], start + entry.start(1)) for entry in _MORE_DATA.finditer(match["more_data"])]
    return [first, *more]


_JSON_KIND = r"\"kind\"[ \t]*+:[ \t]*+\"Secret\""


def _json_data(name: str) -> str:
    """A JSON Secret's ``"data": {…}`` or ``"stringData": {…}``, its entries as group ``name``."""
    return r"\"(?:string)?[dD]ata\"[ \t]*+:[ \t]*+\{(?P<" + name + r">[^{}]{1,20000}+)\}"


_JSON_SECRET = (
    # {"kind": "Secret", …, "data": {…}} and, as kubectl prints it (keys in order), {"data": {…}, "kind": "Secret"}
    r"(?=[\"])(?:"
    + _JSON_KIND
    + r"[^{}]{0,400}?"
    + _json_data("json_data")
    + "|"
    + _json_data("json_data_first")
    + r"[^{}]{0,400}?"
    + _JSON_KIND
    + ")"
)
_JSON_ENTRY = re.compile(r"\"[^\"\n]{1,253}+\"[ \t\n]*+:[ \t\n]*+\"(" + NOT_DONE + r"[^\"\n]{1,20000}+)\"")
_NOT_A_JSON_VALUE = re.compile(PLACEHOLDER + r"$")


def _json_secret_data(match: re.Match[str]) -> list[tuple[int, int]]:
    """Each value of a JSON Secret's ``data`` or ``stringData`` but a mask or a placeholder."""
    name = "json_data" if match["json_data"] is not None else "json_data_first"
    start = match.start(name)
    return [
        (start + entry.start(1), start + entry.end(1))
        for entry in _JSON_ENTRY.finditer(match[name])
        if not _NOT_A_JSON_VALUE.match(entry[1])
    ]


DETECTORS: tuple[Detector, ...] = (
    detector(
        "secret_key_value", _DIRECTIVE, unquoted("directive"), (*followed("pass", " \t"), *followed("auth", " \t")), 8
    ),
    detector("secret_key_value", _NETRC, unquoted("netrc"), followed("password", " \t"), 800),
    detector("secret_key_value", _PGPASS, lambda match: [match.span("pgpass")], "", None, _PGPASS_SHAPE),
    detector("secret_key_value", _SECRET_DATA, _secret_data, (": secret", ': "secret', ": 'secret"), None),
    detector("secret_key_value", _JSON_SECRET, _json_secret_data, ('"secret"',), None),
)
