"""``superbiz redis acl`` and ``superbiz selfcheck``, against the bundled default and a real Redis."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
import redis

from cli.main import main
from tests.services import RedisServer

PASSWORD = "cli-acl-password"


def write_config(tmp_path: Path, url: str, user: bool = True) -> Path:
    lines = ["redis:", f"  url: {url}", "  password: ${SUPERBIZ_REDIS_PASSWORD}"]
    if user:
        lines.insert(2, "  username: superbiz-harness")
    path = tmp_path / "superbiz.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_selfcheck_passes_on_the_bundled_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfcheck"]) == 0
    out = capsys.readouterr().out
    assert out.count("[ok]") == 5 and "FAIL" not in out


def test_acl_needs_a_configured_password(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["redis", "acl"]) == 2
    assert "redis.password" in capsys.readouterr().err


def test_acl_command_never_prints_the_password(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SUPERBIZ_REDIS_PASSWORD", PASSWORD)
    assert main(["redis", "acl", "--config", str(write_config(tmp_path, "redis://127.0.0.1:1/0"))]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ACL SETUSER superbiz-harness reset on #")
    assert PASSWORD not in out


def test_printed_acl_applies_and_selfcheck_passes_under_it(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    redis_server: RedisServer,
) -> None:
    monkeypatch.setenv("SUPERBIZ_REDIS_PASSWORD", PASSWORD)
    config = write_config(tmp_path, redis_server.url)
    assert main(["redis", "acl", "--config", str(config)]) == 0
    command = shlex.split(capsys.readouterr().out)
    with redis_server.client() as admin:
        admin.flushall()
        admin.execute_command(*command)
        try:
            assert main(["selfcheck", "--config", str(config)]) == 0
            out = capsys.readouterr().out
            assert out.count("[ok]") == 5, out
            user = redis.Redis.from_url(redis_server.url, username="superbiz-harness", password=PASSWORD)
            with user, pytest.raises(redis.exceptions.NoPermissionError):
                user.flushall()
        finally:
            admin.execute_command("ACL", "DELUSER", "superbiz-harness")


def test_selfcheck_fails_when_redis_is_unreachable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.services import free_port

    monkeypatch.setenv("SUPERBIZ_REDIS_PASSWORD", PASSWORD)
    config = write_config(tmp_path, f"redis://127.0.0.1:{free_port()}/0")
    assert main(["selfcheck", "--config", str(config)]) == 1
    out = capsys.readouterr().out
    assert "[FAIL] redis reachable" in out
    assert PASSWORD not in out
