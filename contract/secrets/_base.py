"""What every secret rule is made of: a detector (a pattern, where its secrets lie in a match, its trigger words)
and the regex pieces the rules share (values, separators, quotes, and what a value in prose must look like).

Every piece here keeps the rules linear: a value is possessive, a look-ahead that scans stays inside one token,
and a rule starts only at a fixed word or at the beginning of a token.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

REDACTED = "[REDACTED]"
NOT_DONE = r"(?!\[REDACTED\]|REDACTED(?![A-Za-z0-9]))"
"""Not an earlier ``[REDACTED]``, nor one the normal form shows without its brackets: a ``[REDACTED]`` followed by
``(…)`` (``[REDACTED]（模拟日志）``) reads as a markdown link, ``REDACTED (模拟日志)``."""
NOT_DONE_QUOTED = r"(?!(?:\\\"|\"|')?(?:\[REDACTED\]|REDACTED(?![A-Za-z0-9])))"

Spans = Callable[[re.Match[str]], list[tuple[int, int]]]


@dataclass(frozen=True)
class Detector:
    """One way a kind of secret is written: how to find it and which parts of a match become ``[REDACTED]``."""

    kind: str
    """The rule it belongs to (``secret_kinds`` reports it): one of ``contract.secrets.KINDS``."""
    pattern: re.Pattern[str]
    """What it finds, in the normal form of a text: every match holds a secret."""
    spans: Spans
    """Where the secrets lie in a match (absolute positions): ``redact`` replaces them and keeps the rest."""
    triggers: tuple[str, ...]
    """Casefolded words of which every match holds one: text with none of them skips the detector unscanned."""
    lead: int | None
    """How far into a match its first trigger word can lie at most (None: any distance): no match starts further
    before the first trigger word of a text, so scanning starts there."""
    untriggered: re.Pattern[str] | None = None
    """What every match that holds none of ``triggers`` holds: text where this finds something runs it too."""


_Trie = dict[str, "_Trie"]


def trie(words: tuple[str, ...]) -> str:
    """A regex of any of ``words``, as a trie (``a(?:kia|sia|…)``): each position tries one branch per character,
    not each word, and the longest word is found first."""
    root: _Trie = {}
    for word in words:
        node = root
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def regex(node: _Trie) -> str:
        branches = [re.escape(char) + regex(child) for char, child in sorted(node.items()) if char]
        if not branches:
            return ""
        either = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return "(?:" + either + ")?" if "" in node else either

    return regex(root)


def detector(
    kind: str,
    pattern: str,
    spans: Spans,
    triggers: str | tuple[str, ...],
    lead: int | None,
    untriggered: str | None = None,
) -> Detector:
    """A detector; ``triggers`` is a tuple or ``|``-separated (empty: only ``untriggered`` makes it run)."""
    words = triggers if isinstance(triggers, tuple) else tuple(triggers.split("|")) if triggers else ()
    return Detector(kind, re.compile(pattern), spans, words, lead, re.compile(untriggered) if untriggered else None)


def followed(words: str, chars: str) -> tuple[str, ...]:
    """Each of the ``|``-separated ``words`` followed by each of ``chars``: triggers of a key and what must come
    after it (``password=``, ``password:`` …), so that ``passwords``, ``Authorization`` and ``tokens`` run nothing."""
    return tuple(word + char for word in words.split("|") for char in chars)


def whole(match: re.Match[str]) -> list[tuple[int, int]]:
    return [match.span()]


def group(*groups: str) -> Spans:
    """The span of the first of ``groups`` that took part in the match."""

    def spans(match: re.Match[str]) -> list[tuple[int, int]]:
        return [match.span(next(name for name in groups if match[name] is not None))]

    return spans


def unquoted(*groups: str) -> Spans:
    """As ``group``, inside the value's quotes: ``"x"`` -> ``"[REDACTED]"``, ``\\"x\\"`` -> ``\\"[REDACTED]\\"``."""

    def spans(match: re.Match[str]) -> list[tuple[int, int]]:
        name = next(name for name in groups if match[name] is not None)
        start, end = match.span(name)
        value = match[name]
        for quote in ('\\"', '"', "'"):
            if value.startswith(quote):
                closed = len(value) >= 2 * len(quote) and value.endswith(quote)
                return [(start + len(quote), end - (len(quote) if closed else 0))]
        return [(start, end)]

    return spans


def prose(*groups: str) -> Spans:
    """As ``group``, without the sentence's punctuation after the value (``is Passw0rd1.`` keeps ``.``)."""

    def spans(match: re.Match[str]) -> list[tuple[int, int]]:
        name = next(name for name in groups if match[name] is not None)
        start = match.start(name)
        return [(start, start + len(match[name].rstrip(".!?:")))]

    return spans


CJK = r"\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff"
"""CJK punctuation and ideographs: prose around a value, never part of one (``password=x已轮换``)."""
AFTER_CJK_COLON = r"(?<=[" + CJK + r"]:)"
"""A token that starts right after a Chinese word and its colon (``：`` is ``:`` in the normal form)."""
CJK_DELIMITERS = "，；。、（）「」“”‘’"
"""End an unquoted value as ``,`` and ``;`` do (the normal form makes most of them ASCII already)."""


ZH_LABELS = "密码|口令|密钥|秘钥|私钥|令牌|凭证|凭据|授权码"
"""Chinese words that name a credential (an SMTP ``授权码`` is the mailbox's password), ``|``-separated."""
ZH_LABEL = f"(?:{ZH_LABELS})"


def char(excluded: str) -> str:
    """One character of a value: not in ``excluded``, not the start of an earlier ``[REDACTED]``, not a ``(``
    before Chinese prose, and not a backslash before a quote (in JSON-escaped text that ends the value)."""
    return r"(?:[^" + excluded + r"\[\\(]|\((?![" + CJK + r"])|\[(?!REDACTED\])|\\(?![\"']))"


def value(excluded: str) -> str:
    """A run of ``char(excluded)`` that holds an ASCII letter or digit (``已脱敏`` and ``---`` are no secrets)."""
    one = char(excluded)
    return r"(?=" + one + r"*?[A-Za-z0-9])" + one + "++"


SEPARATOR = r"(?:=>|:=|[:=：])"
"""``key: value``, ``key=value``, ``key := value``, ``key => value``, and the full-width colon."""
QUOTED_VALUE = r"\\\"[^\"\\\n]++(?:\\\")?|\"(?:[^\"\\\n]|\\.)++\"?|'[^'\n]++'?"
"""A quoted value, not empty (``\\"x\\"``, ``"x"``, ``'x'``); an unclosed quote runs to the end of the line."""
QUOTED_HAS_ALNUM = r"(?=\\?[\"'](?:[^\"'\n\[]|\[(?!REDACTED\]))*?[A-Za-z0-9])"
"""A quoted value holds a letter or a digit before any ``[REDACTED]`` in it."""
UNQUOTED_END = r"\s&,;\"'<>)\]}" + CJK_DELIMITERS + CJK
"""What ends an unquoted value of ``key=value``."""

_WORDS = (
    # flag words, type names (a schema's ``password: string``), and words that say where the secret is kept
    "true|false|yes|no|not|none|null|nil|empty|unset|undefined|required|optional|enabled|disabled|on|off|ok|missing"
    "|invalid|expired|hidden|masked|redacted|n/a|tbd|string|str|int|integer|number|bool|boolean|text|bytes|object"
    "|any|stored|kept|managed|injected|provided|loaded|fetched|mounted|generated|see|via|from|ask|in"
)
_PLACEHOLDER_WORDS = trie(tuple(_WORDS.split("|")))
_MASK = r"(?:[A-Za-z0-9]{1,10}+[-_.]){0,3}+[A-Za-z0-9]{0,4}+[*\u2022]{3,}+[A-Za-z0-9]{0,4}+"
"""A masked value, a provider's prefix or a few characters kept around the mask (``sk-****``, ``xoxb-****``,
``AKIA****``, ``ghp_****9f2c``); a note in brackets may follow it (``******（order-service）``)."""
PLACEHOLDER = (
    # a value that stands for a secret without being one (by its first character, so most values try few shapes):
    r"(?:(?=[A-Za-z0-9(])(?:"
    # a flag word, a mask after a prefix, a template's element, a size, code that reads the secret
    # (var.db_password, process.env.DB_PASSWORD, os.getenv(, System.getenv()
    r"\(?(?i:" + _PLACEHOLDER_WORDS + r")\)?|" + _MASK + r"(?:\([^()\n]{0,64}+\))?|(?i:x){3,}+"
    r"|[A-Za-z][A-Za-z0-9_.-]*+:(?=\s|$)|[0-9]++[ \t]++(?i:bytes?)"
    r"|(?:var|local|module|data|process\.env|import\.meta\.env)\.[A-Za-z_][\w.]*+"
    r"|(?:os\.getenv|os\.environ\.get|System\.getenv|getenv|env)\(|(?:os\.environ|ENV)\["
    # an OAuth error code (invalid_token, expired_token), a secret manager's path (vault:secret/data/db#password,
    # op://vault/item), the name of a credential or of the object holding it (db_password, order-db-credentials)
    r"|(?i:invalid|expired|revoked|missing|bad|wrong|insufficient)_[a-z_]++(?![\w-])"
    r"|(?i:vault|awssm|gcpsm|azkv|op|secretsmanager|ssm):/?+[^\s\"',;]++"
    r"|(?=[A-Za-z._-]*?[-_.])(?:[A-Za-z]++[-_.])*+(?i:password|passwd|secrets?|tokens?|credentials?|api[-_]?key)"
    r"(?:[-_.][A-Za-z]++)*+(?![\w.-]))"
    # a mask, a reference or a template: ${NAME}, ${jdbc.password}, ${NAME:-x}, ${NAME:?message}, ${NAME:},
    # ${vault:secret/db#password}, $NAME, %NAME%, {{ x }}, ${{ x }}, <x>
    r"|(?![A-Za-z0-9(])(?:(?:" + _MASK + r"|\*++)(?:\([^()\n]{0,64}+\))?|\.{3}+|\?++"
    # a mask in brackets ([FILTERED], [MASKED]), a command's output ($(cat /run/secrets/db))
    r"|\[(?i:filtered|masked|hidden|removed|scrubbed|omitted|secret|protected|censored|sensitive)\]"
    r"|\$\([^()\n]{1,256}+\)"
    r"|\$\{(?:[a-z][a-z0-9-]*+:(?=[^}\s]*?[/#:])[^}\s]*+|[A-Za-z_][\w.-]*+(?::?\?[^}\n]*+|:?[-=][^}\s]*+|:)?)\}"
    r"|\$[A-Z_][A-Z0-9_]*+|%[A-Za-z_][A-Za-z0-9_]*+%|\$?\{\{[^{}\n]*+\}?\}?|<[^<>\n]{1,64}+>))"
)
"""``true``, ``string``, ``******``, ``sk-****``, ``${DB_PASSWORD}``, ``${MYSQL_ROOT_PASSWORD:?set it in .env}``,
``${vault:secret/db#password}``, ``$DB_PASSWORD``, ``%DB_PASSWORD%``, ``{{ .Values.password }}``,
``${{ secrets.DB_PASSWORD }}``, ``<base64(user:password)>``, ``(stored in Vault)``, ``24 bytes`` (what ``kubectl
describe secret`` shows), ``var.db_password``, and an element named as a placeholder (``<your-password>``, which
the normal form reads ``your-password:``)."""


def not_placeholder(end: str) -> str:
    """A look-ahead: what follows (in its quotes or not, a blank inside them allowed) is no placeholder ending before
    a character of ``end``."""
    return r"(?!(?:\\?[\"'][ \t]?+)?" + PLACEHOLDER + r"(?:\\?[\"'])?(?![^" + end + r"]))"


SECRET_CHAR = r"[!#$%&*+\-./0-9:=?@A-Z^_a-z|~]"
"""One character of a secret written in prose (ASCII, not a bracket, quote, comma or semicolon)."""
_END = r"(?=[.!?:]*+(?![!#$%&*+\-./0-9:=?@A-Z^_a-z|~]))"
"""The end of a value in prose, sentence punctuation allowed after it."""
_NOT_SECRET_WORDS = (
    # names of algorithms, encodings and versions: 密钥 Base64 编码, 令牌 OAuth2.0, 私钥 sha256
    r"base(?:32|64)(?:url)?|oauth[0-9.]*|utf-?8|(?:hmac-?)?sha-?[0-9]+|md5|aes-?[0-9]+(?:-[a-z]{3})?|rsa-?[0-9]*"
    r"|[ehpr]s[0-9]+|ed25519|x25519|secp[0-9]+[kr]1|p-?[0-9]{3}|crc32|pkcs#?[0-9]+|x\.?509|tls[0-9.]*|ssl[0-9.]*"
    r"|ipv[46]|http/[0-9.]+|chacha20(?:-poly1305)?"
)


_RANDOM_LETTERS = r"(?=[A-Za-z]{16,}+" + _END + r")(?=[A-Za-z]*?[a-z][A-Z]{2})"
"""16 or more letters, a small letter before two capitals somewhere: random, not a word or CamelCase name."""
_WORD_AND_YEAR = r"[A-Z][a-z]++[-_.][0-9]{4,}+" + _END
"""``Dragon.2026``, ``Tiger-2022``: a capitalised word and a year is a password, not an id (``order-123``,
``HikariPool-1``, ``hunter-2024``)."""


def secretish(name: str, *, bare: bool, ids: bool = False) -> str:
    """A value in prose that looks like a secret, as group ``name``: 6 or more characters with a letter and a
    digit or a sign inside it, or 16 or more random letters; not only capitals, digits and ``_.:+-``
    (``RSA2048``, ``ERR_TIMEOUT``, a timestamp), no id (``u-10023``, ``order-123``, ``HikariPool-1``; but
    ``Dragon.2026`` is a password), version (``v2``, ``1.25.3``), quantity (``30000ms``), ``key=value`` (base64's
    ``=`` padding at the end is none), path, URL, e-mail or algorithm name (``Base64``); with ``bare`` (no ``is``,
    ``为`` or ``是`` before it) not only hex digits and ``-`` either (a digest, a UUID, a trace id); with ``ids``
    (after a word that only a password follows: ``AUTH``) an id's shape and capitals only are a secret too
    (``Ops.2018``, ``PASS2024``)."""
    return "".join(
        (
            rf"(?={SECRET_CHAR}{{6}})",
            rf"(?={SECRET_CHAR}*?[A-Za-z])",
            rf"(?={SECRET_CHAR}*?(?:[0-9]|[!#$%&*+=?@^|~]{SECRET_CHAR})|{_RANDOM_LETTERS})",
            rf"(?![A-Z0-9_.:+-]++{_END})" if not ids else rf"(?![0-9_.:+-]++{_END})",
            rf"(?!(?!{_WORD_AND_YEAR})[A-Za-z]++(?:[-_.][A-Za-z]++)*+[-_.#][0-9]++{_END})" if not ids else "",
            rf"(?!v?[0-9]++(?:\.[0-9A-Za-z]++)++{_END}|v[0-9]++{_END})",
            rf"(?![0-9]++(?:[.,][0-9]++)?+[A-Za-z]{{1,3}}+{_END})",
            rf"(?![A-Za-z_][A-Za-z0-9_.-]*+=(?!=*+{_END})|[/~.]|{SECRET_CHAR}*?://)",
            rf"(?![A-Za-z0-9._%+-]++@[A-Za-z0-9-]++(?:\.[A-Za-z0-9-]++)++{_END})",
            rf"(?!(?i:{_NOT_SECRET_WORDS}){_END})",
            rf"(?![0-9A-Fa-f-]++{_END})" if bare else "",
            rf"(?P<{name}>{SECRET_CHAR}++)",
        )
    )


BLANK = r"(?:[ \t]|\\\r?\n)++"
"""What separates the arguments of a command line: blanks, a shell line continuation (``\\`` at the end of a
line) among them."""


def args(most: int) -> str:
    """Up to ``most`` command-line arguments, as few as can be, none a shell operator (``|``, ``;``, ``&``), on one
    line or continued on the next."""
    return r"(?:" + BLANK + r"(?![|;&])\S++){0," + str(most) + "}?"
