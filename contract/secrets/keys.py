"""``secret_key_value``, part one: a value after a key or label that names a credential, in any syntax.

The normal form has already made markup plain text: ``**Password**: x`` reads ``Password: x``, a code span loses
its backticks, ``<password>x</password>`` reads ``password: x``, a table row ``| password | x |`` reads
``password: x`` and a row under a header ``password`` reads ``…; password: x``. So one rule of each kind below
catches a secret written in any of these forms, and ``redact`` replaces it where it stands in the text as written.

A key ends in ``password``, ``passwd``, ``pwd``, ``passphrase``, ``secret``, ``token`` or ``credential[s]``, in
``api``/``access``/``secret``/``private``/``account``/``shared access`` + ``key`` (``_``, ``-``, a space or
nothing between), or in ``x-amz-signature``/``x-goog-signature``, or is ``auth``, ``sig`` or ``…_pass``
(``…-pass``, ``….pass``) as a word of its own (``db_password``, ``client_secret``, ``X-Api-Key``,
``REDISCLI_AUTH``, ``PGPASSWORD``, ``MYSQL_PWD``, ``SharedAccessKey``, ``access token``), case ignored.

``connection string``: ``Password=`` (``Pwd``, ``AccountKey``, ``SharedAccessKey``, ``SharedAccessSignature``)
after a ``;`` and up to 16 spaces: the value runs to the next ``;``, spaces included, or is in braces; first in
the string, ``Password={…}``/``Pwd={…}`` in braces (``Pwd={a;b};Server=db``).

``key=value``: after a key and ``=``, ``:``, ``：``, ``:=`` or ``=>``, a quoted value (whole, not empty, with a
letter or a digit before any ``[REDACTED]`` in it) or an unquoted one (up to whitespace, ``&,;"'<>)]}``, CJK
prose, or an earlier ``[REDACTED]``); a scheme word after the separator is kept (``X-Auth: Bearer x``).

``named value``: ``key="…password" value="x"`` (``name``, ``id``, ``type`` for ``key``; ``=`` or ``:``, on one line
or the next), as in ``<add key="db.password" value="x"/>``, ``<input type="password" value="x">``, a Kubernetes
``- name: DB_PASSWORD`` / ``value: x`` and ``{"name": "DB_PASSWORD", "value": "x"}``.

``pipe cells``: ``| password | x |`` inside a line (a row at the start of one the normal form reads as text): a
cell ending in a key, then the next cell, spaces inside it included.

``Chinese label``: ``密码`` (``数据库密码``, ``登录密码`` …), ``口令``, ``密钥``, ``秘钥``, ``私钥``, ``令牌``,
``凭证`` or ``凭据``: after ``:``, ``：`` or ``=`` (``为``/``是`` allowed before it), an ASCII value as for
``key=value``; after ``为``, ``是``, a space or nothing, or after one to six Chinese characters and then ``为``,
``是`` or a separator (``密码我发你：x``, ``密码修改为 x``), an ASCII value that looks like a secret
(``_base.secretish``).

``English prose``: a key word (``password``, ``secret``, ``token``, ``api key``, ``credentials`` …), optionally
``for``/``of`` and one to three words, then ``is``/``was``/``are`` [``now``/``still``] or ``set``/``changed``/
``reset``/``updated to``, then a value that looks like a secret; right after ``password``, ``passwd`` or
``passphrase`` a value that looks like a secret and is no hex digest.

Examples (before -> after)::

    ?user=ops&password=Passw0rd!23&next=/               -> ?user=ops&password=[REDACTED]&next=/
    {"password": "Tr0ub4dor&3"}                         -> {"password": "[REDACTED]"}
    **Password**: Tr0ub4dor                             -> **Password**: [REDACTED]
    <db.password>Tr0ub4dor</db.password>                -> <db.password>[REDACTED]</db.password>
    | redis password | Tr0ub4dor |                      -> | redis password | [REDACTED] |
    日志中出现 | password | Sup3rS3cret7 |              -> 日志中出现 | password | [REDACTED] |
    REDISCLI_AUTH=Tr0ub4dor redis-cli                   -> REDISCLI_AUTH=[REDACTED] redis-cli
    Server=db;User Id=app;Password=my pass;             -> Server=db;User Id=app;Password=[REDACTED];
    …;AccountName=acct;AccountKey=Eby8vdM0…==;…         -> …;AccountName=acct;AccountKey=[REDACTED];…
    <add key="db.password" value="Tr0ub4dor"/>          -> <add key="db.password" value="[REDACTED]"/>
    账号 app 的数据库密码 Sup3rS3cret 是否已轮换         -> 账号 app 的数据库密码 [REDACTED] 是否已轮换
    Basic 解码后的账号口令 order:s3cr3tPass              -> Basic 解码后的账号口令 [REDACTED]
    数据库密码我发你：Xy9kLm2pQs                        -> 数据库密码我发你：[REDACTED]
    the staging db password is Sup3rS3cret.             -> the staging db password is [REDACTED].
    password for app is Adm1n@2024                      -> password for app is [REDACTED]

Not secrets: MySQL's ``(using password: YES)``; a value with no ASCII letter or digit (``password: ******``,
``token: 已脱敏``); a placeholder (``true``, ``none``, ``required``, ``${DB_PASSWORD}``, ``$DB_PASSWORD``,
``PGPASSWORD=<your-password>``, ``{{ .Values.password }}``), a scheme word (``auth: basic``) or a path
(``private_key: /etc/ssl/key.pem``) as the value; a key with no value (``检查 db_password 是否配置``,
``rotate the db password``); a key that only ends like one (``max_tokens: 4096``, ``secretary=bob``); in prose,
a word, an id, a version, a count or a digest (``password reset requested 3 times``, ``token expired``, ``令牌
u-10023``). An unquoted value ends at whitespace, so the rest of a password with a space is not recognised (quoted
values are whole); a password of digits only in prose (``the password is 123456``) is not caught; an element named
as a placeholder with text after it on its line (``<password> psql -h db``) is read as an element holding that
text, so ``psql`` is replaced; cells of an HTML table (``<td>password</td><td>x</td>``) are glued together by the
normal form and not read.
"""

from __future__ import annotations

from ._base import (
    CJK_DELIMITERS,
    NOT_DONE,
    NOT_DONE_QUOTED,
    QUOTED_VALUE,
    SEPARATOR,
    UNQUOTED_END,
    Detector,
    detector,
    followed,
    group,
    not_placeholder,
    prose,
    secretish,
    unquoted,
    value,
)

KEY = (
    # password, passwd, pwd, passphrase, secret, token, credential[s], api/access/secret/private/account/shared
    # access + key, x-amz-signature; auth, sig as words; pass after _ . or - (by first letter: faster to scan)
    r"(?:p(?:ass(?:word|wd|phrase)|wd|rivate[ _-]?key)|s(?:ecret(?:[ _-]?key)?|hared[ _-]?access[ _-]?key)"
    r"|token|credentials?|a(?:pi|ccess|ccount)[ _-]?key|x-(?:amz|goog)-signature"
    r"|(?<![A-Za-z])(?:auth|sig)|(?<=[_.-])pass)"
)
"""A key that names a credential (case-insensitive): what it ends in."""
_SCHEMES = r"(?:bearer|basic|digest|negotiate|ntlm|kerberos|oauth2?|saml|oidc|ldap|mtls)"
_QUOTED_HAS_ALNUM = r"(?=\\?[\"'](?:[^\"'\n\[]|\[(?!REDACTED\]))*?[A-Za-z0-9])"
"""A quoted value holds a letter or a digit before any ``[REDACTED]`` in it."""
_NOT_A_VALUE = (
    not_placeholder(UNQUOTED_END) + r"(?!(?i:" + _SCHEMES + r")(?![^" + UNQUOTED_END + r"]))(?!/[A-Za-z0-9._-]++/)"
)
"""No placeholder, scheme word (``auth: basic``) or path (``private_key: /etc/ssl/key.pem``)."""
_VALUE = _QUOTED_HAS_ALNUM + r"(?:" + QUOTED_VALUE + r")|(?![\"'])" + value(UNQUOTED_END)
"""A quoted value with a letter or digit in it, or an unquoted one."""

_CONNECTION_STRING = (
    # Password=…; after a ';' (ADO.NET, ODBC, JDBC, Azure): the value runs to the next ';', spaces included
    r"(?=[ \tAaPpSs])(?:(?<=;)[ \t]{0,16}+(?i:p(?:assword|wd)|accountkey|sharedaccess(?:key|signature))[ \t]*+=[ \t]*+"
    + NOT_DONE
    + r"(?P<ado>\{(?=[^}\r\n]*?[A-Za-z0-9])[^}\r\n]*+\}?|"
    + value(r";\r\n\"'")
    + ")"
    # ODBC's Pwd={…} first in the string: the braces hold the value, ';' included
    + r"|(?<![\w.-])(?i:password|pwd)[ \t]*+=[ \t]*+(?P<brace>\{(?=[^}\r\n]*?[A-Za-z0-9])[^}\r\n]*+\}?))"
)
_KEY_AND_VALUE = (
    # key=value, key: value, "key": "value", \"key\": \"value\"; MySQL's "(using password: YES)" is no secret
    rf"(?=[AaCcPpSsTtXxſ])(?i:{KEY}\\?[\"']?[ \t]*+{SEPARATOR}[ \t]*+(?>(?:(?:bearer|basic|token|digest)[ \t]++)?))"
    + NOT_DONE_QUOTED
    + r"(?!(?i:YES|NO)\))"
    + _NOT_A_VALUE
    + r"(?P<kv>"
    + _VALUE
    + ")"
)
_NAMED_VALUE = (
    # key="db.password" value="x", name: DB_PASSWORD / value: x
    r"(?=[IiKkNnTt])(?i:(?<![\w-])(?:key|name|id|type)\\?[\"']?[ \t]{0,8}+[:=][ \t]{0,8}+(?P<quote>\\?[\"']?)"
    rf"[\w.-]{{0,64}}?{KEY}(?P=quote)(?![\w.-])[ \t]{{0,8}}+,?[ \t]{{0,8}}+(?:\r?\n[ \t-]{{0,32}}+)?"
    r"\\?[\"']?value\\?[\"']?[ \t]*+[:=][ \t]*+)" + NOT_DONE_QUOTED + _NOT_A_VALUE + r"(?P<named>" + _VALUE + ")"
)

_PIPE_CELLS = (
    # | password | x | inside a line (the normal form reads a row as text only at the start of one)
    rf"(?=[ \t\w.-])(?<=\|)[ \t]{{0,8}}+[\w. -]{{0,32}}?(?i:{KEY})[ \t]{{0,8}}+\|[ \t]{{0,8}}+"
    + NOT_DONE
    + not_placeholder(r"\s|")
    + r"(?!/[A-Za-z0-9._-]++/)(?P<cell>(?=[^|\n]*?[A-Za-z0-9])[^|\s](?:[^|\n]{0,200}?[^|\s])?)(?=[ \t]{0,8}+\|)"
)

_ZH_LABEL = r"(?:密码|口令|密钥|秘钥|私钥|令牌|凭证|凭据)"
_ZH_VALUE_CHAR = r"(?:[!#$%*+\-./0-9:=?@A-Z^_`a-z|~]|\[(?!REDACTED\])|\\(?![\"']))"
"""One character of a value after a Chinese label and ':': as for key=value, but ASCII and no bracket (the prose
after the value, or a note in brackets, is no part of it)."""
_ZH_AFTER_SEPARATOR = (
    # 数据库密码：Sup3rS3cret, "密码": "x", 密码为：x
    rf"(?=[密口秘私令凭]){_ZH_LABEL}\\?[\"']?[ \t]*+(?:[为是][ \t]*+)?{SEPARATOR}[ \t]*+"
    + NOT_DONE_QUOTED
    + not_placeholder(r"\s,;" + CJK_DELIMITERS)
    + r"(?P<zh_value>"
    + _QUOTED_HAS_ALNUM
    + r"(?:"
    + QUOTED_VALUE
    + r")|(?="
    + _ZH_VALUE_CHAR
    + r"*?[A-Za-z0-9])"
    + _ZH_VALUE_CHAR
    + "++)"
)
_ZH_IN_PROSE = (
    # 数据库密码 Sup3rS3cret, 签名密钥为 whsec_7Hq2LmP9xK, 账号口令 order:s3cr3tPass, 密码我发你：Xy9kLm2pQs
    rf"(?=[密口秘私令凭]){_ZH_LABEL}(?:[ \t]*+[为是][ \t]*+"
    + secretish("zh_is", bare=False)
    + r"|[ \t]*+"
    + secretish("zh_bare", bare=True)
    + rf"|[\u4e00-\u9fff]{{1,6}}?[ \t]*+(?:[为是]|{SEPARATOR})[ \t]*+"
    + secretish("zh_after_words", bare=False)
    + ")"
)

_EN_KEY = (
    r"(?<![A-Za-z])(?:password|passwd|passphrase|pwd|secret|token|credentials?|apikey"
    r"|(?:api|access|secret(?:[ _-]?access)?|private)[ _-]?key)(?![A-Za-z])"
)
_COPULA = (
    r"(?:(?:is|was|are|were)(?:[ \t]++(?:now|still))?(?:[ \t]++(?:set|changed|reset|updated)[ \t]++to)?"
    r"|(?:set|changed|reset|updated)[ \t]++to)(?![A-Za-z])"
)
_EN_IN_PROSE = (
    # the staging db password is Sup3rS3cret, password for app is Adm1n@2024, the API key was set to k3y-9d8c
    r"(?=[AaCcPpSsTt])(?i:"
    + _EN_KEY
    + r"(?:[ \t]++(?:for|of)(?:[ \t]++\S{1,64}+){1,3}?)?[ \t]++"
    + _COPULA
    + r"[ \t]*+[:=]?[ \t]*+[\"'“]?)"
    + secretish("en_is", bare=False)
    # tried password Passw0rd!23: a secret right after the word
    + r"|(?=[Pp])(?i:(?<![A-Za-z])(?:password|passwd|passphrase)[ \t]++[\"'“]?)"
    + secretish("en_bare", bare=True)
)

_AFTER_KEY = "\\\"' \t:=："
"""What can follow a key in ``key=value``: a backslash or quote, a space, a separator."""
_KEYS = "password|passwd|pwd|passphrase|secret|token|credential|credentials|key|auth|sig|pass|signature"
_ZH_LABELS = "密码|口令|密钥|秘钥|私钥|令牌|凭证|凭据"

DETECTORS: tuple[Detector, ...] = (
    detector(
        "secret_key_value",
        # a connection string's Password= first: its value runs to the next ';'
        f"{_CONNECTION_STRING}|{_KEY_AND_VALUE}",
        unquoted("ado", "brace", "kv"),
        ("password", "pwd", "accountkey", "sharedaccess", *followed(_KEYS, _AFTER_KEY)),
        16,
    ),
    detector("secret_key_value", _PIPE_CELLS, group("cell"), followed(_KEYS, " \t|"), 64),
    detector("secret_key_value", _NAMED_VALUE, unquoted("named"), followed("value", _AFTER_KEY), 200),
    detector("secret_key_value", _ZH_AFTER_SEPARATOR, unquoted("zh_value"), _ZH_LABELS, 0),
    detector("secret_key_value", _ZH_IN_PROSE, prose("zh_is", "zh_bare", "zh_after_words"), _ZH_LABELS, 0),
    detector(
        "secret_key_value",
        _EN_IN_PROSE,
        prose("en_is", "en_bare"),
        followed("password|passwd|passphrase|pwd|secret|token|credential|credentials|apikey|key", " \t"),
        10,
    ),
)
