"""The final held-out gate corpus (``harness.gate_final``): its shape, not the rules it will be used to test.

Deterministic for a seed (also across interpreter hash seeds), large enough, no duplicate texts, every family
present and holding both labels in a near-even mix, surfaces from the allowed sets, small stdlib-only modules.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from harness.gate_final import FinalCase, finding_cases, proposal_cases, secret_cases

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "harness" / "gate_final"
SEEDS = (0, 1, 2, 17)

PROPOSAL_SHAPES = frozenset(
    {
        "chat_slang", "chat_mention", "mixed_lang", "scary_words", "history", "report_header", "report_steps",
        "hedged", "hidden", "conditional", "external", "tail", "command", "sql",
    }
)  # fmt: skip
PLAN_SHAPES = frozenset(
    {
        "plan_chat", "plan_report", "plan_paren", "plan_colon", "plan_relative", "plan_hedged", "plan_negative",
        "plan_passive", "plan_mixed",
    }
)  # fmt: skip
SYSTEM_SHAPES = frozenset({"sys_greeting", "sys_capability", "sys_limit", "sys_question", "sys_status"})
SECRET_SHAPES = frozenset(
    {
        "compose", "helm", "spring", "postman", "ci_jenkins", "json_table", "k8s_secret", "private_key", "conn_url",
        "cli_flag", "http_header", "dotfile", "chat_zh", "provider", "jwt", "log_line", "sql_ref",
    }
)  # fmt: skip
SECRET_SURFACES = frozenset(
    {
        "analysis",
        "conclusion",
        "action",
        "limitations",
        "knowledge_answer",
        "system_answer",
        "plan_step",
        "sql_reference",
    }
)

Build = Callable[[int], list[FinalCase]]
CORPORA: dict[str, tuple[Build, int, frozenset[str], frozenset[str], tuple[float, float]]] = {
    "proposals": (proposal_cases, 300, frozenset({"action", "recommendation"}), PROPOSAL_SHAPES, (0.35, 0.65)),
    "findings": (finding_cases, 250, frozenset({"plan", "system"}), PLAN_SHAPES | SYSTEM_SHAPES, (0.35, 0.65)),
    "secrets": (secret_cases, 300, SECRET_SURFACES, SECRET_SHAPES, (0.3, 0.7)),
}
"""name: (builder, minimum count, allowed surfaces, expected families, violation share allowed per family)."""


def _digest(cases: list[FinalCase]) -> str:
    return hashlib.sha256(repr(cases).encode()).hexdigest()


@pytest.mark.parametrize("name", sorted(CORPORA))
@pytest.mark.parametrize("seed", SEEDS)
def test_a_seed_always_builds_the_same_corpus(name: str, seed: int) -> None:
    build = CORPORA[name][0]
    assert build(seed) == build(seed)


@pytest.mark.parametrize("name", sorted(CORPORA))
def test_the_corpus_does_not_depend_on_the_interpreter_hash_seed(name: str) -> None:
    script = (
        "import hashlib; from harness import gate_final as g; "
        f"print(hashlib.sha256(repr(g.{CORPORA[name][0].__name__}(3)).encode()).hexdigest())"
    )
    digests = {
        subprocess.run(
            [sys.executable, "-c", script],
            cwd=ROOT,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        for hash_seed in ("0", "4242")
    }
    assert digests == {_digest(CORPORA[name][0](3))}


@pytest.mark.parametrize("name", sorted(CORPORA))
def test_another_seed_changes_the_fills_but_not_the_labels_or_the_order(name: str) -> None:
    first, second = CORPORA[name][0](0), CORPORA[name][0](1)
    assert [(c.violation, c.shape, c.surface) for c in first] == [(c.violation, c.shape, c.surface) for c in second]
    assert sum(a.text != b.text for a, b in zip(first, second, strict=True)) > len(first) // 2


@pytest.mark.parametrize("name", sorted(CORPORA))
@pytest.mark.parametrize("seed", SEEDS)
def test_counts_surfaces_and_no_duplicates(name: str, seed: int) -> None:
    build, minimum, surfaces, _, _ = CORPORA[name]
    cases = build(seed)
    assert len(cases) >= minimum
    assert all(isinstance(case, FinalCase) for case in cases)
    assert all(isinstance(case.text, str) and isinstance(case.violation, bool) for case in cases)
    assert {case.surface for case in cases} == surfaces
    assert len({case.text for case in cases}) == len(cases)
    assert all(case.text.strip() and case.text.rstrip() == case.text for case in cases)
    assert not [case.text for case in cases if any(mark in case.text for mark in "‹›⏎")]


@pytest.mark.parametrize("name", sorted(CORPORA))
def test_every_family_is_present_and_holds_both_labels_in_a_near_even_mix(name: str) -> None:
    _, _, _, shapes, (low, high) = CORPORA[name]
    cases = CORPORA[name][0](0)
    assert {case.shape for case in cases} == shapes
    totals = Counter(case.shape for case in cases)
    violations = Counter(case.shape for case in cases if case.violation)
    shares = {shape: violations[shape] / totals[shape] for shape in shapes}
    assert {shape: share for shape, share in shares.items() if not low <= share <= high} == {}
    assert min(totals.values()) >= 14


def test_about_half_of_the_proposals_are_violations() -> None:
    cases = proposal_cases()
    assert 0.45 <= sum(case.violation for case in cases) / len(cases) <= 0.55
    for surface in ("action", "recommendation"):
        labels = {case.violation for case in cases if case.surface == surface}
        assert labels == {True, False}


def test_findings_split_into_plan_steps_and_system_sentences() -> None:
    cases = finding_cases()
    assert all(case.surface == ("plan" if case.shape in PLAN_SHAPES else "system") for case in cases)
    for surface in ("plan", "system"):
        part = [case for case in cases if case.surface == surface]
        assert 0.4 <= sum(case.violation for case in part) / len(part) <= 0.6


def test_at_least_forty_percent_of_the_secret_texts_are_look_alikes() -> None:
    cases = secret_cases()
    assert sum(not case.violation for case in cases) / len(cases) >= 0.4
    assert {case.surface for case in cases if case.shape == "sql_ref"} == {"sql_reference"}
    assert {case.shape for case in cases if case.surface == "sql_reference"} == {"sql_ref"}


def test_final_case_is_a_frozen_record_with_the_agreed_fields() -> None:
    case = proposal_cases()[0]
    assert [field.name for field in dataclasses.fields(FinalCase)] == ["text", "violation", "shape", "surface"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        case.text = "changed"  # type: ignore[misc]


def test_modules_are_small_typed_and_use_only_the_standard_library() -> None:
    modules = sorted(PACKAGE.glob("*.py"))
    assert len(modules) >= 4
    for path in modules:
        source = path.read_text()
        assert len(source.splitlines()) <= 300, path.name
        assert "from __future__ import annotations" in source, path.name
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef):
                assert node.returns is not None, (path.name, node.name)
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [(node.module or "").split(".")[0]]
            assert set(names) <= sys.stdlib_module_names | {"__future__"}, (path.name, names)
