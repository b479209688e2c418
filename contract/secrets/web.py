"""Secrets in the shapes of the web and of connection strings: keys, URLs, HTTP headers, bearer tokens, JWTs.

``private_key``: a PEM block from ``-----BEGIN [RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP ]PRIVATE KEY[ BLOCK]-----``
up to its END line, or to the end of the text when that line is missing::

    key=-----BEGIN RSA PRIVATE KEY-----\\nMIIE…\\n-----END RSA PRIVATE KEY----- ok  -> key=[REDACTED] ok

``url_userinfo``: the credentials of a URL or connection string, user and password: any scheme's user-info
(``user:pass@``, ``:pass@``, a user that is a token, ``ghp_abc123XYZ@``: 8 or more with a digit, a capital and a
small letter, or 16 or more with a digit; not a user name alone, ``ssh://git@``, ``mysql://ro_user@``, nor a masked
or referenced password, ``app:****@``, ``app:${DB_PASS}@``); without a scheme, ``user:password@host[:port]`` whose
user starts with a letter and is no label (``mailto:``, ``to:``, ``user:``, ``id:`` …), whose password holds a digit
or a sign and is no id (``order-123``) or port, and whose host ends the token (not ``nginx:1.25@sha256:…``); Go's
MySQL DSN ``user:pass@tcp(…)`` (also ``unix(``, ``udp(``), any password but a mask or a reference; Oracle's
``user/pass`` after ``jdbc:oracle:thin:`` (``oci``, ``kprb``) or ``connect`` before ``@``, and after ``sqlplus
[options]``; a user right after a Chinese word and its colon (``连接串：app:…@``) counts as at a token's start::

    jdbc:mysql://app:Sup3rS3cret@db-1:3306/order_db    -> jdbc:mysql://[REDACTED]@db-1:3306/order_db
    连接目标 app:Sup3rS3cret@db-1:3306/order_db          -> 连接目标 [REDACTED]@db-1:3306/order_db
    dsn=order_app:secret@tcp(db-1:3306)/order_db        -> dsn=[REDACTED]@tcp(db-1:3306)/order_db
    jdbc:oracle:thin:scott/tiger@//db-1:1521/ORCL       -> jdbc:oracle:thin:[REDACTED]@//db-1:1521/ORCL
    sqlplus -s scott/tiger@orcl @report.sql             -> sqlplus -s [REDACTED]@orcl @report.sql

``authorization_header``: the credentials of HTTP headers: ``Authorization`` / ``Proxy-Authorization`` values (a
known scheme word is kept; not a placeholder, ``Bearer $TOKEN``, ``Basic <base64(user:password)>``); the values of a
``Cookie:`` header that are credentials, by their name (one that holds ``sess``, ``sid``, ``token``, ``auth``,
``jwt``, ``remember``, ``sso``, ``ticket``, ``csrf``/``xsrf``, ``key``, ``secret``, ``pass``, ``login`` …:
``SESSION``, ``JSESSIONID``, ``PHPSESSID``, ``connect.sid``) or by their look (16 or more characters with a capital,
a small letter and a digit), not ``lang``, ``theme``, ``_ga``, ``tz``; the first value of ``Set-Cookie:`` when it is
one (its attributes, ``Path=/``, ``HttpOnly`` …, are kept)::

    Authorization: Basic dXNlcjpwYXNz                   -> Authorization: Basic [REDACTED]
    Cookie: sid=8f3kQ2; theme=dark                      -> Cookie: sid=[REDACTED]; theme=dark
    Cookie: lang=zh-CN; JSESSIONID=9f8E7d6C5b4A3f2E1d0C -> Cookie: lang=zh-CN; JSESSIONID=[REDACTED]
    Set-Cookie: session=8f3kQ2x; Path=/; HttpOnly       -> Set-Cookie: session=[REDACTED]; Path=/; HttpOnly

``bearer_token``: bare ``Bearer`` tokens (``Bearer token``, ``bearer auth`` and the like are words, not tokens,
and a challenge's ``Bearer error="invalid_token"`` is a parameter); after ``Bearer token``/``Bearer access token``/
``Bearer 令牌``, a token after ``:``/``=``, or one of 8 or more characters with a digit after a space, ``is``,
``为`` or ``是``::

    calling upstream with Bearer mF_9.B5f-4.1JqM        -> calling upstream with Bearer [REDACTED]
    吊销 Bearer 令牌 mF_9.B5f-4.1JqM                     -> 吊销 Bearer 令牌 [REDACTED]

``jwt``: JWTs anywhere, and a JWT payload quoted on its own (base64url of ``{"sub":``, ``{"iss":``, ``{"aud":``,
``{"exp":``, ``{"nbf":``, ``{"iat":`` or ``{"jti":`` and 16 more characters; a header, ``{"alg":``, is public)::

    session eyJhbGciOi….eyJzdWIiOi….SflKxw ok          -> session [REDACTED] ok
    载荷段 eyJzdWIiOiJ1LTEwMDIz… 是否匹配               -> 载荷段 [REDACTED] 是否匹配

Not caught: a token user of fewer than 8 characters or of small letters and digits under 16
(``https://abc123@host``), which reads as a user name; a ``user:password`` with no ``@`` and no label before it
(``order:s3cr3tPass`` alone reads like any ``key:value``); a password of letters only in ``user:password@host``
without a scheme or a port (``task:failed@worker`` reads as words and a place); a JWT signature quoted on its own
(any base64url).
"""

from __future__ import annotations

import re

from ._base import (
    AFTER_CJK_COLON,
    CJK_DELIMITERS,
    NOT_DONE,
    PLACEHOLDER,
    SEPARATOR,
    Detector,
    char,
    detector,
    group,
    not_placeholder,
    value,
    whole,
)

_PRIVATE_KEY = (
    r"-----BEGIN (?P<label>(?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?)-----"
    r"[\s\S]*?(?:-----END (?P=label)-----|\Z)"
)

_USER = r"[^\s/?#@:]"
_TOKEN_USER = (
    # a user that is a token (https://ghp_abc123XYZ@github.com): 8 or more with a digit, a capital and a small
    # letter, or 16 or more with a digit (a user name, ro_user or deploy, is none)
    rf"(?=(?:(?={_USER}{{8}})(?={_USER}*?[A-Z])(?={_USER}*?[a-z])|(?={_USER}{{16}})){_USER}*?[0-9]){_USER}++@"
)
_NO_PASSWORD = r"(?:" + PLACEHOLDER + r")@"
"""A password that is masked or a reference (``app:****@db-1``, ``app:${DB_PASS}@tcp(…)``)."""
_URL_USERINFO = (
    r"(?=[A-Za-z])(?<![A-Za-z0-9+.-])(?:(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*://)"
    + NOT_DONE
    + rf"(?={_USER}*+:(?!{_NO_PASSWORD})|{_TOKEN_USER})"
    + char(r"\s/?#")
    + "+@"
    # user:password@host[:port] without a scheme: the user starts with a letter (no time, 02:05:09@…), is no
    # label (no e-mail, to:ops@example.com), the password has a digit or a sign (or is six letters or more before
    # a host and its port, guest:guestpass@mq-1:5672) and is no id (id:order-123@…) or port, the host ends the
    # token (no image digest, nginx:1.25@sha256:…)
    r"|(?:(?<![_~%/:@\\])|" + AFTER_CJK_COLON + r")(?=[A-Za-z][A-Za-z0-9._~-]{0,63}+:)"
    r"(?!(?i:mailto|e-?mail|mail|to|from|cc|bcc|reply-to|sender|recipient|contact|user|username|login|account"
    r"|owner|author|by|at|via|id|uid):)"
    r"[A-Za-z][A-Za-z0-9._~-]{0,63}+:"
    r"(?![A-Za-z]++[-_.][0-9]++@|[0-9]{1,5}+@|" + _NO_PASSWORD + ")"
    r"(?=[!$%&*+=^|~0-9A-Za-z._-]{0,127}?[0-9!$%&*+=^|~]|[A-Za-z]{6,128}+@[A-Za-z0-9][A-Za-z0-9.-]*+:[0-9]{2,5}+(?![0-9]))"
    r"[!$%&*+=^|~0-9A-Za-z._-]{1,128}+"
    r"(?=@[A-Za-z0-9][A-Za-z0-9-]*+(?:\.[A-Za-z0-9-]++)*+(?::[0-9]{1,5}+)?+(?![A-Za-z0-9_:@-])))"
)
_PASSWORD = r"[^\s@\"']{1,128}+"
_ORACLE_USER = rf"[A-Za-z0-9_$#.-]{{1,128}}+/(?!{_NO_PASSWORD})"
_CONNECTION_USERINFO = (
    # Go's MySQL DSN: user:pass@tcp(host:3306)/db, any password
    rf"(?=[A-Za-z0-9_.-])(?:(?:(?<![\w.:/@-])|{AFTER_CJK_COLON})(?P<dsn>[A-Za-z0-9_.-]{{1,64}}+:(?!{_NO_PASSWORD}){_PASSWORD})"
    r"(?=@(?i:tcp6?|udp|unix)\()"
    # Oracle: jdbc:oracle:thin:user/pass@…, connect user/pass@db, sqlplus [-s] user/pass[@db]
    rf"|(?i:jdbc:oracle:(?:thin|oci8?|kprb):)(?P<jdbc>{_ORACLE_USER}{_PASSWORD})(?=@)"
    rf"|(?<![\w.-])(?i:conn(?:ect)?)[ \t]{{1,8}}+(?P<conn>{_ORACLE_USER}{_PASSWORD})(?=@)"
    r"|(?<![\w.-])(?i:sqlplus)(?:[ \t]++-[A-Za-z]++)*+[ \t]++[\"']?"
    rf"(?P<sqlplus>{_ORACLE_USER}{_PASSWORD})(?=[@\"']|\s|$))"
)

_AUTH_SCHEME = r"(?:bearer|basic|digest|negotiate|ntlm|token|apikey|hmac|aws4-hmac-sha256)"
_AUTHORIZATION = (
    r"(?=[apAP])(?i:(?<![\w-])(?P<head>(?:proxy-)?authorization\\?[\"']?[ \t]*"
    + SEPARATOR
    + r"[ \t]*(?:\\?[\"'])?(?>(?:"
    + _AUTH_SCHEME
    + r"[ \t]+)?))"
    + NOT_DONE
    + r"(?!"
    + _AUTH_SCHEME
    + r"(?![^\s\"',;]))"
    + not_placeholder(r"\s\"',;" + CJK_DELIMITERS)
    + r"(?P<value>"
    + value(r"\s\"',;" + CJK_DELIMITERS)
    + "))"
)
_COOKIE_NAME = r"[^\s;=\"\\]++="
_COOKIE_VALUE = (
    # a value or, as RFC 6265 allows, one in double quotes (sid="8f3kQ2")
    r"(?:\"" + NOT_DONE + r")?+(?=[^\s;\"\\]*?[A-Za-z0-9])[^\s;\"\\]++\"?+"
)
_COOKIE_OTHER = r"(?:\"[^\s;\"\\]*+\"?+|[^\s;\"\\]*+)"
"""The value of a cookie that is read past, quoted or not."""
_SESSION_WORD = (
    r"sess|sid|token|auth|jwt|remember|sso|ticket|csrf|xsrf|key|secret|pass|login|credential|identity|saml|oauth"
    r"|bearer|sig"
)
_COOKIE_CHAR = r"[^\s;\"\\]"
_CREDENTIAL_COOKIE = (
    # a name that marks a session or a credential (SESSION, JSESSIONID, connect.sid, remember_me, XSRF-TOKEN),
    # or a value that looks random: 16 or more with a capital, a small letter and a digit (a name is searched only
    # once it is known to end in '=', so a long name without one is scanned once)
    rf"(?:(?=[^\s;=\"\\]++=)(?i:[^\s;=\"\\]*?(?:{_SESSION_WORD}))|[^\s;=\"\\]++=[ \t]*+"
    rf"(?={_COOKIE_CHAR}{{16}})(?={_COOKIE_CHAR}*?[A-Z])(?={_COOKIE_CHAR}*?[a-z])(?={_COOKIE_CHAR}*?[0-9]))"
)
_COOKIE_HEAD = r"\\?[\"']?[ \t]*+:[ \t]*+(?:\\?[\"'])?"
_COOKIES = (
    # the credential values of a Cookie header (the pairs before the first one have nothing to redact)
    r"(?=[cCsS])(?<![\w-])(?:(?i:cookie)" + _COOKIE_HEAD + r"(?:" + _COOKIE_NAME + _COOKIE_OTHER + r";[ \t]*+){0,32}?"
    r"(?=" + _CREDENTIAL_COOKIE + r")" + _COOKIE_NAME + r"[ \t]*+" + NOT_DONE + r"(?P<cookie>" + _COOKIE_VALUE + r")"
    r"(?P<more>(?:;[ \t]*+" + _COOKIE_NAME + _COOKIE_OTHER + r"){0,64}+)"
    # the first value of a Set-Cookie header, not its attributes
    r"|(?i:set-cookie)"
    + _COOKIE_HEAD
    + r"(?="
    + _CREDENTIAL_COOKIE
    + r")"
    + _COOKIE_NAME
    + r"[ \t]*+"
    + NOT_DONE
    + r"(?P<set_cookie>"
    + _COOKIE_VALUE
    + "))"
)
_MORE_COOKIE = re.compile(r";[ \t]*+(?=" + _CREDENTIAL_COOKIE + r")[^\s;=\"\\]++=(" + NOT_DONE + _COOKIE_VALUE + ")?")


def _cookie_values(match: re.Match[str]) -> list[tuple[int, int]]:
    if match["set_cookie"] is not None:
        return [_inside_quotes(match.string, *match.span("set_cookie"))]
    start = match.start("more")
    more = [(start + pair.start(1), start + pair.end(1)) for pair in _MORE_COOKIE.finditer(match["more"]) if pair[1]]
    return [_inside_quotes(match.string, *span) for span in (match.span("cookie"), *more)]


def _inside_quotes(text: str, start: int, end: int) -> tuple[int, int]:
    """A cookie value's span without the double quotes around it."""
    if text.startswith('"', start):
        start += 1
        end -= text[end - 1] == '"' and end > start
    return start, end


_B64TOKEN = r"[A-Za-z0-9._~+/-]"
_BEARER = "".join(
    (
        r"(?=[bB])(?i:(?<![\w-])bearer(?:[ \t]+",
        NOT_DONE,
        r"(?!(?:tokens?|access|auth|authentication|header|scheme|realm)\b)",
        # a challenge's parameter, not a token: WWW-Authenticate: Bearer error="invalid_token"
        r"(?![A-Za-z_-]++=[ \t]*+(?:\\?[\"']|[A-Za-z0-9]))",
        rf"(?P<bearer>{_B64TOKEN}+=*)",
        # Bearer token: X, Bearer 令牌 X: after a word, a value after ':' or '=', or else one of 8 or more
        # characters with a digit (invalid Bearer token in request, Bearer token v2 are words)
        r"|[ \t]*+(?:access[ \t]+)?(?:tokens?|令牌)",
        rf"(?:[ \t]*+{SEPARATOR}[ \t]*+",
        rf"|[ \t]*+(?:为|是|(?<=[ \t])(?:is|was)[ \t])?[ \t]*+(?={_B64TOKEN}{{8}})(?={_B64TOKEN}*?[0-9]))",
        NOT_DONE,
        rf"(?P<named>(?={_B64TOKEN}*?[A-Za-z0-9]){_B64TOKEN}++=*)))",
    )
)

_JWT = (
    r"(?=e)(?<![A-Za-z0-9_-])eyJ(?:[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*"
    # a payload quoted on its own: base64url of {"sub":, {"iss":, {"aud":, {"exp":, {"nbf":, {"iat":, {"jti":
    # (a header, {"alg": or {"typ":, is public and not matched)
    r"|(?:zdWIi|pc3Mi|hdWQi|leHAi|uYmYi|pYXQi|qdGki)O[A-Za-z0-9_-]{16,}+(?:\.[A-Za-z0-9_-]++)?+(?![A-Za-z0-9_-]))"
)

DETECTORS: tuple[Detector, ...] = (
    detector("private_key", _PRIVATE_KEY, whole, "-----begin ", 0),
    detector(
        "url_userinfo",
        _URL_USERINFO,
        lambda match: [(match.end("scheme"), match.end() - 1) if match["scheme"] is not None else match.span()],
        "@",
        None,
    ),
    detector("url_userinfo", _CONNECTION_USERINFO, group("dsn", "jdbc", "conn", "sqlplus"), "@|sqlplus", 300),
    detector("authorization_header", _AUTHORIZATION, group("value"), "authorization", 6),
    detector("authorization_header", _COOKIES, _cookie_values, "cookie", 4),
    detector("bearer_token", _BEARER, group("bearer", "named"), "bearer", 0),
    detector("jwt", _JWT, whole, "eyj", 0),
)
