"""``secret_key_value``, part four: a credential that SQL sets or stores, and a value a query returned for one.

``identified by``: ``IDENTIFIED [WITH plugin] BY 'x'`` (``CREATE USER``, ``ALTER USER``, ``GRANT``; ``"x"`` and
Oracle's unquoted ``IDENTIFIED BY x`` too; not ``BY RANDOM PASSWORD``, and ``BY PASSWORD '*hash'`` is left to the
English-prose rule, which replaces the hash after ``PASSWORD``);
``SET PASSWORD [FOR user] = 'x'`` (or ``= PASSWORD('x')``); PostgreSQL's ``CREATE``/``ALTER`` ``USER``/``ROLE`` …
``[ENCRYPTED] PASSWORD 'x'`` and ``OPTIONS (…, password 'x')`` of a user mapping or a foreign server.

``column and value``: ``INSERT``/``REPLACE INTO t (c1, …) VALUES (v1, …), (…)``: in every row, the quoted
literals at the position of a column that names a credential (``app_secret``, ``password``, ``api_key``,
``access_token`` …; not ``password_hash`` or ``token_type``), at any position, given as they are or to a function
(``MD5('s3cret')``), when they are no placeholder.
(``UPDATE … SET password = 'x'`` and ``WHERE client_secret = 'x'`` are ``key=value`` pairs.)

``returned value``: a quoted name of a credential key (``'sms.secret'``, ``"db.password"``), then on the same line
within 80 characters ``返回``/``returns``/``returned``/``=>``/``->``/``→``/``得到``, then a value that looks like a
secret: the answer of ``SELECT value FROM config WHERE key = 'sms.secret'``.

Examples (before -> after)::

    CREATE USER 'report'@'%' IDENTIFIED BY 'R3port!x';  -> CREATE USER 'report'@'%' IDENTIFIED BY '[REDACTED]';
    ALTER USER scott IDENTIFIED BY tiger9;              -> ALTER USER scott IDENTIFIED BY [REDACTED];
    SET PASSWORD FOR 'app'@'%' = 'Xy9.kLm2';            -> SET PASSWORD FOR 'app'@'%' = '[REDACTED]';
    ALTER ROLE app WITH LOGIN PASSWORD 'Ops.2018';      -> ALTER ROLE app WITH LOGIN PASSWORD '[REDACTED]';
    INSERT INTO t (id, app_secret) VALUES (1, 'qk3mY4') -> INSERT INTO t (id, app_secret) VALUES (1, '[REDACTED]')
    WHERE k = 'oss.access_key'; 返回 Oss9xQ2mLp        -> WHERE k = 'oss.access_key'; 返回 [REDACTED]

Not secrets: a column named as a credential with no value (``WHERE app_secret IS NULL``, ``SELECT password_hash``),
a value that is a placeholder (``VALUES (?, ?)``, ``VALUES (:id, :secret)``, ``'${SECRET}'``), a hash given ``AS``
(``IDENTIFIED WITH … AS '$A$005$…'``), a quoted key name with nothing returned for it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ._base import (
    NOT_DONE,
    NOT_DONE_QUOTED,
    Detector,
    detector,
    followed,
    not_placeholder,
    prose,
    secretish,
    unquoted,
    value,
)
from .keys import KEY, KEY_WORDS

_QUOTED = r"'(?:[^'\\\n]|\\.|'')*+'|\"(?:[^\"\\\n]|\\.)*+\""
_LITERAL = (
    NOT_DONE_QUOTED + r"(?=[\"'][^\"'\n]*?[A-Za-z0-9])(?![\"'](?::[A-Za-z_]\w*+|%s)[\"'])" + not_placeholder(r"\s,;)")
)
"""A quoted literal with a letter or a digit, not done and no placeholder (``'${SECRET}'``, ``':secret'``)."""

_IDENTIFIED = (
    # IDENTIFIED BY 'x', IDENTIFIED WITH mysql_native_password BY 'x', Oracle's IDENTIFIED BY x
    r"(?=[Ii])(?<![\w-])(?i:identified(?:[ \t]++with[ \t]++[\w'\"`]{1,64}+)?[ \t]++by[ \t]++)"
    r"(?!(?i:password|random)(?!\w))"
    + r"(?:"
    + _LITERAL
    + rf"(?P<identified>{_QUOTED})|"
    + NOT_DONE
    + r"(?![\"'])(?P<oracle>"
    + value(r"\s;'\"")
    + "))"
)
_SET_PASSWORD = (
    # SET PASSWORD FOR 'u'@'%' = 'x', SET PASSWORD = PASSWORD('x')
    r"(?=[Ss])(?<![\w-])(?i:set[ \t]password(?:[ \t]++for[ \t]++[^=\n]{1,160}+)?[ \t]*+=[ \t]*+"
    r"(?:password[ \t]*+\([ \t]*+)?)" + _LITERAL + rf"(?P<set_password>{_QUOTED})"
)
_PASSWORD_LITERAL = (
    r"(?=[UuRrOo])(?<![\w-])(?:"
    # CREATE ROLE app WITH LOGIN PASSWORD 'x', ALTER USER app ENCRYPTED PASSWORD 'x'
    r"(?i:(?:user|role)[ \t]{1,8}+[^\s;]{1,128}+(?:[ \t]{1,8}+[A-Za-z_]{1,32}+){0,6}?"
    r"[ \t]{1,8}+(?:(?:un)?encrypted[ \t]{1,8}+)?password[ \t])" + _LITERAL + rf"(?P<role>{_QUOTED})"
    # CREATE USER MAPPING … OPTIONS (user 'u', password 'x')
    r"|(?i:options[ \t]{0,8}+\([^)\n]{0,200}?(?<![\w])password[ \t])" + _LITERAL + rf"(?P<options>{_QUOTED}))"
)

_INSERT = (
    r"(?=[IiRr])(?<![\w-])(?i:insert(?:\s++(?:ignore|low_priority|delayed|high_priority))?\s++into|replace[ \t]into)"
    r"\s++[^\s(]{1,128}+\s*+\((?P<columns>[^()]{1,2000}+)\)\s*+(?i:values?)\s*+(?=\()"
)
_CREDENTIAL_COLUMN = re.compile(rf"[`\"\[]?[\w.$-]{{0,64}}?(?i:{KEY})[`\"\]]?")
_STRING = re.compile(_QUOTED)
_LITERAL_AT = re.compile(_LITERAL)
_MOST_ROWS = 10_000
"""Rows of ``VALUES`` read at most: one pass over them, however many columns."""


def _rows(text: str, at: int) -> Iterator[list[tuple[int, int]]]:
    """Each row of the ``VALUES (…), (…)`` that starts at ``at``: the span of each of its values (a value is
    everything between its commas, nested calls and quoted commas included)."""
    for _ in range(_MOST_ROWS):
        if not text.startswith("(", at):
            return
        row, start, depth, index = [], at + 1, 0, at + 1
        while index < len(text):
            char = text[index]
            string = _STRING.match(text, index) if char in "'\"" else None
            if string:
                index = string.end()
                continue
            if char == "(":
                depth += 1
            elif char == ")" and depth:
                depth -= 1
            elif char in ",)" and not depth:
                row.append((start, index))
                start = index + 1
                if char == ")":
                    break
            index += 1
        else:
            return
        yield row
        following = re.compile(r"\s*+,\s*+").match(text, index + 1)
        if following is None:
            return
        at = following.end()


def _insert_values(match: re.Match[str]) -> list[tuple[int, int]]:
    """The quoted literals, in every row, at the positions of the columns that name a credential (one passed to a
    function, ``MD5('x')``, too)."""
    columns = [column.strip() for column in match["columns"].split(",")]
    credential = {at for at, column in enumerate(columns) if _CREDENTIAL_COLUMN.fullmatch(column)}
    if not credential:
        return []
    spans = []
    for row in _rows(match.string, match.end()):
        for position in credential & set(range(len(row))):
            start, end = row[position]
            spans += [
                (literal.start() + 1, literal.end() - 1)
                for literal in _STRING.finditer(match.string, start, end)
                if _LITERAL_AT.match(match.string, literal.start()) and literal.end() - literal.start() > 2
            ]
    return spans


_RETURNED = (
    # WHERE cfg_key = 'sms.secret'; 返回 5541d5e7…, get("db.password") returned Xy9…
    rf"(?=[\"'])(?<![\w\"'])(?P<key_quote>[\"'])[\w.-]{{0,64}}?(?i:{KEY})(?P=key_quote)"
    r"[^\n]{0,80}?(?:返回|(?<![A-Za-z])(?i:returns?|returned)(?![A-Za-z])|=>|->|→|得到)"
    r"[^\S\n]*+(?:[:：=为是了值]{1,3}+[^\S\n]*+)?[\"'“]?" + secretish("returned", bare=False)
)

DETECTORS: tuple[Detector, ...] = (
    # (identified and insert hold "entified" and "sert", stems that start as most stems do: see _triggers)
    detector("secret_key_value", _IDENTIFIED, unquoted("identified", "oracle"), "entified", 2),
    detector("secret_key_value", _SET_PASSWORD, unquoted("set_password"), ("set password", "set\tpassword"), 0),
    detector(
        "secret_key_value",
        _PASSWORD_LITERAL,
        unquoted("role", "options"),
        followed("password", " \t"),
        420,
    ),
    detector("secret_key_value", _INSERT, _insert_values, ("sert", "replace into", "replace\tinto"), 2),
    detector("secret_key_value", _RETURNED, prose("returned"), followed(KEY_WORDS, "'\""), 80),
)
