"""Which fallback a diagnosis gets (ISS-014 §10.3, issue 18 item 3): citation failures keep
EVIDENCE_VALIDATION_FAILED without sources; claim failures of a report whose citations held, and a budget or the
deadline, are SEMANTIC_UNSUPPORTED with the verified sources, their reason and limitation naming the cause."""

from __future__ import annotations

import pytest

from harness.fallbacks import (
    CITATION_CODES,
    CLAIM_REASONS,
    GUARD_UNSUPPORTED,
    Fallback,
    after_budget,
    after_evidence_check,
    guard_unavailable,
)
from harness.fixed_texts import LIMITATION_CATEGORIES, TEXTS
from harness.gate.failures import EvidenceFailureCode as Code
from harness.release import FallbackType

EVF, UNSUPPORTED, UNAVAILABLE = (
    FallbackType.EVIDENCE_VALIDATION_FAILED,
    FallbackType.SEMANTIC_UNSUPPORTED,
    FallbackType.SEMANTIC_UNAVAILABLE,
)


def test_every_failure_code_is_either_a_citation_or_a_claim_failure() -> None:
    assert CITATION_CODES.isdisjoint(CLAIM_REASONS)
    assert CITATION_CODES | set(CLAIM_REASONS) == set(Code)


@pytest.mark.parametrize("code", sorted(CITATION_CODES))
def test_a_citation_failure_shows_no_source(code: Code) -> None:
    fallback = after_evidence_check([code])
    assert fallback == Fallback(EVF, "EVIDENCE_CHECK_FAILED")
    assert not fallback.shows_sources and fallback.limitation_category == "EVIDENCE_VALIDATION_FAILED"


@pytest.mark.parametrize(
    ("code", "reason"),
    [
        (Code.UNGROUNDED_VALUE, "CLAIM_UNGROUNDED_VALUE"),
        (Code.UNGROUNDED_QUOTE, "CLAIM_UNGROUNDED_QUOTE"),
        (Code.SECRET_IN_TEXT, "CLAIM_SECRET"),
        (Code.UNCONFIRMED_ACTION, "CLAIM_UNCONFIRMED_ACTION"),
    ],
)
def test_a_claim_failure_is_semantic_unsupported_named_by_its_rule(code: Code, reason: str) -> None:
    fallback = after_evidence_check([code, code])
    assert fallback == Fallback(UNSUPPORTED, reason, reason)
    assert fallback.shows_sources and fallback.limitation_category == reason


@pytest.mark.parametrize("citation", sorted(CITATION_CODES))
def test_citation_failures_win_over_claim_failures(citation: Code) -> None:
    assert after_evidence_check([Code.UNGROUNDED_VALUE, citation, Code.SECRET_IN_TEXT]).type is EVF


def test_several_claim_rules_are_named_by_precedence_not_by_order() -> None:
    codes = [Code.UNGROUNDED_QUOTE, Code.UNGROUNDED_VALUE, Code.UNCONFIRMED_ACTION, Code.SECRET_IN_TEXT]
    assert after_evidence_check(codes).reason == "CLAIM_SECRET"
    assert after_evidence_check(codes[:3]).reason == "CLAIM_UNCONFIRMED_ACTION"
    assert after_evidence_check(codes[:2]).reason == "CLAIM_UNGROUNDED_VALUE"
    assert after_evidence_check(["UNGROUNDED_QUOTE"]).reason == "CLAIM_UNGROUNDED_QUOTE"


def test_no_failure_code_at_all_is_no_claim_to_blame() -> None:
    assert after_evidence_check([]).type is EVF


@pytest.mark.parametrize(
    ("reason", "limitation"),
    [
        ("MODEL_CALLS", "BUDGET_MODEL_CALLS"),
        ("TOKENS", "BUDGET_TOKENS"),
        ("TOOL_CALLS", "BUDGET_TOOL_CALLS"),
        ("TOOL_CALLS:query_mysql", "BUDGET_TOOL_CALLS"),
        ("DEADLINE", "BUDGET_DEADLINE"),
        ("SOMETHING_NEW", "BUDGET"),
    ],
)
def test_a_budget_or_the_deadline_is_semantic_unsupported_naming_what_ran_out(reason: str, limitation: str) -> None:
    fallback = after_budget(reason)
    assert fallback == Fallback(UNSUPPORTED, f"BUDGET_{reason}", limitation)
    assert fallback.shows_sources


def test_the_guard_fallbacks_keep_their_type_texts() -> None:
    assert Fallback(UNSUPPORTED, "GUARD_UNSUPPORTED") == GUARD_UNSUPPORTED
    assert GUARD_UNSUPPORTED.limitation_category == "SEMANTIC_UNSUPPORTED"
    assert guard_unavailable("GUARD_TIMEOUT") == Fallback(UNAVAILABLE, "GUARD_TIMEOUT")
    assert guard_unavailable("GUARD_TIMEOUT").limitation_category == "SEMANTIC_UNAVAILABLE"


def test_every_limitation_a_fallback_can_name_has_a_text_in_each_language() -> None:
    named = {after_evidence_check([code]).limitation_category for code in Code}
    named |= {after_budget(reason).limitation_category for reason in ("MODEL_CALLS", "TOKENS", "TOOL_CALLS", "X")}
    named |= {after_budget("DEADLINE").limitation_category, *(kind.value for kind in FallbackType)}
    assert named == set(LIMITATION_CATEGORIES)
    for fixed in TEXTS.values():
        assert set(fixed.limitations) == set(LIMITATION_CATEGORIES)
