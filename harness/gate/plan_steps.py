"""The plan rule (§7): a plan step written before any evidence must be an instruction to investigate.

A step is one when every step it starts is led by an investigative verb or a question, or runs what only reads
(跑一下 ``--bigkeys`` 看看, 执行 ``SHOW PROCESSLIST``), or it is a checklist item (``Memory: RSS vs heap for
geo-fence``), and no clause of it states a finding (:mod:`harness.gate.findings`, the same classifier the
SYSTEM_CHAT answer is held to).
"""

from __future__ import annotations

import re

from harness.gate.clauses import Clause, Lead, clauses
from harness.gate.commands import commands
from harness.gate.findings import NOT_FINDINGS, clause_finding, commands_in
from harness.gate.policy import ClaimPolicy
from harness.gate.text import NormalForm, normal
from harness.gate.verbs import verb_after

_TOPIC = re.compile(r"^(?:(?:the|a|an)\s+)?[\w./-]+(?:\s+[\w./-]+){0,3}(?<!\d)\s*:(?!\d)\s*\S", re.IGNORECASE)
"""Memory: RSS vs heap for geo-fence; the DNS path: resolv.conf, CoreDNS latency: a checklist item, what to look at."""
_INSTRUCTING = frozenset({Lead.INVESTIGATE, Lead.QUESTION})
_READ_STATEMENT = re.compile(r"\s*(?:SHOW|SELECT|EXPLAIN|DESCRIBE|DESC)\s+[A-Z*]")
"""A statement that reads, written bare in prose after run/执行 (Run SHOW PROCESSLIST on order-db-1)."""


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
    for clause in found:
        if clause_finding(clause, policy) is not None:
            return False
        stepping = clause.starts_step and not clause.aside and not topic
        if stepping and not _instructs(clause, form) and clause.lead not in NOT_FINDINGS:
            return False
    return True


def _instructs(clause: Clause, form: NormalForm) -> bool:
    """Led by an investigative verb or a question, or running what reads (跑一下 --bigkeys 看看, 执行 SHOW …)."""
    if clause.lead in _INSTRUCTING:
        return True
    if clause.lead is not Lead.CARRY:
        return False
    inside = [c for c in commands(form.text, form.code_spans) if clause.start <= c.start < clause.end]
    if inside:
        return all(command.read_only for command in inside)
    if _READ_STATEMENT.match(clause.rest[len(clause.verb) :]):
        return True
    last = verb_after(clause.rest[len(clause.verb) :], last=True)
    return last is not None and last[0] == "INVESTIGATE"
