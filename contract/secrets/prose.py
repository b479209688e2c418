"""``secret_key_value``, part three: a value a sentence gives for a credential, in Chinese or in English.

``Chinese label``: ``密码`` (``数据库密码``, ``登录密码`` …), ``口令``, ``密钥``, ``秘钥``, ``私钥``, ``令牌``,
``凭证``, ``凭据`` or ``授权码`` (an SMTP authorisation code is the mailbox's password): after ``:``, ``：`` or
``=`` (``为``/``是`` allowed before it), an ASCII value as for ``key=value``; after ``为``, ``是``, a space or
nothing, or after one to six Chinese characters and then ``为``, ``是`` or a separator (``密码我发你：x``,
``密码修改为 x``), an ASCII value that looks like a secret (``_base.secretish``).

``changed to``: a Chinese label, up to 24 characters of the same clause (no ``，``, ``。``, ``；``), then ``改成``/
``改为``/``设成``/``设为``/``换成``/``变成``/``更新为``/``重置为`` … (``了`` allowed after it), then a value that
looks like a secret (``Redis 密码在 19:15 被改成了 x``, ``root 的密码被改成了 x``).

``account and password``: ``账号``/``帐号``/``账户``/``用户名`` and a user name (or ``username:``, ``user=``,
``login:``, ``account:`` and one), then ``/`` and a value that looks like a secret and is no hex digest (``账号
admin / Gr4fana@2024``), or such a value alone on the next line: the password written with its account.

``English prose``: a key word (``password``, ``secret``, ``token``, ``api key``, ``credentials`` …), optionally
``for``/``of``/``between``/``from``/``with``/``on``/``in``/``used by`` and one to three words, then
``is``/``was``/``are`` [``now``/``still``] or ``set``/``changed``/``reset``/``updated to``, then a value that
looks like a secret; or then the value in parentheses (``The API key for x (V) is hard-coded``); right after
``password``, ``passwd`` or ``passphrase`` a value that looks like a secret and is no hex digest.

Examples (before -> after)::

    账号 app 的数据库密码 Sup3rS3cret 是否已轮换         -> 账号 app 的数据库密码 [REDACTED] 是否已轮换
    Basic 解码后的账号口令 order:s3cr3tPass              -> Basic 解码后的账号口令 [REDACTED]
    数据库密码我发你：Xy9kLm2pQs                        -> 数据库密码我发你：[REDACTED]
    发信邮箱 ops@x.com，授权码 Qw9eRt7yUi2o           -> 发信邮箱 ops@x.com，授权码 [REDACTED]
    MQ 密码在 03:10 被改成了 Mq9#pLx2，客户端未更新     -> MQ 密码在 03:10 被改成了 [REDACTED]，客户端未更新
    grafana 账号 admin / Gr4fana@2024                   -> grafana 账号 admin / [REDACTED]
    the staging db password is Sup3rS3cret.             -> the staging db password is [REDACTED].
    password for app is Adm1n@2024                      -> password for app is [REDACTED]
    the token for ci (Tk9xQ2mLp7) leaked                -> the token for ci ([REDACTED]) leaked
    The shared secret between a and b is vA+eS9Fk.      -> The shared secret between a and b is [REDACTED].

Not secrets: a label with no value, or a word, an id, a version, a count or a digest after it (``密码已轮换``,
``令牌 u-10023``, ``password reset requested 3 times``, ``token expired``, ``The shared secret between a and b
was rotated at 19:38``, ``The API key for x is injected from a Secret``); a user name followed by prose on the
next line. (A value of letters or digits only, or of words, is :mod:`.weak_values`: known by what introduces
it, not by its look.)
"""

from __future__ import annotations

from ._base import (
    CJK_DELIMITERS,
    NOT_DONE_QUOTED,
    QUOTED_HAS_ALNUM,
    QUOTED_VALUE,
    SEPARATOR,
    ZH_LABEL,
    ZH_LABELS,
    Detector,
    detector,
    followed,
    not_placeholder,
    prose,
    secretish,
    unquoted,
)

_ZH_FIRST = "[密口秘私令凭授]"
_ZH_VALUE_CHAR = r"(?:[!#$%*+\-./0-9:=?@A-Z^_`a-z|~]|\[(?!REDACTED\])|\\(?![\"']))"
"""One character of a value after a Chinese label and ':': as for key=value, but ASCII and no bracket (the prose
after the value, or a note in brackets, is no part of it)."""
_ZH_AFTER_SEPARATOR = (
    # 数据库密码：Sup3rS3cret, "密码": "x", 密码为：x
    rf"(?={_ZH_FIRST}){ZH_LABEL}\\?[\"']?[ \t]*+(?:[为是][ \t]*+)?{SEPARATOR}[ \t]*+"
    + NOT_DONE_QUOTED
    + not_placeholder(r"\s,;" + CJK_DELIMITERS)
    + r"(?P<zh_value>"
    + QUOTED_HAS_ALNUM
    + r"(?:"
    + QUOTED_VALUE
    + r")|(?="
    + _ZH_VALUE_CHAR
    + r"*?[A-Za-z0-9])"
    + _ZH_VALUE_CHAR
    + "++)"
)
_CHANGED_TO = r"(?:被|已)?(?:修?改|设置?|换|变|更新|重置|更换)(?:成|为)了?"
_ZH_IN_PROSE = (
    # 数据库密码 Sup3rS3cret, 签名密钥为 whsec_7Hq2LmP9xK, 账号口令 order:s3cr3tPass, 密码我发你：Xy9kLm2pQs
    rf"(?={_ZH_FIRST}){ZH_LABEL}(?:[ \t]*+[为是][ \t]*+"
    + secretish("zh_is", bare=False)
    + r"|[ \t]*+"
    + secretish("zh_bare", bare=True)
    + rf"|[\u4e00-\u9fff]{{1,6}}?[ \t]*+(?:[为是]|{SEPARATOR})[ \t]*+"
    + secretish("zh_after_words", bare=False)
    # Redis 密码在 19:15 被改成了 x, root 的密码被改成了 x
    + rf"|[^\n，。；,;]{{0,24}}?{_CHANGED_TO}[ \t]*+[:：]?[ \t]*+"
    + secretish("zh_changed", bare=False)
    + ")"
)
_ACCOUNT_THEN_SECRET = (
    # kibana 账号 elastic / Coupon@2022x, 账号 admin and Adm1n@2024 on the next line, username: admin / P@ssw0rd!
    r"(?=[账帐用UuLlAa])(?:(?:账号|帐号|账户|用户名)[ \t]*+[:：=]?[ \t]*+"
    r"|(?<![\w-])(?i:user(?:name)?|login|account)[:=][ \t]*+)"
    r"[A-Za-z0-9_.@-]{1,64}+(?:[ \t]*+/[ \t]*+"
    + secretish("after_slash", bare=True)
    + r"|[ \t]*+\n[ \t]*+"
    + secretish("next_line", bare=True)
    + r"[ \t]*+(?=\n|$))"
)

_EN_KEY = (
    r"(?<![A-Za-z])(?:password|passwd|passphrase|pwd|secret|token|credentials?|apikey"
    r"|(?:api|access|secret(?:[ _-]?access)?|private)[ _-]?key)(?![A-Za-z])"
)
_COPULA = (
    r"(?:(?:is|was|are|were)(?:[ \t]++(?:now|still))?(?:[ \t]++(?:set|changed|reset|updated)[ \t]++to)?"
    r"|(?:set|changed|reset|updated)[ \t]++to)(?![A-Za-z])"
)
_OF_WHAT = r"(?:[ \t]++(?:for|of|between|from|with|on|in|used[ \t]++by)(?:[ \t]++\S{1,64}+){1,3}?)?"
"""``for app``, ``between checkout-api and refund-worker``: what the key belongs to, one to three words."""
_EN_IN_PROSE = (
    # the staging db password is Sup3rS3cret, password for app is Adm1n@2024, the API key was set to k3y-9d8c
    r"(?=[AaCcPpSsTt])(?:(?i:"
    + _EN_KEY
    + _OF_WHAT
    + r"[ \t]++"
    + _COPULA
    + r"[ \t]*+[:=]?[ \t]*+[\"'“]?)"
    + secretish("en_is", bare=False)
    # The API key for settlement-job (V) is hard-coded
    + r"|(?i:"
    + _EN_KEY
    + _OF_WHAT
    + r"[ \t]*+\()"
    + secretish("en_paren", bare=False)
    + r"\))"
    # tried password Passw0rd!23: a secret right after the word
    + r"|(?=[Pp])(?i:(?<![A-Za-z])(?:password|passwd|passphrase)[ \t]++[\"'“]?)"
    + secretish("en_bare", bare=True)
)

DETECTORS: tuple[Detector, ...] = (
    detector("secret_key_value", _ZH_AFTER_SEPARATOR, unquoted("zh_value"), ZH_LABELS, 0),
    detector("secret_key_value", _ZH_IN_PROSE, prose("zh_is", "zh_bare", "zh_after_words", "zh_changed"), ZH_LABELS, 0),
    detector(
        "secret_key_value",
        _ACCOUNT_THEN_SECRET,
        prose("after_slash", "next_line"),
        # (user: and username: hold "ser:" and "sername:", stems that start as most stems do: see _triggers)
        ("账号", "帐号", "账户", "用户名", *followed("ser|sername|login|account", ":=")),
        1,
    ),
    detector(
        "secret_key_value",
        _EN_IN_PROSE,
        prose("en_is", "en_paren", "en_bare"),
        followed("password|passwd|passphrase|pwd|secret|token|credential|credentials|apikey|key", " \t("),
        10,
    ),
)
