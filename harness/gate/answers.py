"""The rules on every user-visible text that is not a diagnosis report: knowledge answers, system answers and the
Diagnosis Plan. Each returns what may be released; the run decides how.

- A knowledge answer (§4.5 KNOWLEDGE_QUERY) is released only when it references at least one document the
  lookup returned, every fact token of its answer and limitations occurs in the documents it references (their
  title, section and excerpt) or in the question, and it holds no secret; otherwise the fixed knowledge fallback is.
- A system answer (SYSTEM_CHAT) never enters the guards, but it may carry no fact token that is not in the
  configured capability text or the question, no secret, no sentence that states a finding
  (:mod:`harness.gate.findings`) and no side effect the capability text does not itself name
  (:func:`harness.gate.proposals.mutating_part`); otherwise the capability text is released instead.
- A plan step is an instruction, not a finding (:func:`harness.gate.findings.is_instruction`): a step that holds
  an SQL statement, holds a secret or is not an instruction is dropped, and when fewer than three steps remain a fixed
  generic plan is streamed instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from harness.fixed_texts import texts
from harness.gate.commands import holds_sql
from harness.gate.evidence import evidence_of
from harness.gate.examples import without_examples
from harness.gate.findings import finding
from harness.gate.grounding import ungrounded
from harness.gate.plan_steps import is_instruction
from harness.gate.policy import ClaimPolicy
from harness.gate.proposals import mutating_part
from harness.gate.secrets import holds_secret
from harness.gate.text import normal
from harness.intents import KnowledgeAnswer, checked_references
from harness.language import DEFAULT_LANGUAGE, Language

MIN_PLAN_STEPS = 3
MAX_PLAN_STEPS = 5
MAX_PLAN_STEP_CHARS = 80
GENERIC_PLAN = texts("zh").generic_plan
"""Streamed when the agent's own plan has fewer than three usable steps (the Chinese one; each language has its own:
:mod:`harness.fixed_texts`)."""


@dataclass(frozen=True)
class KnowledgeRelease:
    """``payload`` to release, or ``refused`` with the reason to record (the fixed fallback is released)."""

    payload: dict[str, Any] | None
    refused: str | None = None
    invented_references: tuple[str, ...] = ()


def check_knowledge_answer(
    answer: KnowledgeAnswer,
    evidence: list[dict[str, Any]],
    query: str,
    policy: ClaimPolicy,
    language: Language = DEFAULT_LANGUAGE,
) -> KnowledgeRelease:
    references, invented = checked_references(answer, evidence)
    if not references:
        return KnowledgeRelease(None, "KNOWLEDGE_REFERENCES_INVALID", tuple(invented))
    written = [answer.answer, *answer.limitations]
    if any(holds_secret(text) for text in written):
        return KnowledgeRelease(None, "KNOWLEDGE_SECRET", tuple(invented))
    held = evidence_of(references, [query])
    stated = [without_examples(text, questions_only=True) for text in written]
    if any(ungrounded(text, held, non_facts=policy.non_facts) for text in stated):
        return KnowledgeRelease(None, "KNOWLEDGE_UNGROUNDED", tuple(invented))
    limitations = list(answer.limitations)
    if invented:
        limitations.append(texts(language).invented_references_removed)
    payload = {"answer": answer.answer, "references": references, "limitations": limitations}
    return KnowledgeRelease(payload, None, tuple(invented))


def system_answer_problem(answer: str, capabilities: str, query: str, policy: ClaimPolicy) -> str | None:
    """Why ``answer`` may not be released as the system answer (a stable reason code), or None."""
    if not answer.strip():
        return "EMPTY"
    if holds_secret(answer):
        return "SECRET"
    stated = without_examples(answer)
    if ungrounded(stated, evidence_of([], [capabilities, query]), non_facts=policy.non_facts):
        return "UNGROUNDED"
    if finding(stated, policy) is not None:
        return "FINDING"
    effect = mutating_part(answer, policy)
    if effect is not None and effect.lower() not in normal(capabilities).text.lower():
        return "SIDE_EFFECT"
    return None


def plan_steps(steps: Sequence[Any], policy: ClaimPolicy, language: Language = DEFAULT_LANGUAGE) -> list[str]:
    """The steps that may be streamed (3–5 short instructions), or the generic plan of ``language``."""
    kept = [
        step.strip()[:MAX_PLAN_STEP_CHARS]
        for step in steps
        if isinstance(step, str)
        and step.strip()
        and not holds_sql(normal(step).text, normal(step).code_spans)
        and not holds_secret(step)
        and is_instruction(step, policy)
    ][:MAX_PLAN_STEPS]
    return kept if len(kept) >= MIN_PLAN_STEPS else list(texts(language).generic_plan)
