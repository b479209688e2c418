"""Taking a lock is a side effect: where a proposal takes one in words that are no statement SQL can parse.

A locking read that parses (``SELECT … FOR UPDATE``, ``… LOCK IN SHARE MODE``, ``LOCK TABLES``) is judged by
:mod:`harness.gate.commands`. This module finds the lock that does not: a lock clause written as words (用 FOR UPDATE
查询, query it with FOR UPDATE, ``SELECT ... FOR UPDATE``) and a lock said in Chinese or English (加排他锁, 加锁读,
锁住这一行, with a locking read, take a row lock, under an exclusive lock, locking the row). Each is returned as a
command that writes, so a prohibition, a warning or words that only name it excuse it as they excuse any command.

A lock that is only there to be looked at is none of these: a holder, a wait, a lock already held (持锁的事务,
被锁定的行, the lock holders, the lock wait graph, whether order-1 is locked, the session holding a lock), or a lock
word that heads or describes a noun or is part of a name (加锁的会话, 加锁情况, the lock waits, with high lock time,
with high Lock_time); a lock clause of SQL is named as any statement is (:mod:`harness.gate.naming`: FOR UPDATE 语句,
the FOR UPDATE queries).
"""

from __future__ import annotations

import re

from harness.gate import lexicon as words
from harness.gate.commands import Command

_CLAUSE = (
    r"(?:(?<![A-Za-z])SELECT\b[^。；;\n，,]*?\s)?(?<![A-Za-z])(?:FOR\s+(?:UPDATE|SHARE)|LOCK\s+IN\s+SHARE\s+MODE)\b"
    r"(?:\s+(?:NOWAIT|SKIP\s+LOCKED))?"
    r"|(?i:(?<![A-Za-z])select\b[^。；;\n，,]{0,200}?\bfor\s+(?:update|share)\b)"
    r"|(?<![A-Za-z])LOCK\s+TABLES?\b"
)
"""A lock clause of SQL, with the SELECT before it when there is one (upper case in prose, as SQL is written)."""
_ZH = (
    r"加(?:上)?(?:一把|个)?(?:排他|共享|互斥|悲观|独占|行级?|表级?|读|写|意向|间隙|元数据|分布式|X|S)?锁(?:读|查询|方式)?"
    r"|上锁|锁住|锁上|锁表|锁行|锁死"
    r"|锁定(?=\s*(?:该|这|那|此)?\s*(?:一|个|条|张)?\s*(?:行|条记录|记录|订单|表|数据|库存|账户|账号))"
)
"""A lock taken, in Chinese (锁定 only of a row, a record or a table: 锁定根因 narrows an investigation)."""
_EN = (
    r"(?<![A-Za-z])(?:take|acquire|grab|obtain|put|place|hold)\s+(?:a|an)\s+(?:[\w-]+\s+){0,2}?locks?(?![A-Za-z])"
    r"|(?<![A-Za-z])(?:with|using|via|under|through|by)\s+(?:(?:a|an)\s+)?(?:(?!(?:the|its|their|this|that)\s)[\w-]+\s+){0,2}?"
    r"(?:locking\s+reads?|locks?)"
    r"(?![\w-])"
    r"|(?<![A-Za-z])(?:do|run|perform|issue)\s+(?:a\s+)?locking\s+reads?(?![A-Za-z])"
    r"|(?<![A-Za-z])lock(?:ing)?\s+(?:the|this|that|its|their)\s+(?:[\w-]+\s+){0,2}?(?:rows?|tables?|records?|orders?)"
    r"(?![A-Za-z])"
)
"""A lock taken, in English: with an indefinite article (a new lock), or the act of locking a row or a table."""
_SQL = re.compile(_CLAUSE)
_WORDS = re.compile(rf"{_ZH}|{_EN}", re.IGNORECASE)
_HELD_BEFORE = re.compile(
    r"(?:被|已经|已|是否|有没有|有无|谁|正在|在|持有|持|不|无需|无|免|没有|未|"
    r"(?<![A-Za-z])(?:is|are|was|were|be|been|being|who|which|that|sessions?|transactions?|trx|threads?|queries"
    r"|not|no|non-|without))\s*$",
    re.IGNORECASE,
)
"""What makes a lock one that is held or taken by someone else (被锁住, 谁在加锁, the session that is locking), or
none at all (不加锁读取, without a locking read)."""
_NAMES_AFTER = re.compile(
    rf"\s*(?:{words.NOUN_AFTER_VERB}|等待|冲突|争用|超时|会话|事务|语句|持有者"
    r"|(?:statements?|quer(?:y|ies)|sessions?|transactions?|holders?|waits?|contention|timeouts?|time|times|durations?"
    r"|counts?|metrics?|stats|rates?)(?![A-Za-z]))",
    re.IGNORECASE,
)
"""What makes a lock word describe a noun (加锁的会话, 加锁等待, locking read statements): it names, it takes none."""


def locks_taken(text: str) -> list[Command]:
    """Every lock ``text`` (a normal form) takes in words, as a command that writes."""
    found: list[Command] = []
    matches = [*_SQL.finditer(text), *_WORDS.finditer(text)]
    for match in sorted(matches, key=lambda match: match.start()):
        start, end = match.span()
        if any(command.start <= start < command.end for command in found):
            continue
        said = match.re is _WORDS  # (a lock clause of SQL is named or run as any statement is: harness.gate.naming)
        if said and (_HELD_BEFORE.search(text[max(0, start - 12) : start]) or _NAMES_AFTER.match(text, end)):
            continue
        found.append(Command(start, end, match.group(), read_only=False))
    return found
