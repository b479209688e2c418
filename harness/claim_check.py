"""What a report *says*, checked by rule before any reviewer reads it: the release gate's claim rules.

The EvidenceGuard proves that a draft cites real calls of its run; these rules prove more of its words:

- a report says something: a conclusion has text (``null`` says that none can be drawn), and at least one
  analysis item cites evidence (NO_CITED_ANALYSIS, EMPTY_CONCLUSION);
- every fact token of an analysis item occurs in the evidence that item cites (or in the user's question), and
  the conclusion uses only tokens of the analyses it is based on (UNGROUNDED_VALUE,
  :mod:`harness.value_grounding`); actions and recommendations are proposals, not claims, and are not grounded;
- no user-visible text holds a secret (SECRET_IN_TEXT, :mod:`contract.secrets`);
- an action or recommendation with a side effect waits for a human (UNCONFIRMED_ACTION): the Harness's
  configured patterns decide, not the model (§10.2).

``evidence`` maps each analysis_id to the evidence it may rest on: the agent_results of the calls it cites that
passed the EvidenceGuard, or (in an evaluation) the verified snapshot entries of its group. The same rules run on
both, so the bundled evaluation measures exactly what a run enforces. A failure names the item and the token (a
secret is named by its kind only), so the one repair turn can fix it.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from config.schema import HarnessSettings
from contract.secrets import redact, secret_kinds
from harness.draft import AnalysisItem, Draft
from harness.draft_failures import EvidenceFailure
from harness.draft_failures import EvidenceFailureCode as Code
from harness.value_grounding import Evidence, evidence_of, ungrounded

_CLAUSE_START = re.compile(r"[，。；！？、,;!?\n]|\.\s")
_ASKED = re.compile(
    r"(?<!不论)(?<!无论)(?<!不管)(?:是否|要不要|需不需要|能否|可否|有没有)|whether|if (?:it is )?(?:needed|necessary)",
    re.IGNORECASE,
)
_LOOKED_AT = re.compile(
    r"(?:查看|查询|检查|核对|排查|统计|分析|观察|回顾|check|review|inspect|look at|query|list)(?P<rest>.{0,12})$",
    re.IGNORECASE,
)
_THEN = re.compile(r"[并再后然且和及与&完]|立即|马上|随后|接着|\band\b|\bthen\b|\bafter\b", re.IGNORECASE)
_FORBIDDEN = re.compile(
    r"(?:禁止|不要|不得|切勿|请勿|严禁|避免|不应|不能|无需|不需要|don't|do not|must not|never|avoid)(?P<rest>.{0,10})$",
    re.IGNORECASE,
)
_BEFORE_IT = re.compile(r"^(?:前|之前|以前)")
_QUERY_OBJECT = re.compile(r"^[^，。；,;]{0,4}(?:时间范围|时间窗口|范围|窗口|时间段|查询|检索|关键词|筛选条件)")
_NOTHING_SAID = re.compile(r"^(?:无|暂无|空|待定|未知|不详|略|none|null|n/?a|tbd|todo|unknown|-+)?$", re.IGNORECASE)
MAX_TOKENS_PER_ITEM = 5
"""Ungrounded tokens named per item: enough for a repair, short enough to read."""


@dataclass(frozen=True)
class ClaimPolicy:
    """The configured vocabulary of the claim rules (``harness.claims``, ``harness.actions``, ``harness.plan``)."""

    non_facts: frozenset[str]
    confirmation_patterns: tuple[re.Pattern[str], ...]
    assertion_markers: tuple[str, ...]

    @classmethod
    def from_settings(cls, settings: HarnessSettings) -> ClaimPolicy:
        return cls(
            non_facts=frozenset(word.lower() for word in settings.claims.non_fact_words),
            confirmation_patterns=tuple(
                re.compile(pattern, re.IGNORECASE) for pattern in settings.actions.confirmation_patterns
            ),
            assertion_markers=tuple(marker.lower() for marker in settings.plan.assertion_markers),
        )

    @classmethod
    @functools.cache
    def default(cls) -> ClaimPolicy:
        """The policy of the default configuration (the offline model and the bundled evaluation use it)."""
        return cls.from_settings(HarnessSettings())

    def side_effect(self, text: str) -> str | None:
        """The first phrase of ``text`` that proposes a side effect, or None.

        A phrase only asked about (是否需要扩容, whether to restart), only looked at (查看最近的变更记录, check the
        rollback history), forbidden (不要直接修改), named as a point in time (重启前) or applied to the query itself
        (扩大时间范围) proposes nothing; one after a conjunction (检查后重启, 查看并回滚) does."""
        for pattern in self.confirmation_patterns:
            for found in pattern.finditer(text):
                clause = _CLAUSE_START.split(text[: found.start()])[-1]
                after = text[found.end() : found.end() + 8]
                proposes = not (
                    _ASKED.search(clause)
                    or _governs(_FORBIDDEN, clause)
                    or _governs(_LOOKED_AT, clause)
                    or _BEFORE_IT.match(after)
                    or _QUERY_OBJECT.match(after)
                )
                if proposes:
                    return found.group(0)
        return None

    def assertion(self, text: str) -> str | None:
        """The first marker of a stated finding in ``text`` (根因是, confirmed …), or None."""
        lowered = text.lower()
        return next((marker for marker in self.assertion_markers if marker in lowered), None)


def _governs(verb: re.Pattern[str], clause: str) -> bool:
    """Whether ``verb`` (查看, 不要 …) is the last verb before the end of ``clause``: no conjunction follows it."""
    found = verb.search(clause)
    return found is not None and not _THEN.search(found["rest"])


def check_claims(
    draft: Draft,
    evidence: Mapping[str, Sequence[Any]],
    query: str,
    policy: ClaimPolicy,
    *,
    skip: Iterable[str] = (),
) -> list[EvidenceFailure]:
    """Every claim rule on ``draft``, in report order. Items in ``skip`` (whose citations already failed, with their
    own failures) are not grounded, and count as citing for NO_CITED_ANALYSIS."""
    skipped = set(skip)
    failures = _shape(draft, evidence, skipped)
    failures += _grounding(draft, evidence, query, policy, skipped)
    failures += secret_failures(draft.visible_texts())
    failures += _actions(draft, policy)
    return failures


def secret_failures(texts: Iterable[tuple[str, str]]) -> list[EvidenceFailure]:
    """One failure per text that holds a secret, named by the secret's kind, never by its value."""
    return [
        EvidenceFailure(Code.SECRET_IN_TEXT, f"{where} contains a secret ({', '.join(kinds)}); remove it")
        for where, text in texts
        if (kinds := secret_kinds(text))
    ]


def _shape(draft: Draft, evidence: Mapping[str, Sequence[Any]], skip: set[str]) -> list[EvidenceFailure]:
    failures: list[EvidenceFailure] = []
    if draft.conclusion is not None and says_nothing(draft.conclusion.text):
        failures.append(
            EvidenceFailure(
                Code.EMPTY_CONCLUSION, "conclusion has no text; state the conclusion, or set conclusion to null"
            )
        )
    if not any(evidence.get(item.analysis_id) or item.analysis_id in skip for item in draft.analysis):
        failures.append(
            EvidenceFailure(Code.NO_CITED_ANALYSIS, "the draft has no analysis item that cites evidence of this run")
        )
    return failures


def says_nothing(text: str) -> bool:
    """Whether ``text`` is blank once invisible characters, punctuation and placeholders (无, N/A, TBD …) go."""
    visible = "".join(
        char for char in text if unicodedata.category(char)[0] not in ("C", "Z", "P") and not char.isspace()
    )
    return bool(_NOTHING_SAID.match(visible))


def _grounding(
    draft: Draft, evidence: Mapping[str, Sequence[Any]], query: str, policy: ClaimPolicy, skip: set[str]
) -> list[EvidenceFailure]:
    ignore = frozenset(item.analysis_id.lower() for item in draft.analysis)
    asked = evidence_of([], [query])
    failures: list[EvidenceFailure] = []
    texts = {item.analysis_id: item.text for item in draft.analysis}
    items = {item.analysis_id: item for item in draft.analysis}
    for item in draft.analysis:
        cited = evidence.get(item.analysis_id)
        if not cited or item.analysis_id in skip:
            continue
        held = evidence_of(cited, scope_is_fact=item.kind == "NEGATIVE_OBSERVATION").merged(asked)
        for token in ungrounded(_shown(item.text), held, non_facts=policy.non_facts, ignore=ignore)[
            :MAX_TOKENS_PER_ITEM
        ]:
            failures.append(
                EvidenceFailure(
                    Code.UNGROUNDED_VALUE,
                    f"analysis {item.analysis_id}: 「{token}」 does not occur in the evidence it cites; quote values "
                    "as the evidence states them, state the operands of a derived value, mark a rounded "
                    "conversion as approximate (约), or remove it",
                )
            )
    conclusion = draft.conclusion
    if conclusion is not None and conclusion.text.strip():
        basis = [ident for ident in dict.fromkeys(conclusion.based_on_analysis_ids) if ident in texts]
        held = _basis_evidence([items[ident] for ident in basis], evidence).merged(asked)
        named = ", ".join(basis) or "none"
        missing = ungrounded(
            _shown(conclusion.text),
            held,
            non_facts=policy.non_facts,
            ignore=ignore,
            operand_texts=[texts[i] for i in basis],
        )
        for token in missing[:MAX_TOKENS_PER_ITEM]:
            failures.append(
                EvidenceFailure(
                    Code.UNGROUNDED_VALUE,
                    f"conclusion: 「{token}」 does not occur in the evidence of the analyses it is based on "
                    f"({named}); base it on the analysis that shows it, or remove it",
                )
            )
    return failures


def _shown(text: str) -> str:
    """The text as a failure may quote it: a secret is reported by SECRET_IN_TEXT, never named as a token."""
    return redact(text)[0]


def _basis_evidence(basis: list[AnalysisItem], evidence: Mapping[str, Sequence[Any]]) -> Evidence:
    """What a conclusion may state: the evidence of its analyses (each as its kind may read it) and what those
    analyses say."""
    held = Evidence()
    for item in basis:
        cited = evidence.get(item.analysis_id, ())
        held = held.merged(evidence_of(cited, [item.text], scope_is_fact=item.kind == "NEGATIVE_OBSERVATION"))
    return held


def _actions(draft: Draft, policy: ClaimPolicy) -> list[EvidenceFailure]:
    failures: list[EvidenceFailure] = []
    proposals = [
        (f"action_plan[{i}]", a.action, a.requires_human_confirmation) for i, a in enumerate(draft.action_plan)
    ]
    proposals += [
        (f"recommendations[{i}]", r.text, r.requires_human_confirmation) for i, r in enumerate(draft.recommendations)
    ]
    for where, text, confirmed in proposals:
        effect = policy.side_effect(text)
        if effect is not None and not confirmed:
            failures.append(
                EvidenceFailure(
                    Code.UNCONFIRMED_ACTION,
                    f"{where} has a side effect (「{effect}」) and must set requires_human_confirmation: true",
                )
            )
    return failures
