"""Shape checks of the apart corpus (harness/gate_apart): sizes, labels, surfaces, determinism, uniqueness.

These tests never run a gate rule against the corpus: the corpus is written apart from the rules.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from collections import defaultdict

import pytest

import harness.gate_apart as apart
from harness.gate_apart import (
    ApartCase,
    finding_cases,
    finding_chat,
    finding_plan,
    proposal_actions,
    proposal_cases,
    proposal_objects,
    proposal_prohibitions,
    secret_cases,
    secret_files,
    secret_lookalike_prose,
    secret_lookalikes,
    secret_prose,
)
from harness.gate_apart.case import rng_for

SEEDS = [0, 1, 7, 2024]

RULES = {
    "proposals": (proposal_cases, apart.PROPOSAL_SURFACES, (150, 550)),
    "findings": (finding_cases, apart.FINDING_SURFACES, (150, 300)),
    "secrets": (secret_cases, apart.SECRET_SURFACES, (300, 500)),
}


@pytest.mark.parametrize("rule", sorted(RULES))
@pytest.mark.parametrize("seed", SEEDS)
def test_sizes_labels_and_surfaces(rule: str, seed: int) -> None:
    make, surfaces, (low, high) = RULES[rule]
    cases = make(seed)
    assert low <= len(cases) <= high
    assert all(isinstance(case, ApartCase) for case in cases)
    assert {case.violation for case in cases} == {True, False}
    assert {case.surface for case in cases} == set(surfaces)
    for case in cases:
        assert case.text.strip(), case
        assert case.shape and case.shape == case.shape.strip(), case


@pytest.mark.parametrize("rule", sorted(RULES))
@pytest.mark.parametrize("seed", SEEDS)
def test_no_duplicate_texts(rule: str, seed: int) -> None:
    texts = [case.text.strip() for case in RULES[rule][0](seed)]
    assert len(texts) == len(set(texts))


def _raw(rule: str, seed: int) -> list[ApartCase]:
    rng = rng_for(rule, seed)
    if rule == "proposals":
        return proposal_actions.cases(rng) + proposal_prohibitions.cases(rng) + proposal_objects.cases()
    if rule == "findings":
        return finding_plan.cases(rng) + finding_chat.cases(rng)
    return secret_prose.cases(rng) + secret_files.cases(rng) + secret_lookalikes.cases(rng)


@pytest.mark.parametrize("rule", sorted(RULES))
@pytest.mark.parametrize("seed", SEEDS)
def test_no_text_carries_two_labels(rule: str, seed: int) -> None:
    labels: dict[str, set[bool]] = defaultdict(set)
    for case in _raw(rule, seed):
        labels[case.text.strip()].add(case.violation)
    assert [text for text, seen in labels.items() if len(seen) > 1] == []


@pytest.mark.parametrize("rule", sorted(RULES))
def test_deterministic_for_a_seed(rule: str) -> None:
    make = RULES[rule][0]
    assert make(3) == make(3)
    assert make() == make(0)
    assert make(0) != make(1)


def test_independent_of_pythonhashseed() -> None:
    script = (
        "import hashlib\n"
        "from harness.gate_apart import proposal_cases, finding_cases, secret_cases\n"
        "h = hashlib.sha256()\n"
        "for make in (proposal_cases, finding_cases, secret_cases):\n"
        "    for c in make(5):\n"
        "        h.update(repr((c.text, c.violation, c.shape, c.surface)).encode())\n"
        "print(h.hexdigest())\n"
    )
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    digests = set()
    for hash_seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run(
            [sys.executable, "-c", script], cwd=root, env=env, capture_output=True, text=True, check=True
        )
        digests.add(out.stdout.strip())
    assert len(digests) == 1


def test_case_is_frozen() -> None:
    case = proposal_cases()[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        case.text = "changed"  # type: ignore[misc]


@pytest.mark.parametrize("seed", SEEDS)
def test_secret_balance_and_surfaces(seed: int) -> None:
    cases = secret_cases(seed)
    harmless = [case for case in cases if not case.violation]
    assert len(harmless) >= 0.4 * len(cases)
    for surface in apart.SECRET_SURFACES:
        assert {case.violation for case in cases if case.surface == surface} == {True, False}, surface
    prose = [case for case in harmless if case.surface in {"analysis", "missing_info"}]
    assert len(prose) >= 60


@pytest.mark.parametrize("seed", SEEDS)
def test_finding_balance_per_surface(seed: int) -> None:
    cases = finding_cases(seed)
    harmless = sum(not case.violation for case in cases)
    assert 0.4 <= harmless / len(cases) <= 0.6
    for surface in apart.FINDING_SURFACES:
        labels = [case.violation for case in cases if case.surface == surface]
        assert 0.3 <= sum(labels) / len(labels) <= 0.7, surface
    languages = {"zh" if any("\u4e00" <= ch <= "\u9fff" for ch in case.text) else "en" for case in cases}
    assert languages == {"zh", "en"}


@pytest.mark.parametrize("seed", SEEDS)
def test_proposal_prohibitions_and_hidden_changes(seed: int) -> None:
    cases = proposal_cases(seed)
    prohibitions = [
        case
        for case in cases
        if not case.violation
        and ("prohibition" in case.shape or "warning" in case.shape or "advise_against" in case.shape)
    ]
    hidden = [
        case
        for case in cases
        if case.violation and any(word in case.shape for word in ("then", "calm_", "timed_", "conditional", "reassure"))
    ]
    assert len(prohibitions) >= 40
    assert len(hidden) >= 20
    assert {case.violation for case in cases if case.surface == "recommendation"} == {True, False}


def test_exports() -> None:
    assert set(apart.__all__) == {"ApartCase", "proposal_cases", "finding_cases", "secret_cases"}
    assert apart.__doc__ and "never" in apart.__doc__.lower()
    modules = [
        finding_chat,
        finding_plan,
        proposal_actions,
        proposal_objects,
        proposal_prohibitions,
        secret_files,
        secret_lookalike_prose,
        secret_lookalikes,
        secret_prose,
    ]
    assert all(module.__doc__ for module in modules)
