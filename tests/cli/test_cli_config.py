"""``superbiz config check`` and ``superbiz config show``."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from cli.main import main
from config.loader import BUNDLED_DEFAULT, CONFIG_ENV_VAR, load_config, parse_config

PASSWORD = "Tr0ub4dor&3-cli-never-printed"

WITH_DATA_SOURCE = """
harness:
  rag:
    max-evidence: 3
  mysql-tools:
    data-sources:
      order_readonly:
        jdbc-url: ${ORDER_MYSQL_JDBC_URL}
        username: ${ORDER_MYSQL_USERNAME}
        password: ${ORDER_MYSQL_PASSWORD}
        default-schema: order_db
        allowed-schemas:
          order_db:
            tables:
              biz_order:
                columns: [order_id, payment_status]
"""

ENV = {
    "ORDER_MYSQL_JDBC_URL": "jdbc:mysql://db.internal:3306/order_db",
    "ORDER_MYSQL_USERNAME": "diag_ro",
    "ORDER_MYSQL_PASSWORD": PASSWORD,
}


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI reads the process environment; start every test without configuration variables."""
    for name in (CONFIG_ENV_VAR, "SUPERBIZ_REDIS_URL", *ENV):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def secrets_in_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in ENV.items():
        monkeypatch.setenv(name, value)


def write(tmp_path: Path, text: str, name: str = "superbiz.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


# -- config check ------------------------------------------------------------------------------------------


def test_check_without_a_path_checks_the_bundled_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "check"]) == 0

    out, err = capsys.readouterr()
    assert out == f"OK {BUNDLED_DEFAULT}\n"
    assert err == ""


def test_check_of_a_valid_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], secrets_in_environment: None
) -> None:
    path = write(tmp_path, WITH_DATA_SOURCE)

    assert main(["config", "check", str(path)]) == 0

    assert capsys.readouterr().out == f"OK {path}\n"


def test_check_uses_the_global_config_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "harness:\n  rag:\n    max-evidence: 3\n")

    assert main(["--config", str(path), "config", "check"]) == 0

    assert capsys.readouterr().out == f"OK {path}\n"


def test_check_uses_superbiz_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "harness:\n  rag:\n    max-evidence: 3\n")
    monkeypatch.setenv(CONFIG_ENV_VAR, str(path))

    assert main(["config", "check"]) == 0

    assert capsys.readouterr().out == f"OK {path}\n"


def test_the_path_argument_wins_over_config_which_wins_over_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from_env = write(tmp_path, "harness:\n  from-env: 1\n", "env.yaml")
    from_option = write(tmp_path, "harness:\n  rag:\n    max-evidence: 2\n", "option.yaml")
    from_argument = write(tmp_path, "harness:\n  rag:\n    max-evidence: 1\n", "argument.yaml")
    monkeypatch.setenv(CONFIG_ENV_VAR, str(from_env))

    assert main(["--config", str(from_option), "config", "check"]) == 0
    assert capsys.readouterr().out == f"OK {from_option}\n"

    assert main(["--config", str(tmp_path / "missing.yaml"), "config", "check", str(from_argument)]) == 0
    assert capsys.readouterr().out == f"OK {from_argument}\n"

    assert main(["config", "check"]) == 2
    assert "harness.from-env: unknown key" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("harness:\n  rag: [unclosed\n", "not valid YAML at line"),
        ("- just\n- a list\n", "the top level must be a mapping"),
        ("harness:\n  evidense: {}\n", "harness.evidense: unknown key"),
        ("harness:\n  rag:\n    max-evidence: 0\n", "harness.rag.max-evidence: Input should be greater than 0"),
        ("harness:\n  run:\n    deadline: 30\n", "harness.run.deadline: expected a duration with its unit"),
        ("harness:\n  retry:\n    tool-call:\n      max-attempts: 2\n", "harness.retry: tool-call.max-attempts"),
        ("harness:\n  evidence:\n    ttl: 1m\n", "harness: evidence.ttl must exceed run.deadline"),
        ("redis:\n  password: hunter2\n", "redis.password: a credential must be an ${ENV_VAR} reference"),
        ("redis:\n  url: redis://:hunter2@cache\n", "redis: url must not carry credentials"),
        ("redis:\n  password: ${REDIS_PASSWORD}\n", "redis.password: environment variable REDIS_PASSWORD is not set"),
    ],
)
def test_check_of_an_invalid_file_exits_2_with_the_issue(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, expected: str
) -> None:
    path = write(tmp_path, text)

    assert main(["config", "check", str(path)]) == 2

    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines()[0] == f"invalid configuration {path}:"
    assert expected in err
    assert "hunter2" not in err


def test_check_of_a_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "missing.yaml"

    assert main(["--config", str(missing), "config", "check"]) == 2

    out, err = capsys.readouterr()
    assert out == ""
    assert str(missing) in err
    assert "cannot read the file" in err


def test_check_prints_each_issue_on_its_own_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(
        tmp_path,
        """
        harness:
          rag:
            max-evidence: 0
          logs:
            max-events: -1
          surprise: true
        """,
    )

    assert main(["config", "check", str(path)]) == 2

    issues = capsys.readouterr().err.splitlines()[1:]
    assert [line.strip().split(":")[0] for line in issues] == [
        "harness.rag.max-evidence",
        "harness.logs.max-events",
        "harness.surprise",
    ]


def test_a_secret_from_the_environment_never_reaches_the_error_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], secrets_in_environment: None
) -> None:
    broken = WITH_DATA_SOURCE.replace("default-schema: order_db", "default-schema: ${ORDER_MYSQL_PASSWORD}")
    path = write(tmp_path, broken.replace("max-evidence: 3", "max-evidence: ${ORDER_MYSQL_PASSWORD}"))

    assert main(["config", "check", str(path)]) == 2
    assert main(["config", "show", str(path)]) == 2

    out, err = capsys.readouterr()
    assert out == ""
    assert "harness.rag.max-evidence" in err
    assert "harness.mysql-tools.data-sources.order_readonly.default-schema" in err
    assert PASSWORD not in err


# -- config show -------------------------------------------------------------------------------------------


def test_show_prints_the_source_then_the_effective_configuration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], secrets_in_environment: None
) -> None:
    path = write(tmp_path, WITH_DATA_SOURCE)

    assert main(["config", "show", str(path)]) == 0

    out, err = capsys.readouterr()
    assert err == ""
    first, *rest = out.splitlines()
    assert first == f"# effective configuration from {path}"
    assert "        password: ${ORDER_MYSQL_PASSWORD}" in rest
    assert PASSWORD not in out
    assert "    max-evidence: 3" in rest
    assert "    max-run-bytes: 5MB" in rest


def test_show_output_loads_back_to_the_same_configuration(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], secrets_in_environment: None
) -> None:
    path = write(tmp_path, WITH_DATA_SOURCE)
    assert main(["config", "show", str(path)]) == 0
    shown = write(tmp_path, capsys.readouterr().out, "shown.yaml")

    assert load_config(shown, environ=ENV) == parse_config(WITH_DATA_SOURCE, ENV)
    assert main(["config", "check", str(shown)]) == 0
    assert capsys.readouterr().out == f"OK {shown}\n"


def test_show_without_a_path_shows_the_bundled_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "show"]) == 0

    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"# effective configuration from {BUNDLED_DEFAULT}"
    assert "  url: fakeredis://" in out.splitlines()


def test_show_follows_the_global_config_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "harness:\n  rag:\n    max-evidence: 2\n")

    assert main(["--config", str(path), "config", "show"]) == 0

    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"# effective configuration from {path}"
    assert parse_config(out, {}).harness.rag.max_evidence == 2


def test_show_of_an_invalid_file_exits_2_with_only_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "harness:\n  evidence:\n    max-agent-result-bytes: 2MB\n")

    assert main(["config", "show", str(path)]) == 2

    out, err = capsys.readouterr()
    assert out == ""
    assert "harness.evidence: max-agent-result-bytes must not exceed max-record-bytes" in err


# -- usage -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("argv", [[], ["config"], ["config", "lint"], ["config", "check", "a.yaml", "b.yaml"]])
def test_usage_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(argv)

    assert caught.value.code == 2
    assert "usage: superbiz" in capsys.readouterr().err


def test_the_installed_console_script_checks_a_configuration(tmp_path: Path) -> None:
    script = Path(sys.executable).with_name("superbiz")
    assert script.is_file(), "superbiz console script not installed; run pip install -e ."
    path = write(tmp_path, "harness:\n  rag:\n    max-evidence: 3\n")
    environ = {name: value for name, value in os.environ.items() if name != CONFIG_ENV_VAR}

    done = subprocess.run(
        [str(script), "config", "check", str(path)],
        capture_output=True,
        text=True,
        env=environ,
        timeout=60,
        check=False,
    )

    assert (done.returncode, done.stdout, done.stderr) == (0, f"OK {path}\n", "")


OVER_THE_DEADLINE = """
harness:
  run:
    deadline: 240s
  agent:
    max-duration: 190s
"""


def test_check_refuses_time_budgets_that_cannot_fit_the_run_deadline_and_names_the_sum(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 19: router attempts + agent (its repair included) + guard attempts must fit harness.run.deadline, or
    the deadline, not a budget, ends a run during the SemanticGuard."""
    path = write(tmp_path, OVER_THE_DEADLINE)
    assert main(["config", "check", str(path)]) == 2
    _out, err = capsys.readouterr()
    assert "router 2×10s + agent 190s (repair included) + guard 2×20s = 250s > harness.run.deadline 240s" in err, err


def test_the_bundled_time_budgets_fit_the_run_deadline(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "check", str(BUNDLED_DEFAULT)]) == 0
    config = load_config(BUNDLED_DEFAULT, {})
    harness = config.harness
    router = harness.retry.intent_router.max_attempts * harness.run.router_attempt_timeout
    guard = min(
        harness.retry.semantic_guard.max_attempts * harness.semantic_guard.attempt_timeout,
        harness.semantic_guard.total_timeout,
    )
    assert router + harness.agent.max_duration + guard <= harness.run.deadline
