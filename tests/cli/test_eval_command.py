"""``superbiz eval``: the bundled dataset through a real guard pool on Ray with the offline model; exit codes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import ray
import yaml

from cli.eval_command import run_eval
from cli.main import main
from config.loader import BUNDLED_DEFAULT, parse_config
from harness.evaluation.dataset import bundled_dataset, load_cases
from harness.gate import ClaimPolicy
from tests.fake_openai import FakeOpenAI, reply


@pytest.fixture(autouse=True)
def _bundled_config(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bundled default configuration: the offline model, no ray.address."""
    monkeypatch.delenv("SUPERBIZ_CONFIG", raising=False)


def test_eval_of_the_bundled_dataset_on_a_guard_pool(
    ray_session: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report_path = tmp_path / "out" / "report.json"
    code = main(["eval", "--bundled", "--replicas", "3", "--concurrency", "6", "--report", str(report_path)])

    assert code == 0
    assert ray.is_initialized(), "the running Ray is reused and left running"
    out = capsys.readouterr().out
    for text in (
        "confusion matrix",
        "UNSUPPORTED (positive class): precision",
        "decided by the deterministic gate (EvidenceGuard)",
        "decided by the SemanticGuard",
        "SemanticGuard alone",
        "target unsupported recall",
        "target faithful refused by gate: 0 (≤ 0) met",
        "latency p50",
        "per category",
    ):
        assert text in out
    report = json.loads(report_path.read_text(encoding="utf-8"))
    cases = sum(1 for line in bundled_dataset().read_text(encoding="utf-8").splitlines() if line.strip())
    assert report["dataset"]["cases"] == cases == len(report["cases"])
    assert report["guard"] == {
        "model": "offline deterministic model (not an LLM)",
        "replicas": 3,
        "replica_concurrency": 4,
    }
    assert report["run"]["concurrency"] == 6
    assert set(report["confusion_matrix"]) == {"SUPPORTED", "UNSUPPORTED"}
    assert all(set(row) == {"SUPPORTED", "UNSUPPORTED", "UNAVAILABLE"} for row in report["confusion_matrix"].values())
    assert sum(sum(row.values()) for row in report["confusion_matrix"].values()) == cases
    assert set(report["unsupported"]) == {"precision", "recall", "f1", "tp", "fp", "fn", "tn"}
    assert set(report["latency"]) == {"count", "p50_ms", "p95_ms", "p99_ms", "max_ms", "mean_ms"}
    assert report["latency"]["p50_ms"] <= report["latency"]["p95_ms"] <= report["latency"]["p99_ms"]
    assert {case["replica"] for case in report["cases"]} == {"guard:0", "guard:1", "guard:2"}

    # The targets of the release gate with the offline model (the exact figures are printed and in the report).
    assert report["unavailable"] == 0
    assert report["unsupported"]["recall"] >= 0.95
    assert report["layers"]["EVIDENCE_GUARD"]["faithful_refused"] == 0
    assert all(target["met"] for target in report["targets"].values())
    assert report["categories"]["leaked_secret"]["accuracy"] == 1.0


def test_eval_against_an_openai_compatible_endpoint(
    ray_session: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The configured endpoint is called by the replicas for every case, also those the deterministic gate refuses
    (the report measures the guard alone too); a reply that is no verdict counts as UNAVAILABLE."""
    bundled = {case.id: case for case in load_cases(bundled_dataset())}
    policy = ClaimPolicy.default()
    semantic = [c for c in bundled.values() if c.category == "wrong_service" and not c.gate_codes(policy)][:3]
    gated = [case for case in bundled.values() if case.category == "leaked_secret"][:1]
    faithful = [case for case in bundled.values() if case.expected == "SUPPORTED"][:3]
    cases = semantic + gated + faithful
    answers = {semantic[0].draft["analysis"][0]["text"]: "not a verdict", semantic[1].draft["analysis"][0]["text"]: "U"}

    def guard(body: dict[str, Any]) -> Any:
        content = body["messages"][-1]["content"]
        answer = next((value for key, value in answers.items() if key in content), "S")
        if answer == "not a verdict":
            return reply(answer)
        verdict = "UNSUPPORTED" if answer == "U" else "SUPPORTED"
        return reply(json.dumps({"verdict": verdict, "reason": "scripted"}))

    with FakeOpenAI(api_key="sk-eval") as fake:
        fake.default("guard", guard)
        data = yaml.safe_load(BUNDLED_DEFAULT.read_text())
        data["model"] = {"provider": "openai", "base-url": fake.base_url, "api-key": "${EVAL_KEY}", "timeout-s": 10}
        config = parse_config(yaml.safe_dump(data), {"EVAL_KEY": "sk-eval"})
        code = run_eval(config, cases, "subset", replicas=2, concurrency=4, report_path=tmp_path / "r.json")
        assert fake.attempts("guard") == len(cases)
        assert all(request.body["messages"][0]["role"] == "system" for request in fake.requests)
    assert code == 0
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert report["guard"]["model"] == "gpt-4o-mini"
    assert report["confusion_matrix"] == {
        "SUPPORTED": {"SUPPORTED": 3, "UNSUPPORTED": 0, "UNAVAILABLE": 0},
        "UNSUPPORTED": {"SUPPORTED": 1, "UNSUPPORTED": 2, "UNAVAILABLE": 1},
    }
    assert report["guard_alone"]["confusion_matrix"]["UNSUPPORTED"] == {
        "SUPPORTED": 2,
        "UNSUPPORTED": 1,
        "UNAVAILABLE": 1,
    }
    decided = {case["id"]: case["decided_by"] for case in report["cases"]}
    assert decided[gated[0].id] == "EVIDENCE_GUARD" and decided[semantic[2].id] == "SEMANTIC_GUARD"
    assert [case["failure"] for case in report["cases"] if case["predicted"] == "UNAVAILABLE"] == ["INVALID_OUTPUT"]
    assert report["unsupported"]["recall"] == pytest.approx(2 / 4, abs=1e-4)
    assert "UNAVAILABLE" in capsys.readouterr().out


def test_a_bad_dataset_exits_2_with_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "cases.jsonl"
    path.write_text('{"id": "x"}\n', encoding="utf-8")
    assert main(["eval", str(path), "--report", str(tmp_path / "r.json")]) == 2
    assert "line 1 (x): " in capsys.readouterr().err
    assert not (tmp_path / "r.json").exists()


def test_a_missing_dataset_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", str(tmp_path / "absent.jsonl")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_a_bad_configuration_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "bad.yaml"
    config.write_text("ray:\n  guard-pool: 0\n", encoding="utf-8")
    assert main(["eval", "--bundled", "--config", str(config)]) == 2
    assert "guard-pool" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["eval"],
        ["eval", "x.jsonl", "--bundled"],
        ["eval", "--bundled", "--concurrency", "0"],
        ["eval", "--bundled", "--replicas", "two"],
    ],
)
def test_bad_arguments_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
