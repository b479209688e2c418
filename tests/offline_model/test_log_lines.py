"""Which log lines the log analyses quote: the lines about what was asked, and no pattern twice in one report.

The rule on hand-made results first, then on the real order-123 run over the bundled demo logs.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from harness.draft import parse_draft
from harness.gate import ClaimPolicy
from harness.gate.proposals import side_effect
from offline_model.conversation import LOGS, Observation
from offline_model.log_lines import choose, named
from offline_model.query_facts import extract
from tests.offline_model.loop import Run, diagnose
from tools.logs.fingerprint import template

ORDER_QUERY = "订单 order-123 支付超时，帮我排查"
QUOTED = re.compile(r"「([^「」]+)」")
POOL = "HikariPool-1 - Connection is not available, request timed out after 30007ms (total=50, active=50)"
CALLEE = "ERR_TIMEOUT calling order-service POST /internal/orders/{order}/paid after 3000ms"
MARK = "Failed to mark order {order} as PAID: java.sql.SQLTransientConnectionException: HikariPool-1 - timed out"


def _pattern(service: str, level: str, example: str, count: int = 5) -> dict[str, Any]:
    return {
        "count": count,
        "first_seen": "2026-07-21T02:05:09.000+00:00",
        "last_seen": "2026-07-21T02:29:34.000+00:00",
        "level": level,
        "service": service,
        "example": example,
    }


def _event(service: str, level: str, message: str, at: str = "02:07:00") -> dict[str, Any]:
    return {"timestamp": f"2026-07-21T{at}.000+00:00", "level": level, "service": service, "message": message}


def _logs(call_id: str, service: str, patterns: list[dict[str, Any]], events: list[dict[str, Any]]) -> Observation:
    result = {"evidence_status": "EVIDENCE_FOUND", "patterns": patterns, "events": events}
    return Observation(call_id, LOGS, {"query": f"{service} order-123 timeout"}, result)


def test_a_pattern_is_shown_by_its_event_naming_the_asked_order() -> None:
    logs = _logs(
        "call_1",
        "payment-service",
        [_pattern("payment-service", "ERROR", CALLEE.format(order="order-8821"), 26)],
        [_event("payment-service", "ERROR", CALLEE.format(order="order-123"), "02:13:04")],
    )
    key = choose(extract(ORDER_QUERY), [logs])["call_1"].key
    assert key is not None and key.count == 26
    assert "order-123" in key.message and key.at == "2026-07-21T02:13:04.000+00:00"


def test_the_side_line_names_the_asked_order_and_the_dominant_pattern_stays_the_key() -> None:
    logs = _logs(
        "call_1",
        "order-service",
        [
            _pattern("order-service", "ERROR", POOL, 72),
            _pattern("payment-service", "ERROR", CALLEE.format(order="order-8821"), 26),
            _pattern("order-service", "ERROR", MARK.format(order="order-8821"), 20),
            _pattern("payment-service", "DEBUG", "Outgoing request order-123", 1),
        ],
        [_event("order-service", "ERROR", MARK.format(order="order-123"))],
    )
    quotes = choose(extract(ORDER_QUERY), [logs])["call_1"]
    assert quotes.key is not None and quotes.key.message == POOL
    assert quotes.side is not None and quotes.side.names == ("order-123",)
    assert quotes.side.message == MARK.format(order="order-123") and quotes.side.count == 20


def test_no_pattern_is_quoted_twice_and_a_later_key_is_not_taken_as_a_side_line() -> None:
    pool = _pattern("order-service", "ERROR", POOL, 72)
    callee = _pattern("payment-service", "ERROR", CALLEE.format(order="order-8821"), 26)
    mark = _pattern("order-service", "ERROR", MARK.format(order="order-8821"), 3)
    first = _logs("call_1", "order-service", [pool, callee], [])
    second = _logs("call_2", "payment-service", [callee, pool, mark], [])
    quotes = choose(extract("订单 order-9999 支付超时"), [first, second])
    assert quotes["call_1"].key is not None and quotes["call_1"].key.message == POOL
    assert quotes["call_1"].side is None  # payment-service's pattern is the key of the next analysis
    assert quotes["call_2"].key is not None and quotes["call_2"].key.message == callee["example"]
    assert quotes["call_2"].side is not None and quotes["call_2"].side.message == mark["example"]


def test_a_result_whose_patterns_were_all_quoted_has_no_key() -> None:
    pool = _pattern("order-service", "ERROR", POOL, 72)
    quotes = choose(
        extract(ORDER_QUERY), [_logs("call_1", "order-service", [pool], []), _logs("call_2", "x", [pool], [])]
    )
    assert quotes["call_2"].key is None and quotes["call_2"].side is None


def test_the_question_names_ids_services_and_codes_as_whole_words() -> None:
    facts = extract("payment-service ERR_TIMEOUT order-123 支付超时")
    assert facts.named_ids() == (("order-123", 3), ("ERR_TIMEOUT", 2), ("payment-service", 1))
    assert extract(ORDER_QUERY).named_ids() == (("order-123", 3),)  # 订单 / 支付 only imply services
    assert named("order=order-123 /orders/order-1234/paid", ["order-123", "order-12"]) == ("order-123",)
    assert named("calling ERR_TIMEOUT_X", ["ERR_TIMEOUT"]) == ()


@pytest.fixture(scope="module")
def order_run() -> Run:
    return asyncio.run(diagnose(ORDER_QUERY))


def _log_items(run: Run) -> list[Any]:
    draft = parse_draft(run.draft_text)
    return [item for item in draft.analysis if run.gateway.records[item.tool_call_ids[0]].tool_name == "query_logs"]


def _quoted_lines(run: Run, item: Any) -> set[tuple[str, str, str]]:
    """(service, level, template) of every line of the cited result that one of the item's quotes comes from."""
    result = run.gateway.records[item.tool_call_ids[0]].agent_result
    assert result is not None
    entries = [(p["service"], p["level"], p["example"]) for p in result["patterns"]]
    entries += [(e["service"], e["level"], e["message"]) for e in result["events"]]
    phrases = [phrase.rstrip("…") for phrase in QUOTED.findall(item.text)]
    return {(s, level, template(m)) for phrase in phrases for s, level, m in entries if phrase in m}


async def test_the_order_123_log_analyses_quote_order_123_lines(order_run: Run) -> None:
    items = [item for item in _log_items(order_run) if item.kind == "NORMAL"]
    assert len(items) >= 2
    for item in items:
        assert any("order-123" in phrase for phrase in QUOTED.findall(item.text)), item.text
        assert "order-8821" not in item.text
    assert "HikariPool-1 - Connection is not available" in items[0].text  # the dominant pattern is still named
    assert order_run.gateway.check(order_run.draft_text).ok


async def test_no_two_analyses_quote_the_same_pattern(order_run: Run) -> None:
    seen: dict[tuple[str, str, str], str] = {}
    for item in _log_items(order_run):
        for line in _quoted_lines(order_run, item):
            assert line not in seen, f"{item.analysis_id} quotes {line} again (first quoted by {seen[line]})"
            seen[line] = item.analysis_id
    assert len(seen) >= 3


async def test_confirmation_is_the_release_gates_own_rule(order_run: Run) -> None:
    draft = parse_draft(order_run.draft_text)
    policy = ClaimPolicy.default()
    proposals = [(a.action, a.requires_human_confirmation) for a in draft.action_plan]
    proposals += [(r.text, r.requires_human_confirmation) for r in draft.recommendations]
    assert any(confirmed for _, confirmed in proposals) and any(not confirmed for _, confirmed in proposals)
    for text, confirmed in proposals:
        assert confirmed == (side_effect(text, policy) is not None), text
