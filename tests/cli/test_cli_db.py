"""``superbiz db init``: create or upgrade the audit schema at ``audit.url``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
import yaml

from cli.main import main
from stores.audit.schema import TABLES
from tests.services import MariaDBServer, free_port

PASSWORD = "db-init-Pw-never-shown"
DATABASE = "audit_cli_test"


def write_config(tmp_path: Path, audit: dict[str, Any]) -> Path:
    path = tmp_path / "superbiz.yaml"
    path.write_text(yaml.safe_dump({"audit": audit}))
    return path


def test_init_creates_the_schema_then_finds_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    database = tmp_path / "state" / "audit.db"
    url = f"sqlite:///{database}"
    config = write_config(tmp_path, {"url": url})

    assert main(["db", "init", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"audit schema ready at {url}"
    assert [line.strip() for line in out.splitlines()[1:]] == [f"{table}: created" for table in TABLES]
    assert set(sa.inspect(sa.create_engine(url)).get_table_names()) == set(TABLES)

    assert main(["--config", str(config), "db", "init"]) == 0
    out = capsys.readouterr().out
    assert [line.strip() for line in out.splitlines()[1:]] == [f"{table}: present" for table in TABLES]


def test_init_restores_a_missing_index(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'audit.db'}"
    config = write_config(tmp_path, {"url": url})
    assert main(["db", "init", "--config", str(config)]) == 0
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        connection.execute(sa.text("DROP INDEX idx_tool_name"))
    engine.dispose()
    capsys.readouterr()

    assert main(["db", "init", "--config", str(config)]) == 0
    assert "index idx_tool_name: created" in capsys.readouterr().out


def test_init_with_an_invalid_configuration_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = write_config(tmp_path, {"url": f"mysql+pymysql://root:{PASSWORD}@127.0.0.1/audit"})

    assert main(["db", "init", "--config", str(config)]) == 2
    captured = capsys.readouterr()
    assert "audit.url" in captured.err and "credentials" in captured.err
    assert PASSWORD not in captured.err + captured.out


def test_init_with_an_unreachable_database_exits_1_with_one_safe_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("AUDIT_DB_PASSWORD", PASSWORD)
    url = f"mysql+pymysql://127.0.0.1:{free_port()}/audit"
    config = write_config(tmp_path, {"url": url, "username": "auditor", "password": "${AUDIT_DB_PASSWORD}"})

    assert main(["db", "init", "--config", str(config)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    [line] = captured.err.splitlines()
    assert line.startswith(f"cannot reach the audit database at {url}: OperationalError")
    assert PASSWORD not in captured.err


def test_init_refuses_a_table_that_needs_a_migration(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'audit.db'}"
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        connection.execute(sa.text("CREATE TABLE chat_session (session_id VARCHAR(64) PRIMARY KEY)"))
    engine.dispose()

    assert main(["db", "init", "--config", str(write_config(tmp_path, {"url": url}))]) == 1
    assert "migrate" in capsys.readouterr().err


def test_init_on_mariadb_with_a_password_from_the_environment(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    mariadb_server: MariaDBServer,
) -> None:
    with mariadb_server.connect() as connection, connection.cursor() as cursor:
        cursor.execute(f"DROP DATABASE IF EXISTS {DATABASE}")
        cursor.execute(f"CREATE DATABASE {DATABASE}")
        cursor.execute("DROP USER IF EXISTS 'superbiz_audit_cli'@'127.0.0.1'")
        cursor.execute(f"CREATE USER 'superbiz_audit_cli'@'127.0.0.1' IDENTIFIED BY '{PASSWORD}'")
        cursor.execute(f"GRANT ALL ON {DATABASE}.* TO 'superbiz_audit_cli'@'127.0.0.1'")
    monkeypatch.setenv("AUDIT_DB_PASSWORD", PASSWORD)
    url = f"mysql+pymysql://127.0.0.1:{mariadb_server.port}/{DATABASE}"
    audit = {"url": url, "username": "superbiz_audit_cli", "password": "${AUDIT_DB_PASSWORD}"}
    config = write_config(tmp_path, audit)

    assert main(["db", "init", "--config", str(config)]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[0] == f"audit schema ready at {url}"
    assert PASSWORD not in captured.out + captured.err
    with mariadb_server.connect(DATABASE) as connection, connection.cursor() as cursor:
        cursor.execute("SHOW TABLES")
        assert {row[0] for row in cursor.fetchall()} == set(TABLES)

    monkeypatch.setenv("AUDIT_DB_PASSWORD", "wrong-password")
    assert main(["db", "init", "--config", str(config)]) == 1
    captured = capsys.readouterr()
    [line] = captured.err.splitlines()
    assert line == f"cannot reach the audit database at {url}: OperationalError 1045"


def test_init_with_the_bundled_default_creates_var_in_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("SUPERBIZ_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)

    assert main(["db", "init"]) == 0
    expected = f"audit schema ready at sqlite:///{tmp_path / 'var' / 'superbiz-audit.db'}"
    assert capsys.readouterr().out.splitlines()[0] == expected
    assert (tmp_path / "var" / "superbiz-audit.db").is_file()


def test_init_when_the_sqlite_folder_cannot_be_created(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "taken").write_text("a file, not a folder")
    url = f"sqlite:///{tmp_path / 'taken' / 'audit.db'}"

    assert main(["db", "init", "--config", str(write_config(tmp_path, {"url": url}))]) == 1
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith(f"cannot prepare the audit database at {url}: ")
