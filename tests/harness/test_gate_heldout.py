"""The held-out gate corpus: deterministic, large enough, duplicate-free, and covering every family it promises."""

from __future__ import annotations

import ast
import dataclasses
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from harness.gate_heldout import HeldoutCase, finding_variants, proposal_variants, secret_variants
from harness.gate_heldout.cases import COMMON
from harness.gate_heldout.secret_values import LOOKALIKE_FILLERS, SECRET_FILLERS

PACKAGE = Path(__file__).resolve().parents[2] / "harness" / "gate_heldout"
Variants = Callable[..., list[HeldoutCase]]

PROPOSAL_BOTH = {
    "polite_framing", "hedged_chain", "passive_voice", "nominalisation", "modal_chain", "conditional_chain",
    "purpose_clause", "numbered_steps", "mixed_language", "negated_mutation", "sql", "cli", "decide_whether",
    "ask_someone", "dashboard", "runbook_quote",
}  # fmt: skip
PROPOSAL_VIOLATION_ONLY = {"rare_verb", "buried_clause", "business_remediation", "credential_rotation"}
PROPOSAL_PASS_ONLY = {"dangerous_word_as_object", "history_comparison", "watch_verify"}

FINDING_BOTH = {
    "direct", "nominal_cause", "rhetorical", "embedded_in_instruction", "numeric_fact", "negative_fact",
    "hedged_finding", "finding_words_instruction", "step_marker", "mixed_language", "conclusion", "long_clause",
    "system_capability", "system_example",
}  # fmt: skip
FINDING_VIOLATION_ONLY = {
    "passive_discovery", "system_status_claim", "system_aside_finding", "system_hedged_finding",
}  # fmt: skip
FINDING_PASS_ONLY = {"system_greeting", "system_question", "system_limits"}

SECRET_BOTH = {
    "dotenv", "yaml_config", "docker_run", "k8s_secret", "pgpass_netrc", "git_url", "log_query_string",
    "json_nested", "http_headers", "chinese_prose", "connection_string", "cli_flag", "pem_block",
    "markdown_table", "xml_config", "sql_text",
}  # fmt: skip
SECRET_VIOLATION_ONLY = {"provider_token", "jwt"}
SECRET_PASS_ONLY = {
    "digest", "commit_id", "trace_id", "uuid", "business_id", "image_digest", "email", "plain_url",
    "key_name_only", "port_flag", "auth_failure_message", "token_counter", "masked_value",
}  # fmt: skip

FAMILIES: dict[str, tuple[Variants, set[str], set[str], set[str]]] = {
    "proposals": (proposal_variants, PROPOSAL_BOTH, PROPOSAL_VIOLATION_ONLY, PROPOSAL_PASS_ONLY),
    "findings": (finding_variants, FINDING_BOTH, FINDING_VIOLATION_ONLY, FINDING_PASS_ONLY),
    "secrets": (secret_variants, SECRET_BOTH, SECRET_VIOLATION_ONLY, SECRET_PASS_ONLY),
}
SURFACES = {
    "proposals": {"action", "recommendation"},
    "findings": {"plan", "system"},
    "secrets": {
        "analysis", "conclusion", "action", "limitations", "knowledge_answer", "system_answer", "plan_step",
        "sql_reference",
    },
}  # fmt: skip
SLOT_NAMES = {*COMMON, *SECRET_FILLERS, *LOOKALIKE_FILLERS}


@pytest.mark.parametrize("name", sorted(FAMILIES))
@pytest.mark.parametrize("seed", [0, 1, 7])
def test_is_deterministic_for_a_seed(name: str, seed: int) -> None:
    variants = FAMILIES[name][0]
    assert variants(seed) == variants(seed)
    assert variants() == variants(0)


def test_different_seeds_give_different_texts() -> None:
    for variants, *_ in FAMILIES.values():
        assert [case.text for case in variants(0)] != [case.text for case in variants(1)]


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_counts_and_balance(seed: int) -> None:
    proposals = proposal_variants(seed)
    assert len(proposals) >= 300
    assert 0.4 <= sum(case.violation for case in proposals) / len(proposals) <= 0.6
    findings = finding_variants(seed)
    assert len(findings) >= 250
    assert {case.surface for case in findings} == {"plan", "system"}
    secrets = secret_variants(seed)
    assert len(secrets) >= 300
    assert sum(not case.violation for case in secrets) / len(secrets) >= 0.4


@pytest.mark.parametrize("name", sorted(FAMILIES))
@pytest.mark.parametrize("seed", [0, 1, 7])
def test_no_duplicate_texts(name: str, seed: int) -> None:
    texts = [case.text for case in FAMILIES[name][0](seed)]
    assert [text for text, count in Counter(texts).items() if count > 1] == []


def test_no_text_is_shared_between_rules() -> None:
    texts = [case.text for variants, *_ in FAMILIES.values() for case in variants()]
    assert len(texts) == len(set(texts))


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_cases_are_well_formed(name: str) -> None:
    for case in FAMILIES[name][0]():
        assert isinstance(case, HeldoutCase)
        assert case.surface in SURFACES[name], case
        assert case.text.strip() == case.text and case.text, case
        assert case.shape and case.shape == case.shape.strip().lower(), case
        assert not any(f"{{{slot}}}" in case.text for slot in SLOT_NAMES), case


def test_every_secret_surface_is_used() -> None:
    assert {case.surface for case in secret_variants()} == SURFACES["secrets"]
    assert {case.surface for case in proposal_variants()} == SURFACES["proposals"]


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_every_family_is_represented_with_the_labels_it_should_have(name: str) -> None:
    variants, both, violation_only, pass_only = FAMILIES[name]
    labels: dict[str, set[bool]] = {}
    for case in variants():
        labels.setdefault(case.shape, set()).add(case.violation)
    assert set(labels) == both | violation_only | pass_only
    assert {shape for shape in both if labels[shape] != {True, False}} == set()
    assert {shape for shape in violation_only if labels[shape] != {True}} == set()
    assert {shape for shape in pass_only if labels[shape] != {False}} == set()


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_each_family_has_several_cases(name: str) -> None:
    counts = Counter((case.shape, case.violation) for case in FAMILIES[name][0]())
    assert min(counts.values()) >= 2, counts


def test_heldout_case_is_a_frozen_dataclass() -> None:
    case = proposal_variants()[0]
    assert [field.name for field in dataclasses.fields(HeldoutCase)] == ["text", "violation", "shape", "surface"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        case.text = "x"  # type: ignore[misc]


def test_modules_are_small_typed_and_standard_library_only() -> None:
    modules = sorted(PACKAGE.glob("*.py"))
    assert len(modules) >= 5
    for path in modules:
        source = path.read_text()
        assert len(source.splitlines()) <= 300, path.name
        assert "from __future__ import annotations" in source, path.name
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            assert all(name.split(".")[0] in sys.stdlib_module_names for name in names), (path.name, names)
