"""``superbiz serve`` refuses an open address without auth; ``superbiz ask`` exit codes against the real gateway."""

from __future__ import annotations

import pytest

from cli.main import main
from tests.services import free_port


def test_serve_refuses_a_public_address_with_auth_off(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--host", "0.0.0.0", "--port", "0"]) == 2
    assert "authentication off" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ("订单 order-123 支付超时，帮我排查", 0),
        ("订单 order-123 显示 REFUNDED，但客户反馈一直支付超时，帮我排查", 1),
    ],
)
def test_ask_exit_code_follows_the_outcome(
    gateway_url: str, query: str, code: int, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["ask", query, "--url", gateway_url]) == code
    out = capsys.readouterr().out
    assert ("诊断报告" in out) if code == 0 else ("安全降级" in out)


def test_ask_an_unreachable_gateway_is_failed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ask", "你好", "--url", f"http://127.0.0.1:{free_port()}"]) == 2
    assert "cannot reach" in capsys.readouterr().out
