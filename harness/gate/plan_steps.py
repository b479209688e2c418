"""The plan rule (§7): a plan step written before any evidence must be an instruction to investigate.

A step is one when every step it starts is led by an investigative verb or a question, or runs what only reads
(跑一下 ``--bigkeys`` 看看, 执行 ``SHOW PROCESSLIST``), or it is a checklist item (``Memory: RSS vs heap for
geo-fence``), and no clause of it states a finding (:mod:`harness.gate.findings`, the same classifier the
SYSTEM_CHAT answer is held to).
"""

from __future__ import annotations

import re

from harness.gate.clauses import Clause, Lead, clauses
from harness.gate.commands import commands, names_reading_statement
from harness.gate.findings import NOT_FINDINGS, clause_finding, commands_in
from harness.gate.inquiry import on_the_inquiry
from harness.gate.policy import ClaimPolicy
from harness.gate.text import NormalForm, normal
from harness.gate.verbs import verb_after

_TOPIC = re.compile(r"^(?:(?:the|a|an)\s+)?[\w./-]+(?:\s+[\w./-]+){0,3}(?<!\d)\s*:(?!\d)\s*\S", re.IGNORECASE)
"""Memory: RSS vs heap for geo-fence; the DNS path: resolv.conf, CoreDNS latency: a checklist item, what to look at."""
_INSTRUCTING = frozenset({Lead.INVESTIGATE, Lead.QUESTION})
_NOUN_AFTER_VERB = re.compile(r"\s*(?:相关|服务|记录|日志|手册|流程|单|类|接口|任务|事件|操作|请求|状态|时间|的)")
"""What makes a verb the head of a noun (退款服务, 发布相关的日志), not an act."""


def is_instruction(step: str, policy: ClaimPolicy) -> bool:
    """Whether ``step`` is an instruction to investigate: every step it starts is led by an investigative verb or
    a question, and no clause of it states a finding."""
    form = normal(step)
    found = [clause for clause in clauses(form.text, commands_in(form)) if clause.rest]
    if not found:
        return False
    topic = bool(_TOPIC.match(found[0].rest))
    if not topic and not any(_instructs(clause, form) for clause in found):
        return False
    instructed = False
    for clause in found:
        if clause_finding(clause, policy) is not None:
            return False
        stepping = clause.starts_step and not clause.aside and not topic
        instructs = _instructs(clause, form)
        if stepping and not instructs and clause.lead not in NOT_FINDINGS and not (instructed and _names_more(clause)):
            return False
        instructed = instructed or instructs
    return True


def _names_more(clause: Clause) -> bool:
    """Whether a clause after an instruction only names more of what to look at: it has no verb of its own (…, error
    codes and the data dictionary; what its normal p99 latency is), or a verb heads a noun (退款服务运行手册,
    发布相关的日志)."""
    if clause.lead is Lead.UNKNOWN:
        return True
    after = clause.rest.find(clause.verb) + len(clause.verb)
    return clause.lead is Lead.MUTATE and bool(_NOUN_AFTER_VERB.match(clause.rest, after))


def _instructs(clause: Clause, form: NormalForm) -> bool:
    """Led by an investigative verb or a question, or running what reads (跑一下 --bigkeys 看看, 执行 SHOW …)."""
    if clause.lead in _INSTRUCTING or on_the_inquiry(clause):
        return True  # (扩大时间范围确认 …: an act on the investigation itself)
    if clause.lead is not Lead.CARRY:
        return False
    inside = [c for c in commands(form.text, form.code_spans) if clause.start <= c.start < clause.end]
    if inside:
        return all(command.read_only for command in inside)
    if names_reading_statement(clause.rest[len(clause.verb) :]):
        return True  # Run SHOW PROCESSLIST on order-db-1, run a read-only SELECT on biz_order
    last = verb_after(clause.rest[len(clause.verb) :], last=True)
    return last is not None and last[0] == "INVESTIGATE"
