"""The ``audit`` section: where the durable audit store lives and how much of a run it keeps."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from config.app import AppConfig
from config.env_refs import Secret
from config.loader import ConfigError, ConfigIssue, dump_config, parse_config
from config.runtime import AuditSettings

SECRET = "s3cr3t-audit-pw"


def load(audit: dict[str, Any], environ: dict[str, str] | None = None) -> AuditSettings:
    return parse_config(yaml.safe_dump({"audit": audit}), environ or {}).audit


def rejected(audit: dict[str, Any], location: str, *fragments: str, environ: dict[str, str] | None = None) -> str:
    """Loading fails with one issue at ``location`` holding every fragment; returns the whole error text."""
    with pytest.raises(ConfigError) as caught:
        load(audit, environ)
    matching: list[ConfigIssue] = [issue for issue in caught.value.issues if issue.location == location]
    assert matching, f"no issue at {location}: {caught.value.issues}"
    [issue] = matching
    for fragment in fragments:
        assert fragment in issue.message
    return str(caught.value)


def test_defaults() -> None:
    audit = AppConfig().audit

    assert audit.url == f"sqlite:///{Path.cwd() / 'var' / 'superbiz-audit.db'}"
    assert (audit.username, audit.password) == (None, None)
    assert (audit.preview_chars, audit.previous_turn_chars, audit.previous_turn_documents) == (500, 500, 5)


def test_the_section_follows_gateway() -> None:
    names = list(AppConfig.model_fields)

    assert names.index("audit") == names.index("gateway") + 1


@pytest.mark.parametrize(
    "url",
    [
        "sqlite:////srv/superbiz/audit.db",
        "sqlite://",
        "mysql+pymysql://db.internal:3306/superbiz_audit",
        "mysql+pymysql://db.internal/superbiz_audit?charset=utf8mb4",
        "mariadb+pymysql://127.0.0.1:3307/audit",
    ],
)
def test_accepted_urls(url: str) -> None:
    assert load({"url": url}).url == url


def test_a_relative_sqlite_path_is_resolved_where_the_configuration_is_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert load({"url": "sqlite:///var/audit.db"}).url == f"sqlite:///{tmp_path / 'var' / 'audit.db'}"


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://db.internal/audit",
        "mysql://db.internal/audit",
        "mysql+mysqldb://db.internal/audit",
        "sqlite+pysqlcipher:///audit.db",
        "redis://cache:6379/0",
    ],
)
def test_other_schemes_are_rejected(url: str) -> None:
    rejected({"url": url}, "audit.url", "sqlite://", "mysql+pymysql://", "mariadb+pymysql://")


@pytest.mark.parametrize("url", ["", "not a url", "://nothing"])
def test_a_malformed_url_is_rejected(url: str) -> None:
    rejected({"url": url}, "audit.url", "url")


@pytest.mark.parametrize(
    "url",
    [
        f"mysql+pymysql://audit:{SECRET}@db.internal/audit",
        f"mysql+pymysql://:{SECRET}@db.internal/audit",
        "mariadb+pymysql://audit@db.internal/audit",
        f"mysql+pymysql://db.internal/audit?password={SECRET}",
        f"mysql+pymysql://db.internal/audit?passwd={SECRET}",
        "mysql+pymysql://db.internal/audit?user=audit",
        f"sqlite://user:{SECRET}@/audit.db",
    ],
)
def test_credentials_inside_the_url_are_rejected_without_echoing_them(url: str) -> None:
    text = rejected({"url": url}, "audit.url", "credentials", "${ENV_VAR}")

    assert SECRET not in text


def test_a_mysql_url_needs_a_host_and_a_database() -> None:
    rejected({"url": "mysql+pymysql://db.internal"}, "audit.url", "host and a database")
    rejected({"url": "mysql+pymysql:///audit"}, "audit.url", "host and a database")


def test_a_sqlite_url_takes_a_path_not_a_host() -> None:
    rejected({"url": "sqlite://db.internal/audit.db"}, "audit.url", "path")


def test_the_url_may_come_from_the_environment() -> None:
    audit = load({"url": "${AUDIT_URL:-sqlite:///var/superbiz-audit.db}"}, {"AUDIT_URL": "sqlite://"})

    assert audit.url == "sqlite://"


def test_credentials_from_the_environment_stay_out_of_the_dump() -> None:
    config = parse_config(
        yaml.safe_dump(
            {
                "audit": {
                    "url": "mysql+pymysql://db.internal/audit",
                    "username": "superbiz_audit",
                    "password": "${AUDIT_DB_PASSWORD}",
                }
            }
        ),
        {"AUDIT_DB_PASSWORD": SECRET},
    )

    assert config.audit.username == "superbiz_audit"
    assert isinstance(config.audit.password, Secret)
    assert config.audit.password.reveal() == SECRET
    dumped = dump_config(config)
    assert SECRET not in dumped and "${AUDIT_DB_PASSWORD}" in dumped
    assert SECRET not in repr(config.audit)


def test_a_literal_password_is_rejected() -> None:
    text = rejected({"password": SECRET}, "audit.password", "${ENV_VAR}")

    assert SECRET not in text


@pytest.mark.parametrize(
    ("key", "value", "field", "expected"),
    [
        ("preview-chars", 120, "preview_chars", 120),
        ("previous-turn-chars", 80, "previous_turn_chars", 80),
        ("previous-turn-documents", 2, "previous_turn_documents", 2),
        ("previous-turn-documents", 0, "previous_turn_documents", 0),
        ("previous_turn_chars", 300, "previous_turn_chars", 300),
    ],
)
def test_bounds_can_be_set(key: str, value: int, field: str, expected: int) -> None:
    assert getattr(load({key: value}), field) == expected


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("preview-chars", 0),
        ("preview-chars", 100000),
        ("previous-turn-chars", 0),
        ("previous-turn-chars", -1),
        ("previous-turn-documents", -1),
        ("previous-turn-documents", 1000),
        ("preview-chars", True),
        ("previous-turn-documents", False),
        ("previous-turn-chars", "many"),
    ],
)
def test_out_of_range_bounds_are_rejected(key: str, value: Any) -> None:
    rejected({key: value}, f"audit.{key}")


def test_unknown_keys_are_rejected() -> None:
    rejected({"raw-responses": True}, "audit.raw-responses", "unknown key")
