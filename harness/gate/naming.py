"""When the words around a command in a proposal only name it, and when they give it to run.

A careful reviewer reads a statement by what governs it. Given to a verb that runs it (执行这条 UPDATE 语句, run the
DELETE queries again, 用 … 查看, verify with …), written as the step, or looked at for what running it gives (查看 … 的
结果, whether … returns the row, 是否能拿到锁), it is run. It is only named when

- what comes before says it ran, who ran it or who runs it (是谁跑了, 执行过, 正在执行的, who ran, sessions running);
- what follows names it (… 语句, the UPDATE biz_order statements, 的记录/历史/执行计划, … 是否执行过, was run, by whom);
- a look governs it as the head of a noun after 的 (检查慢日志中的 UPDATE biz_order, 相关的 UPDATE 和 SELECT … FOR
  UPDATE), and no verb that runs does (立即执行刚才说的 …, 参考 runbook 的 … is a step to follow);
- or it is what a search looks for (在 binlog 里找, search the general log for, look for, check the slow log for).
"""

from __future__ import annotations

import re

from harness.gate import lexicon as words
from harness.gate.clauses import Clause, Lead
from harness.gate.commands import Command
from harness.gate.verbs import INVESTIGATE, verb_after

_RAN = re.compile(
    r"(?:是否有|有没有|有无|历史上|之前|曾经|跑了|跑过|执行了|执行过|敲了|运行了|那次|上次|当时|之前执行的"
    r"|谁\s*(?:在|正在)?\s*(?:执行|运行|跑|敲)?(?:了|过)?|(?:谁|什么|哪个会话|哪些会话|哪个事务)\s*(?:在|正在)?\s*(?:阻塞|卡住|锁住|挡住)(?:了|着)?"
    r"|(?:正在|在)\s*(?:执行|运行|跑)(?:的)?|是否有人(?:执行|运行|跑)(?:了|过)?"
    r"|(?<![A-Za-z])(?:who (?:ran|executed|issued|is running|was running|runs)|history of|ran|executed|issued"
    r"|(?:lock_time|lock time|lock waits?|wait time|latency|duration) (?:on|of|for)|(?:blocking|blocked|waits? on)"
    r"|(?:is|are|was|were) (?:running|executing|issuing|holding|waiting on|waiting for|blocked by)"
    r"|(?:sessions?|transactions?|threads?|connections?|clients?|queries) (?:running|executing|issuing|holding"
    r"|waiting on|waiting for)|(?:whether|if) (?:anyone|someone|somebody) (?:ran|executed|issued))(?: the| a| an)?)"
    r"\s*[`'\"「“]?\s*$",
    re.IGNORECASE,
)
"""What says a command ran, who ran it, or who is running it (查一下是谁跑了 ``rm -rf …``, sessions running …)."""
_RUNS = re.compile(
    r"(?:执行|运行|跑|敲|输入|键入|使用|用|通过|借助"
    r"|(?<![A-Za-z])(?:run|execute|exec|issue|invoke|use|using|with|via|by running|type))\s*(?:一下|一次|一遍|下)?\s*"
    r"(?:(?:这条|这个|该|那条|那个|此|上面的|下面的|上述|以下|如下的?|刚才的"
    r"|(?<![A-Za-z])(?:the|this|that|these|those|following|above|same))\s*){0,2}[`'\"「“]?\s*$",
    re.IGNORECASE,
)
"""A verb that runs what follows it, and at most a demonstrative between (执行这条, run the, 用): it is run."""
_NAMES_AFTER = re.compile(
    r"^[\s`'\"」”)]*(?:语句|这条语句|这类语句|命令|记录|历史|操作记录"
    r"|的(?:记录|历史|日志|执行|情况|语句|操作|会话|事务|连接|线程|来源|次数|数量|耗时)"
    r"|(?:是否|有没有|有无)\s*(?:被|曾|已|有人)?\s*(?:执行|运行|跑|出现|存在|发生|记录|在)"
    r"|是(?:哪个|哪位|谁|什么时候|何时)|由谁|被谁|谁"
    r"|(?:history|was run|ran|has been|had been|statements?|quer(?:y|ies)|commands?|log|by whom"
    r"|(?:was|were) (?:run|executed|issued)|appears?|exists?|happened|shows? up|occurs?|occurred)(?![A-Za-z]))",
    re.IGNORECASE,
)
"""What names a command written before it (… 语句, … 是否执行过, the DROP … was run at 02:00, … statements)."""
_MESSAGE_OPENED = re.compile(r"[“「\"][^”」\"]*[A-Za-z\u4e00-\u9fff][^”」\"]*\s$")
_CLOSES = re.compile(r"\s*[”」\"]")
_HEADS_NOUN = re.compile(r"的\s*(?:[\x20-\x7e]*?(?:和|及|与|、|以及|或)\s*)?[`'\"「“]?\s*$")
"""慢日志中的 ``UPDATE …``, 相关的 UPDATE 和 ``SELECT … FOR UPDATE``: a statement after 的 heads a noun."""
_CARRIES = re.compile(
    rf"(?:(?:执行|运行|跑)(?!\s*(?:{words.NOUN_AFTER_VERB}|计划|手册|过|了|最|得|较|更|失败|成功|超时))"
    r"|(?<![A-Za-z])(?:run|execute|exec|issue|invoke)(?![A-Za-z]))",
    re.IGNORECASE,
)
"""A verb that runs, anywhere before a command in its clause; not one that names or describes (正在执行的, 执行过,
执行计划, 运行日志, 执行最慢的)."""
_SOUGHT = re.compile(
    r"(?:找|查找|寻找|搜索|搜|检索|(?<![A-Za-z])(?:grep|search|find|look(?:ing)? for|hunt for))(?![A-Za-z])"
    r"(?:(?!(?<![A-Za-z])(?:and|then|or)(?![A-Za-z])|然后|并|再|后)[^，,;；。])*$"
    r"|(?<![A-Za-z])(?:logs?|binlogs?|history|processlist)\s+for\s*[`'\"「“]?\s*$",
    re.IGNORECASE,
)
"""在 binlog 里查找 …, search the general log for …, check the slow log for …: what is sought is in a text (and no
step begins between: find the stuck session and KILL 4242)."""


def named(text: str, command: Command, clause: Clause | None) -> bool:
    """Whether the words around ``command`` in ``text`` (in ``clause``, when it lies in one) only name it."""
    before = text[clause.start if clause is not None else max(0, command.start - 24) : command.start]
    near = before[-24:]
    if _RAN.search(near):
        return True
    if _RUNS.search(near):
        return False
    if _CARRIES.search(before):
        return False  # 执行慢日志中的 … 语句, 立即执行刚才说的 …: the verb that runs governs what the command names
    if _NAMES_AFTER.match(text[command.end : command.end + 16]) or _in_quoted_message(near, text, command):
        return True
    return bool(_SOUGHT.search(before)) or (_HEADS_NOUN.search(near) is not None and _looked_at(before, clause))


def _in_quoted_message(near: str, text: str, command: Command) -> bool:
    """Whether ``command`` is part of a quoted message with words of its own (确认“lock wait on UPDATE biz_order”是否
    …): a log line or an error named, not a statement given to run."""
    opened = _MESSAGE_OPENED.search(near)
    return opened is not None and _CLOSES.match(text, command.end) is not None


def _looked_at(before: str, clause: Clause | None) -> bool:
    """Whether a look governs the noun a command heads (检查慢日志中的 …), or the clause only narrows a look before it
    (（重点是 … 相关的 UPDATE 和 …）); not a reference to follow (参考 runbook 的 …)."""
    if clause is not None and clause.lead is Lead.ASIDE:
        return True
    last = verb_after(before, last=True)
    return last is not None and last[0] == INVESTIGATE
