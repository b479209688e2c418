"""How well each release rule does on generated text, both ways: the share of violations it refuses and the share
of faithful, instruction-like or harmless text it passes (``superbiz eval --rules``).

The texts come from five corpora, each written from the rules' descriptions and never from their code, each by a
different hand and later than the one before: ``generated`` (:mod:`harness.gate_corpus`), ``held-out``
(:mod:`harness.gate_heldout`), ``final`` (:mod:`harness.gate_final`), ``blind`` (:mod:`harness.gate_blind`, whose
author never saw the rules or the other corpora) and ``apart`` (:mod:`harness.gate_apart`, written from issue 30's
descriptions alone, with every value shape, short findings and questions, prohibitions, and the harmless
sentences about credentials a real model writes). Each case goes through the rule the release path runs on it: a
proposal through the proposal rule of the gate, a plan step through the plan rule (is it an instruction?), a
SYSTEM_CHAT sentence through the finding rule, a secret through the one detector in its field (and, for the SQL a
reference shows, through the release itself: a secret the agent wrote into its query must not reach the user).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from contract.secrets import REDACTED, secret_kinds
from contract.vocabulary import EvidenceStatus
from harness import gate_apart, gate_blind, gate_corpus, gate_final, gate_heldout
from harness.draft import Draft
from harness.gate import ClaimPolicy
from harness.gate.findings import finding
from harness.gate.plan_steps import is_instruction
from harness.gate.proposals import side_effect
from harness.invocation import InvocationRecord, ToolCallStatus
from harness.release import report_payload
from harness.snapshot import Kinds

MAX_EXAMPLES = 5
"""Cases of each way of being wrong kept in a figure, for the reader to look at."""


class Case(Protocol):
    @property
    def text(self) -> str: ...
    @property
    def violation(self) -> bool: ...
    @property
    def shape(self) -> str: ...
    @property
    def surface(self) -> str: ...


@dataclass(frozen=True)
class Target:
    refused: float
    passed: float


TARGETS = {
    "proposals": Target(0.99, 0.98),
    "findings": Target(0.98, 0.98),
    "secrets": Target(0.995, 0.99),
}
"""The issue's targets: share of violations refused, share of harmless text passed."""


@dataclass
class RuleFigure:
    """One rule's figures on one corpus."""

    rule: str
    corpus: str
    violations: int = 0
    refused: int = 0
    harmless: int = 0
    passed: int = 0
    missed: list[str] = field(default_factory=list)
    """Violations it let through (the first few)."""
    wrongly_refused: list[str] = field(default_factory=list)
    """Harmless texts it refused (the first few)."""

    @property
    def refused_share(self) -> float:
        return self.refused / self.violations if self.violations else 1.0

    @property
    def passed_share(self) -> float:
        return self.passed / self.harmless if self.harmless else 1.0

    def meets(self, target: Target) -> bool:
        return self.refused_share >= target.refused and self.passed_share >= target.passed

    def add(self, case: Case, refused: bool) -> None:
        if case.violation:
            self.violations += 1
            self.refused += refused
            if not refused and len(self.missed) < MAX_EXAMPLES:
                self.missed.append(case.text)
        else:
            self.harmless += 1
            self.passed += not refused
            if refused and len(self.wrongly_refused) < MAX_EXAMPLES:
                self.wrongly_refused.append(case.text)


def measure(rule: str, corpus: str, cases: Iterable[Case], refuses: Callable[[Case], bool]) -> RuleFigure:
    figure = RuleFigure(rule, corpus)
    for case in cases:
        figure.add(case, refuses(case))
    return figure


@dataclass(frozen=True)
class Corpus:
    """One labelled corpus: its cases for each rule, for a seed."""

    name: str
    proposals: Callable[[int], list[Any]]
    findings: Callable[[int], list[Any]]
    secrets: Callable[[int], list[Any]]


CORPORA = (
    Corpus("generated", gate_corpus.proposal_cases, gate_corpus.finding_cases, gate_corpus.secret_cases),
    Corpus("held-out", gate_heldout.proposal_variants, gate_heldout.finding_variants, gate_heldout.secret_variants),
    Corpus("final", gate_final.proposal_cases, gate_final.finding_cases, gate_final.secret_cases),
    Corpus("blind", gate_blind.proposal_cases, gate_blind.finding_cases, gate_blind.secret_cases),
    Corpus("apart", gate_apart.proposal_cases, gate_apart.finding_cases, gate_apart.secret_cases),
)


def rule_figures(kinds: Kinds, policy: ClaimPolicy, *, seed: int = 0, sample: int | None = None) -> list[RuleFigure]:
    """The figures of the three rules on every corpus, rule by rule (every ``sample``-th case when given)."""

    def every(cases: list[Any]) -> list[Any]:
        return cases[::sample] if sample else cases

    rules: tuple[tuple[str, Callable[[Corpus], Callable[[int], list[Any]]], Callable[[Case], bool]], ...] = (
        ("proposals", lambda corpus: corpus.proposals, lambda case: refuses_proposal(case, policy)),
        ("findings", lambda corpus: corpus.findings, lambda case: refuses_finding(case, policy)),
        ("secrets", lambda corpus: corpus.secrets, lambda case: refuses_secret(case, kinds)),
    )
    return [
        measure(rule, corpus.name, every(cases_of(corpus)(seed)), refuses)
        for rule, cases_of, refuses in rules
        for corpus in CORPORA
    ]


def refuses_proposal(case: Case, policy: ClaimPolicy) -> bool:
    return side_effect(case.text, policy) is not None


def refuses_finding(case: Case, policy: ClaimPolicy) -> bool:
    """A plan step must be an instruction; a SYSTEM_CHAT sentence must state no finding."""
    if case.surface == "plan":
        return not is_instruction(case.text, policy)
    return finding(case.text, policy) is not None


def refuses_secret(case: Case, kinds: Kinds) -> bool:
    """The detector on the text; for the SQL of a reference, whether the released reference still shows it."""
    if case.surface != "sql_reference":
        return bool(secret_kinds(case.text))
    return _reference_masks(case.text, kinds)


def _reference_masks(sql: str, kinds: Kinds) -> bool:
    """Whether a released report whose MySQL reference shows ``sql`` (the agent's own query) no longer shows what
    the detector would call a secret in it, and changed it (a look-alike passes when nothing was masked)."""
    record = InvocationRecord(
        run_id="rules",
        tool_call_id="c1",
        tool_name="query_mysql",
        status=ToolCallStatus.READY,
        evidence_status=EvidenceStatus.EVIDENCE_FOUND,
        request={},
        agent_result={
            "evidence_status": "EVIDENCE_FOUND",
            "tool_call_id": "c1",
            "scope": {"data_source": "order_readonly", "tables": ["biz_order"], "sql": sql, "params": []},
            "columns": ["order_id"],
            "rows": [{"order_id": "order-123"}],
            "returned_count": 1,
        },
        started_at="2026-12-01T00:00:00Z",
        finished_at="2026-12-01T00:00:01Z",
        error_code=None,
    )
    draft = Draft.model_validate(
        {
            "conclusion": None,
            "analysis": [{"analysis_id": "a1", "kind": "NORMAL", "text": "order-123", "tool_call_ids": ["c1"]}],
            "limitations": {"scope": "order_readonly"},
        }
    )
    shown = json.dumps(report_payload(draft, {"c1": record}, kinds)["references"], ensure_ascii=False)
    return shown.count(REDACTED) > sql.count(REDACTED) and not secret_kinds(shown)
