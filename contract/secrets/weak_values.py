"""``secret_key_value``, part eight: a value that a label, a verb or a line above names as a credential, whatever
its characters are: letters only, digits only, a passphrase of words.

The other rules recognise a value in prose by its look (``_base.secretish``: a letter and a digit or a sign, or
random letters), which words and numbers fail. Here a value is known by what introduces it, and only its
neighbours can make it words again, so each match is judged (:func:`is_value`), not only matched:

``Chinese label``: a label of ``_base.ZH_LABELS`` (one to six Chinese characters allowed after it, none of them
an attribute such as ``长度``, ``次数``, ``策略``), then ``是``, ``为``, a separator or ``改成``/``设为``/``重置为`` …,
then an ASCII token (``复现用的只读账号密码是 mellowkangarootrek``, ``只读账号的密码是 58203917``).

``English copula``: a key word (``password``, ``passphrase``, ``secret``, ``token``, ``api key`` …), what it
belongs to (``for app_ro``), then ``is``/``was``/``is now``/``was set to``, then a token or a quoted value (``The
admin console password is frostedpinekeyriver``, ``the passphrase is "correct horse battery staple"``).

``verb first``: ``changed``/``set``/``reset``/``updated``/``rotated``/``switched`` [``the``] up to three words, a
key word [``for X``], ``to``/``as`` and a token or a quoted value (``The DBA changed the app_ro password to
Zq580vR7mXw0Lk last night``).

``next line``: a label or a key and a separator ending its line, then a line that is one token (``只读账号的数据库
密码：`` newline ``Zq574vR7mXw8Lk``); or YAML's block indicator (``password: |``, ``>-``) and the more-indented
lines under it, which are the value whole.

What makes a token words: a word of ``_DESCRIPTION`` (``wrong``, ``expired``, ``the``, ``stored``, ``required``
…) or one that ends as adjectives and participles do (``-ed``, ``-ing``, ``-able``, ``-ive``, ``-ous`` …, up to
14 letters), a CamelCase name (``ConnectionTimeoutException``), a name that holds a credential word (``order-db-credentials``), a placeholder (``_base.PLACEHOLDER``),
an algorithm (``MD5``), fewer than six letters unless a well-known default (``admin``, ``root``), fewer than four
digits, digits before a unit (``8 位``, ``3600 seconds``), a possessive (``staging's``) and, after a Chinese label,
Chinese that makes the token a description (``是 MD5 加密的``, ``是 admin 开头``). A token with a letter and a digit
is left to the rules that judge its look, which know ids, versions and quantities.

Examples (before -> after)::

    复现用的只读账号密码是 mellowkangarootrek            -> 复现用的只读账号密码是 [REDACTED]
    The admin console password is frostedpinekeyriver   -> The admin console password is [REDACTED]
    只读账号的密码是 58203917                            -> 只读账号的密码是 [REDACTED]
    the passphrase is "correct horse battery staple"    -> the passphrase is "[REDACTED]"
    we set the Redis token to maplecreekstone today     -> we set the Redis token to [REDACTED] today
    只读账号的数据库密码：\\nZq574vR7mXw8Lk               -> 只读账号的数据库密码：\\n[REDACTED]
    password: |\\n    mellowkangarootrek                 -> password: |\\n    [REDACTED]

Not secrets: ``请确认密码是否正确``, ``密码长度至少 8 位``, ``密码是 MD5 加密的``, ``密码错误次数是 5``, ``the password
policy requires 12 characters``, ``the password is wrong``, ``the password is stored in Vault``, ``the token is
valid for 3600 seconds``, ``we reset the password to the default policy``, ``Password:`` newline ``required``.
"""

from __future__ import annotations

import re

from ._base import (
    NOT_DONE,
    PLACEHOLDER,
    SECRET_CHAR,
    SEPARATOR,
    ZH_LABEL,
    ZH_LABELS,
    Detector,
    detector,
    followed,
    secretish,
)
from .keys import KEY

_ZH_FIRST = "[密口秘私令凭授]"


def _token(name: str) -> str:
    return rf"{NOT_DONE}(?P<{name}>{SECRET_CHAR}++)"


def _quoted(name: str) -> str:
    return rf"(?P<{name}>\"[^\"\n]{{1,128}}+\"|'[^'\n]{{1,128}}+'|“[^”\n]{{1,128}}+”)"

_CHANGED_TO = r"(?:被|已)?(?:修?改|设置?|换|变|更新|重置|更换)(?:成|为)了?"

_ZH_LABELLED = (
    # 密码是 x, 数据库密码为 x, 密码我发你：x, 密码被改成了 x
    rf"(?={_ZH_FIRST}){ZH_LABEL}(?P<zh_words>[\u4e00-\u9fff]{{0,6}}?)"
    rf"(?:[ \t]*+(?:[为是]|{_CHANGED_TO})[ \t]*+(?:{SEPARATOR}[ \t]*+)?|[ \t]*+{SEPARATOR}[ \t]*+)"
    + _token("zh_token")
)
_EN_KEY = (
    r"(?<![A-Za-z])(?:password|passwd|passphrase|pwd|secret|token|credentials?|apikey"
    r"|(?:api|access|secret(?:[ _-]?access)?|private)[ _-]?key)(?![A-Za-z])"
)
_OF_WHAT = r"(?:[ \t]++(?:for|of|on|in|used[ \t]++by)(?:[ \t]++[\w.@:/-]{1,64}+){1,3}?)?"
_EN_COPULA = (
    # the admin console password is x, the password for app_ro was set to x
    r"(?=[AaCcPpSsTt])(?i:"
    + _EN_KEY
    + _OF_WHAT
    + r"[ \t]++(?:is|was|are|were)(?:[ \t]++(?:now|still))?(?:[ \t]++(?:set|changed|reset|updated)[ \t]++to)?"
    r"[ \t]*+[:=]?[ \t]*+)(?:"
    + _quoted("copula_quoted")
    + "|"
    + _token("copula_token")
    + ")"
)
_VERB_FIRST = (
    # changed the app_ro password to x, set the Redis token to x, rotated the API key for billing to x
    r"(?=[CcSsRrUu])(?i:(?<![A-Za-z])(?:changed?|changes|set|sets|reset|resets|updated?|updates|rotated?|rotates"
    r"|switched|switch(?:es)?)[ \t]++(?:(?:the|its|their|our|his|her|my|your)[ \t]++)?(?:[\w.@-]{1,32}+[ \t]++){0,3}?"
    + _EN_KEY
    + r"(?:[ \t]++(?:for|of|on)[ \t]++[\w.@-]{1,64}+)?[ \t]++(?:to|as)[ \t]++)(?:"
    + _quoted("verb_quoted")
    + "|"
    + _token("verb_token")
    + ")"
)
_NEXT_LINE = (
    # 数据库密码：\nx, Password:\n  x, password: |\n    x
    r"(?=[^\s])(?:(?<![\w.-])[\w.-]{0,64}?(?i:" + KEY + r")|" + ZH_LABEL + r")\\?[\"']?[ \t]*+" + SEPARATOR
    + r"[ \t]*+(?P<weak_block>[|>][+-]?[0-9]?)?[ \t]*+\r?\n(?P<weak_indent>[ \t]*+)"
    r"(?:(?(weak_block)(?P<block_lines>[^\s][^\n]{0,255}+(?:\n(?P=weak_indent)[^\n]{1,256}+){0,32}+)"
    r"|(?P<lone_line>[^\s][^\n]{0,255}+)))"
)

_DESCRIPTION = frozenset(
    """
    a an the this that these those it its itself one some any each every all both either neither same other
    another different what which who whatever something anything nothing everything there here not no none null nil
    empty blank unset missing required optional wrong incorrect invalid valid expired correct right ok okay fine
    good bad weak strong short long shorter longer weaker stronger older newer new old stale fresh default unknown
    plaintext cleartext plain opaque secure insecure safe unsafe simple complex random unique static dynamic
    temporary permanent global local internal external shared private public personal manual automatic
    be being been is was are were set reset changed rotated updated stored kept saved managed mounted injected
    in on at from for with by via under inside into to of as and or but so if when since until after before than
    still now also only just already never always probably likely maybe perhaps possibly currently usually
    often sometimes again yet too very quite rather really actually apparently presumably obviously clearly
    read write only per used same similar identical gone here present absent available unavailable
    jwt bearer basic oauth saml ldap ascii hex utf base hash digest uuid case sensitive numeric alphanumeric
    part problem issue reason cause culprit key password secret token credential credentials value string
    """.split()
)
"""Words that, after ``the password is`` and the like, describe the credential instead of giving it."""
_ADJECTIVE_ENDING = re.compile(r"(?:ed|ing|able|ible|ive|ful|less|ous|ic|ical|ent|ant|ion|ions|ness|ment)$")
_DEFAULTS = frozenset({"admin", "root", "guest", "test", "pass", "demo", "user", "qwerty", "abc", "oracle"})
"""Short passwords well known as defaults: a value although shorter than six letters."""
_CREDENTIAL_WORD = re.compile(r"(?i:pass(?:word|wd|phrase)?|pwd|secret|token|credential|api[_-]?key|auth)")
_UNIT = re.compile(
    r"[ \t]*+(?:位|个|次|天|秒|分钟|小时|字符|字节|年|月|日|号|%"
    r"|(?i:bytes?|characters?|chars?|digits?|letters?|times?|days?|hours?|minutes?|mins?|seconds?|secs?|ms|s|h|d"
    r"|bits?|long|attempts?|retries)(?![A-Za-z]))"
)
_ZH_DESCRIPTION = re.compile(
    r"[ \t]*+(?:的|开头|结尾|打头|加密|哈希|散列|编码|格式|类型|形式|算法|明文|密文|字段|列|前缀|后缀|吗|么|呢|之类|一类|这样|那样)"
)
_ZH_ATTRIBUTE = re.compile(
    r"长度|位数|次数|数量|规则|策略|强度|复杂度|格式|类型|算法|字段|列名|字符集|编码|有效期|过期|时间|错误|失败|前缀|后缀"
    r"|哈希|变量|参数|键名|名称|名字|文件|路径|位置|来源|模式|方式|版本|提示|是否"
)
_PLACEHOLDER = re.compile(r"(?:\\?[\"'])?" + PLACEHOLDER + r"(?:\\?[\"'])?[.!?:]*+$")
_NOT_SECRET = re.compile(secretish("value", bare=False) + "$")
_CAMEL_CASE = re.compile(r"[a-z][A-Z]")
"""A capital after a small letter: a class, an exception or an enum's name (``ConnectionTimeoutException``), which
random mixed-case letters (``_base.secretish``) are not."""
_LETTERS = re.compile(r"[A-Za-z]++(?:[-_][A-Za-z]++)*+")


def _is_words(token: str) -> bool:
    """Whether letters (``bluewhalesunset``, ``blue-whale``) are words that describe, not a value."""
    parts = re.split(r"[-_]", token.lower())
    if _CREDENTIAL_WORD.search(token) or any(part in _DESCRIPTION for part in parts):
        return True
    if any(len(part) <= 14 and _ADJECTIVE_ENDING.search(part) for part in parts):
        return True
    return sum(map(len, parts)) < 6 and token.lower() not in _DEFAULTS


def is_value(token: str, after: str, *, chinese: bool) -> bool:
    """Whether ``token``, introduced as a credential and followed by ``after`` on its line, is the credential's
    value: letters that are no words, four or more digits that are no quantity, and, for any other token, a value
    that looks like a secret (left to the rules that judge its look, but judged here after a line break)."""
    if _PLACEHOLDER.match(token) or "REDACTED" in token or after.startswith("'s"):
        return False
    if chinese and _ZH_DESCRIPTION.match(after):
        return False
    if _LETTERS.fullmatch(token):
        return not _CAMEL_CASE.search(token) and not _is_words(token)
    if token.isdigit():
        return 4 <= len(token) <= 64 and not _UNIT.match(after)
    return _NOT_SECRET.match(token) is not None


_AFTER = 16
"""Characters after a token read to judge it (a unit, a possessive, Chinese that describes it): a bounded look,
so that judging every match of a long text stays linear."""


def _after(text: str, at: int) -> str:
    """What follows position ``at`` on its line, ``_AFTER`` characters at most."""
    return text[at : at + _AFTER].split("\n", 1)[0]


def _token_span(match: re.Match[str], prefix: str, *, chinese: bool) -> list[tuple[int, int]]:
    """The token (group ``{prefix}_token``) of a match or the inside of its quoted value (``{prefix}_quoted``),
    when it is a value."""
    quoted = match.groupdict().get(f"{prefix}_quoted")
    if quoted:
        start, end = match.span(f"{prefix}_quoted")
        inside = quoted[1:-1].strip()
        return [] if _PLACEHOLDER.match(inside) or "REDACTED" in inside or _is_words(inside) else [(start + 1, end - 1)]
    token = match[f"{prefix}_token"].rstrip(".!?:")
    start = match.start(f"{prefix}_token")
    after = _after(match.string, start + len(token))
    return [(start, start + len(token))] if is_value(token, after, chinese=chinese) else []


def _zh_spans(match: re.Match[str]) -> list[tuple[int, int]]:
    if _ZH_ATTRIBUTE.search(match["zh_words"]):
        return []
    return _token_span(match, "zh", chinese=True)


def _copula_spans(match: re.Match[str]) -> list[tuple[int, int]]:
    return _token_span(match, "copula", chinese=False)


def _verb_spans(match: re.Match[str]) -> list[tuple[int, int]]:
    return _token_span(match, "verb", chinese=False)


def _next_line_spans(match: re.Match[str]) -> list[tuple[int, int]]:
    """A block scalar's lines whole (each stripped), or a line that is one value."""
    if match["block_lines"] is not None:
        spans = []
        at = match.start("block_lines")
        for line in match["block_lines"].split("\n"):
            body = line.strip()
            offset = at + line.index(body) if body else at
            if body and not _PLACEHOLDER.match(body) and "REDACTED" not in body and not body.startswith("#"):
                spans.append((offset, offset + len(body)))
            at += len(line) + 1
        return spans
    line = match["lone_line"].rstrip()
    if re.search(r"\s", line) or not re.fullmatch(rf"{SECRET_CHAR}++", line) or line.endswith(":"):
        return []
    start = match.start("lone_line")
    return [(start, start + len(line))] if is_value(line, "", chinese=False) else []


DETECTORS: tuple[Detector, ...] = (
    detector("secret_key_value", _ZH_LABELLED, _zh_spans, ZH_LABELS, 0),
    detector(
        "secret_key_value",
        _EN_COPULA,
        _copula_spans,
        followed("password|passwd|passphrase|pwd|secret|token|credential|credentials|apikey|key", " \t"),
        10,
    ),
    detector(
        "secret_key_value",
        _VERB_FIRST,
        _verb_spans,
        followed("password|passwd|passphrase|pwd|secret|token|credential|credentials|apikey|key", " \t"),
        120,
    ),
    detector(
        "secret_key_value",
        _NEXT_LINE,
        _next_line_spans,
        (*followed("password|passwd|passphrase|pwd|secret|token|credential|credentials|key", ":="), *ZH_LABELS.split("|")),
        80,
    ),
)
