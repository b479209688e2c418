"""Shape checks for the blind gate corpus (harness.gate_blind): sizes, label mixes, determinism, surfaces, layout.

These tests never run the gate: the corpus is only useful while it stays independent of it.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import subprocess
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import pytest

from harness.gate_blind import BlindCase, finding_cases, proposal_cases, secret_cases
from harness.gate_blind.render import SLOT

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "harness" / "gate_blind"
SECRET_SURFACES = {
    "analysis",
    "conclusion",
    "action",
    "limitations",
    "knowledge_answer",
    "system_answer",
    "plan_step",
    "sql_reference",
}
# (function, minimum size, violation share bounds, allowed surfaces)
SPECS: dict[str, tuple[Callable[[int], list[BlindCase]], int, tuple[float, float], set[str]]] = {
    "proposal": (proposal_cases, 450, (0.40, 0.60), {"action", "recommendation"}),
    "finding": (finding_cases, 350, (0.40, 0.60), {"plan", "system"}),
    "secret": (secret_cases, 450, (0.0, 0.60), SECRET_SURFACES),
}
SEEDS = (0, 1, 7)


def _digest(cases: list[BlindCase]) -> str:
    rows = [[c.text, c.violation, c.shape, c.surface] for c in cases]
    return hashlib.sha256(json.dumps(rows, ensure_ascii=False).encode()).hexdigest()


@pytest.fixture(scope="module", params=sorted(SPECS))
def kind(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.mark.parametrize("seed", SEEDS)
def test_size_and_label_mix(kind: str, seed: int) -> None:
    make, minimum, (low, high), _ = SPECS[kind]
    cases = make(seed)
    share = sum(c.violation for c in cases) / len(cases)
    assert len(cases) >= minimum
    assert low <= share <= high
    if kind == "secret":
        assert 1 - share >= 0.40, "at least 40% of secret cases are look-alikes"


def test_default_seed_is_zero(kind: str) -> None:
    make = SPECS[kind][0]
    assert make() == make(0)


def test_deterministic_across_calls(kind: str) -> None:
    make = SPECS[kind][0]
    assert make(3) == make(3)
    assert make(3) != make(4)


def test_deterministic_across_hash_seeds() -> None:
    script = (
        "import hashlib, json\n"
        "from harness.gate_blind import finding_cases, proposal_cases, secret_cases\n"
        "rows = [[c.text, c.violation, c.shape, c.surface]"
        " for f in (proposal_cases, finding_cases, secret_cases) for c in f(0)]\n"
        "print(hashlib.sha256(json.dumps(rows, ensure_ascii=False).encode()).hexdigest())\n"
    )
    digests = {_digest([c for f in (proposal_cases, finding_cases, secret_cases) for c in f(0)])}
    for hash_seed in ("1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, check=True
        )
        digests.add(done.stdout.strip())
    assert len(digests) == 1


@pytest.mark.parametrize("seed", SEEDS)
def test_no_duplicate_texts(kind: str, seed: int) -> None:
    texts = [c.text for c in SPECS[kind][0](seed)]
    assert len(texts) == len(set(texts))


def test_surfaces_allowed(kind: str) -> None:
    allowed = SPECS[kind][3]
    cases = SPECS[kind][0](0)
    assert {c.surface for c in cases} == allowed


def test_proposal_surfaces_alternate() -> None:
    surfaces = [c.surface for c in proposal_cases(0)]
    assert all(a != b for a, b in itertools.pairwise(surfaces))


def test_sql_reference_cases_are_selects() -> None:
    for case in secret_cases(0):
        if case.surface == "sql_reference":
            assert case.text.startswith("SELECT ")


def test_every_family_has_both_labels(kind: str) -> None:
    labels: dict[str, set[bool]] = defaultdict(set)
    for case in SPECS[kind][0](0):
        labels[case.shape].add(case.violation)
    assert labels
    assert {shape for shape, seen in labels.items() if seen != {True, False}} == set()


def test_every_family_uses_one_surface_kind() -> None:
    surfaces: dict[str, set[str]] = defaultdict(set)
    for case in finding_cases(0):
        surfaces[case.shape].add(case.surface)
    assert all(len(seen) == 1 for seen in surfaces.values())


def test_cases_are_frozen_and_typed(kind: str) -> None:
    for case in SPECS[kind][0](0):
        assert isinstance(case, BlindCase)
        assert isinstance(case.text, str) and case.text.strip() == case.text and case.text
        assert isinstance(case.violation, bool)
        assert case.shape and case.shape.islower()
    with pytest.raises(AttributeError):
        case.text = "changed"  # type: ignore[misc]


def test_no_slot_left_unfilled(kind: str) -> None:
    for case in SPECS[kind][0](0):
        assert not SLOT.search(case.text), case.text


def test_modules_are_small_and_documented() -> None:
    modules = sorted(PACKAGE.glob("*.py"))
    assert len(modules) >= 10
    for module in modules:
        source = module.read_text(encoding="utf-8")
        assert len(source.splitlines()) < 300, module.name
        assert source.lstrip().startswith('"""'), module.name


def test_standard_library_only() -> None:
    allowed = {"__future__", "base64", "collections", "dataclasses", "json", "random", "re", "string"}
    for module in PACKAGE.glob("*.py"):
        for line in module.read_text(encoding="utf-8").splitlines():
            words = line.split()
            if words[:1] == ["import"] or (words[:1] == ["from"] and not words[1].startswith(".")):
                assert words[1].split(".")[0] in allowed, f"{module.name}: {line}"
