"""The value and quotation rules on a report: each analysis item against the evidence it cites, the conclusion
against the evidence of the analyses it is based on (and what those analyses say).

``evidence`` maps each analysis_id to the snapshot entries it may rest on (the entries of the calls it cites that
passed the citation rules). Actions and recommendations are proposals, not claims: they are not grounded. A failure
names the item and the token (a secret is named by its kind only, by the secret rule), so one repair turn can fix
it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from contract.secrets import redact
from harness.draft import AnalysisItem, Draft
from harness.gate.evidence import Grounds, evidence_of
from harness.gate.failures import EvidenceFailure
from harness.gate.failures import EvidenceFailureCode as Code
from harness.gate.grounding import Missing, unsupported
from harness.gate.policy import ClaimPolicy
from harness.gate.quotes import quote_failures

MAX_TOKENS_PER_ITEM = 5
"""Ungrounded tokens named per item: enough for a repair, short enough to read."""
_ADVICE = (
    "quote values as the evidence states them, state the operands of a derived value, mark a rounded conversion "
    "as approximate (约), or remove it"
)
_ASKED_ADVICE = (
    "it is only a value this item's call asked with, not what the call returned; name it as the query's scope "
    "(以 … 为条件查询) or remove it"
)


def value_failures(
    draft: Draft, evidence: Mapping[str, Sequence[Any]], query: str, policy: ClaimPolicy, skip: set[str]
) -> list[EvidenceFailure]:
    ignore = frozenset(item.analysis_id.lower() for item in draft.analysis)
    asked_by_user = evidence_of([], [query])
    failures: list[EvidenceFailure] = []
    items = {item.analysis_id: item for item in draft.analysis}
    for item in draft.analysis:
        cited = evidence.get(item.analysis_id)
        if not cited or item.analysis_id in skip:
            continue
        grounds = evidence_of(cited, scope_is_fact=item.kind == "NEGATIVE_OBSERVATION").merged(asked_by_user)
        where = f"analysis {item.analysis_id}"
        missing = unsupported(_shown(item.text), grounds, non_facts=policy.non_facts, ignore=ignore)
        failures += [_failure(where, token, "the evidence it cites") for token in missing[:MAX_TOKENS_PER_ITEM]]
        if item.kind == "NORMAL":
            failures += quote_failures(where, item.text, grounds)
    conclusion = draft.conclusion
    if conclusion is not None and conclusion.text.strip():
        basis = [items[ident] for ident in dict.fromkeys(conclusion.based_on_analysis_ids) if ident in items]
        grounds = _basis_grounds(basis, evidence).merged(asked_by_user)
        named = ", ".join(item.analysis_id for item in basis) or "none"
        missing = unsupported(
            _shown(conclusion.text),
            grounds,
            non_facts=policy.non_facts,
            ignore=ignore,
            operand_texts=[item.text for item in basis],
        )
        where = f"the evidence of the analyses it is based on ({named}); base it on the analysis that shows it"
        failures += [_failure("conclusion", token, where) for token in missing[:MAX_TOKENS_PER_ITEM]]
        failures += quote_failures("conclusion", conclusion.text, grounds)
    return failures


def _failure(where: str, token: Missing, source: str) -> EvidenceFailure:
    advice = _ASKED_ADVICE if token.asked else _ADVICE
    return EvidenceFailure(Code.UNGROUNDED_VALUE, f"{where}: 「{token.written}」 does not occur in {source}; {advice}")


def _shown(text: str) -> str:
    """The text as a failure may quote it: a secret is reported by SECRET_IN_TEXT, never named as a token."""
    return redact(text)[0]


def _basis_grounds(basis: list[AnalysisItem], evidence: Mapping[str, Sequence[Any]]) -> Grounds:
    """What a conclusion may state: the evidence of its analyses (each as its kind may read it) and what those
    analyses say."""
    grounds = Grounds()
    for item in basis:
        cited = evidence.get(item.analysis_id, ())
        grounds = grounds.merged(evidence_of(cited, scope_is_fact=item.kind == "NEGATIVE_OBSERVATION"))
        grounds.found.add_text(item.text, stated=True)
    return grounds
