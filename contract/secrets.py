"""One table of secret rules, used to redact free text and to find secrets in an answer before it is released.

``redact(text)`` replaces the *value* of each secret with ``[REDACTED]`` and keeps what is around it, so a log
line stays readable as evidence. ``secret_kinds(text)`` names the rules that find a secret in ``text``. A value
already ``[REDACTED]`` is not a secret, so ``redact`` is idempotent and ``secret_kinds(redact(text)[0]) == ()``.

The rules, in the order ``redact`` applies them (name: what it catches, then examples before -> after):

``private_key``: a PEM block from ``-----BEGIN [RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP ]PRIVATE KEY[ BLOCK]-----``
up to its END line, or to the end of the text when that line is missing::

    key=-----BEGIN RSA PRIVATE KEY-----\\nMIIE…\\n-----END RSA PRIVATE KEY----- ok  -> key=[REDACTED] ok

``url_userinfo``: a URL's whole user-info part (``user:pass@``, ``:pass@``, ``token@``); without a scheme,
``user:password@host[:port]`` whose user starts with a letter and is no label (``mailto:``, ``to:``, ``user:``,
``id:`` …), whose password holds a digit or a sign and is no id (``order-123``) or port, and whose host ends the
token (not ``nginx:1.25@sha256:…``)::

    jdbc:mysql://app:Sup3rS3cret@db-1:3306/order_db    -> jdbc:mysql://[REDACTED]@db-1:3306/order_db
    连接目标 app:Sup3rS3cret@db-1:3306/order_db          -> 连接目标 [REDACTED]@db-1:3306/order_db

``authorization_header``: ``Authorization`` / ``Proxy-Authorization`` values; a known scheme word is kept::

    Authorization: Basic dXNlcjpwYXNz                   -> Authorization: Basic [REDACTED]

``bearer_token``: bare ``Bearer`` tokens (``Bearer token``, ``bearer auth`` and the like are words, not tokens);
after ``Bearer token``/``Bearer access token``/``Bearer 令牌``, a token after ``:``/``=``, or one of 8 or more
characters with a digit after a space, ``is``, ``为`` or ``是``::

    calling upstream with Bearer mF_9.B5f-4.1JqM        -> calling upstream with Bearer [REDACTED]
    吊销 Bearer 令牌 mF_9.B5f-4.1JqM                     -> 吊销 Bearer 令牌 [REDACTED]

``jwt``: JWTs anywhere, and a JWT payload quoted on its own (base64url of ``{"sub":``, ``{"iss":``, ``{"aud":``,
``{"exp":``, ``{"nbf":``, ``{"iat":`` or ``{"jti":`` and 16 more characters; a header, ``{"alg":``, is public)::

    session eyJhbGciOi….eyJzdWIiOi….SflKxw ok          -> session [REDACTED] ok
    载荷段 eyJzdWIiOiJ1LTEwMDIz… 是否匹配               -> 载荷段 [REDACTED] 是否匹配

``cloud_access_key``: fixed-shape keys: AWS ids (``AKIA``, ``ASIA``, ``AIDA``, ``AROA``, ``AGPA``, ``ANPA`` + 16),
Alibaba Cloud ``LTAI…``, Google ``AIza…`` (39), Tencent Cloud ``AKID…``, GitHub ``ghp_``/``gho_``/``ghu_``/
``ghs_``/``ghr_`` (+ 36 or more) and ``github_pat_…``, Slack ``xoxb-…`` (``xox[abprs]``), webhook ``whsec_…``,
``<2-10 letters>_live_``/``_test_`` + 8 or more letters and digits with a digit or a capital (``sk_live_…``,
``tk_live_…``, ``rk_test_…``); a bare AWS secret access key: a whole token of 40 of ``[A-Za-z0-9/+]`` with a
capital, a small letter and a digit, at most three ``/`` and no ``/`` first (not a sha1, not a path)::

    key ASIAY34FZKBOKMUTVV7A used                       -> key [REDACTED] used
    secret key（wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY） -> secret key（[REDACTED]）

``secret_key_value``: ``key=value``, ``key: value``, ``"key": "value"`` whose key ends in password, passwd, pwd,
passphrase, secret, token, api_key/apikey/api-key, access_key or private_key (``db_password``, ``client_secret``,
``X-Api-Key``, ``--password``); a connection string's ``;Password=…;`` (the value runs to the next ``;``, spaces
included); ``mysql``/``mysqldump``/``mysqladmin`` with ``-pSECRET``; a Chinese label ``密码`` (``数据库密码``,
``登录密码``, ``管理员密码`` …), ``口令``, ``密钥`` (``签名密钥``), ``秘钥``, ``私钥`` or ``令牌``: after ``:``, ``：``
or ``=`` an ASCII value as for ``key=value``; after ``为``, ``是``, a space or nothing, an ASCII value that looks
like a secret (6 or more characters with a letter and a digit, not only capitals and digits like ``RSA2048`` or a
time, no id like ``u-10023``, no ``key=value``, path, URL or algorithm name like ``Base64``)::

    ?user=ops&password=Passw0rd!23&next=/               -> ?user=ops&password=[REDACTED]&next=/
    {"password": "Tr0ub4dor&3"}                         -> {"password": "[REDACTED]"}
    Server=db;User Id=app;Password=my pass;             -> Server=db;User Id=app;Password=[REDACTED];
    mysql -h db -uroot -pS3cret order_db                -> mysql -h db -uroot -p[REDACTED] order_db
    账号 app 的数据库密码 Sup3rS3cret 是否已轮换         -> 账号 app 的数据库密码 [REDACTED] 是否已轮换
    Basic 解码后的账号口令 order:s3cr3tPass              -> Basic 解码后的账号口令 [REDACTED]

``one_time_code``: OTP and verification codes after a key (otp, totp, hotp, passcode, one_time_password,
verification_code, verify_code, sms_code, auth_code, mfa_code, 2fa_code, security_code, captcha, …; a value of 4
or more letters and digits with a digit) or a label in prose (``OTP is``, ``OTP 为``, ``verification code:``,
``one-time code``, ``验证码``/``动态码``/``动态密码``/``短信码``/``校验码``/``一次性密码`` [``为``/``是``/``：``])
followed by a code of 4 to 8 digits, or 4 to 8 letters and digits with a digit, that is not a count
(``验证码 1000 次``); the key or label is kept::

    {"username":"ops","sms_code":"3391"}                -> {"username":"ops","sms_code":"[REDACTED]"}
    您的验证码是 482913，5 分钟内有效                    -> 您的验证码是 [REDACTED]，5 分钟内有效

Full-width and other compatibility forms: every rule also runs on the text folded by NFKC where NFKC gives one
ASCII character for one character (``ｐａｓｓｗｏｒｄ＝x`` -> ``password=x``, ``　`` -> `` ``, ``①`` -> ``1``), so
positions agree and ``redact`` replaces what it finds there in the text as written (``ｐａｓｓｗｏｒｄ＝[REDACTED]``).
A text whose only such characters are the punctuation of Chinese prose, ``，（）；：！？``, is not folded: the rules
take ``：`` as they take ``:``, and an unquoted value ends at ``，；。、（）「」`` as at ``,`` and ``;``.

Not secrets: MySQL's ``(using password: YES)``; a ``key=value`` whose unquoted value has no ASCII letter or
digit (``token: 过期``, ``password: 已脱敏``); a label with no code after it (``验证码错误 3 次``, ``OTP 服务超时``).
An unquoted value ends at whitespace, ``&``, ``,``, ``;`` or an earlier ``[REDACTED]``, so the rest of a
password containing those characters is not recognised; quoted values are whole, and in JSON-escaped text
(``\\"password\\": \\"x\\"``) the escaped quotes are kept. Not caught: a ``user:password`` with no ``@`` and no
label before it (``order:s3cr3tPass`` alone reads like any ``key:value``), a password of letters only without
``:`` after a Chinese label or in ``user:password@host`` (``guest:guest@mq``), and a JWT signature quoted on its
own (any base64url).

Every pattern is linear in the input: it can start only at the beginning of a token (a look-behind rules out the
positions inside it) or at a fixed word, and no quantified part can fail after scanning far (values are
possessive; a look-ahead that scans stays inside one token, or is bounded), so adversarial input cannot make a
pattern backtrack quadratically. Each pattern opens with a look-ahead for its possible first characters, which
lets the regex engine skip the other positions fast. Each rule also lists words one of which every match holds
(its triggers): one scan of the casefolded text (a regex built as a trie of the words) finds whether any is
there, and most log lines run no rule; a rule whose matches can hold no trigger word (the bare AWS secret key)
names a cheap pattern every such match holds (a run of 40 base64 characters) instead.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

REDACTED = "[REDACTED]"
_NOT_DONE = r"(?!\[REDACTED\])"
_NOT_DONE_QUOTED = r"(?!(?:\\\"|\"|')?\[REDACTED\])"

Span = Callable[[re.Match[str]], tuple[int, int]]


@dataclass(frozen=True)
class SecretRule:
    """One kind of secret: how to find it and which part of a match becomes ``[REDACTED]``."""

    name: str
    """Stable snake_case kind, reported by ``secret_kinds`` and listed by the release gate."""
    pattern: re.Pattern[str]
    """What the rule finds: every match holds a secret."""
    span: Span
    """Where the secret lies in a match (absolute positions): ``redact`` replaces it and keeps the rest."""
    triggers: tuple[str, ...]
    """Casefolded words of which every match holds one: text with none of them skips the rule unscanned."""
    untriggered: re.Pattern[str] | None = None
    """What every match that holds none of ``triggers`` holds (a key with no word before it): text where this
    finds something runs the rule too."""

    def replace(self, match: re.Match[str]) -> str:
        """The text of ``match`` with its secret replaced by ``[REDACTED]``."""
        start, end = self.span(match)
        text, offset = match.group(), match.start()
        return text[: start - offset] + REDACTED + text[end - offset :]


def _whole(match: re.Match[str]) -> tuple[int, int]:
    return match.span()


def _group(*groups: str) -> Span:
    """The span of the first of ``groups`` that took part in the match."""

    def span(match: re.Match[str]) -> tuple[int, int]:
        return match.span(next(group for group in groups if match[group] is not None))

    return span


def _userinfo(match: re.Match[str]) -> tuple[int, int]:
    """A URL's user-info between ``scheme://`` and ``@``; without a scheme the match is ``user:password``."""
    return (match.end("scheme"), match.end() - 1) if match["scheme"] is not None else match.span()


def _key_value(match: re.Match[str]) -> tuple[int, int]:
    """A key's value inside its quotes: ``"x"`` -> ``"[REDACTED]"``, ``\\"x\\"`` -> ``\\"[REDACTED]\\"``."""
    if match["ado"] is not None:
        return match.end("ado"), match.end()
    name = next(group for group in ("value", "arg", "zh_value", "zh_secret") if match[group] is not None)
    start, end = match.span(name)
    value = match[name]
    for quote in ('\\"', '"', "'"):
        if value.startswith(quote):
            closed = len(value) >= 2 * len(quote) and value.endswith(quote)
            return start + len(quote), end - (len(quote) if closed else 0)
    return start, end


def _char(excluded: str) -> str:
    """One character of a value: not in ``excluded``, not the start of an earlier ``[REDACTED]``, and not a
    backslash before a quote (in JSON-escaped text that ends the value and must stay)."""
    return r"(?:[^" + excluded + r"\[\\]|\[(?!REDACTED\])|\\(?![\"']))"


def _value(excluded: str) -> str:
    """A run of ``_char(excluded)`` that holds an ASCII letter or digit (``已脱敏`` and ``---`` are no secrets)."""
    char = _char(excluded)
    return r"(?=" + char + r"*?[A-Za-z0-9])" + char + "++"


_CJK_DELIMITERS = "，；。、（）「」"
"""End an unquoted value as ``,`` and ``;`` do: ``password=x，已轮换`` keeps ``，已轮换``."""
_SEPARATOR = r"[:=：]"
"""``key: value``, ``key=value``, and the full-width colon of Chinese text (other full-width forms are folded)."""

_URL_USERINFO = re.compile(
    r"(?=[A-Za-z])(?<![A-Za-z0-9+.-])(?:(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*://)" + _NOT_DONE + _char(r"\s/?#") + "+@"
    # user:password@host[:port] without a scheme: the user starts with a letter (no time, 02:05:09@…), is no
    # label (no e-mail, to:ops@example.com), the password has a digit or a sign and is no id (id:order-123@…) or
    # port, the host ends the token (no image digest, nginx:1.25@sha256:…)
    r"|(?<![_~%/:@\\])(?=[A-Za-z][A-Za-z0-9._~-]{0,63}+:)"
    r"(?!(?i:mailto|e-?mail|mail|to|from|cc|bcc|reply-to|sender|recipient|contact|user|username|login|account"
    r"|owner|author|by|at|via|id|uid):)"
    r"[A-Za-z][A-Za-z0-9._~-]{0,63}+:"
    r"(?![A-Za-z]++[-_.][0-9]++@|[0-9]{1,5}+@)"
    r"(?=[!$%&*+=^|~0-9A-Za-z._-]{0,127}?[0-9!$%&*+=^|~])"
    r"[!$%&*+=^|~0-9A-Za-z._-]{1,128}+"
    r"(?=@[A-Za-z0-9][A-Za-z0-9-]*+(?:\.[A-Za-z0-9-]++)*+(?::[0-9]{1,5}+)?+(?![A-Za-z0-9_:@-])))"
)

_AUTH_SCHEME = r"(?:bearer|basic|digest|negotiate|ntlm|token|apikey|hmac|aws4-hmac-sha256)"
_AUTHORIZATION = re.compile(
    r"(?i)(?=[ap])(?<![\w-])(?P<head>(?:proxy-)?authorization\\?[\"']?[ \t]*"
    + _SEPARATOR
    + r"[ \t]*(?:\\?[\"'])?(?>(?:"
    + _AUTH_SCHEME
    + r"[ \t]+)?))"
    + _NOT_DONE
    + r"(?!"
    + _AUTH_SCHEME
    + r"(?![^\s\"',;]))(?P<value>"
    + _value(r"\s\"',;" + _CJK_DELIMITERS)
    + ")"
)

_B64TOKEN = r"[A-Za-z0-9._~+/-]"
_BEARER = re.compile(
    "".join(
        (
            r"(?i)(?=b)(?<![\w-])bearer(?:[ \t]+",
            _NOT_DONE,
            r"(?!(?:tokens?|access|auth|authentication|header|scheme|realm)\b)",
            rf"(?P<value>{_B64TOKEN}+=*)",
            # Bearer token: X, Bearer 令牌 X: after a word, a value after ':' or '=', or else one of 8 or more
            # characters with a digit (invalid Bearer token in request, Bearer token v2 are words)
            r"|[ \t]*+(?:access[ \t]+)?(?:tokens?|令牌)",
            rf"(?:[ \t]*+{_SEPARATOR}[ \t]*+",
            rf"|[ \t]*+(?:为|是|(?<=[ \t])(?:is|was)[ \t])?[ \t]*+(?={_B64TOKEN}{{8}})(?={_B64TOKEN}*?[0-9]))",
            _NOT_DONE,
            rf"(?P<named>(?={_B64TOKEN}*?[A-Za-z0-9]){_B64TOKEN}++=*))",
        )
    )
)

_JWT = re.compile(
    r"(?=e)(?<![A-Za-z0-9_-])eyJ(?:[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*"
    # a payload quoted on its own: base64url of {"sub":, {"iss":, {"aud":, {"exp":, {"nbf":, {"iat":, {"jti":
    # (a header, {"alg": or {"typ":, is public and not matched)
    r"|(?:zdWIi|pc3Mi|hdWQi|leHAi|uYmYi|pYXQi|qdGki)O[A-Za-z0-9_-]{16,}+(?:\.[A-Za-z0-9_-]++)?+(?![A-Za-z0-9_-]))"
)

_PRIVATE_KEY = re.compile(
    r"-----BEGIN (?P<label>(?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?)-----"
    r"[\s\S]*?(?:-----END (?P=label)-----|\Z)"
)

_FIXED_SHAPE_KEYS = (
    r"LTAI[A-Za-z0-9]{12,20}+",  # Alibaba Cloud
    r"AIza[A-Za-z0-9_-]{35}(?![_-])",  # Google API key
    r"AKID[A-Za-z0-9]{13,40}+",  # Tencent Cloud
    r"gh[pousr]_[A-Za-z0-9]{36,}+",  # GitHub
    r"github_pat_[A-Za-z0-9_]{22,}+",
    r"xox[abprs]-(?=[A-Za-z-]*+[0-9])[A-Za-z0-9-]{10,}+",  # Slack
    r"whsec_[A-Za-z0-9]{8,}+",  # webhook signing secret
    # sk_live_…, rk_test_…, tk_live_…: a digit or a capital in the key (run_test_migration is a name)
    r"[A-Za-z]{2,10}_(?:live|test)_(?=[a-z]*+[A-Z0-9])[A-Za-z0-9]{8,}+(?!_)",
)
_AWS_SECRET_KEY = (
    # a whole token of 40 base64 characters with a capital, a small letter and a digit, starting with a letter or
    # a digit and holding at most three '/' (a lower-case sha1 and a path are no keys)
    r"(?<![A-Za-z0-9/+_.-])(?=[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=_.-]))"
    r"(?=[a-z0-9/+]{0,39}[A-Z])(?=[A-Z0-9/+]{0,39}[a-z])(?=[A-Za-z/+]{0,39}[0-9])"
    r"(?![A-Za-z0-9+]*+/[A-Za-z0-9+]*+/[A-Za-z0-9+]*+/[A-Za-z0-9+]*+/)[A-Za-z0-9][A-Za-z0-9/+]{39}"
)
_CLOUD_ACCESS_KEY = re.compile(
    r"(?=[A-Za-z0-9])(?:"
    r"(?<![A-Z0-9])(?:AKIA|ASIA|AIDA|AROA|AGPA|ANPA)[A-Z0-9]{16}(?![A-Z0-9])"  # AWS key id
    r"|(?<![A-Za-z0-9_-])(?:" + "|".join(_FIXED_SHAPE_KEYS) + r")(?![A-Za-z0-9])"
    r"|" + _AWS_SECRET_KEY + ")"
)
_BASE64_RUN = re.compile(r"(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}")
"""What a bare AWS secret access key holds, found with no trigger word."""

_SECRET_KEY = r"(?:password|passwd|pwd|passphrase|secret|token|api[_-]?key|access[_-]?key|private[_-]?key)"
_CONNECTION_STRING_PASSWORD = (
    # Password=…; after a ';' (ADO.NET, JDBC): the value runs to the next ';', spaces included.
    r"(?<=;)(?P<ado>[ \t]*+(?i:password|pwd)[ \t]*+=[ \t]*+)" + _NOT_DONE + _value(r";\r\n\"'")
)
_QUOTED_VALUE = r"\\\"[^\"\\\n]*(?:\\\")?|\"(?:[^\"\\\n]|\\.)*\"?|'[^'\n]*'?"
_KEY_AND_VALUE = (
    # key=value, key: value, "key": "value", \"key\": \"value\"; MySQL's "(using password: YES)" is no secret
    rf"(?i:(?P<head>{_SECRET_KEY}\\?[\"']?[ \t]*{_SEPARATOR}[ \t]*)"
    + _NOT_DONE_QUOTED
    + r"(?!(?:YES|NO)\))(?P<value>"
    + _QUOTED_VALUE
    + "|"
    + _value(r"\s&,;\"'<>)\]}" + _CJK_DELIMITERS)
    + "))"
)
_MYSQL_CLIENT_PASSWORD = (
    # mysql -pSECRET: the password glued to -p (a bare -p makes the client prompt for it)
    r"(?<![\w.-])(?P<cli>(?:mysql|mysqldump|mysqladmin)(?:[ \t]++\S++){0,16}?[ \t]++-p)"
    + _NOT_DONE_QUOTED
    + r"(?P<arg>'[^'\n]*+'?|\"[^\"\n]*+\"?|(?![\"'])"
    + _value(r"\s")
    + ")"
)
_ZH_SECRET_LABEL = r"(?:密码|口令|密钥|秘钥|私钥|令牌)"
_ZH_VALUE_CHAR = r"(?:[!#$%*+\-./0-9:=?@A-Z^_`a-z|~]|\[(?!REDACTED\])|\\(?![\"']))"
"""One character of a value after a Chinese label and ':': as ``_char`` gives for ``key=value``, but ASCII and no
bracket (the prose after the value, or a note in brackets, is no part of it)."""
_ZH_LABEL_AND_VALUE = (
    # 数据库密码：Sup3rS3cret, "密码": "x": after ':' or '=', a value as for key=value
    _ZH_SECRET_LABEL
    + r"\\?[\"']?[ \t]*+"
    + _SEPARATOR
    + r"[ \t]*+"
    + _NOT_DONE_QUOTED
    + r"(?P<zh_value>"
    + _QUOTED_VALUE
    + r"|(?="
    + _ZH_VALUE_CHAR
    + r"*?[A-Za-z0-9])"
    + _ZH_VALUE_CHAR
    + "++)"
)
_ZH_CHAR = r"[!#$%&*+\-./0-9:=?@A-Z^_a-z|~]"
"""One character of a secret written after a Chinese label without ':' (ASCII, not a bracket, quote or comma)."""
_ZH_NOT_SECRET = (
    # names of algorithms, encodings and versions: 密钥 Base64 编码, 令牌 OAuth2.0, 私钥 sha256
    r"base(?:32|64)(?:url)?|oauth[0-9.]*|utf-?8|(?:hmac-?)?sha-?[0-9]+|md5|aes-?[0-9]+|rsa-?[0-9]*|[ehr]s[0-9]+"
    r"|pkcs#?[0-9]+|x\.?509|v[0-9]+(?:\.[0-9]+)*|tls[0-9.]*|ssl[0-9.]*|ipv[46]"
)
_ZH_SECRET_END = rf"(?!{_ZH_CHAR})"
_ZH_LABEL_THEN_SECRET = "".join(
    (
        # 数据库密码 Sup3rS3cret, 签名密钥为 whsec_7Hq2LmP9xK, 账号口令 order:s3cr3tPass: without ':' the value must
        # look like a secret: 6 or more characters with a letter and a digit, not only capitals and digits
        # (RSA2048, a time), no id (u-10023, HikariPool-1), no key=value (ttl=7200), no path or URL, no algorithm
        _ZH_SECRET_LABEL,
        r"(?:[ \t]*+[为是])?[ \t]*+",
        rf"(?={_ZH_CHAR}{{6}})(?={_ZH_CHAR}*?[0-9])(?={_ZH_CHAR}*?[A-Za-z])",
        rf"(?![A-Z0-9_.:+-]++{_ZH_SECRET_END})",
        rf"(?![A-Za-z]++[-_.][0-9]++{_ZH_SECRET_END})",
        rf"(?![A-Za-z_][A-Za-z0-9_.-]*+=|[/~.]|{_ZH_CHAR}*?://)",
        rf"(?!(?i:{_ZH_NOT_SECRET}){_ZH_SECRET_END})",
        rf"(?P<zh_secret>{_ZH_CHAR}++)",
    )
)
_KEY_VALUE = re.compile(
    # one look-ahead for the first characters of all five (ſ: (?i) lets it stand for s)
    r"(?=[ \tAaMmOoPpSsTtſ密口秘私令])(?:"
    + "|".join(
        (
            _CONNECTION_STRING_PASSWORD,
            _KEY_AND_VALUE,
            _MYSQL_CLIENT_PASSWORD,
            _ZH_LABEL_AND_VALUE,
            _ZH_LABEL_THEN_SECRET,
        )
    )
    + ")"
)

_CODE_KEY = (
    r"(?:otp(?:[_-]?code)?|passcode|one[_-]?time[_-]?(?:password|passcode|code|pin)|verif(?:y|ication)[_-]?code"
    r"|sms[_-]?code|auth[_-]?code|mfa[_-]?code|2fa[_-]?code|security[_-]?code|captcha(?:[_-]?code)?)"
)
_CODE = r"(?=[A-Za-z]*+[0-9])[A-Za-z0-9]{4,8}+(?![A-Za-z0-9])"
"""A code in prose: 4 to 8 digits, or 4 to 8 letters and digits with at least one digit."""
_NOT_A_COUNT = (
    r"(?![ \t]*+(?:次|个|位|条|秒|分|年|月|日|天|小时"
    r"|(?i:ms|s|secs?|seconds?|mins?|minutes?|times|attempts?|retries|tries|requests?)(?![A-Za-z])))"
)
_CODE_AFTER_KEY = (
    # otp=482913, "sms_code": "3391", \"verify_code\":\"482913\"
    r"(?i:(?P<key>" + _CODE_KEY + r"\\?[\"']?[ \t]*+" + _SEPARATOR + r"[ \t]*+(?:\\?[\"'])?)"
    r"(?P<key_code>(?=[A-Za-z]*+[0-9])[A-Za-z0-9]{4,}+))"
)
_CODE_IN_ENGLISH = (
    # OTP is 482913, verification code: 482913, one-time code 482913, OTP 为 482913
    r"(?i:(?<![A-Za-z0-9])"
    r"(?:otp(?:[ \t]code)?|totp|passcode|one[- ]?time[ \t](?:code|password|passcode|pin)"
    r"|(?:verification|security|sms|2fa|mfa)[ \t]code)"
    r"(?:[ \t]*+(?:" + _SEPARATOR + r"|为|是)[ \t]*+|[ \t]++(?:(?:is|was)[ \t]*+[:：]?[ \t]*+)?)"
    r"(?P<en_code>" + _CODE + r"))" + _NOT_A_COUNT
)
_CODE_IN_CHINESE = (
    # 验证码：482913, 您的动态密码为 482913, "验证码": "482913"
    r"(?:验证码|动态码|动态密码|短信码|校验码|一次性密码)"
    rf"\\?[\"']?[ \t]*+(?:[为是][ \t]*+)?(?:{_SEPARATOR}[ \t]*+)?(?:\\?[\"'])?(?P<zh_code>{_CODE})" + _NOT_A_COUNT
)
_ONE_TIME_CODE = re.compile(
    r"(?=[2AaCcMmOoPpSsTtVvſ验动短校一])(?:" + "|".join((_CODE_AFTER_KEY, _CODE_IN_ENGLISH, _CODE_IN_CHINESE)) + ")"
)


def _words(spec: str) -> tuple[str, ...]:
    return tuple(spec.split("|"))


RULES: tuple[SecretRule, ...] = (
    SecretRule("private_key", _PRIVATE_KEY, _whole, ("-----begin ",)),
    SecretRule("url_userinfo", _URL_USERINFO, _userinfo, ("@",)),
    SecretRule("authorization_header", _AUTHORIZATION, _group("value"), ("authorization",)),
    SecretRule("bearer_token", _BEARER, _group("value", "named"), ("bearer",)),
    SecretRule("jwt", _JWT, _whole, ("eyj",)),
    SecretRule(
        "cloud_access_key",
        _CLOUD_ACCESS_KEY,
        _whole,
        _words(
            "akia|asia|aida|aroa|agpa|anpa|ltai|aiza|akid|ghp_|gho_|ghu_|ghs_|ghr_|github_pat_|xox|_live_|_test_|whsec_"
        ),
        _BASE64_RUN,
    ),
    SecretRule(
        "secret_key_value",
        _KEY_VALUE,
        _key_value,
        _words(
            "pass|pwd|secret|token|mysql|api_key|apikey|api-key|access_key|accesskey|access-key"
            "|private_key|privatekey|private-key|密码|口令|密钥|秘钥|私钥|令牌"
        ),
    ),
    SecretRule(
        "one_time_code",
        _ONE_TIME_CODE,
        _group("key_code", "en_code", "zh_code"),
        _words(
            "otp|passcode|one_time|one-time|one time|onetime|verif|sms|mfa|2fa|auth_code|authcode|auth-code"
            "|security|captcha|验证码|动态码|动态密码|短信码|校验码|一次性密码"
        ),
    ),
)
"""Every kind of secret, in the order ``redact`` applies them."""


_Trie = dict[str, "_Trie"]


def _any_of(words: tuple[str, ...]) -> re.Pattern[str]:
    """A regex that finds any of ``words``, built as a trie (``a(?:kia|sia|…)``): one scan that fails fast."""
    trie: _Trie = {}
    for word in words:
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def regex(node: _Trie) -> str:
        branches = [re.escape(char) + regex(child) for char, child in sorted(node.items()) if char]
        if not branches:
            return ""
        either = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return "(?:" + either + ")?" if "" in node else either

    return re.compile(regex(trie))


_TRIGGERS = tuple(dict.fromkeys(word for rule in RULES for word in rule.triggers))
_ASCII_TRIGGERS = tuple(word for word in _TRIGGERS if word.isascii())
_ANY_TRIGGER = _any_of(_TRIGGERS)
_ANY_ASCII_TRIGGER = _any_of(_ASCII_TRIGGERS)
_UNTRIGGERED = [(rule, rule.untriggered) for rule in RULES if rule.untriggered is not None]

_MAX_PASSES = 4
"""A rule that replaced something runs again, since one of its matches can hide another that overlaps it
(``mysql … -pX`` around ``\\"password\\": \\"…``) and a redacted text must be clean. Two passes are the most seen."""

_FOLDING_BLOCKS = (
    (0x80, 0x400),
    (0x1D00, 0x3400),
    (0xA700, 0xA800),
    (0xFB00, 0xFFF0),
    (0x10780, 0x107C0),
    (0x1D400, 0x1D800),
    (0x1F100, 0x1FC00),
)
"""The blocks that hold every character whose NFKC form is one ASCII character (a test checks it)."""
_FOLD = {
    char: folded
    for first, last in _FOLDING_BLOCKS
    for char in map(chr, range(first, last))
    if len(folded := unicodedata.normalize("NFKC", char)) == 1 and folded.isascii()
}
"""``：`` -> ``:``, ``ｐ`` -> ``p``, ``＝`` -> ``=``, ``　`` -> `` ``, ``①`` -> ``1``: NFKC, one character for one."""
_FOLD_TABLE = str.maketrans(_FOLD)
_CJK_PUNCTUATION = "，（）；：！？"
"""Full-width punctuation of any Chinese sentence: alone, it does not make a text be folded (the rules take ``：``
as they take ``:``; ``，（）；！？`` start no secret)."""


def _class(chars: list[str], *, beyond_bmp: bool = False) -> str:
    """A regex character class of ``chars``, as ranges; with ``beyond_bmp``, of every character beyond the BMP
    too (in place of those of ``chars``: a class of few ranges is faster to test)."""
    spans: list[list[int]] = [[0x10000, 0x10FFFF]] if beyond_bmp else []
    for code in sorted(code for code in map(ord, chars) if code <= 0xFFFF or not beyond_bmp):
        if spans and code == spans[-1][1] + 1:
            spans[-1][1] = code
        else:
            spans.append([code, code])
    return "[" + "".join(re.escape(chr(a)) + ("-" + re.escape(chr(b)) if b > a else "") for a, b in spans) + "]"


_FOLDS = re.compile(_class([char for char in _FOLD if char not in _CJK_PUNCTUATION], beyond_bmp=True))
"""A character that folding changes, but for the punctuation of Chinese prose (and any beyond the BMP)."""


def _rules_for(text: str) -> list[SecretRule]:
    """The rules whose trigger words ``text`` holds: one scan, and none at all for most log lines."""
    folded = text.casefold()
    if text.isascii():
        words = _ASCII_TRIGGERS if _ANY_ASCII_TRIGGER.search(folded) else ()
    else:
        # (?i) also lets "ı" and "İ" stand for "i"; casefold() keeps the first and gives "i" + U+0307 for the second.
        folded = folded.replace("ı", "i").replace("\u0307", "")
        words = _TRIGGERS if _ANY_TRIGGER.search(folded) else ()
    found = set(filter(folded.__contains__, words))
    untriggered = [rule for rule, pattern in _UNTRIGGERED if pattern.search(text)]
    if not found and not untriggered:
        return []
    return [rule for rule in RULES if rule in untriggered or not found.isdisjoint(rule.triggers)]


def _fold(text: str) -> str | None:
    """``text`` with full-width and other compatibility characters as ASCII (``password＝x`` -> ``password=x``),
    NFKC one character for one so that positions agree; None when ``text`` has none beyond ``，（）；：！？``."""
    if text.isascii() or not _FOLDS.search(text):
        return None
    folded = text.translate(_FOLD_TABLE)
    return folded if folded != text else None


def _splice(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with each of ``spans`` (in order, not overlapping) replaced by ``[REDACTED]``."""
    pieces: list[str] = []
    last = 0
    for start, end in spans:
        pieces += (text[last:start], REDACTED)
        last = end
    pieces.append(text[last:])
    return "".join(pieces)


def redact(text: str) -> tuple[str, bool]:
    """``text`` with every secret value replaced by ``[REDACTED]`` (context kept), and whether anything changed.

    A secret written in full-width or other compatibility characters (``ｐａｓｓｗｏｒｄ＝Passw0rd``) is found in
    the folded text and replaced in ``text``, whose other characters stay as they are. Idempotent: redacting a
    redacted text changes nothing and reports ``False``.
    """
    changed = False
    folded = _fold(text)
    rules = _rules_for(text if folded is None else folded)
    for _ in range(_MAX_PASSES):
        again = []
        for rule in rules:
            count = 0
            if folded is not None:
                # what the rule finds in the folded text, replaced at the same positions in both
                spans = [rule.span(match) for match in rule.pattern.finditer(folded)]
                if spans:
                    text, folded, count = _splice(text, spans), _splice(folded, spans), len(spans)
            text, replaced = rule.pattern.subn(rule.replace, text)
            if replaced and folded is not None:
                folded = text.translate(_FOLD_TABLE)
            if count + replaced:
                again.append(rule)
        if not again:
            break
        changed, rules = True, again
    return text, changed


def secret_kinds(text: str) -> tuple[str, ...]:
    """The names of the rules that find a secret in ``text`` or in its folded form (once each, in rule order);
    ``()`` when none does.

    An already redacted value (``[REDACTED]``) is not a secret.
    """
    folded = _fold(text)
    if folded is None:
        return tuple(rule.name for rule in _rules_for(text) if rule.pattern.search(text))
    return tuple(rule.name for rule in _rules_for(folded) if rule.pattern.search(folded) or rule.pattern.search(text))
