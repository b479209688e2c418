"""Log templates: what each placeholder takes, which one wins where they meet, and linear time on any input."""

from __future__ import annotations

import json
import re
import time

import pytest

from config.tool_budgets import LogsBudget
from tests.tools.logs.mock_logs_dataset import build_lines
from tools.logs.fingerprint import normalise_level, parts, template
from tools.logs.projector import QueryLogsResultProjector

EXAMPLES = [
    (
        "HikariPool-1 - Connection is not available, request timed out after 30019ms (total=50, active=50, idle=0)",
        "<ID> - Connection is not available, request timed out after <DUR> (total=<NUM>, active=<NUM>, idle=<NUM>)",
    ),
    ("at 2026-07-21 02:11:05,123+08:00 and 02:11:06.5", "at <TS> and <TS>"),
    ("2026-07-21T02:11:05Z", "<TS>"),
    # a placeholder after a '-' inside a token wins over the token
    ("request req-550e8400-e29b-41d4-a716-446655440000 failed", "request req-<UUID> failed"),
    ("version v1.2.3.4 at host-1.2.3.4", "version v<IP> at host-<IP>"),
    ("connect to db-host10.0.3.17:3306 refused", "connect to db-host<IP> refused"),
    ("ip 10.0.0.1.5 and 1.2.3.4:99999", "ip <NUM>.<NUM>.<NUM>.<NUM>.<NUM> and <IP>"),
    ("span 0xdeadbeef parent deadbeefdeadbeef0 ok", "span <HEX> parent <HEX> ok"),
    ("deadbeefdeadbeef", "<HEX>"),
    # HEX comes before DUR
    ("checksum 1234567890123456 ms", "checksum <HEX> ms"),
    ("retry in 1.5s, then 5 min, then 2h; elapsed 12.000s", "retry in <DUR>, then <DUR>, then <DUR>; elapsed <DUR>"),
    ("order=order-4711 user u-10023 waiting=23 pool HikariPool-1", "order=<ID> user <ID> waiting=<NUM> pool <ID>"),
    ("RF202607210001 refund 19.99 CNY", "<ID> refund <NUM>.<NUM> CNY"),
    ("x_1 -1 --5 _-_ 1_2", "<ID> -<NUM> --<NUM> _-_ <NUM>_<NUM>"),
    ("订单１２３ 超时 ３０ 分钟", "订单<NUM> 超时 <NUM> 分钟"),
    ("  spaced\tout \n message  ", "spaced out message"),
]


@pytest.mark.parametrize(("message", "expected"), EXAMPLES, ids=lambda text: repr(text[:24]))
def test_template(message: str, expected: str) -> None:
    assert template(message) == expected


def test_parts_are_the_template_and_the_value_of_each_placeholder_in_order() -> None:
    message = (
        "Query_time=15.171s Lock_time=14.307s Rows_examined=1 user=order_app@10.0.3.17 app=order-service "
        "db=order_db sql=SELECT * FROM biz_order WHERE order_id='order-4711' FOR UPDATE"
    )
    cut = parts(message)
    assert cut.template == template(message)
    assert list(zip(cut.kinds, cut.values, strict=True)) == [
        ("DUR", "15.171s"),
        ("DUR", "14.307s"),
        ("NUM", "1"),
        ("IP", "10.0.3.17"),
        ("ID", "order-4711"),
    ]
    assert len(cut.literals) == len(cut.values) + 1
    assert "".join(a + b for a, b in zip(cut.literals, (*cut.values, ""), strict=True)) == message
    assert cut.render(lambda index: f"[{index}]").startswith("Query_time=[0] Lock_time=[1] Rows_examined=[2]")


@pytest.mark.parametrize(("message", "expected"), EXAMPLES, ids=lambda text: repr(text[:24]))
def test_parts_rebuild_the_message_and_its_template(message: str, expected: str) -> None:
    cut = parts(message)
    assert cut.template == expected
    assert "".join(a + b for a, b in zip(cut.literals, (*cut.values, ""), strict=True)) == message
    assert [f"<{kind}>" for kind in cut.kinds] == re.findall(r"<[A-Z]+>", expected)


def test_parts_of_every_mock_log_line_rebuild_it() -> None:
    for line in build_lines():
        message = json.loads(line)["message"]
        cut = parts(message)
        assert "".join(a + b for a, b in zip(cut.literals, (*cut.values, ""), strict=True)) == message


PATHOLOGICAL = [
    "g" * 100_000,
    "a-" * 50_000,
    "ab1-" * 25_000,
    "a1" * 50_000,
    "1a" * 50_000,
    "a" * 100_000 + "1",
    "_" * 100_000,
    "-" * 100_000,
    "a" * 100_000 + "g",
    "0x" + "a" * 100_000 + "g",
    "1" * 100_000 + "x",
    "1" * 100_000 + " m",
    "1." * 50_000,
    "1.1 " * 25_000,
    "1:" * 50_000,
    "12:" * 33_000,
    "12:34:56." + "1" * 100_000 + "x",
    "2026-07-21 " * 9_000,
    "aaaaaaaa-aaaa-" * 7_000,
    "１" * 100_000,
    " " * 100_000 + "x",
]
"""100 KB of the characters the patterns repeat on; a pattern that backtracks over a run once per position in
it takes minutes on most of these."""


@pytest.mark.parametrize("text", PATHOLOGICAL, ids=lambda text: repr(text[:12]))
def test_template_is_linear(text: str) -> None:
    started = time.perf_counter()
    template(text)
    parts(text)
    normalise_level(text)
    assert time.perf_counter() - started < 0.5


def test_projecting_pathological_messages_is_linear() -> None:
    now = "2026-07-21T02:30:00.000+00:00"
    events = [
        {"timestamp": now, "level": "ERROR", "service": "order-service", "message": text} for text in PATHOLOGICAL
    ]
    scope = {"topic": "APPLICATION", "query": "x", "start_time": now, "end_time": now}
    raw = {"source_kind": "MOCK", "scope": scope, "match_count": len(events), "events": events}
    started = time.perf_counter()
    projection = QueryLogsResultProjector(LogsBudget()).project("c", {}, raw)
    assert time.perf_counter() - started < 2.0
    assert projection.agent_result["match_count"] == len(events)
