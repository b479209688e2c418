"""The language a question is asked in: ``zh`` or ``en``, decided by deterministic code, never by a model.

The run answers in it (the prompts name it) and chooses its fixed texts by it (fallbacks, the capability text, the
generic plan). What counts is the text that carries the question's meaning, not the identifiers it names:

| question | language | why |
| --- | --- | --- |
| 订单 order-123 支付超时，帮我排查 | zh | Chinese carries it; ``order-123`` is an id |
| order-123 payment timeout 怎么回事 | zh | the English is two terms, no sentence |
| Why does order-123 time out? | en | no Chinese at all |
| ERR_TIMEOUT 是什么意思？ | zh | ``ERR_TIMEOUT`` is a code, not a word |
| What does 支付超时 mean? | en | one Chinese term inside an English sentence |
| 查一下 payment gateway | zh | the English is a term |
| SELECT * FROM biz_order 为什么慢 | zh | the SQL statement is code |

A question with no Chinese character is ``en`` when it holds a letter (ids and code only included). One with
Chinese is ``en`` only when its English is a sentence, not a handful of terms — it holds a function word (``the``,
``is``, ``why``, ``of`` …: the closed class of English grammar words; a Chinese question borrows English nouns and
verbs, never these) — and its words weigh at least as much as its Chinese characters (a word weighs two characters,
about the length of a Chinese word). English words are runs of letters that are not identifiers: no digit,
underscore, hyphen or dot inside, not an upper-case code or acronym (``TIMEOUT``, ``SQL``), not camelCase; text in
backticks, URLs and SQL statements does not count. A text with neither Chinese nor a letter is ``zh``, the
product's own language.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Literal

Language = Literal["zh", "en"]
LANGUAGES: tuple[Language, ...] = ("zh", "en")
DEFAULT_LANGUAGE: Language = "zh"

WORD_WEIGHT = 2
"""Chinese characters one English word weighs: a Chinese word is about two characters long."""

_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f]")
_LETTER = re.compile(r"[A-Za-z]")
_CODE_SPAN = re.compile(r"`[^`]*`")
_URL = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+", re.IGNORECASE)
_SQL = re.compile(
    r"\b(?:select\b.+?\bfrom|update\b.+?\bset|delete\s+from|insert\s+into|explain\s+select"
    r"|show\s+(?:full\s+)?(?:tables|databases|columns|index(?:es)?|processlist|variables|status|create|grants))\b"
    r"[^\u3400-\u9fff\uff0c\u3002\uff1f\uff01]*",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"[A-Za-z0-9_'./:@#$%&*+=\\-]+")
_WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")
_CAMEL = re.compile(r"[a-z][A-Z]")
FUNCTION_WORDS = frozenset(
    """
    a an the this that these those there here it its i me my we us our you your he him his she her they them their
    is are was were be been being am do does did done have has had will would shall should can could may might must
    not no don't doesn't didn't isn't aren't wasn't weren't can't won't
    of in on at to for from with without by about into onto over under after before since until during between
    through against within via per than as
    and or but if then so because while when where why what which who whom whose how whether
    please any some all each every more most much many very also just still only again
    """.split()  # noqa: SIM905 - a closed word class reads best as words
)


def language_of(text: str) -> Language:
    """``zh`` or ``en``: the language ``text`` is written in (see the module docstring for the rule)."""
    normal = unicodedata.normalize("NFKC", text)
    prose = _SQL.sub(" ", _URL.sub(" ", _CODE_SPAN.sub(" ", normal)))
    chinese = len(_HAN.findall(prose))
    if chinese == 0:
        return "en" if _LETTER.search(normal) else DEFAULT_LANGUAGE
    words = english_words(prose)
    sentence = any(word.lower() in FUNCTION_WORDS for word in words)
    return "en" if sentence and WORD_WEIGHT * len(words) >= chinese else "zh"


def english_words(text: str) -> list[str]:
    """The English words of ``text``, identifiers, codes and acronyms left out."""
    return [word for token in _TOKEN.findall(text) if _is_word(word := token.strip("'.:"))]


def _is_word(token: str) -> bool:
    if not _WORD.fullmatch(token) or _CAMEL.search(token):
        return False
    return not (len(token) > 1 and token.isupper())
