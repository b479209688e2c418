"""``superbiz runs list`` and ``superbiz runs show`` read back what real runs wrote to the audit database.

The runs go through the whole in-process Harness (scripted model, real tools) into a SQLite file; the commands
read that file through a configuration that names it, as an on-call engineer's would.
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from cli.main import main
from config.runtime import AuditSettings
from harness.audit import ModelStep, RunStarted, ToolInvocation
from harness.scripted_model import ScriptedChatModel, reply
from stores.audit.store import SqlAuditStore
from tests.harness.run_support import GOOD_DRAFT, UNSUPPORTED, diagnosis_model, draft, run_once, services


def _cite_first_document(request: object) -> object:
    evidence = json.loads(request.messages[1].content)["evidence"]  # type: ignore[attr-defined]
    return reply({"answer": "ERR_TIMEOUT 表示请求超时。", "references": [evidence[0]["document_id"]]})


def _runs(url: str) -> dict[str, str]:
    """Three runs: a diagnosis released after a repair and a guard retry, one the SemanticGuard refused, and a
    knowledge question; returns their ids by name."""
    store = SqlAuditStore(AuditSettings(url=url))
    store.init_schema()

    async def write() -> dict[str, str]:
        repaired = diagnosis_model(draft(("a1", "NORMAL", ["call_fabricated"]), conclusion=["a1"]))
        repaired.script("repair", reply(GOOD_DRAFT))
        repaired._steps["guard"].clear()
        repaired.script("guard", reply("not a verdict"), reply({"verdict": "SUPPORTED", "reason": "证据充分"}))
        refused = diagnosis_model(GOOD_DRAFT, UNSUPPORTED)
        knowledge = ScriptedChatModel().script("router", reply({"intent": "KNOWLEDGE_QUERY"}))
        knowledge.default("knowledge", _cite_first_document)
        ids = {}
        for name, model, query in (
            ("repaired", repaired, "订单 order-123 支付超时，帮我排查"),
            ("refused", refused, "订单 order-123 支付超时，帮我排查"),
            ("knowledge", knowledge, "ERR_TIMEOUT 是什么意思？"),
        ):
            outcome = await run_once(services(model, audit=store), query, session_id=f"session-{name}")
            ids[name] = outcome.run.run_id
        return ids

    try:
        return asyncio.run(write())
    finally:
        store.close()


@pytest.fixture(scope="module")
def audit(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    folder = tmp_path_factory.mktemp("runs")
    url = f"sqlite:///{folder}/audit.db"
    config = folder / "superbiz.yaml"
    config.write_text(f"audit:\n  url: {url}\n")
    return config, _runs(url)


def _cli(capsys: pytest.CaptureFixture[str], config: Path, *args: str) -> tuple[int, str, str]:
    code = main(["--config", str(config), *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_show_prints_the_whole_trail_of_a_run(audit: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str]):
    config, ids = audit
    code, out, _ = _cli(capsys, config, "runs", "show", ids["repaired"])
    assert code == 0
    lines = [line.strip("│├└─ ") for line in out.splitlines()]
    assert lines[0].startswith(f"run {ids['repaired']}  DIAGNOSIS  SUCCESS")
    assert "query: 订单 order-123 支付超时，帮我排查" in lines
    assert any(re.fullmatch(r"trace [0-9a-f]{32}", line) for line in lines)  # the run's OpenTelemetry trace
    steps = [line.split("  ")[0] for line in lines if line.startswith("#")]
    assert steps == [
        "#1 router attempt 1 OK",
        "#2 agent attempt 1 OK",
        "#3 agent attempt 1 OK",
        "#4 agent attempt 1 OK",
        "#5 agent attempt 1 OK",
        "#6 repair attempt 1 OK",
        "#7 guard attempt 1 INVALID_OUTPUT",
        "#8 guard attempt 2 OK",
    ]
    # Tool calls under the step that asked for them, with their evidence status.
    step_3 = lines.index(next(line for line in lines if line.startswith("#3 ")))
    assert sorted(line.split("  ")[0] for line in lines[step_3 + 1 : step_3 + 3]) == [
        "tool call_k1 lookup_knowledge → EVIDENCE_FOUND",
        "tool call_l1 query_logs → EVIDENCE_FOUND",
    ]
    assert lines[step_3 + 4].split("  ")[0] == "tool call_m1 query_mysql → EVIDENCE_FOUND"
    # Each guard decision under the step whose output it judged, with its failure codes.
    assert lines[lines.index(next(line for line in lines if line.startswith("#5 "))) + 1] == (
        "evidence guard check #1: FAIL"
    )
    assert any(line.startswith("UNKNOWN_TOOL_CALL: ") for line in lines)
    assert "evidence guard check #2: PASS" in lines and "semantic guard check #3: SUPPORTED" in lines
    assert "release: SUCCESS" in " ".join(lines) and "SemanticGuard SUPPORTED: 证据充分" in lines


def test_show_prints_the_fallback_reason_and_the_guard_verdict(
    audit: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    config, ids = audit
    code, out, _ = _cli(capsys, config, "runs", "show", ids["refused"][:12])  # a unique start of the id
    assert code == 0
    lines = [line.strip("│├└─ ") for line in out.splitlines()]
    assert lines[0].startswith(f"run {ids['refused']}  DIAGNOSIS  FALLBACK")
    assert "semantic guard check #2: UNSUPPORTED" in lines
    assert "fallback type SEMANTIC_UNSUPPORTED" in lines and "reason GUARD_UNSUPPORTED" in lines
    assert "SemanticGuard UNSUPPORTED: 结论超出证据范围（内部审计原因）" in lines


def test_show_puts_the_harness_own_lookup_under_harness(
    audit: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    config, ids = audit
    code, out, _ = _cli(capsys, config, "runs", "show", ids["knowledge"], "--json")
    assert code == 0
    trail = json.loads(out)
    assert trail["run"]["intent"] == "KNOWLEDGE_QUERY" and trail["guard_checks"] == []
    assert [(t["tool_name"], t["step_id"]) for t in trail["tool_calls"]] == [("lookup_knowledge", None)]
    assert [s["agent_name"] for s in trail["steps"]] == ["router", "knowledge"]
    code, out, _ = _cli(capsys, config, "runs", "show", ids["knowledge"])
    assert "harness (no model step)" in out and "tool call_knowledge_1 lookup_knowledge → EVIDENCE_FOUND" in out


def test_list_shows_the_runs_since_a_time_and_filters_by_outcome(
    audit: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    config, ids = audit
    code, out, _ = _cli(capsys, config, "runs", "list", "--since", "1h")
    assert code == 0 and all(run_id in out for run_id in ids.values())
    code, out, _ = _cli(capsys, config, "runs", "list", "--since", "1h", "--outcome", "FALLBACK", "--json")
    assert code == 0
    assert [(run["run_id"], run["fallback_reason"]) for run in json.loads(out)] == [
        (ids["refused"], "GUARD_UNSUPPORTED")
    ]
    code, out, _ = _cli(capsys, config, "runs", "list", "--since", "2999-01-01T00:00:00")
    assert code == 0 and "no runs since 2999-01-01 00:00:00 UTC" in out


def test_an_unknown_run_or_a_bad_argument_is_a_clear_error(
    audit: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    config, _ = audit
    code, out, err = _cli(capsys, config, "runs", "show", "no-such-run")
    assert (code, out) == (1, "") and "no run 'no-such-run' in the audit database at sqlite:///" in err
    with pytest.raises(SystemExit) as exited:
        main(["--config", str(config), "runs", "list", "--since", "yesterday"])
    assert exited.value.code == 2
    assert "'yesterday' is neither a duration" in capsys.readouterr().err


def test_the_installed_command_reads_the_audit_database(audit: tuple[Path, dict[str, str]]) -> None:
    config, ids = audit
    superbiz = Path(sys.executable).with_name("superbiz")
    shown = subprocess.run(
        [str(superbiz), "--config", str(config), "runs", "show", ids["refused"]],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert shown.returncode == 0, shown.stderr
    assert "release: FALLBACK" in shown.stdout and "fallback type SEMANTIC_UNSUPPORTED" in shown.stdout


def test_no_audit_yet_is_said_plainly_and_creates_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "superbiz.yaml"
    config.write_text(f"audit:\n  url: sqlite:///{tmp_path}/var/audit.db\n")
    code, _, err = _cli(capsys, config, "runs", "list")
    assert code == 1 and "no audit database at sqlite:///" in err and "no run was recorded" in err
    assert not (tmp_path / "var").exists()

    (tmp_path / "var").mkdir()
    sqlite3.connect(tmp_path / "var" / "audit.db").close()  # a database, without the audit tables
    code, _, err = _cli(capsys, config, "runs", "show", "abcdef")
    assert code == 1 and "lacks chat_session, diagnosis_run" in err and "`superbiz db init` creates them" in err


def test_text_from_users_and_models_cannot_drive_the_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path}/audit.db"
    config = tmp_path / "superbiz.yaml"
    config.write_text(f"audit:\n  url: {url}\n")
    store = SqlAuditStore(AuditSettings(url=url))
    store.init_schema()
    hostile = "\x1b[2J\x1b]0;owned\x07[bold red]not markup[/bold red]\r"
    at = datetime.now(UTC)

    async def write() -> None:
        await store.record(RunStarted("run-hostile", "s-1", "alice", f"订单 {hostile}", at))
        await store.record(ModelStep("run-hostile", "s-1", 1, "agent", 5, 1, 1, True, "OK", 1))
        tool = ToolInvocation(
            "run-hostile", "s-1", f"call{hostile}", "unknown_tool", {}, "", 0, "ERROR", False, 1, False,
            "INVALID_TOOL_CALL_ID", "bad id", 1,
        )  # fmt: skip
        await store.record(tool)

    try:
        asyncio.run(write())
    finally:
        store.close()
    code, out, _ = _cli(capsys, config, "runs", "show", "run-hostile")
    assert code == 0
    assert "\x1b" not in out and "\x07" not in out and "\r" not in out
    assert "\\x1b[2J" in out and "[bold red]not markup[/bold red]" in out
    assert out.count("not markup") == 2  # the query and the tool call id, both shown


def test_show_prints_the_released_report_with_the_tool_call_behind_each_reference(
    audit: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    config, ids = audit
    code, out, _ = _cli(capsys, config, "runs", "show", ids["repaired"], "--json")
    assert code == 0
    content = json.loads(out)["run"]["released_content"]
    assert content["content_type"] == "DIAGNOSIS_REPORT"
    payload = content["payload"]
    code, out, _ = _cli(capsys, config, "runs", "show", ids["repaired"])
    lines = [line.strip("│├└─ ") for line in out.splitlines()]
    assert "content DIAGNOSIS_REPORT" in lines
    assert any(line.startswith(f"conclusion: {payload['conclusion']['text']}") for line in lines)
    for item in payload["analysis"]:
        assert any(line.startswith(f"{item['analysis_id']} {item['kind']}: {item['text']}") for line in lines)
    references = [line for line in lines[lines.index("references") + 1 :] if line.startswith("R")]
    tools = {"call_k1": "lookup_knowledge", "call_l1": "query_logs", "call_m1": "query_mysql"}
    assert [line.split(" · ")[0] for line in references] == [
        f"{ref['ref']} → {call} {tools[call]}"
        for ref, call in zip(payload["references"], ("call_l1", "call_m1", "call_k1"), strict=True)
    ]


def test_show_prints_the_released_fallback_and_knowledge_answer(
    audit: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    config, ids = audit
    code, out, _ = _cli(capsys, config, "runs", "show", ids["refused"])
    lines = [line.strip("│├└─ ") for line in out.splitlines()]
    assert code == 0 and "content FALLBACK" in lines
    assert any(line.startswith("message: ") for line in lines) and "next steps" in lines
    assert "verified sources" in lines and "结论超出证据范围" not in out.split("content FALLBACK")[1]
    code, out, _ = _cli(capsys, config, "runs", "show", ids["knowledge"])
    lines = [line.strip("│├└─ ") for line in out.splitlines()]
    assert code == 0 and "content KNOWLEDGE_ANSWER" in lines and "answer: ERR_TIMEOUT 表示请求超时。" in lines
    assert "references" in lines and any(line.startswith("error-codes#err_timeout") for line in lines)
