"""The recorded real-model cases (``tools/eval/real_model_cases.jsonl``): drafts and repairs a real LLM wrote for
the product's own question set, with the tool results of their runs, labelled by a careful reviewer. Text we did
not write: the gate is held to its figures on it, and the guard gets the bounded view a run sends."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from config.loader import load_config
from harness.evaluation.dataset import GuardCase
from harness.gate import ClaimPolicy
from tools.registry import configured_kinds

CASES = Path(__file__).resolve().parents[2] / "tools" / "eval" / "real_model_cases.jsonl"
GUARD_BOUND = 64 * 1024
MAX_FAITHFUL_REFUSED = 29
"""Faithful real-model drafts and repairs the gate refuses today (README, "A real model's drafts")."""


@pytest.fixture(scope="module")
def cases() -> list[GuardCase]:
    return [GuardCase.model_validate_json(line) for line in CASES.read_text(encoding="utf-8").splitlines()]


def test_the_corpus_is_labelled_with_reasons(cases: list[GuardCase]) -> None:
    assert len(cases) >= 60 and len({case.id for case in cases}) == len(cases)
    unfaithful = [case for case in cases if case.expected == "UNSUPPORTED"]
    assert len(unfaithful) >= 10 and all(case.note for case in unfaithful)
    assert all(case.tool_results for case in cases)


def test_every_case_reaches_the_guard_within_its_bound(cases: list[GuardCase]) -> None:
    kinds = configured_kinds(load_config(None))
    sizes = [len(case.request(kinds, GUARD_BOUND).content().encode()) for case in cases]
    assert max(sizes) <= GUARD_BOUND
    assert any(len(case.request(kinds).content().encode()) > GUARD_BOUND for case in cases)  # the bound was needed


def test_the_gate_on_text_it_was_not_built_on(cases: list[GuardCase]) -> None:
    """The gate's figures on the recorded drafts, as a run judges them: the faithful ones it refuses stay at most
    the figure the README states, and the ones it lets through of the unfaithful are the guard's to judge."""
    config = load_config(None)
    policy, kinds = ClaimPolicy.from_settings(config.harness), configured_kinds(config)
    refused = [case.id for case in cases if case.expected == "SUPPORTED" and case.gate_codes(policy, kinds)]
    faithful = sum(case.expected == "SUPPORTED" for case in cases)
    assert len(refused) <= MAX_FAITHFUL_REFUSED, json.dumps(refused)
    assert faithful >= 45
