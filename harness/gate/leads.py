"""What leads a clause, and so what the clause is: the shape the proposal and finding rules read.

A clause loses what may stand before its verb — numbering, politeness and modals (请, 建议先, please, we should),
who does it (由 DBA, ask the DBA to), where or with what (在 Grafana 上, 用 redis-cli, 通过只读查询), a light verb
(进行, 做), a time (02:41 之后, 重启前) — and is then judged by what leads it:

===========  ===================================================================================================
INVESTIGATE  an investigative verb (查看, 核对, 确认, 观察 …; check, compare, verify, watch …)
MUTATE       a side-effect verb (重启, 调大, 降级, 退款 …; restart, rotate, bump, refund …), or one after 将/把/给/为
CARRY        a verb that runs what follows it (执行, 运行, 用; run, execute, use): the command decides
PROHIBIT     不要, 避免, 切勿 …; do not, avoid, never
QUESTION     是否…, 要不要…, 有没有… (a decision asked for); whether …, should we …
CONDITION    如果…, 若…, 一旦…; if …, when …, once …
ASIDE        what only explains, narrows, lists or names a topic: 以便…, 例如…, 关于…; so that, especially, e.g.
STATE        how things are: a clause with 已, 为, 是, 显示 … and no modal (连接池已满); is, was, has …
UNKNOWN      anything else
===========  ===================================================================================================
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from harness.gate import lexicon as words
from harness.gate.prefixes import COMPOUND_NOUN, ZH_OPEN_READ, strip_prefixes
from harness.gate.verbs import buried_verb, english_lead_of, masked, mixed_verb, verb_after


class Lead(StrEnum):
    INVESTIGATE = "INVESTIGATE"
    MUTATE = "MUTATE"
    CARRY = "CARRY"
    PROHIBIT = "PROHIBIT"
    QUESTION = "QUESTION"
    CONDITION = "CONDITION"
    ASIDE = "ASIDE"
    STATE = "STATE"
    UNKNOWN = "UNKNOWN"


@dataclass(frozen=True)
class Clause:
    text: str
    """The clause as written in the normal form, prefixes included."""
    rest: str
    """What follows the stripped prefixes: the clause's verb first."""
    lead: Lead
    starts_step: bool
    aside: bool = False
    """Inside parentheses: it explains the step around it."""
    verb: str = ""
    """The word that decided ``lead`` (the verb, or the marker)."""
    start: int = 0
    end: int = 0
    """Where the clause lies in the text it came from."""
    rest_start: int = 0
    """Where ``rest`` starts in that text."""
    question: bool = False
    """Its sentence ends with a question mark."""


ZH_ANY_VERB = words._either(words.ZH_INVESTIGATE, words.ZH_MUTATE, words.ZH_CARRIER)
_ZH_TIME_CLAUSE = re.compile(
    r"^[^,;，；]{1,30}?(?:后|之后|以后|前|之前|以前|的时候|期间|为止"
    r"|(?<![超及同准按定暂小实随临当此那平耗延限计过历适届到何有一顿旧])时)$"
)
_ZH_CONDITION_END = re.compile(words.ZH_CONDITION_END)
_DEMONSTRATIVE = re.compile(r"^(?:这些|这个|这|那些|那个|那|该|其中|此类)")
"""What leads an object named first (那几个卡住的进程直接 kill 掉, 其中 Pending 的删掉): its last verb acts."""
_ZH_NOMINAL_HEAD = re.compile(rf"的\s*[\u4e00-\u9fff]{{0,4}}?(?P<verb>{ZH_ANY_VERB})\s*$")
_ZH_DISPOSAL = re.compile(rf"^\s*{words.ZH_DISPOSAL}(?!了)")
_ZH_TOPIC = re.compile(rf"^\s*{words.ZH_TOPIC}")
_ZH_ASK_SOMEONE = re.compile(
    rf"^\s*(?:(?:向|跟|和|与|同|找)[^，。；,;]{{1,24}}?|(?:按|针对)[\u4e00-\u9fff]{{1,6}}?)(?P<verb>{words.ZH_INVESTIGATE})"
)
"""Whom to ask or what to go by, then what to find out (向用户确认超时发生的具体时间, 跟 DBA 核实, 按渠道统计 …): an
investigation, whatever it asks about."""
_ZH_TOPIC_PROHIBITED = re.compile(
    rf"^(?P<topic>[^，,;；:：]{{1,12}}?)\s*(?:绝对|千万|一定|务必|切记|也|都|就|暂时|暂且|请)?\s*(?P<marker>{words.ZH_FORBID})"
)
"""生产环境绝对不要执行 FLUSHALL, 高峰期不要用: a prohibition after a topic or a time that holds no verb."""
_NEGATED = re.compile(r"不会|不要|不能|没有|未|无需|不必|不用|别|不得|禁止|避免|从不|绝不")
"""A verb after one of these is not done (我不会修改任何线上数据): it proposes nothing."""
_DONE_BEFORE = re.compile(r"(?:已经|已|曾经|曾|被|刚刚|刚)\s*$")
"""已调整为 50: what was done is a state now."""
_EN_WORD = re.compile(r"^\s*(?P<word>[A-Za-z][A-Za-z-]*)(?![\w./-])")
"""A clause's first English word; a name that starts with a verb (inventory-db.svc …) is no verb."""
_LEADS = (
    (Lead.PROHIBIT, re.compile(rf"^{words.ZH_PROHIBIT}|^{words.EN_PROHIBIT}\b|^{words.EN_KEEP}", re.IGNORECASE)),
    (Lead.QUESTION, re.compile(rf"^{words.ZH_QUESTION}|^{words.EN_QUESTION}\b", re.IGNORECASE)),
    (Lead.CONDITION, re.compile(rf"^{words.ZH_CONDITION}(?!果断)|^{words.EN_CONDITION}\b", re.IGNORECASE)),
    (Lead.ASIDE, re.compile(rf"^{words.ZH_ASIDE}|^{words.EN_ASIDE}\b", re.IGNORECASE)),
)
_ZH_INVESTIGATE = re.compile(rf"^{words.ZH_INVESTIGATE}")
_ZH_MUTATE = re.compile(rf"^{words.ZH_MUTATE}")
_ZH_CARRIER = re.compile(rf"^{words.ZH_CARRIER}")
_ZH_STATE = re.compile(words.ZH_STATE)
_ZH_STATE_WORD = re.compile(words.ZH_STATE_WORD)
_ZH_OBLIGE = re.compile(words.ZH_OBLIGE)
_CONDITIONAL_STEP = re.compile(words.CONDITIONAL_STEP, re.IGNORECASE)
_EXAMPLE_LABEL = re.compile(rf"^\s*{words.EXAMPLE_LABEL}", re.IGNORECASE)
_CHECK_LABEL = re.compile(rf"^\s*{words.CHECK_LABEL}\s*[:：]", re.IGNORECASE)
_ASKS = re.compile(rf"{words.ZH_QUESTION}|\bwhether\b", re.IGNORECASE)
_ZH_ASKING_END = re.compile(r"(?:吗|呢|么|与否|没有)\s*$")
_EN_OPEN_READ = re.compile(
    r"^open\s+(?:up\s+)?(?:the\s+)?[\w\s./-]{0,30}?\b(?:dashboards?|page|console|panel|logs?|links?|docs?|runbook|url"
    r"|grafana|kibana|ui|file|graph|chart|view|report|trace|the ticket)\b",
    re.IGNORECASE,
)
_EN_STATE = re.compile(rf"\b{words.EN_STATE}\b", re.IGNORECASE)
_EN_SUBJECT = re.compile(
    r"^(?:the|a|an|this|that|these|those|it|they|there|its|their|our|all|no|every|each|some|[A-Z][\w-]*|[\w-]*\d[\w-]*)\b"
)
"""How a statement starts (a subject), as an instruction does not: Resolve the incident once the graph is flat."""
_EN_CARRIER = re.compile(rf"^{words.EN_CARRIER}\b", re.IGNORECASE)
_EN_PREPOSITION = re.compile(rf"^{words.EN_PREPOSITION}$", re.IGNORECASE)
_CJK = re.compile(r"[\u4e00-\u9fff]")


def english_verb(word: str) -> Lead | None:
    """INVESTIGATE or MUTATE for an English verb in any of its forms, else None."""
    found = english_lead_of(word)
    return Lead(found) if found is not None else None


def judge(piece: str, *, starts_step: bool = True, aside: bool = False, at: int = 0) -> Clause:
    """One clause (``piece``, found at ``at``): its prefixes stripped, then what leads it."""
    rest, offset = strip_prefixes(piece)
    lead, verb = _lead_of(rest)
    starts_step = starts_step or bool(_CONDITIONAL_STEP.match(piece))
    return Clause(piece.strip(), rest, lead, starts_step, aside, verb, at, at + len(piece), at + offset)


def _lead_of(rest: str) -> tuple[Lead, str]:
    if not rest:
        return Lead.ASIDE, ""
    checking = _CHECK_LABEL.match(rest)
    if checking is not None:
        return Lead.INVESTIGATE, checking.group()
    example = _EXAMPLE_LABEL.match(rest)
    if example is not None:
        return Lead.ASIDE, example.group()
    for lead, pattern in _LEADS:
        found = pattern.match(rest)
        if found is not None:
            acting = _object_first_verb(rest) if lead is Lead.ASIDE and _DEMONSTRATIVE.match(rest) else None
            return (Lead.MUTATE, acting) if acting is not None else (lead, found.group())
    if (_ZH_TIME_CLAUSE.match(rest.strip()) or _ZH_CONDITION_END.search(rest)) and not _ZH_INVESTIGATE.match(rest):
        return Lead.CONDITION, ""
    prohibited = _ZH_TOPIC_PROHIBITED.match(rest)
    if prohibited is not None and _only_names(prohibited["topic"]):
        return Lead.PROHIBIT, prohibited["marker"]
    head = _EN_WORD.match(rest)
    english = head is not None and not _CJK.match(rest)
    if english and _CJK.search(rest) and head is not None and english_verb(head["word"]) is None:
        english = False  # order-service 的 X 需要核实: a Chinese clause about a name
    lead, verb = _english_lead(rest) if english else _chinese_lead(rest)
    if lead in (Lead.UNKNOWN, Lead.STATE) and (_ZH_ASKING_END.search(rest) or _ASKS.search(rest)):
        return Lead.QUESTION, ""
    last = _last_verb(rest) if lead is Lead.UNKNOWN and not english else None
    return last if last is not None else (lead, verb)


def _only_names(topic: str) -> bool:
    """Whether ``topic`` holds no verb and states nothing (生产环境, 高峰期; not 连接池满了)."""
    stated = _ZH_STATE.search(topic) or _ZH_STATE_WORD.search(topic) or "了" in topic
    return not stated and verb_after(topic) is None and mixed_verb(topic) is None


def _last_verb(rest: str) -> tuple[Lead, str] | None:
    """The verb of a Chinese clause whose object comes first (副本数调到 10, 配置比对, 那几个进程 kill 掉), unless it is
    negated (不会真的执行)."""
    last = verb_after(rest, last=True) or mixed_verb(rest)
    if last is None or _NEGATED.search(rest[: rest.rfind(last[1])]):
        return None
    return Lead(last[0]), last[1]


def _object_first_verb(rest: str) -> str | None:
    last = _last_verb(rest)
    return last[1] if last is not None and last[0] is Lead.MUTATE else None


def _chinese_lead(rest: str) -> tuple[Lead, str]:
    if ZH_OPEN_READ.match(rest):
        return Lead.INVESTIGATE, "打开"
    if found := _ZH_INVESTIGATE.match(rest):
        return Lead.INVESTIGATE, found.group()
    if (found := _ZH_CARRIER.match(rest)) and not COMPOUND_NOUN.match(rest, found.end()):
        return Lead.CARRY, found.group()  # (运行手册, 执行计划: a name)
    if (found := _ZH_MUTATE.match(rest)) and not COMPOUND_NOUN.match(rest, found.end()):
        return Lead.MUTATE, found.group()  # (发布单看一眼, 重启前后的 QPS: the verb is part of a noun)
    if found := _ZH_ASK_SOMEONE.match(rest):
        return Lead.INVESTIGATE, found["verb"]
    if found := _ZH_DISPOSAL.match(rest) or _ZH_TOPIC.match(rest):
        verb = verb_after(rest[: found.end() + 48], found.end(), mutating_first=True)
        if verb is not None:
            return Lead(verb[0]), verb[1]
        return (Lead.ASIDE if _ZH_TOPIC.match(rest) else Lead.MUTATE), found.group()  # 关于连接池: a topic
    buried = buried_verb(rest, english=False)
    if buried is not None:
        return Lead(buried[0]), buried[1]
    headed = _ZH_NOMINAL_HEAD.search(masked(rest))
    if headed is not None:  # 主从延迟的持续观察, 连接池的扩容: a noun phrase headed by what is to be done
        return (Lead.INVESTIGATE if _ZH_INVESTIGATE.fullmatch(headed["verb"]) else Lead.MUTATE), headed["verb"]
    if _ZH_STATE.search(rest) and not _ZH_OBLIGE.search(rest):
        acting = None if _ASKS.search(rest) or _ZH_ASKING_END.search(rest) else verb_after(rest, mutating_first=True)
        before = rest[: rest.find(acting[1])] if acting is not None else ""
        if (
            acting is not None
            and acting[0] == "MUTATE"
            and not _DONE_BEFORE.search(before)
            and not _NEGATED.search(before)
        ):
            return Lead.MUTATE, acting[
                1
            ]  # 阈值设为 10000: a value being set, not a state (回调未能标记为 PAID: a state)
        return Lead.STATE, ""
    return Lead.UNKNOWN, ""


_EN_PHRASE = re.compile(
    r"^(?:break down|work out|find out|look into|look up|dig into|figure out|rule out|drill into|drill down|zoom in"
    r"|go through|walk through|keep an eye on|follow up on|follow up|(?:sanity|cross|double|spot)[ -]?check"
    r"|(?:break|narrow|drill)\s+(?:[\w.-]+\s+){1,4}?down"
    r"|re-?check)\b",
    re.IGNORECASE,
)


_EN_RESOLVE_NAME = re.compile(
    r"^resolve\s+(?:the\s+)?(?:[\w.-]+\s+){0,2}?(?:dns|hostname|host ?name|domain|record|address|srv|cname|fqdn)\b",
    re.IGNORECASE,
)
"""Resolve the logistics-api DNS record: a lookup (resolving an incident acts)."""
_EN_MOVE_ON = re.compile(r"^(?:move on|moving on|go on|proceed|turn|continue|switch)\s+(?:to|with)\s+", re.IGNORECASE)
"""Move on to the DB (the investigation goes on there), move on to restarting it (what is moved on to acts)."""


def _english_lead(rest: str) -> tuple[Lead, str]:
    phrase = _EN_PHRASE.match(rest)
    if phrase is not None:
        return Lead.INVESTIGATE, phrase.group().lower()
    if _EN_RESOLVE_NAME.match(rest):
        return Lead.INVESTIGATE, "resolve"
    moving = _EN_MOVE_ON.match(rest)
    if moving is not None:
        after = _EN_WORD.match(rest, moving.end())
        acting = english_verb(after["word"]) if after is not None and after["word"].endswith("ing") else None
        return (acting, after["word"].lower()) if acting and after else (Lead.INVESTIGATE, moving.group().strip())
    word = _EN_WORD.match(rest)
    assert word is not None
    head = word["word"].lower()
    if head == "open":
        return (Lead.INVESTIGATE if _EN_OPEN_READ.match(rest) else Lead.MUTATE), head
    if _EN_CARRIER.match(rest):
        return Lead.CARRY, head
    verb = english_verb(head)
    if verb is not None:
        return verb, head
    buried = buried_verb(rest, english=True)
    if buried is not None:
        return Lead(buried[0]), buried[1]
    if _EN_PREPOSITION.match(head):
        return Lead.ASIDE, head
    if _EN_SUBJECT.match(rest) and _EN_STATE.search(rest):
        return Lead.STATE, ""
    return Lead.UNKNOWN, head
