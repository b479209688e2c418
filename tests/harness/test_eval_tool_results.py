"""The eval's two case formats: a case that carries its tool results is checked exactly as a run checks its draft
(``gate.check(gate.Report(...))`` on the records of the cited calls) and gets the snapshot a run builds; the old
snapshot-only format stays readable."""

from __future__ import annotations

import json
from typing import Any

import pytest

from config import load_config
from harness import gate
from harness.evaluation.dataset import DatasetError, GuardCase, bundled_dataset, load_cases, parse_cases
from harness.gate import ClaimPolicy
from harness.gate_mutations import FaithfulDraft, faithful_drafts
from harness.gate_mutations.results import records_of
from harness.snapshot import build_snapshot
from tools.demo_calls import demo_calls
from tools.registry import configured_kinds

CONFIG = load_config()
KINDS = configured_kinds(CONFIG)
POLICY = ClaimPolicy.from_settings(CONFIG.harness)


@pytest.fixture(scope="module")
def drafts() -> list[FaithfulDraft]:
    return faithful_drafts(records_of(demo_calls(CONFIG)))[::17]


def run_case(draft: FaithfulDraft, expected: str = "SUPPORTED") -> dict[str, Any]:
    results = [
        {
            "tool_call_id": record.tool_call_id,
            "tool_name": record.tool_name,
            "evidence_status": str(record.evidence_status),
            "agent_result": record.agent_result,
        }
        for record in draft.records.values()
    ]
    return {
        "id": draft.id,
        "query": draft.query,
        "draft": draft.draft,
        "tool_results": results,
        "expected": expected,
        "category": "run-format",
    }


def snapshot_case(draft: FaithfulDraft) -> dict[str, Any]:
    parsed = gate.check(gate.Report(draft.text(), dict(draft.records), KINDS, draft.query), POLICY).draft
    assert parsed is not None
    return {
        "id": f"{draft.id}.snapshot",
        "query": draft.query,
        "draft": parsed.user_visible(),
        "evidence": build_snapshot(parsed, draft.records, KINDS),
        "expected": "SUPPORTED",
        "category": "snapshot-format",
    }


def test_a_case_with_tool_results_is_checked_as_a_run_checks_its_draft(drafts: list[FaithfulDraft]) -> None:
    lines = [json.dumps(run_case(draft), ensure_ascii=False) for draft in drafts]
    cases = parse_cases(lines)
    assert len(cases) == len(drafts)
    for case, draft in zip(cases, drafts, strict=True):
        records = {call: draft.records.get(call) for call in gate.cited_tool_call_ids(draft.text())}
        run = gate.check(gate.Report(draft.text(), records, KINDS, draft.query), POLICY)
        assert case.gate_codes(POLICY, KINDS) == tuple(dict.fromkeys(str(f.code) for f in run.failures))
        request = case.request(KINDS)
        assert "tool_call_ids" not in json.dumps(request.draft)
        assert [group["analysis_id"] for group in request.verified_evidence] == [
            item["analysis_id"] for item in draft.draft["analysis"]
        ]
        if run.ok:
            assert request.verified_evidence == build_snapshot(run.draft, run.verified, KINDS)  # type: ignore[arg-type]


def test_both_formats_in_one_dataset(drafts: list[FaithfulDraft]) -> None:
    lines = [
        json.dumps(run_case(drafts[0]), ensure_ascii=False),
        json.dumps(snapshot_case(drafts[0]), ensure_ascii=False),
    ]
    run, snapshot = parse_cases(lines)
    assert run.tool_results is not None and snapshot.tool_results is None
    assert run.request(KINDS).verified_evidence == snapshot.request().verified_evidence
    assert snapshot.gate_codes(POLICY) == snapshot.gate_codes(POLICY, KINDS)


def test_a_case_with_tool_results_needs_the_kinds(drafts: list[FaithfulDraft]) -> None:
    case = GuardCase.model_validate(run_case(drafts[0]))
    with pytest.raises(ValueError, match="kinds"):
        case.request()
    with pytest.raises(ValueError, match="kinds"):
        case.gate_codes(POLICY)


def test_a_cited_call_the_case_does_not_hold_is_an_unknown_call(drafts: list[FaithfulDraft]) -> None:
    data = run_case(drafts[0])
    data["tool_results"] = data["tool_results"][1:]
    case = GuardCase.model_validate(data)
    assert "UNKNOWN_TOOL_CALL" in case.gate_codes(POLICY, KINDS)
    assert len(case.request(KINDS).verified_evidence) == len(data["draft"]["analysis"])


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda c: c.update(evidence=[{"analysis_id": "a1"}]), "leave evidence out"),
        (lambda c: c["tool_results"][0].pop("tool_call_id"), "needs a tool_call_id"),
        (lambda c: c["tool_results"][0].update(evidence_status="FOUND"), "evidence_status must be"),
        (lambda c: c["tool_results"].append(dict(c["tool_results"][0])), "duplicate tool_call_id"),
        (lambda c: c["draft"]["analysis"][0].pop("tool_call_ids"), "not a Draft with tool_call_ids"),
    ],
)
def test_a_broken_case_with_tool_results_names_its_line(drafts: list[FaithfulDraft], change: Any, problem: str) -> None:
    data = json.loads(json.dumps(run_case(drafts[0])))
    change(data)
    with pytest.raises(DatasetError) as raised:
        parse_cases([json.dumps(data, ensure_ascii=False)])
    assert raised.value.problems[0].startswith("line 1") and problem in raised.value.problems[0]


def test_the_old_snapshot_format_stays_readable() -> None:
    cases = load_cases(bundled_dataset())
    assert len(cases) == 275 and all(case.tool_results is None for case in cases)
    assert cases[0].request().verified_evidence == cases[0].evidence
