"""``secret_key_value``, part eight: a value that a label or a verb in a sentence names as a credential, whatever
its characters are: letters only, digits only, a passphrase of words, a hex string.

The rules of :mod:`.prose` recognise a value by its look (``_base.secretish``: a letter and a digit or a sign,
or random letters), which words and numbers fail. Here a value is known by what introduces it, and each match is
judged (:mod:`.value_judge`), not only matched:

``Chinese label``: a label of ``_base.ZH_LABELS`` (``密码``, ``口令`` …; or an English key word, ``token``,
``password``, followed by Chinese: ``token 设成了 x``), a gloss in brackets allowed after it (``密码 (password)``),
then one to six Chinese characters (none an attribute such as ``长度``, ``次数``, ``策略``) and ``是``, ``为``, a
separator or ``改成``/``设为``/``重置为`` …, or only a space; then a token, words or a quoted value that ends its
clause (``复现用的只读账号密码是 mellowkangarootrek``, ``只读账号的密码是 58203917``, ``临时口令 48192736，``,
``密码 saffron meadow violin ember，``, ``口令为“amber river lantern forty”``).

``English copula``: a key word (``password``, ``passphrase``, ``secret``, ``token``, ``api key`` …), what it
belongs to (``for app_ro``, ``on pay-mysql-0``, ``used by the deploy job``, ``coupon-svc uses``), then
``is``/``was``/``is now``/``was set to`` or ``:``; or ``its value is`` later in the sentence of a key word; then a
token, words or a quoted value (``The admin console password is frostedpinekeyriver``, ``Passphrase for the
bastion key: velvet canyon orbit maple``, ``The token coupon-svc uses is 88c655ac…``).

``English key``: a key word and right after it a quoted value, a token followed by the end of its clause or a
word that starts the next part of it (``against``, ``which``, ``for`` …), or words that end the sentence
(``logging in as app_ro with passwd nectar-marble-willow-51 against order-db-1``, ``still sends the old login
password yonder frost glacier maple.``, ``authenticates with token 0fd8492657fd…, which``).

``verb first``: ``changed``/``set``/``reset``/``updated``/``rotated``/``switched`` [``the``] up to three words, a
key word [``for X``], ``to``/``as`` and a token or a quoted value (``The DBA changed the app_ro password to
Zq580vR7mXw0Lk last night``).

Examples (before -> after)::

    复现用的只读账号密码是 mellowkangarootrek            -> 复现用的只读账号密码是 [REDACTED]
    The admin console password is frostedpinekeyriver   -> The admin console password is [REDACTED]
    只读账号的密码是 58203917                            -> 只读账号的密码是 [REDACTED]
    the passphrase is "correct horse battery staple"    -> the passphrase is "[REDACTED]"
    we set the Redis token to maplecreekstone today     -> we set the Redis token to [REDACTED] today
    with pwd 5504381713 against pay-mysql-0             -> with pwd [REDACTED] against pay-mysql-0

Not secrets: ``请确认密码是否正确``, ``密码长度至少 8 位``, ``密码是 MD5 加密的``, ``密码错误次数是 5``, ``the password
policy requires 12 characters``, ``the password is wrong``, ``the password is stored in Vault``, ``the token is
valid for 3600 seconds``, ``we reset the password to the default policy``, ``token bucket refill rate``,
``password reset requested 3 times``, ``the credentials were written to Vault``.
"""

from __future__ import annotations

import re

from ._base import NOT_DONE, SECRET_CHAR, SEPARATOR, ZH_LABEL, ZH_LABELS, Detector, detector, followed
from .value_judge import NOT_A_DESCRIPTION, ZH_ATTRIBUTE, is_passphrase, is_quoted_value, is_value

_EN_KEY = (
    # compound keys first: "secret key" is one key, not "secret" and a value "key"
    r"(?<![A-Za-z])(?:(?:api|access|secret(?:[ _-]?access)?|private)[ _-]?key|(?:access|auth|bearer)[ _-]?token"
    r"|password|passwd|passphrase|pwd|secret|token|credentials?|apikey)(?![A-Za-z])"
)
_KEY_WORDS = "password|passwd|passphrase|pwd|secret|token|credential|credentials|key|apikey"
"""Triggers: a word each key ends with."""
_CLAUSE_END = r"(?=[ \t]*+(?:[.,;:!?)\]，。；：！？）、\u4e00-\u9fff]|\n|$))"
"""What may follow a value in a sentence: the end of its clause, or Chinese."""
_NEXT_PART = (
    r"(?=[ \t]*+(?:[.,;:!?)\]，。；：！？）、]|\n|$|(?i:against|to|from|for|in|on|at|with|which|that|and|but|or|was"
    r"|is|were|are|has|had|still|since|when|while|because|so|then|as|via|by|last|yesterday|today|earlier|now|if"
    r"|until|after|before)(?![A-Za-z])))"
)
"""What may follow a token right after a key word: the end of its clause, or a word that starts its next part."""


def _value(prefix: str, end: str, *, words: int = 2) -> str:
    """A quoted value, ``words`` to eight words, or a token of three characters or more (no value is shorter: groups
    ``{prefix}_quoted``, ``_words``, ``_token``), none a word that describes: the words end their clause or come
    before ``end``, the token comes before ``end``."""
    return (
        rf"{NOT_A_DESCRIPTION}(?:(?P<{prefix}_quoted>\"[^\"\n]{{1,128}}+\"|'[^'\n]{{1,128}}+'|“[^”\n]{{1,128}}+”)"
        rf"|(?P<{prefix}_words>[A-Za-z]++(?:[ \t]++[A-Za-z]++){{{words - 1},7}}?)(?:{_CLAUSE_END}|{end})"
        rf"|{NOT_DONE}(?={SECRET_CHAR}{{3}})(?P<{prefix}_token>{SECRET_CHAR}++){end})"
    )


_CHANGED_TO = r"(?:被|已)?(?:修?改|设置?|换|变|更新|重置|更换)(?:成|为)了?"
_ZH_LINK = rf"(?:[为是]|{_CHANGED_TO})"
_ZH_LABELLED = (
    # spring.datasource.password 的值是 x, requirepass 为 x,
    # 密码是 x, 数据库密码为 x, 密码我发你：x, 密码被改成了 x, 临时口令 x，, token 设成了 x, 密钥（secret_key）= x
    rf"(?=[密口秘私令凭授PpSsTtAaBbCcRrMm])(?:{ZH_LABEL}"
    rf"|(?i:{_EN_KEY}|(?<![\w-])(?:requirepass|masterauth)(?![\w-]))(?=[ \t]*+(?:的?值)?{_ZH_LINK}))"
    r"(?:[ \t]*+[（(][^()（）\n]{1,32}+[)）])?(?:[ \t]*+的?值)?"
    r"(?P<zh_between>[\u4e00-\u9fff]{0,6}?)"
    rf"(?P<zh_link>[ \t]*+{_ZH_LINK}[ \t]*+(?:{SEPARATOR}[ \t]*+)?|[ \t]*+{SEPARATOR}[ \t]*+|[ \t]++)"
    + _value("zh", r"(?=[^!#$%&*+\-./0-9:=?@A-Z^_a-z|~]|$)")
)
_WHOSE = (
    r"(?:[ \t]++(?:for|of|on|in|used[ \t]++by)(?:[ \t]++[\w.@/-]{1,64}+){1,3}?"
    r"|[ \t]++[\w.@/-]{1,64}+[ \t]++(?:uses|used|holds|sends))"
)
"""``for app_ro``, ``on pay-mysql-0``, ``used by the deploy job``, ``coupon-svc uses``: whose the key is (a label
that says it, ``Passphrase for the bastion key:``, is prose; ``secret: x`` alone is a ``key: value``)."""
_EN_COPULA = (
    # the admin console password is x, the password for app_ro was set to x, Passphrase for the bastion key: x
    r"(?=[AaBbCcPpSsTt])(?i:"
    + _EN_KEY
    + r"(?:"
    + _WHOSE
    + r"?[ \t]++(?:is|was|are|were)(?:[ \t]++(?:now|still))?(?:[ \t]++(?:set|changed|reset|updated)[ \t]++to)?"
    r"[ \t]*+[:=]?|" + _WHOSE + r"[ \t]*+:))[ \t]*+" + _value("copula", "")
)
_ITS_VALUE = (
    # the secret … was rotated; its new value is x
    r"(?=[AaBbCcPpSsTt])(?i:"
    + _EN_KEY
    + r"[^.\n]{0,80}?(?<![A-Za-z])(?:its|the)[ \t]++(?:(?:new|old|current)[ \t]++)?value[ \t]++(?:is|was)[ \t]*+:?)"
    + r"[ \t]*+"
    + _value("its_value", "")
)
_EN_AFTER_KEY = (
    # with passwd nectar-marble-willow-51 against …, the old login password yonder frost glacier maple.
    # (right after a bare key, two words are as often a phrase as a passphrase: password quality checks)
    r"(?=[AaBbCcPpSsTt])(?i:" + _EN_KEY + r")[ \t]++" + _value("key", _NEXT_PART, words=3)
)
_VERB_FIRST = (
    # changed the app_ro password to x, set the Redis token to x, rotated the API key for billing to x
    r"(?=[CcSsRrUu])(?i:(?<![A-Za-z])(?:changed?|changes|set|sets|reset|resets|updated?|updates|rotated?|rotates"
    r"|switched|switch(?:es)?)[ \t]++(?:(?:the|its|their|our|his|her|my|your)[ \t]++)?(?:[\w.@'-]{1,32}+[ \t]++){0,3}?"
    + _EN_KEY
    + r"(?:[ \t]++(?:for|of|on)[ \t]++[\w.@-]{1,64}+)?[ \t]++(?:to|as)[ \t]++)"
    + _value("verb", "")
)

_AFTER = 16
"""Characters after a token read to judge it (a unit, a possessive, Chinese that describes it): a bounded look,
so that judging every match of a long text stays linear."""


def _after(text: str, at: int) -> str:
    """What follows position ``at`` on its line, ``_AFTER`` characters at most."""
    return text[at : at + _AFTER].split("\n", 1)[0]


def _value_span(match: re.Match[str], prefix: str, *, chinese: bool) -> list[tuple[int, int]]:
    """The value of a match (the inside of its quotes, its words or its token), when it is one."""
    if match[f"{prefix}_quoted"] is not None:
        start, end = match.span(f"{prefix}_quoted")
        return [(start + 1, end - 1)] if is_quoted_value(match[f"{prefix}_quoted"][1:-1]) else []
    group = f"{prefix}_words" if match[f"{prefix}_words"] is not None else f"{prefix}_token"
    if group.endswith("_words") and is_passphrase(match[group]):
        return [match.span(group)]
    # a token, or the first of words that are a phrase (maplecreekstone yesterday)
    token = match[group].split()[0].rstrip(".!?:")
    start = match.start(group)
    after = _after(match.string, start + len(token))
    bare = prefix == "key" or (prefix == "zh" and not match["zh_link"].strip())
    return [(start, start + len(token))] if is_value(token, after, chinese=chinese, bare=bare) else []


def _zh_spans(match: re.Match[str]) -> list[tuple[int, int]]:
    bare = not match["zh_link"].strip()
    if ZH_ATTRIBUTE.search(match["zh_between"]) or (bare and match["zh_between"]):
        return []
    if bare and match["zh_token"] is not None and re.match(r"[ \t]*+[A-Za-z0-9]", _after(match.string, match.end())):
        return []  # a label and a word of an English phrase (令牌 bucket refill)
    return _value_span(match, "zh", chinese=True)


def _copula_spans(match: re.Match[str]) -> list[tuple[int, int]]:
    return _value_span(match, "copula", chinese=False)


def _its_value_spans(match: re.Match[str]) -> list[tuple[int, int]]:
    return _value_span(match, "its_value", chinese=False)


def _after_key_spans(match: re.Match[str]) -> list[tuple[int, int]]:
    return _value_span(match, "key", chinese=False)


def _verb_spans(match: re.Match[str]) -> list[tuple[int, int]]:
    return _value_span(match, "verb", chinese=False)


_EN_TRIGGERS = followed(_KEY_WORDS, " \t:")

DETECTORS: tuple[Detector, ...] = (
    detector(
        "secret_key_value",
        _ZH_LABELLED,
        _zh_spans,
        # (requirepass and masterauth hold "pass" and "auth", stems that start as most stems do: see _triggers)
        (*ZH_LABELS.split("|"), *followed(_KEY_WORDS + "|pass|auth", " \t的为是被已修改设换变更重")),
        8,
    ),
    detector("secret_key_value", _EN_COPULA, _copula_spans, _EN_TRIGGERS, 10),
    # (every match of _ITS_VALUE holds "value ": the key word may lie 90 characters before it)
    detector("secret_key_value", _ITS_VALUE, _its_value_spans, followed("value", " \t"), 100),
    detector("secret_key_value", _EN_AFTER_KEY, _after_key_spans, followed(_KEY_WORDS, " \t"), 10),
    detector("secret_key_value", _VERB_FIRST, _verb_spans, followed(_KEY_WORDS, " \t"), 140),
)
