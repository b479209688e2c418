"""The value and quotation rules on a report: each analysis item against the evidence it cites, the conclusion
against the evidence of the analyses it is based on (and what those analyses say).

``evidence`` maps each analysis_id to the snapshot entries it may rest on (the entries of the calls it cites that
passed the citation rules). Actions and recommendations are proposals, not claims: they are not grounded. A failure
names the item and the token (a secret is named by its kind only, by the secret rule), so one repair turn can fix
it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from contract.secrets import redact
from harness.draft import AnalysisItem, Draft
from harness.gate import advice
from harness.gate.advice import report_language
from harness.gate.derivation import held
from harness.gate.evidence import Grounds, evidence_of
from harness.gate.failures import EvidenceFailure
from harness.gate.failures import EvidenceFailureCode as Code
from harness.gate.grounding import Missing, unsupported
from harness.gate.policy import ClaimPolicy
from harness.gate.quotes import quote_failures
from harness.gate.tokens import Number, tokenize
from harness.language import Language

MAX_TOKENS_PER_ITEM = 5
"""Ungrounded tokens named per item: enough for a repair, short enough to read."""


def value_failures(
    draft: Draft, evidence: Mapping[str, Sequence[Any]], query: str, policy: ClaimPolicy, skip: set[str]
) -> list[EvidenceFailure]:
    rules = _Rules(policy.non_facts, frozenset(item.analysis_id.lower() for item in draft.analysis), query)
    items = {item.analysis_id: item for item in draft.analysis}
    judged: dict[str, tuple[Grounds, list[Missing]]] = {}
    for item in draft.analysis:
        cited = evidence.get(item.analysis_id)
        if cited and item.analysis_id not in skip:
            grounds = evidence_of(cited, scope_is_fact=item.kind == "NEGATIVE_OBSERVATION").merged(rules.asked)
            judged[item.analysis_id] = (grounds, rules.missing(item.text, grounds))
    derived = {ident: _derived(items[ident].text, grounds, missing) for ident, (grounds, missing) in judged.items()}
    failures = _conclusion_failures(draft, items, evidence, rules, derived)
    analysis_failures: list[EvidenceFailure] = []
    for ident, (grounds, missing) in judged.items():
        item = items[ident]
        language = report_language(item.text)
        where = advice.item(ident, language)
        if missing:  # a value another part of the report derives may be said again here (占 92 条中 20 条)
            grounds.found.stated += [
                number for other, numbers in derived.items() if other != ident for number in numbers
            ]
            missing = rules.missing(item.text, grounds)
        source = advice.cited_source(language)
        analysis_failures += [_failure(where, token, source, language) for token in missing[:MAX_TOKENS_PER_ITEM]]
        if item.kind == "NORMAL":
            analysis_failures += quote_failures(where, item.text, grounds)
    return analysis_failures + failures


@dataclass(frozen=True)
class _Rules:
    non_facts: frozenset[str]
    ignore: frozenset[str]
    query: str

    @property
    def asked(self) -> Grounds:
        return evidence_of([], [self.query])

    def missing(self, text: str, grounds: Grounds, operand_texts: Sequence[str] = ()) -> list[Missing]:
        return unsupported(
            _shown(text), grounds, non_facts=self.non_facts, ignore=self.ignore, operand_texts=operand_texts
        )


def _conclusion_failures(
    draft: Draft,
    items: Mapping[str, AnalysisItem],
    evidence: Mapping[str, Sequence[Any]],
    rules: _Rules,
    derived: dict[str, list[Number]],
) -> list[EvidenceFailure]:
    """The conclusion against the evidence of the analyses it is based on (and what they say); what it derives is
    added to ``derived`` (under ``conclusion``), for the analyses to say again."""
    conclusion = draft.conclusion
    if conclusion is None or not conclusion.text.strip():
        return []
    basis = [items[ident] for ident in dict.fromkeys(conclusion.based_on_analysis_ids) if ident in items]
    grounds = _basis_grounds(basis, evidence).merged(rules.asked)
    named = ", ".join(item.analysis_id for item in basis) or "none"
    texts = [item.text for item in basis]
    missing = rules.missing(conclusion.text, grounds, texts)
    alone = Grounds(dataclasses.replace(grounds.found, stated=[]), grounds.asked)  # without what the analyses say
    derived["conclusion"] = _derived(conclusion.text, alone, rules.missing(conclusion.text, alone, texts))
    language = report_language(conclusion.text)
    where, source = advice.item(None, language), advice.basis_source(named, language)
    failures = [_failure(where, token, source, language) for token in missing[:MAX_TOKENS_PER_ITEM]]
    return failures + quote_failures(where, conclusion.text, grounds)


def _derived(text: str, grounds: Grounds, missing: Sequence[Missing]) -> list[Number]:
    """The numbers ``text`` grounds by its own work (shown arithmetic, a breakdown, a derivation) on ``grounds``,
    which hold no other part's words, not by quoting its evidence: what another part of the report may say again."""
    refused = {token.written for token in missing}
    numbers = tokenize(_shown(text)).numbers  # a bound or a round figure (三十多, 约 30) pins no value down
    return [n for n in numbers if n.qualifier is None and n.written not in refused and not held(n, grounds.found)]


def _failure(where: str, token: Missing, source: str, language: Language) -> EvidenceFailure:
    if token.asked:
        return EvidenceFailure(Code.UNGROUNDED_VALUE, advice.asked_value(where, token.written, language))
    return EvidenceFailure(Code.UNGROUNDED_VALUE, advice.missing_value(where, token.written, source, language))


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
