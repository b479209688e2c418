"""The SemanticGuard evaluation core: the bundled dataset, the loader's errors, the scores, the run loop."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from harness.evaluation.dataset import DatasetError, GuardCase, bundled_dataset, load_cases, parse_cases
from harness.evaluation.report import build_report
from harness.evaluation.results import INPUT_TOO_LARGE, UNAVAILABLE, CaseResult
from harness.evaluation.running import evaluate_cases
from harness.evaluation.scoring import confusion_matrix, percentile, positive_class_scores
from harness.gate import ClaimPolicy
from harness.guard_attempt import evaluate_once
from harness.messages import FORBIDDEN_KEYS, GuardAttempt, GuardRequest, GuardVerdict, Usage
from offline_model.model import OfflineChatModel

UNSUPPORTED_CATEGORIES = {
    "over_reach",
    "wrong_service",
    "wrong_time_window",
    "no_evidence_as_healthy",
    "action_without_support",
    "fabricated_value",
    "fabricated_identifier",
    "leaked_secret",
    "unconfirmed_risky_action",
    "empty_report",
}
FAITHFUL_CATEGORIES = {
    "faithful_single_source",
    "faithful_multi_source",
    "faithful_with_actions",
    "faithful_negative_observation",
    "faithful_derived",
}


@pytest.fixture(scope="module")
def bundled() -> list[GuardCase]:
    return load_cases(bundled_dataset())


def _lines() -> list[dict[str, Any]]:
    return [json.loads(line) for line in bundled_dataset().read_text(encoding="utf-8").splitlines() if line.strip()]


def test_every_bundled_case_is_a_valid_guard_request() -> None:
    for raw in _lines():
        request = GuardRequest(query=raw["query"], draft=raw["draft"], verified_evidence=raw["evidence"])
        content = request.content()
        assert not any(f'"{key}"' in content for key in FORBIDDEN_KEYS), raw["id"]
        assert "note" not in json.loads(content), raw["id"]


def test_bundled_dataset_composition(bundled: list[GuardCase]) -> None:
    assert len(bundled) >= 150
    categories = Counter(case.category for case in bundled)
    assert set(categories) == UNSUPPORTED_CATEGORIES | FAITHFUL_CATEGORIES
    assert all(count >= 15 for count in categories.values()), categories
    assert sum(case.expected == "SUPPORTED" for case in bundled) >= 60
    assert all((case.expected == "SUPPORTED") == (case.category in FAITHFUL_CATEGORIES) for case in bundled)
    assert all(case.note for case in bundled if case.expected == "UNSUPPORTED")


def test_no_faithful_draft_is_refused_by_the_deterministic_gate(bundled: list[GuardCase]) -> None:
    policy = ClaimPolicy.default()
    refused = {case.id: case.gate_codes(policy) for case in bundled if case.expected == "SUPPORTED"}
    assert {case: codes for case, codes in refused.items() if codes} == {}


def test_the_deterministic_categories_are_decided_by_the_gate(bundled: list[GuardCase]) -> None:
    """Each deterministic fault is refused by its own rule; the semantic categories are mostly left to the guard."""
    policy = ClaimPolicy.default()
    rule = {
        "leaked_secret": {"SECRET_IN_TEXT"},
        "unconfirmed_risky_action": {"UNCONFIRMED_ACTION"},
        "empty_report": {"EMPTY_CONCLUSION", "NO_CITED_ANALYSIS"},
        "fabricated_identifier": {"UNGROUNDED_VALUE"},
        "fabricated_value": {"UNGROUNDED_VALUE"},
    }
    for category, codes in rule.items():
        members = [case for case in bundled if case.category == category]
        caught = [case for case in members if codes & set(case.gate_codes(policy))]
        assert len(caught) >= 0.75 * len(members), (category, [c.id for c in members if c not in caught])


def test_bundled_evidence_has_the_snapshot_shapes(bundled: list[GuardCase]) -> None:
    """Entries as harness/snapshot.py writes them, from all three tools, including NO_EVIDENCE ones."""
    keys = {
        "KNOWLEDGE": {"source_type", "document_id", "title", "breadcrumb", "excerpt"},
        "MYSQL": {"source_type", "source", "scope", "columns", "rows", "returned_count", "truncated"},
    }
    log_pattern = {"source_type", "source", "scope", "match_count", "pattern", "count", "first_seen", "last_seen"}
    seen: Counter[str] = Counter()
    for case in bundled:
        for group in case.evidence:
            for entry in group["verified_evidence"]:
                kind = entry["source_type"]
                seen[kind] += 1
                if kind == "KNOWLEDGE" and entry.get("returned_count") == 0:
                    assert set(entry) == {"source_type", "source", "scope", "returned_count"}, (case.id, entry)
                elif kind in keys:
                    assert set(entry) == keys[kind], (case.id, entry)
                elif "pattern" in entry:
                    assert set(entry) == log_pattern | {"level", "service"}, case.id
                elif "excerpt" in entry:
                    assert {"timestamp", "level", "service", "excerpt", "match_count"} <= set(entry), case.id
                else:
                    assert entry["match_count"] == 0, case.id
    assert {"KNOWLEDGE", "LOG", "MYSQL"} <= set(seen)


def test_a_broken_dataset_names_each_bad_line(tmp_path: Path) -> None:
    good = _lines()[0]
    wrong_label = {**good, "id": "b", "expected": "MAYBE"}
    tool_id = {**good, "id": "c", "draft": {**good["draft"], "tool_call_ids": ["call_1"]}}
    orphan = {**good, "id": "d", "evidence": good["evidence"][1:] or [{"analysis_id": "zz"}]}
    lines = [json.dumps(good), "{not json", "", json.dumps(wrong_label), json.dumps(good), json.dumps(tool_id)]
    lines.append(json.dumps(orphan))
    path = tmp_path / "cases.jsonl"
    path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(DatasetError) as caught:
        load_cases(path)
    problems = caught.value.problems
    assert problems[0].startswith("line 2: not valid JSON")
    assert problems[1].startswith("line 4 (b): expected")
    assert problems[2] == f"line 5: duplicate id {good['id']!r} (first on line 1)"
    assert problems[3].startswith("line 6 (c): ")
    assert problems[4].startswith("line 7 (d): evidence must hold one group per analysis")


def test_an_empty_or_missing_dataset_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="no cases"):
        parse_cases(["", "  "])
    with pytest.raises(DatasetError, match="no such file"):
        load_cases(tmp_path / "absent.jsonl")


def _result(expected: str, predicted: str, category: str = "c", latency_s: float = 0.1) -> CaseResult:
    return CaseResult("x", category, expected, predicted, latency_s)


def test_scores_of_the_positive_class() -> None:
    results = [
        _result("UNSUPPORTED", "UNSUPPORTED"),
        _result("UNSUPPORTED", "UNSUPPORTED"),
        _result("UNSUPPORTED", "SUPPORTED"),
        _result("UNSUPPORTED", UNAVAILABLE),
        _result("SUPPORTED", "UNSUPPORTED"),
        _result("SUPPORTED", "SUPPORTED"),
        _result("SUPPORTED", UNAVAILABLE),
    ]
    matrix = confusion_matrix(results)
    assert matrix == {
        "SUPPORTED": {"SUPPORTED": 1, "UNSUPPORTED": 1, "UNAVAILABLE": 1},
        "UNSUPPORTED": {"SUPPORTED": 1, "UNSUPPORTED": 2, "UNAVAILABLE": 1},
    }
    scores = positive_class_scores(matrix)
    assert (scores["tp"], scores["fp"], scores["fn"], scores["tn"]) == (2, 1, 2, 1)
    assert scores["precision"] == pytest.approx(2 / 3, abs=1e-4)
    assert scores["recall"] == 0.5
    assert scores["f1"] == pytest.approx(2 * (2 / 3) * 0.5 / (2 / 3 + 0.5), abs=1e-4)
    assert build_report(results, dataset="d", model="m", wall_s=1.0, concurrency=1)["accuracy"] == pytest.approx(
        3 / 7, abs=1e-4
    )


def test_undefined_scores_are_none() -> None:
    scores = positive_class_scores(confusion_matrix([_result("SUPPORTED", "SUPPORTED")]))
    assert (scores["precision"], scores["recall"], scores["f1"]) == (None, None, None)


def test_nearest_rank_percentiles() -> None:
    values = [float(v) for v in range(1, 101)]
    assert (percentile(values, 0.5), percentile(values, 0.95), percentile(values, 0.99)) == (50.0, 95.0, 99.0)
    assert percentile([3.0], 0.99) == 3.0
    assert percentile([], 0.5) is None


async def test_the_run_loop_bounds_concurrency_and_never_stops_on_a_failure(bundled: list[GuardCase]) -> None:
    cases = bundled[:12]
    in_flight = peak = 0

    async def guard(request: GuardRequest) -> GuardAttempt:
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        await asyncio.sleep(0.01)
        in_flight -= 1
        if request.query == cases[3].query and request.draft == cases[3].draft:
            raise ConnectionError("replica died")
        if request.draft == cases[4].draft:
            return GuardAttempt(None, "TIMEOUT", Usage(), "r0")
        return GuardAttempt(GuardVerdict(verdict="SUPPORTED", reason="ok"), None, Usage(), "r0")

    done: list[str] = []
    results = await evaluate_cases(cases, guard, 3, on_result=lambda result: done.append(result.case_id))
    assert peak == 3
    assert [result.case_id for result in results] == [case.id for case in cases]
    assert sorted(done) == sorted(case.id for case in cases)
    assert (results[3].predicted, results[3].failure) == (UNAVAILABLE, "ConnectionError")
    assert (results[4].predicted, results[4].failure) == (UNAVAILABLE, "TIMEOUT")
    assert results[0].predicted == "SUPPORTED" and results[0].reason == "ok"


async def test_a_case_over_the_input_budget_is_not_sent(bundled: list[GuardCase]) -> None:
    async def guard(request: GuardRequest) -> GuardAttempt:
        raise AssertionError("must not be called")

    [result] = await evaluate_cases(bundled[:1], guard, 1, max_input_bytes=100)
    assert (result.predicted, result.failure) == (UNAVAILABLE, INPUT_TOO_LARGE)


async def test_the_offline_guard_in_process_scores_the_bundled_dataset(bundled: list[GuardCase]) -> None:
    """The figures the Ray command reports too (tests/cli/test_eval_command.py): the gate and the offline guard
    are deterministic, so the same cases give the same confusion matrix wherever they run. The targets of the
    release gate with the offline model: UNSUPPORTED recall at least 0.95, no faithful draft refused by the gate."""
    model = OfflineChatModel()
    evaluate = lambda request: evaluate_once(model, request, 20, "local")  # noqa: E731
    results = await evaluate_cases(bundled, evaluate, 8, policy=ClaimPolicy.default())
    report = build_report(results, dataset="bundled", model=model.label, wall_s=1.0, concurrency=8)
    assert report["unavailable"] == 0
    assert report["unsupported"]["recall"] >= 0.95
    assert report["targets"]["unsupported_recall"]["met"] and report["targets"]["faithful_refused_by_gate"]["met"]
    assert report["layers"]["EVIDENCE_GUARD"]["faithful_refused"] == 0
    assert report["layers"]["EVIDENCE_GUARD"]["decided"] + report["layers"]["SEMANTIC_GUARD"]["decided"] == len(bundled)
    assert report["categories"]["fabricated_value"]["decided_by"]["EVIDENCE_GUARD"] >= 15
    assert all(case["decided_by"] in ("EVIDENCE_GUARD", "SEMANTIC_GUARD") for case in report["cases"])
