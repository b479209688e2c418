"""``superbiz sql-check``: JSON lines in, one verdict per line out, against a data source's allowlist."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from cli.main import main
from config.loader import CONFIG_ENV_VAR


@pytest.fixture(autouse=True)
def bundled_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CONFIG_ENV_VAR, raising=False)


def run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *lines: str) -> list[dict[str, object]]:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(line + "\n" for line in lines)))
    assert main(["sql-check", "--data-source", "order_readonly"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return [json.loads(line) for line in out.splitlines()]


def request(sql: str, *params: object) -> str:
    return json.dumps({"sql": sql, "params": list(params)})


def test_allowed_query_is_printed_regenerated(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    [verdict] = run(
        monkeypatch, capsys, request("SELECT order_id FROM biz_order /* c */ WHERE user_id = ? LIMIT 500", "u-1")
    )
    assert verdict == {
        "allowed": True,
        "code": "OK",
        "message": "allowed; reads order_db.biz_order; LIMIT 50",
        "sql": "SELECT biz_order.order_id FROM biz_order WHERE biz_order.user_id = ? LIMIT 50",
    }


def test_each_line_gets_its_own_verdict(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    verdicts = run(
        monkeypatch,
        capsys,
        request("SELECT amount FROM biz_order"),
        json.dumps({"sql": "SELECT COUNT(*) FROM payment_record"}),
        "",
        request("SELECT order_id FROM biz_order; DROP TABLE biz_order"),
        request("SELECT order_id FROM biz_order WHERE id = 1 /*!50000 UNION SELECT user FROM mysql.user */"),
    )
    assert [(v["allowed"], v["code"]) for v in verdicts] == [
        (False, "SQL_COLUMN_NOT_ALLOWED"),
        (True, "OK"),
        (False, "SQL_MULTIPLE_STATEMENTS"),
        (False, "SQL_EXECUTABLE_COMMENT"),
    ]
    assert verdicts[0]["sql"] is None
    assert "allowed columns: created_at, order_id" in str(verdicts[0]["message"])


@pytest.mark.parametrize(
    "line",
    [
        "not json",
        "[1, 2]",
        '{"params": []}',
        '{"sql": 1}',
        '{"sql": "SELECT order_id FROM biz_order", "params": "x"}',
        '{"sql": "SELECT order_id FROM biz_order", "extra": 1}',
        '{"sql": "SELECT order_id FROM biz_order"',
    ],
)
def test_malformed_line_is_reported_and_processing_continues(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], line: str
) -> None:
    invalid, valid = run(monkeypatch, capsys, line, request("SELECT order_id FROM biz_order"))
    assert invalid["allowed"] is False and invalid["code"] == "INPUT_INVALID" and invalid["sql"] is None
    assert valid["code"] == "OK"


def test_invalid_params_are_a_validator_verdict(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    [verdict] = run(monkeypatch, capsys, request("SELECT order_id FROM biz_order WHERE user_id = ?", {"$ne": 1}))
    assert verdict["code"] == "SQL_PARAM_INVALID"


def test_unknown_data_source_exits_2(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(request("SELECT order_id FROM biz_order") + "\n"))
    assert main(["sql-check", "--data-source", "nope"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "unknown data source 'nope'" in err and "order_readonly" in err


def test_invalid_config_exits_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("harness:\n  nonsense: 1\n", encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["sql-check", "--config", str(path), "--data-source", "order_readonly"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "harness.nonsense" in err


def test_data_source_is_required(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["sql-check"])
    assert exited.value.code == 2
    assert "--data-source" in capsys.readouterr().err
