"""Verdicts: a cause named in a sentence of any shape, the way a reader hears it (a rule of :mod:`findings`).

A clause names a cause when

- after a dropped or dummy subject and a copula or a hedge, it names a part of the system (It's the connection pool,
  Probably the DNS, I think it's the database, 是数据库, 多半是 Redis 的问题, 我觉得是缓存);
- it says that a part of the system is at fault, cannot work or went through an event (数据库有问题, 网关无法访问下游,
  Redis 发生了主从切换, the cache is having issues), or opens with one and a finite verb (the gateway just
  recovered);
- it asks a question that expects only its own answer (Isn't the database the culprit?, Could it be anything other
  than the cache?, 难道不是数据库的锅吗？, 不就是连接池的问题吗？, 除了连接池还能是什么？): the answer is asserted.

A part of the system is a word of ``ZH_SYSTEM_PART`` or ``EN_SYSTEM_PART`` (:mod:`harness.gate.lexicon`) or a name
(payment-gateway, order_db, redis2). What the speaker is, can do or is asked about names no cause: the finding rule
asks this module only about a clause that is no instruction, question or ability.
"""

from __future__ import annotations

import re

from harness.gate import lexicon as words
from harness.gate.verbs import english_lead_of, mixed_verb, verb_after

_EN_NAME = r"[A-Za-z][A-Za-z0-9]*(?:[-_.][A-Za-z0-9]+)+|[A-Za-z]+\d[\w-]*"
_EN_WORD_PART = (
    r"(?<![@A-Za-z])(?:(?!(?:non|re|self|pre|post|multi|co|anti|cross|sub|semi|over|under|read|write|real|on|off|follow|"
    rf"well|high|low|long|short|end|x|e|t)-){_EN_NAME}|{words.EN_SYSTEM_PART})(?![A-Za-z])"
)
"""A part named in English: a word of the lexicon, or a name that is no compound word (read-only, follow-up) nor a
person mentioned (@Lily.Chen)."""
_PART = rf"(?:{words.ZH_SYSTEM_PART}|{_EN_WORD_PART})"
_EN_OPINION = (
    r"(?:i think|i guess|i suspect|i believe|i bet|i'd say|i would say|i reckon|my guess is|in my opinion"
    r"|(?:i'm\s+|i am\s+)?(?:(?:pretty|fairly|quite|almost|dead|very)\s+)?(?:sure|certain|confident|convinced|positive)"
    r"|if you ask me|honestly|frankly|to be honest|i'm afraid|sadly|unfortunately)[,\s]+"
)
_EN_HEAD = (
    r"(?:(?:it|that|this)(?:'s|\s+(?:is|was|must be|might be|may be|could be|should be|has to be|has got to be"
    r"|seems to be|appears to be|looks to be|will be|would be))|probably|likely|most likely|almost certainly|definitely"
    r"|certainly|surely|clearly|obviously|maybe|perhaps|possibly|(?:must|could|might|may|would|has to|gotta) be"
    r"|looks like|seems like|sounds like"
    r"|smells like|(?:all\s+)?signs\s+point\s+to|points?\s+to|blame)\s+"
)
_EN_MODIFIERS = (
    r"(?:(?!(?:the|a|an|to|that|for|about|with|in|on|of|at|by|what|how|why|not|no|you|your|i|me|my|we|us|our|great"
    r"|nice|good|fine|easy|happy|glad|pleasure|okay|ok)\b)[\w.-]+\s+){0,2}?"
)
_EN_COMPLEMENT = (
    r"(?:(?:probably|likely|definitely|just|simply|clearly|really|again|still|all|obviously|surely|certainly)\s+)*"
    r"(?:(?:the|your|our|a|an|some|its|their|this|that)\s+)?"
)
"""What a verdict names after its copula: a part of the system, with at most a determiner and two words before it."""
_ZH_OPINION = r"(?:我觉得|我认为|我猜|我估计|我怀疑|我判断|依我看|在我看来|我看|说实话|老实说|坦白说|恐怕)\s*"
_ZH_HEDGE = (
    r"(?:就是|正是|应该|应当|多半|大概率|大概|估计|很可能|极有可能|可能|肯定|一定|八成|十有八九|显然|明显|似乎|好像|貌似"
    r"|恐怕|怕是|无非|基本上|基本|疑似)"
)
_ZH_HEAD = (
    rf"(?:这|那|这个|那个)?\s*(?:{_ZH_HEDGE}\s*(?:是|为)|{_ZH_HEDGE}(?=\s*{_PART})"
    r"|(?:就|正|都|也|还|又)?\s*是(?!否|不是))"
)
"""多半是, 应该是, 就是, 是; a hedge alone only before what it names (多半 Redis 的问题, not 应该检查 …)."""
_ZH_MODIFIERS = r"\s*(?:(?![我你您])[^，,;；。？?！!]){0,8}?"
_ZH_BLAMED = r"[^，,;；。？?！!]{1,12}?的(?:问题|锅|原因|毛病|故障)"
"""是应用的问题: whatever a verdict blames, named or not."""
_LISTED = r"^\s*(?:\d{1,2}\s*[.、)]\s*|[-*•]\s+)?"
_VERDICT = re.compile(
    rf"{_LISTED}(?:{_EN_OPINION})?{_EN_HEAD}{_EN_COMPLEMENT}(?P<words>{_EN_MODIFIERS}){_PART}"
    rf"|{_LISTED}(?:{_ZH_OPINION})?{_ZH_HEAD}\s*(?:(?P<zh_words>{_ZH_MODIFIERS}){_PART}|{_ZH_BLAMED})",
    re.IGNORECASE,
)
_AT_FAULT = re.compile(
    rf"{_PART}[^，,;；。]{{0,4}}?(?:有|出了?|出现了?)(?:点|些)?(?:问题|故障|毛病|异常)"
    rf"|{_PART}\s*(?:刚刚|刚才|已经|又)?\s*(?:发生了|出现了|触发了|经历了)"
    rf"|{_PART}\s*(?:已经|又|还是|一直|完全)?\s*(?:不能|无法|没法|连不上|访问不了|用不了)"
    rf"|{_EN_WORD_PART}s?\s+(?:is|are|was|were|has|have|had)\s+(?:been\s+)?(?:having\s+|got\s+)?(?:an?\s+|some\s+)?"
    r"(?:problems?|issues?|trouble|acting up|misbehaving|flapping)\b",
    re.IGNORECASE,
)
_RHETORICAL = re.compile(
    r"^\s*(?:(?:don'?t|do\s+not)\s+you\s+(?:think|agree|see)(?:\s+that)?|wouldn'?t\s+you\s+(?:say|agree)(?:\s+that)?"
    r"|(?:is|are|was|were|does|do|did|can|could|would|should|will|has|have)n'?t(?:\s+(?:it|this|that|there))?"
    r"(?:\s+(?:simply|just|really|possibly|obviously|all))*(?:\s+be)?(?:\s+(?:obvious|clear)(?:\s+that)?)?"
    r"|(?:is|are|was|were|does|did|could|would|should|has|have)\s+(?:it|this|that|there)\s+not"
    r"|(?:could|can|would|might)\s+it\s+(?:really\s+|possibly\s+)?be\s+(?:anything|something|anyone)\s+(?:else\s+)?"
    r"(?:other\s+than|but|except|besides)"
    r"|(?:what|who)\s+else\s+(?:could|would|can|might)\s+it\s+be\s+(?:but|except|other\s+than|besides|if\s+not)"
    r"|surely|obviously|of\s+course)(?![A-Za-z])"
    r"|^\s*(?:这|那)?\s*(?:难道|莫非|岂|不就|不正|不也)(?:不)?(?:就是|正是|是)?"
    r"|^\s*(?:这|那)\s*不(?:就)?是"
    r"|^\s*除了\s*(?P<besides>[^，,;；。]+?)\s*(?:以外|之外)?\s*还(?:能|会|可能|有)\s*(?:是|有)?\s*(?:什么|谁|别的|其他)",
    re.IGNORECASE,
)
_PART_FIRST = re.compile(
    rf"^\s*(?:{_EN_COMPLEMENT}{_EN_MODIFIERS}{_PART}|{_ZH_MODIFIERS}{_PART}|\s*{_ZH_BLAMED})", re.IGNORECASE
)
_PART_SUBJECT = re.compile(
    r"^\s*(?:(?:by the way|btw|fyi|also|and|oh|ah),?\s+)*(?:the|your|our)\s+(?:[\w.-]+\s+){0,2}?"
    rf"{_EN_WORD_PART}s?\s+(?:(?:just|already|now|finally|also|still|recently|suddenly)\s+[a-z]{{2,}}ed\b"
    r"|[a-z]{2,}ed(?=\s+(?:\d|an? |about|around|at|ago|earlier|yesterday|today|this|last|since|again))"
    r"|(?:(?:just|already|now|finally|also|still|recently|suddenly)\s+)?"
    r"(?:went|came|fell|broke|ran|got|became|grew|rose|hit|held|kept|took|is|are|was|were|has|had)\b)",
    re.IGNORECASE,
)
_BESIDES = re.compile(r"\s*除了\s*[^，,;；。]{1,16}?\s*(?:以外|之外)?\s*")
_TRAILING_HEDGE = re.compile(
    r"^\s*(?:obviously|probably|clearly|definitely|certainly|surely|most likely|likely|for sure|no doubt|i think|i bet"
    r"|i'd say|i guess|i suspect|i reckon|i'm afraid|if you ask me|我觉得|我猜|我估计|估计|肯定|显然)[\s.!。！]*$",
    re.IGNORECASE,
)


def verdict(text: str) -> str | None:
    """The words that open ``text`` (a clause) and name a cause after a copula or a hedge, or None. Words before the
    part that act or look (Maybe check the DB, 应该是检查数据库) make an instruction of it."""
    found = _VERDICT.match(text)
    if found is None:
        return None
    before = found["words"] or ""
    if any(english_lead_of(word) for word in re.findall(r"[A-Za-z][a-z-]+", before)):
        return None
    if found["zh_words"] and (verb_after(found["zh_words"]) or mixed_verb(found["zh_words"])):
        return None
    return found.group().strip()


def hedged(text: str, after: str) -> str | None:
    """The hedge ``after`` a clause ``text`` that names a part of the system (The pool, obviously.), or None."""
    hedge = _TRAILING_HEDGE.match(after)
    return hedge.group().strip() if hedge is not None and _PART_FIRST.match(text) else None


def besides(text: str) -> bool:
    """Whether ``text`` (a clause) only names what a question after it excludes (除了数据库，还能是什么？)."""
    return _BESIDES.fullmatch(text) is not None


def part_stated(text: str) -> re.Match[str] | None:
    """Where ``text`` opens with a part of the system and a finite verb (the payment gateway just recovered)."""
    return _PART_SUBJECT.match(text)


def at_fault(text: str) -> re.Match[str] | None:
    """Where ``text`` says a part of the system is at fault (数据库有问题, the cache is having issues)."""
    return _AT_FAULT.search(text)


def answered(question: str) -> str | None:
    """The frame of a ``question`` that asserts its own answer (Isn't …, 难道不是 …) when that answer names a cause."""
    frame = _RHETORICAL.match(question)
    if frame is None:
        return None
    answer = frame["besides"] or question[frame.end() :]
    return frame.group().strip() if _PART_FIRST.match(answer) or verdict(answer) else None
