"""The release gate's one entry point: :func:`check` returns every failure of a draft or an answer.

A subject says what is judged: a :class:`Report` (the agent's draft as sent, and the records of the calls it cites),
a :class:`VerifiedReport` (a user-visible draft with the snapshot it rests on: an evaluation case), a
:class:`KnowledgeReply`, a :class:`SystemReply` or a :class:`Plan`. Every rule reads the same normal form of each
text (:mod:`harness.gate.text`); every broken rule is collected, in report order, so one repair turn can fix them
all. The caller decides what happens next (repair, fallback or release).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import singledispatch
from typing import Any, overload

from contract.secrets import redact
from harness.draft import Draft, DraftRejected, parse_draft
from harness.gate.answers import KnowledgeRelease, check_knowledge_answer, plan_steps, system_answer_problem
from harness.gate.citations import check_citations, reference_failures
from harness.gate.failures import EvidenceFailure
from harness.gate.failures import EvidenceFailureCode as Code
from harness.gate.policy import ClaimPolicy
from harness.gate.proposals import side_effect
from harness.gate.secrets import secret_failures
from harness.gate.shape import shape_failures
from harness.gate.values import value_failures
from harness.intents import KnowledgeAnswer
from harness.invocation import InvocationRecord
from harness.language import DEFAULT_LANGUAGE, Language
from harness.snapshot import Kinds, snapshot_evidence


@dataclass(frozen=True)
class Report:
    """The agent's draft as it sent it, the records of the calls it cites (:func:`fetch_cited`), the question."""

    text: str | None
    records: Mapping[str, InvocationRecord | None]
    kinds: Kinds
    query: str
    run_id: str | None = None


@dataclass(frozen=True)
class VerifiedReport:
    """A user-visible draft and, by analysis_id, the snapshot entries its analyses rest on."""

    draft: Draft
    evidence: Mapping[str, Sequence[Any]]
    query: str


@dataclass(frozen=True)
class KnowledgeReply:
    answer: KnowledgeAnswer
    evidence: list[dict[str, Any]]
    query: str
    language: Language = DEFAULT_LANGUAGE
    """The question's: a limitation the Harness adds is written in it."""


@dataclass(frozen=True)
class SystemReply:
    answer: str
    capabilities: str
    """The capability text of the question's language (:func:`harness.fixed_texts.capabilities`)."""
    query: str


@dataclass(frozen=True)
class Plan:
    steps: Sequence[Any]
    language: Language = DEFAULT_LANGUAGE
    """The question's: the generic plan, when it is streamed, is the one of this language."""


@dataclass(frozen=True)
class EvidenceCheck:
    """The verdict on a report; the supervisor decides what happens next (repair, fallback or release)."""

    ok: bool
    failures: tuple[EvidenceFailure, ...]
    draft: Draft | None
    """The parsed draft, also when other rules failed; None when the text is not a Draft."""
    verified: Mapping[str, InvocationRecord] = field(default_factory=dict)
    """Cited records none of whose citations broke a rule, by tool_call_id, in first-citation order."""


@dataclass(frozen=True)
class SystemVerdict:
    problem: str | None
    """Why the answer may not be released (EMPTY, SECRET, UNGROUNDED, FINDING, SIDE_EFFECT), or None."""


@dataclass(frozen=True)
class PlanVerdict:
    steps: list[str]
    """The steps to stream: the agent's instructions, or the generic plan."""


@overload
def check(subject: Report, policy: ClaimPolicy) -> EvidenceCheck: ...
@overload
def check(subject: VerifiedReport, policy: ClaimPolicy) -> EvidenceCheck: ...
@overload
def check(subject: KnowledgeReply, policy: ClaimPolicy) -> KnowledgeRelease: ...
@overload
def check(subject: SystemReply, policy: ClaimPolicy) -> SystemVerdict: ...
@overload
def check(subject: Plan, policy: ClaimPolicy) -> PlanVerdict: ...
def check(subject: Any, policy: ClaimPolicy) -> Any:
    """Every rule that applies to ``subject``."""
    return _check(subject, policy)


@singledispatch
def _check(subject: Any, policy: ClaimPolicy) -> Any:
    raise TypeError(f"the release gate judges no {type(subject).__name__}")


@_check.register
def _(subject: Report, policy: ClaimPolicy) -> EvidenceCheck:
    try:
        draft = parse_draft(subject.text)
    except DraftRejected as exc:
        schema = tuple(EvidenceFailure(Code.DRAFT_SCHEMA, problem) for problem in exc.problems)
        return EvidenceCheck(ok=False, failures=schema, draft=None, verified={})
    citations = check_citations(draft, subject.records, subject.kinds, subject.run_id)
    evidence = {
        item.analysis_id: [
            entry
            for call in dict.fromkeys(item.tool_call_ids)
            if (record := citations.verified.get(call)) is not None
            for entry in snapshot_evidence(record, subject.kinds)
        ]
        for item in draft.analysis
    }
    failures = [*citations.failures, *_claims(draft, evidence, subject.query, policy, set(citations.broken_items))]
    return EvidenceCheck(ok=not failures, failures=tuple(failures), draft=draft, verified=citations.verified)


@_check.register
def _(subject: VerifiedReport, policy: ClaimPolicy) -> EvidenceCheck:
    failures = reference_failures(subject.draft) + _claims(subject.draft, subject.evidence, subject.query, policy)
    return EvidenceCheck(ok=not failures, failures=tuple(failures), draft=subject.draft)


@_check.register
def _(subject: KnowledgeReply, policy: ClaimPolicy) -> KnowledgeRelease:
    return check_knowledge_answer(subject.answer, subject.evidence, subject.query, policy, subject.language)


@_check.register
def _(subject: SystemReply, policy: ClaimPolicy) -> SystemVerdict:
    return SystemVerdict(system_answer_problem(subject.answer, subject.capabilities, subject.query, policy))


@_check.register
def _(subject: Plan, policy: ClaimPolicy) -> PlanVerdict:
    return PlanVerdict(plan_steps(subject.steps, policy, subject.language))


def _claims(
    draft: Draft, evidence: Mapping[str, Sequence[Any]], query: str, policy: ClaimPolicy, skip: set[str] | None = None
) -> list[EvidenceFailure]:
    """The rules on what a report says, in report order: it says something, its values are grounded, it holds no
    secret, and its proposals that do not wait for a human only read."""
    skipped = skip or set()
    failures = shape_failures(draft, evidence, skipped)
    failures += value_failures(draft, evidence, query, policy, skipped)
    failures += secret_failures(draft.visible_texts())
    failures += proposal_failures(draft, policy)
    return failures


def proposal_failures(draft: Draft, policy: ClaimPolicy) -> list[EvidenceFailure]:
    proposals = [
        (f"action_plan[{i}]", a.action, a.requires_human_confirmation) for i, a in enumerate(draft.action_plan)
    ]
    proposals += [
        (f"recommendations[{i}]", r.text, r.requires_human_confirmation) for i, r in enumerate(draft.recommendations)
    ]
    failures: list[EvidenceFailure] = []
    for where, text, confirmed in proposals:
        effect = None if confirmed else side_effect(text, policy)
        if effect is not None:
            failures.append(
                EvidenceFailure(
                    Code.UNCONFIRMED_ACTION,
                    f"{where} has a side effect or is not recognisably read-only (「{redact(effect)[0]}」) and must "
                    "set requires_human_confirmation: true",
                )
            )
    return failures


def failure_texts(verdict: EvidenceCheck) -> list[str]:
    """One ``CODE: message`` line per failure, for the repair instruction."""
    return [f"{failure.code}: {failure.message}" for failure in verdict.failures]
