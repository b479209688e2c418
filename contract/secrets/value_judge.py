"""Whether what a credential's label introduces is its value or words about it: the judgement that lets a rule
catch a value whatever its characters are (:mod:`.weak_values`, :mod:`.value_lines`).

A value of letters only, digits only or words is known by what introduces it, so only its neighbours and its own
words can make it a description again. Words: one of ``_DESCRIPTION`` (``wrong``, ``expired``, ``the``,
``stored``, ``policy`` …), one that ends as adjectives, participles and abstract nouns do (``-ed``, ``-ing``,
``-able``, ``-ive``, ``-ous``, ``-ion``, ``-ity`` …, up to 14 letters), a CamelCase name
(``ConnectionTimeoutException``), a name that holds a credential word (``order-db-credentials``), fewer than six
letters unless a well-known default
(``admin``, ``root``). Not a value either: a placeholder (``_base.PLACEHOLDER``), an algorithm (``MD5``), fewer
than four digits, digits before a unit (``8 位``, ``3600 seconds``), a possessive (``staging's``) and, after a
Chinese label, Chinese that makes the token a description (``是 MD5 加密的``, ``是 admin 开头``). Words and a
number (``hunter-2024``, ``nectar-marble-willow-51``) are a value unless the words are an id's (``order-123``,
``HikariPool-1``). Any other token with a letter and a digit or a sign is judged by its look
(``_base.secretish``), which knows ids, versions and quantities.
"""

from __future__ import annotations

import re

from ._base import PLACEHOLDER, secretish, trie

_DESCRIPTION_WORDS = """
    a an the this that these those it its itself one some any each every all both either neither same other
    another different what which who whatever something anything nothing everything there here not no none null nil
    empty blank unset missing required optional wrong incorrect invalid valid expired correct right ok okay fine
    good bad weak strong short long shorter longer weaker stronger older newer new old stale fresh default unknown
    plaintext cleartext plain opaque secure insecure safe unsafe simple complex random unique static dynamic
    temporary permanent global local internal external shared private public personal manual automatic
    be being been is was are were set reset changed rotated updated stored kept saved managed mounted injected
    in on at from for with by via under inside into to of as and or but so if when since until after before than
    between about across among around behind below beneath beside beyond during except outside over through
    throughout toward towards upon within without against along
    still now also only just already never always probably likely maybe perhaps possibly currently usually
    often sometimes again yet too very quite rather really actually apparently presumably obviously clearly
    read write only per used similar identical gone present absent available unavailable
    jwt bearer basic oauth saml ldap ascii hex utf base hash digest uuid case sensitive numeric alphanumeric
    part problem issue reason cause culprit key password secret token credential credentials value string
    written given taken shown known sent left lost found made told put held built run seen done broken
    stolen chosen frozen spoken stuck reused copied pasted
    policy rule rules length strength complexity format field column salt prompt manager vault file store
    storage rotation expiry expiration change changes history login auth authentication mismatch error
    errors failure failures check checks validation update updates refresh renewal bucket count counts limit
    limits usage budget cache leak exposure requirement requirements input entry dialog box screen page form
    header cookie scope scopes type kind name names id ids values version age lifetime ttl timeout path
    location source owner holder list pair material generator reuse sharing sync drift spray stuffing attempts
    attempt retry retries lockout lock flow grant exchange endpoint service server provider issuer audience
    claim claims signature signing backend engine mount ref reference rollout hint question answer mode
    order payment request trace span txn transaction ticket job build pod node host user account session
    incident commit release
    """
_DESCRIPTION = frozenset(_DESCRIPTION_WORDS.split())
"""Words that, after ``the password is`` and the like, describe the credential instead of giving it."""
_FUNCTION_WORDS_TEXT = (
    "a an the this that is are was were be of to in on for and or but with by at from as not no it its last"
    " yesterday today tonight ago earlier later again also too here there now then has have had will would can"
    " could should must may might does did do gets got needs between about across among around during over"
    " through within without against along"
)
_FUNCTION_WORDS = frozenset(_FUNCTION_WORDS_TEXT.split())
"""Words that make a run of words a phrase, not a passphrase (``the password of the user``)."""
NOT_A_DESCRIPTION = r"(?!(?i:" + trie(tuple(sorted(_DESCRIPTION | _FUNCTION_WORDS))) + r")(?![A-Za-z0-9]))"
"""A look-ahead: what follows is no word that describes a credential: a regex of a trie, so that a rule rejects
``the password is wrong`` (and ``password password …``) as it scans, without a judgement per match."""
_ADJECTIVE_ENDING = re.compile(
    r"(?:ed|ing|able|ible|ive|ful|less|ous|ic|ical|ent|ant|ion|ions|ness|ment|ity|ure|ance|ence|ism|age)$"
)
_DEFAULTS = frozenset({"admin", "root", "guest", "test", "pass", "demo", "user", "qwerty", "abc", "oracle"})
"""Short passwords well known as defaults: a value although shorter than six letters."""
_CREDENTIAL_WORD = re.compile(r"(?i:pass(?:word|wd|phrase)?|pwd|secret|token|credential|api[_-]?key|auth)")
_UNIT = re.compile(
    r"[ \t]*+(?:位|个|次|天|秒|分钟|小时|字符|字节|年|月|日|号|%"
    r"|(?i:bytes?|characters?|chars?|digits?|letters?|times?|days?|hours?|minutes?|mins?|seconds?|secs?|ms|s|h|d"
    r"|bits?|long|attempts?|retries)(?![A-Za-z]))"
)
_ZH_DESCRIPTION = re.compile(
    r"[ \t]*+(?:的|开头|结尾|打头|加密|哈希|散列|编码|格式|类型|形式|算法|明文|密文|字段|列|前缀|后缀"
    r"|吗|么|呢|之类|一类|这样|那样)"
)
ZH_ATTRIBUTE = re.compile(
    r"长度|位数|次数|数量|规则|策略|强度|复杂度|格式|类型|算法|字段|列名|字符集|编码|有效期|过期|时间|错误|失败|前缀|后缀"
    r"|哈希|变量|参数|键名|名称|名字|文件|路径|位置|来源|模式|方式|版本|提示|是否"
)
"""Chinese between a label and ``是``/``为`` that makes what follows an attribute of the credential, not its value
(``密码长度是 12``, ``密码错误次数为 5``)."""
_PLACEHOLDER = re.compile(r"(?:\\?[\"'])?" + PLACEHOLDER + r"(?:\\?[\"'])?[.!?:]*+$")
_LOOKS_SECRET = re.compile(secretish("value", bare=False) + "$")
_CAMEL_CASE = re.compile(r"[a-z][A-Z]")
"""A capital after a small letter: a class, an exception or an enum's name (``ConnectionTimeoutException``), which
random mixed-case letters (``_base.secretish``) are not."""
_LETTERS = re.compile(r"[A-Za-z]++(?:[-_][A-Za-z]++)*+")
_WORDS_AND_NUMBER = re.compile(r"(?P<words>[A-Za-z]++(?:[-_.][A-Za-z]++)*+)[-_.#][0-9]++")
"""An id's shape (``order-123``, ``HikariPool-1``), which after a label is a password when its words are no words
of an id (``hunter-2024``, ``nectar-marble-willow-51``)."""
_SETTING = re.compile(r"[a-z][a-z_.]*+=")
"""A setting's name and ``=`` (``sign_type=RSA2``, ``ttl=7200``): a pair, not a value with an ``=`` in it."""
_UUID = re.compile(r"[0-9A-Fa-f]{8}-(?:[0-9A-Fa-f]{4}-){3}[0-9A-Fa-f]{12}")


def is_placeholder(text: str) -> bool:
    """Whether ``text`` stands for a secret without being one (a mask, a reference, ``[REDACTED]``)."""
    return _PLACEHOLDER.match(text) is not None or "REDACTED" in text


def is_words(token: str) -> bool:
    """Whether letters (``bluewhalesunset``, ``read-only``) are words that describe, not a value; three words or more
    joined (``rustic-sprout-tulip``) only when one of them describes."""
    parts = re.split(r"[-_.]", token.lower())
    if _CREDENTIAL_WORD.search(token) or any(part in _DESCRIPTION for part in parts):
        return True
    if len(parts) < 3 and any(len(part) <= 14 and _ADJECTIVE_ENDING.search(part) for part in parts):
        return True
    return sum(map(len, parts)) < 6 and token.lower() not in _DEFAULTS


def is_value(token: str, after: str, *, chinese: bool, bare: bool = False) -> bool:
    """Whether ``token``, introduced as a credential and followed by ``after`` on its line, is the credential's
    value: letters that are no words, four or more digits that are no quantity, and any other token that looks
    like a secret; with ``bare`` (no ``is``, ``为`` or separator before it), no UUID (an id: ``令牌 9b2f6c1e-…``)."""
    if bare and _UUID.fullmatch(token):
        return False
    if is_placeholder(token) or after.startswith("'s"):
        return False
    if chinese and _ZH_DESCRIPTION.match(after):
        return False
    if _LETTERS.fullmatch(token):
        return not _CAMEL_CASE.search(token) and not is_words(token)
    words_and_number = _WORDS_AND_NUMBER.fullmatch(token)
    if words_and_number:
        words = words_and_number["words"]
        return not _CAMEL_CASE.search(words) and not is_words(words)
    if token.isdigit():
        return 4 <= len(token) <= 64 and not _UNIT.match(after)
    if _LOOKS_SECRET.match(token) is not None:
        return True
    # (an "=" after a label is part of the value, is b8x=~vKhs0bl5WG, unless a setting's name is before it: ttl=7200)
    return not _SETTING.match(token) and _LOOKS_SECRET.match(token.replace("=", "+")) is not None


def is_phrase(words: str) -> bool:
    """Whether words hold a function word (``not set for this user``): a phrase, not a passphrase."""
    return any(word.lower() in _FUNCTION_WORDS for word in words.split())


def is_passphrase(words: str) -> bool:
    """Whether two or more words a label introduces are a passphrase (``saffron meadow violin ember``): none a
    function word of a phrase, the first no word that describes."""
    first = words.split()[0]
    return (
        not is_phrase(words)
        and not is_placeholder(first)
        and first.lower() not in _DESCRIPTION
        and not (len(first) <= 14 and _ADJECTIVE_ENDING.search(first.lower()))
    )


def is_quoted_value(inside: str) -> bool:
    """Whether what a label introduces in quotes is a value: anything but a placeholder or a describing word."""
    inside = inside.strip()
    return bool(inside) and not is_placeholder(inside) and not (_LETTERS.fullmatch(inside) and is_words(inside))
