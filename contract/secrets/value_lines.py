"""``secret_key_value``, part nine: a value on the line below its label, or the rest of its key's line.

``next line``: a label or a key ending its line (a separator after it or not), then a line that is one token
(``只读账号的数据库密码：`` newline ``Zq574vR7mXw8Lk``; ``the app_ro password`` newline ``Zq574vR7mXw8Lk`` newline
``was in the runbook``): after a separator any value (:mod:`.value_judge`), without one a value that looks like a
secret.

``block scalar``: YAML's ``|`` or ``>`` (``|-``, ``>+`` …) after a credential key, and the more-indented lines
under it, each a value whole (``password: |`` newline ``    mellowkangarootrek``).

``words on their line``: a credential key at the start of a line, ``:`` and two to eight words that end the line
(``passphrase: correct horse battery staple``): YAML's plain scalar, spaces and all, unless the first word
describes (``password: not set``).

Examples (before -> after)::

    只读账号的数据库密码：\\nZq574vR7mXw8Lk               -> 只读账号的数据库密码：\\n[REDACTED]
    password: |\\n    mellowkangarootrek                 -> password: |\\n    [REDACTED]
    passphrase: correct horse battery staple            -> passphrase: [REDACTED]

Not secrets: a line under a label that is prose, a list, a key or another pair (``密码：`` newline ``- 长度至少 8
位``, ``password:`` newline ``  secretKeyRef:``, ``spring.rabbitmq.password=`` newline ``spring.rabbitmq.host=mq``), a
word that describes (``Password:`` newline ``required``), a block scalar that holds a reference
(``${REDIS_PASSWORD}``) or a comment.
"""

from __future__ import annotations

import re

from ._base import SECRET_CHAR, SEPARATOR, ZH_LABEL, ZH_LABELS, Detector, detector, followed
from .keys import KEY, KEY_WORDS
from .value_judge import is_phrase, is_placeholder, is_value

_NEXT_LINE = (
    # 数据库密码：\nx, Password:\n  x, password: |\n    x, the app_ro password\nx\n
    # (the key's own end is enough: db_password ends in password, and the scan starts only at a key's letters)
    r"(?=[AaCcPpSsTtXx密口秘私令凭授])(?:(?i:" + KEY + r")|" + ZH_LABEL + r")\\?[\"']?[ \t]*+"
    rf"(?P<line_separator>{SEPARATOR})?"
    r"[ \t]*+(?:(?(line_separator)(?P<weak_block>[|>][+-]?[0-9]?)))?[ \t]*+\r?\n(?P<weak_indent>[ \t]*+)"
    r"(?:(?(weak_block)(?P<block_lines>[^\s][^\n]{0,255}+(?:\n(?P=weak_indent)[^\n]{1,256}+){0,32}+)"
    r"|(?P<lone_line>[^\s][^\n]{0,255}+)))"
)
_WORDS_ON_THEIR_LINE = (
    # passphrase: correct horse battery staple (YAML's plain scalar runs to the end of its line, spaces and all)
    r"(?=[^\n])(?<![^\n])[ \t]{0,16}+(?:-[ \t]++)?[\w.-]{0,64}?(?i:" + KEY + r")\\?[\"']?[ \t]*+:[ \t]++"
    r"(?P<line_words>(?:\[REDACTED\]|[A-Za-z]++)(?:[ \t]++[A-Za-z]++){1,7}+)[ \t]*+(?=\n|$| #)"
)
_TOKEN = re.compile(rf"{SECRET_CHAR}++")
_LOOKS_SECRET_ALONE = re.compile(r"(?=[^\n]*?[A-Za-z])(?=[^\n]*?[0-9])[A-Za-z0-9+/=_.!@#$%^&*~-]{8,}+")
"""A token alone on its line under a label without a separator: eight or more characters, a letter and a digit."""


def _next_line_spans(match: re.Match[str]) -> list[tuple[int, int]]:
    """A block scalar's lines whole (each stripped), or a line that is one value."""
    if match["block_lines"] is not None:
        spans = []
        at = match.start("block_lines")
        for line in match["block_lines"].split("\n"):
            body = line.strip()
            offset = at + line.index(body) if body else at
            if body and not is_placeholder(body) and not body.startswith("#"):
                spans.append((offset, offset + len(body)))
            at += len(line) + 1
        return spans
    line = match["lone_line"].rstrip()
    if not _TOKEN.fullmatch(line) or line.endswith(":") or line.startswith(("-", "#")) or "=" in line.rstrip("="):
        return []
    start = match.start("lone_line")
    if match["line_separator"] is None:
        alone = _LOOKS_SECRET_ALONE.fullmatch(line) and is_value(line, "", chinese=False)
        return [(start, start + len(line))] if alone else []
    return [(start, start + len(line))] if is_value(line, "", chinese=False) else []


def _line_words_spans(match: re.Match[str]) -> list[tuple[int, int]]:
    """The words after a credential key, to the end of the line, when the first is a value as for ``key: value``
    (no placeholder) and no word makes them a phrase (``not set for this user``)."""
    words = match["line_words"]
    first = words.split()[0]
    return [] if is_phrase(words) or (first != "[REDACTED]" and is_placeholder(first)) else [match.span("line_words")]


DETECTORS: tuple[Detector, ...] = (
    detector(
        "secret_key_value",
        _NEXT_LINE,
        _next_line_spans,
        (*followed(KEY_WORDS, ":=\n \t"), *ZH_LABELS.split("|")),
        80,
    ),
    detector("secret_key_value", _WORDS_ON_THEIR_LINE, _line_words_spans, followed(KEY_WORDS, ":"), 100),
)
