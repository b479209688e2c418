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
prose, or an earlier ``[REDACTED]``); a scheme word after the separator is kept (``X-Auth: Bearer x``), and a
function that stores what it is given is looked into (``password = PASSWORD('x')``, ``MD5('x')``).

``named value``: ``key="…password" value="x"`` (``name``, ``id``, ``type`` for ``key``; ``=`` or ``:``, on one line
or the next), as in ``<add key="db.password" value="x"/>``, ``<input type="password" value="x">``, a Kubernetes
``- name: DB_PASSWORD`` / ``value: x`` and ``{"name": "DB_PASSWORD", "value": "x"}``.

``pipe cells``: ``| password | x |`` inside a line (a row at the start of one the normal form reads as text): a
cell ending in a key, then the next cell, spaces inside it included.

``table row``: a row of a table whose first cell names a credential (``| password | x |``, ``| 数据库密码 | x
|``, ``| root 密码 | x |``), which the normal form reads ``配置项: password; 值: x`` under a header: the next cell,
one token (any value, as for ``key=value``) or more than one whose first looks like a secret (``_base.secretish``).

Values that sentences give (``the db password is x``, ``数据库密码为 x``) are :mod:`.prose`.

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
    | 配置项 | 值 |…| db_password | Tr0ub4dor |          -> | 配置项 | 值 |…| db_password | [REDACTED] |

Not secrets: MySQL's ``(using password: YES)``; a value with no ASCII letter or digit (``password: ******``,
``token: 已脱敏``); a placeholder (``_base.PLACEHOLDER``: ``true``, ``none``, ``string``, ``sk-****``,
``${DB_PASSWORD}``, ``${MYSQL_ROOT_PASSWORD:?set it}``, ``${vault:secret/db#password}``, ``$DB_PASSWORD``,
``PGPASSWORD=<your-password>``, ``{{ .Values.password }}``, ``var.db_password``, ``(stored in Vault)``, ``24
bytes``), a scheme word (``auth: basic``) or a path (``private_key: /etc/ssl/key.pem``) as the value; the name in
a reference (``${DB_PASSWORD:?unset}``: ``:`` then ``?``, ``+`` or ``-`` is no separator) and a key that names a
Secret object (``existingSecret: redis``); a key with no value (``检查 db_password 是否配置``, ``rotate the db
password``); a key that only ends like one (``max_tokens: 4096``, ``secretary=bob``); a table row whose next cell
describes the credential (``| password | 用户登录密码 |``, ``| password | The user password |``). An unquoted
value ends at whitespace (the words after it on a key's own line are :mod:`.value_lines`); an element named as a
placeholder with text after it on its line (``<password> psql -h db``) is read as an element holding that text, so
``psql`` is replaced; a value that is a call (``password=getpass()``) is read as a value.
"""

from __future__ import annotations

from ._base import (
    CJK,
    NOT_DONE,
    NOT_DONE_QUOTED,
    QUOTED_HAS_ALNUM,
    QUOTED_VALUE,
    SEPARATOR,
    UNQUOTED_END,
    ZH_LABEL,
    ZH_LABELS,
    Detector,
    detector,
    followed,
    group,
    not_placeholder,
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
NOT_A_VALUE = (
    not_placeholder(UNQUOTED_END)
    + r"(?!\$\{[A-Za-z_][\w.-]*+\})"
    + r"(?!(?i:"
    + _SCHEMES
    + r")(?![^"
    + UNQUOTED_END
    + r"]))(?!/[A-Za-z0-9._-]++/)"
    # the name of a credential, not its value (an ExternalSecret's secretKey: password, property: token)
    + r"(?!(?:\\?[\"'])?(?i:password|passwd|secrets?|tokens?|credentials?|api[_-]?key|private[_-]?key)(?:\\?[\"'])?"
    + r"(?![^"
    + UNQUOTED_END
    + r"]))"
)
"""No placeholder, scheme word (``auth: basic``), path (``private_key: /etc/ssl/key.pem``) or the name of a credential
(``secretKey: password``). A value opening
with a whole ``${NAME}`` (a name only) is a reference whatever follows it: an unquoted value ends at the ``}``,
so all it could hold is the reference's inside (``password: ${DB_PASSWORD}: …``)."""
VALUE = QUOTED_HAS_ALNUM + r"(?:" + QUOTED_VALUE + r")|(?![\"'])" + value(UNQUOTED_END)
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
_HASHED = r"(?:(?:old_)?password|md5|sha[12]?|encrypt|aes_encrypt|crypt)[ \t]*+\([ \t]*+"
"""A function that stores what it is given (SQL's ``PASSWORD('x')``, ``MD5('x')``): the value is inside it."""
_KEY_AND_VALUE = (
    # key=value, key: value, "key": "value", \"key\": \"value\"; MySQL's "(using password: YES)" is no secret,
    # nor the name in a reference, ${DB_PASSWORD:?unset} (':' then '?', '+' or '-' is no separator)
    # and existingSecret: redis names a Secret object, not a value; SET password = PASSWORD('x') holds it inside
    r"(?=[AaCcPpSsTtXxſ])(?<!(?i:existing))(?<!(?i:existing)[_-])"
    rf"(?i:{KEY}\\?[\"']?[ \t]*+{SEPARATOR}(?!(?<=:)[?+-])[ \t]*+"
    rf"(?>(?:(?:bearer|basic|token|digest)[ \t]++|{_HASHED})?))"
    + NOT_DONE_QUOTED
    + r"(?!(?i:YES|NO)\))"
    + NOT_A_VALUE
    + r"(?P<kv>"
    + VALUE
    + ")"
)
_NAMED_VALUE = (
    # key="db.password" value="x", name: DB_PASSWORD / value: x
    r"(?=[IiKkNnTt])(?i:(?<![\w-])(?:key|name|id|type)\\?[\"']?[ \t]{0,8}+[:=][ \t]{0,8}+(?P<quote>\\?[\"']?)"
    rf"[\w.-]{{0,64}}?{KEY}(?P=quote)(?![\w.-])[ \t]{{0,8}}+,?[ \t]{{0,8}}+(?:\r?\n[ \t-]{{0,32}}+)?"
    r"\\?[\"']?value\\?[\"']?[ \t]*+[:=][ \t]*+)" + NOT_DONE_QUOTED + NOT_A_VALUE + r"(?P<named>" + VALUE + ")"
)

_PIPE_CELLS = (
    # | password | x | inside a line (the normal form reads a row as text only at the start of one)
    rf"(?=[ \t\w.-])(?<=\|)[ \t]{{0,8}}+[\w. -]{{0,32}}?(?i:{KEY})[ \t]{{0,8}}+\|[ \t]{{0,8}}+"
    + NOT_DONE
    + not_placeholder(r"\s|")
    + r"(?!/[A-Za-z0-9._-]++/)(?P<cell>(?=[^|\n]*?[A-Za-z0-9])[^|\s](?:[^|\n]{0,200}?[^|\s])?)(?=[ \t]{0,8}+\|)"
)

_KEY_CELL = (
    # 配置项: password; 值: x (a table row under a header): the first cell names a credential, the next holds it
    # under its header's label (the header row itself, "password; token", has none)
    r"(?=[^\n])(?<![^\n])[ \t]{0,8}+(?:[^\n;:]{1,32}+:[ \t]++)?"
    rf"[\w. -]{{0,32}}?(?:(?i:{KEY})|{ZH_LABEL});[ \t]++[^\n;:]{{1,32}}+:[ \t]++"
    + NOT_DONE
    + not_placeholder(r"\s;")
    + rf"(?!/[A-Za-z0-9._-]++/)(?![{CJK}])(?P<key_cell>(?=[^\s;]*?[A-Za-z0-9])[^\s;]++(?=[ \t]*+(?:;|\n|$))"
    + r"|(?="
    + secretish("cell_first", bare=False)
    + r")[^\n;]++)"
)

_AFTER_KEY = "\\\"' \t:=："
"""What can follow a key in ``key=value``: a backslash or quote, a space, a separator."""
KEY_WORDS = "password|passwd|pwd|passphrase|secret|token|credential|credentials|key|auth|sig|pass|signature"
"""Words one of which ends every ``KEY``: triggers, with what must follow the key."""

DETECTORS: tuple[Detector, ...] = (
    detector(
        "secret_key_value",
        # a connection string's Password= first: its value runs to the next ';'
        f"{_CONNECTION_STRING}|{_KEY_AND_VALUE}",
        unquoted("ado", "brace", "kv"),
        ("password", "pwd", "accountkey", "sharedaccess", *followed(KEY_WORDS, _AFTER_KEY)),
        16,
    ),
    detector("secret_key_value", _PIPE_CELLS, group("cell"), followed(KEY_WORDS, " \t|"), 64),
    detector("secret_key_value", _NAMED_VALUE, unquoted("named"), followed("value", _AFTER_KEY), 200),
    detector(
        "secret_key_value", _KEY_CELL, group("key_cell"), (*followed(KEY_WORDS, ";"), *followed(ZH_LABELS, ";")), 100
    ),
)
