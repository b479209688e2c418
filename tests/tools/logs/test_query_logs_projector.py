"""QueryLogsResultProjector: the §8.2 envelope, patterns, the timeline sample, budgets and failures."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from config.tool_budgets import LogsBudget
from contract.clock import ManualClock, isoformat
from contract.tool import PROJECTION_FAILED, SAFE_MESSAGES, failure_raw
from tests.tools.logs.conftest import Call, make_tool
from tools.logs.fingerprint import normalise_level, template
from tools.logs.projector import QueryLogsResultProjector

ENVELOPE_KEYS = [
    "evidence_status",
    "tool_call_id",
    "source_kind",
    "scope",
    "match_count",
    "returned_count",
    "patterns",
    "events",
    "truncated",
]
HIKARI = {"topic": "APPLICATION", "query": "order-service HikariCP connection", "lookback_minutes": 30}
NOW = datetime(2026, 7, 21, 2, 30, tzinfo=UTC)


def _raw(events: list[tuple[float, str, str, str]], **scope: Any) -> dict[str, Any]:
    """A raw response with events given as (seconds before NOW, level, service, message)."""
    rows = [
        {"timestamp": isoformat(NOW - timedelta(seconds=ago)), "level": level, "service": service, "message": message}
        for ago, level, service, message in events
    ]
    return {
        "source_kind": "MOCK",
        "scope": {
            "topic": "APPLICATION",
            "query": "q",
            "start_time": isoformat(NOW - timedelta(minutes=30)),
            "end_time": isoformat(NOW),
            "lookback_minutes": 30,
            **scope,
        },
        "match_count": len(rows),
        "events": rows,
    }


def _project(raw: dict[str, Any], budget: LogsBudget | None = None) -> dict[str, Any]:
    return QueryLogsResultProjector(budget or LogsBudget()).project("call-1", {}, raw).agent_result


def _chars(result: dict[str, Any]) -> int:
    return len(json.dumps(result, ensure_ascii=False))


def test_evidence_found_envelope_is_exact(call: Call) -> None:
    raw, projection = call(**HIKARI)
    result = projection.agent_result
    assert list(result) == ENVELOPE_KEYS
    assert projection.evidence_status == "EVIDENCE_FOUND" and projection.error_code is None
    assert result["evidence_status"] == "EVIDENCE_FOUND" and result["tool_call_id"] == "call-1"
    assert result["source_kind"] == "MOCK"
    assert list(result["scope"]) == ["topic", "query", "start_time", "end_time"]
    assert result["scope"]["topic"] == "APPLICATION" and result["scope"]["query"] == HIKARI["query"]
    assert result["match_count"] == raw["match_count"] > result["returned_count"] == len(result["events"]) == 10
    assert isinstance(result["truncated"], bool) and result["truncated"] is True
    for pattern in result["patterns"]:
        assert list(pattern)[:6] == ["count", "first_seen", "last_seen", "level", "service", "example"]
        assert set(list(pattern)[6:]) <= {"template", "occurrences", "slot_values"}
        assert isinstance(pattern["count"], int) and pattern["first_seen"] <= pattern["last_seen"]
        assert all(isinstance(pattern[key], str) for key in ("first_seen", "last_seen", "level", "service", "example"))
    for event in result["events"]:
        assert list(event) == ["timestamp", "level", "service", "message"]
        assert all(isinstance(value, str) for value in event.values())
    assert sum(pattern["count"] for pattern in result["patterns"]) <= result["match_count"]


def test_no_evidence_keeps_scope_and_zero_count(call: Call) -> None:
    _, projection = call(topic="ACCESS", query="kafka consumer rebalance", lookback_minutes=90)
    result = projection.agent_result
    assert projection.evidence_status == "NO_EVIDENCE" and projection.error_code is None
    assert list(result) == ENVELOPE_KEYS
    assert result["scope"] == {
        "topic": "ACCESS",
        "query": "kafka consumer rebalance",
        "start_time": "2026-07-21T01:00:00.000+00:00",
        "end_time": "2026-07-21T02:30:00.000+00:00",
    }
    assert (result["match_count"], result["returned_count"], result["patterns"], result["events"]) == (0, 0, [], [])
    assert result["truncated"] is False


def test_all_events_returned_when_few(call: Call) -> None:
    _, projection = call(topic="SLOW_SQL", query="order_db biz_order", lookback_minutes=30)
    result = projection.agent_result
    assert result["match_count"] == result["returned_count"] == 9
    assert result["truncated"] is False


def test_fingerprint_groups_messages_differing_only_in_values() -> None:
    messages = [
        "HikariPool-1 - Connection is not available, request timed out after 30000ms (waiting=23)",
        "HikariPool-1 - Connection is not available, request timed out after 30019ms (waiting=31)",
        "HikariPool-2 - Connection is not available, request timed out after 1.5s (waiting=7)",
    ]
    assert len({template(message) for message in messages}) == 1
    assert template("Failed to mark order order-123 as PAID") == template("Failed to mark order order-4711 as PAID")
    assert template("trace 9b2f6c1e-4d3a-4f7b-8a21-0c5e7d9f1a3b from 10.0.3.17:3306 at 2026-07-21T02:11:05.123Z") == (
        "trace <UUID> from <IP> at <TS>"
    )
    assert template("traceId=f26a1abce5480b38 addr=0x7ffd") == "traceId=<HEX> addr=<HEX>"
    assert template("Query_time=23.290s rows=1843221 took 12 sec") == "Query_time=<DUR> rows=<NUM> took <DUR>"
    assert template("Order   created") != template("Order cancelled")
    assert normalise_level("warning") == "WARN" and normalise_level("E!") == "UNKNOWN"


def test_patterns_count_and_order() -> None:
    raw = _raw(
        [
            (600, "INFO", "order-service", "Order order-1 created"),
            (500, "ERROR", "order-service", "Connection is not available after 30000ms"),
            (400, "INFO", "order-service", "Order order-2 created"),
            (300, "ERROR", "order-service", "Connection is not available after 30010ms"),
            (250, "WARN", "order-service", "Pool stats waiting=3"),
            (200, "INFO", "order-service", "Order order-3 created"),
            (100, "ERROR", "payment-service", "ERR_TIMEOUT calling order-service"),
            (50, "warning", "order-service", "Pool stats waiting=9"),
        ]
    )
    patterns = _project(raw)["patterns"]
    assert [(p["level"], p["service"], p["count"]) for p in patterns] == [
        ("ERROR", "order-service", 2),
        ("ERROR", "payment-service", 1),
        ("WARN", "order-service", 2),
        ("INFO", "order-service", 3),
    ]
    first = patterns[0]
    assert first["first_seen"] == isoformat(NOW - timedelta(seconds=500))
    assert first["last_seen"] == isoformat(NOW - timedelta(seconds=300))
    assert first["example"] == "Connection is not available after 30010ms"  # the most recent one


SLOW = (
    "Query_time={}s Lock_time={}s Rows_examined=1 user=order_app@10.0.3.17 app=order-service db=order_db "
    "sql=SELECT * FROM biz_order WHERE order_id='order-4711' FOR UPDATE"
)


def test_a_small_pattern_shows_each_event_with_its_own_values() -> None:
    """Two slow queries fold into one pattern: each keeps its own times, not the example's (the released report
    that gave 11.775 s / 10.509 s to both)."""
    raw = _raw(
        [
            (1200, "ERROR", "order_db", SLOW.format("15.171", "14.307")),
            (610, "ERROR", "order_db", SLOW.format("11.775", "10.509")),
        ]
    )
    [pattern] = _project(raw)["patterns"]
    assert pattern["count"] == 2 and pattern["example"] == SLOW.format("11.775", "10.509")
    assert pattern["template"] == (
        "Query_time=<DUR1> Lock_time=<DUR2> Rows_examined=1 user=order_app@10.0.3.17 app=order-service db=order_db "
        "sql=SELECT * FROM biz_order WHERE order_id='order-4711' FOR UPDATE"
    )
    assert pattern["occurrences"] == [
        {"timestamp": isoformat(NOW - timedelta(seconds=1200)), "values": {"DUR1": "15.171s", "DUR2": "14.307s"}},
        {"timestamp": isoformat(NOW - timedelta(seconds=610)), "values": {"DUR1": "11.775s", "DUR2": "10.509s"}},
    ]
    assert "slot_values" not in pattern


def test_identical_events_list_their_times_and_a_single_event_adds_nothing() -> None:
    raw = _raw(
        [
            (300, "WARN", "svc", "Health check DOWN"),
            (200, "WARN", "svc", "Health check DOWN"),
            (100, "INFO", "svc", "up 1"),
        ]
    )
    down, single = _project(raw)["patterns"]
    assert down["occurrences"] == [{"timestamp": isoformat(NOW - timedelta(seconds=ago))} for ago in (300, 200)]
    assert "template" not in down
    assert list(single) == ["count", "first_seen", "last_seen", "level", "service", "example"]


def test_a_large_pattern_gives_the_values_of_each_varying_slot_with_their_counts() -> None:
    waits = [17, 23, 17, 31, 17, 23, 19, 20, 21, 22]
    raw = _raw(
        [
            (600 - 10 * i, "ERROR", "order-service", f"HikariPool-1 timed out after 30000ms (active=50, waiting={w})")
            for i, w in enumerate(waits)
        ]
    )
    [pattern] = _project(raw)["patterns"]
    assert pattern["count"] == 10 and "occurrences" not in pattern
    assert pattern["template"] == "HikariPool-1 timed out after 30000ms (active=50, waiting=<NUM1>)"
    assert pattern["slot_values"] == {
        "NUM1": {
            "distinct": 7,
            "top": [
                {"value": "17", "count": 3},
                {"value": "23", "count": 2},
                {"value": "31", "count": 1},
                {"value": "19", "count": 1},
                {"value": "20", "count": 1},
            ],
        }
    }


def test_every_value_shown_is_the_one_of_its_own_event(call: Call) -> None:
    for arguments in (
        {"topic": "SLOW_SQL", "query": "order_db biz_order", "lookback_minutes": 60},
        {"topic": "APPLICATION", "query": "order-service order-123 timeout"},
        {"topic": "ACCESS", "query": "api-gateway 504 pay", "lookback_minutes": 120},
    ):
        raw, projection = call(**arguments)
        by_time: dict[str, list[str]] = {}
        for event in raw["events"]:
            by_time.setdefault(event["timestamp"], []).append(event["message"])
        detailed = 0
        for pattern in projection.agent_result["patterns"]:
            for occurrence in pattern.get("occurrences", []):
                detailed += 1
                lines = [
                    line for line in by_time[occurrence["timestamp"]] if template(line) == template(pattern["example"])
                ]
                assert any(all(value in line for value in occurrence.get("values", {}).values()) for line in lines)
            for slot in pattern.get("slot_values", {}).values():
                detailed += 1
                assert sum(value["count"] for value in slot["top"]) <= pattern["count"]
                assert len(slot["top"]) == min(5, slot["distinct"])
        assert detailed, arguments
    _, projection = call(topic="SLOW_SQL", query="order_db biz_order", lookback_minutes=60)
    [lock] = [p for p in projection.agent_result["patterns"] if "FOR UPDATE" in p["example"]]
    assert [o["values"] for o in lock["occurrences"]] == [
        {"DUR1": "15.171s", "DUR2": "14.307s"},
        {"DUR1": "11.775s", "DUR2": "10.509s"},
    ]


def test_the_details_are_given_up_after_the_events_and_before_the_patterns() -> None:
    raw = _raw([(600 - i, "ERROR", "svc", f"request {i} timed out after {30000 + i}ms") for i in range(8)])
    full = _project(raw)
    assert len(full["events"]) == 8 and "slot_values" in full["patterns"][0]
    size = _chars(full)
    tighter = _project(raw, LogsBudget(max_total_chars=size - 40))
    assert tighter["events"] and len(tighter["events"]) < 8 and "slot_values" in tighter["patterns"][0]
    bare = {**full, "events": [], "returned_count": 0}
    bare["patterns"] = [
        {key: value for key, value in full["patterns"][0].items() if key not in ("template", "slot_values")}
    ]
    squeezed = _project(raw, LogsBudget(max_total_chars=_chars(bare) + 5))
    assert squeezed["events"] == [] and squeezed["patterns"] == bare["patterns"] and squeezed["truncated"] is True


def test_timeline_sample_is_time_ordered_spread_and_prefers_errors() -> None:
    events: list[tuple[float, str, str, str]] = [(1000 - i, "INFO", "svc", f"tick {i}") for i in range(100)]
    events += [(1000 - i - 0.5, "ERROR", "svc", f"boom {i}") for i in (30, 55)]
    raw = _raw(sorted(events, key=lambda event: -event[0]))
    result = _project(raw, LogsBudget(max_events=5))
    timestamps = [event["timestamp"] for event in result["events"]]
    assert timestamps == sorted(timestamps) and len(timestamps) == 5
    messages = [event["message"] for event in result["events"]]
    assert messages[0] == "tick 0" and messages[-1] == "tick 99"  # the first and the last event
    assert "boom 30" in messages and "boom 55" in messages  # errors are preferred in their slice
    assert result["returned_count"] == 5 and result["match_count"] == 102 and result["truncated"] is True


def test_sample_of_the_real_dataset_is_time_ordered(call: Call) -> None:
    for arguments in (HIKARI, {"topic": "ACCESS", "query": "api-gateway order-service", "lookback_minutes": 1440}):
        _, projection = call(**arguments)
        timestamps = [event["timestamp"] for event in projection.agent_result["events"]]
        assert timestamps == sorted(timestamps)


@pytest.mark.parametrize(
    ("budget", "check"),
    [
        (LogsBudget(max_patterns=2), lambda r: len(r["patterns"]) == 2),
        (LogsBudget(max_events=3), lambda r: r["returned_count"] == len(r["events"]) == 3),
        (LogsBudget(max_message_chars=40), lambda r: all(len(e["message"]) <= 40 for e in r["events"])),
        (LogsBudget(max_total_chars=2500), lambda r: _chars(r) <= 2500 and r["patterns"]),
        (LogsBudget(max_total_chars=900), lambda r: _chars(r) <= 900 and r["events"] == [] and r["patterns"]),
    ],
    ids=["max-patterns", "max-events", "max-message-chars", "max-total-chars", "max-total-chars-drops-events"],
)
def test_each_budget_truncates(clock: ManualClock, budget: LogsBudget, check: Any) -> None:
    tool = make_tool(clock, budget)
    arguments = {"topic": "APPLICATION", "query": "order-service", "lookback_minutes": 30}
    result = tool.projector.project("c", arguments, tool.run("c", arguments)).agent_result
    assert check(result)
    assert result["truncated"] is True
    assert result["match_count"] > result["returned_count"]


def test_clipped_message_marks_truncated_even_when_all_events_fit() -> None:
    raw = _raw([(10, "ERROR", "svc", "x" * 50)])
    result = _project(raw, LogsBudget(max_message_chars=20))
    assert result["events"][0]["message"] == "x" * 19 + "…" and result["patterns"][0]["example"] == "x" * 19 + "…"
    assert result["truncated"] is True
    assert _project(raw)["truncated"] is False


def test_tiny_total_budget_keeps_the_scope() -> None:
    raw = _raw([(10, "ERROR", "svc", "boom")] * 3)
    result = _project(raw, LogsBudget(max_total_chars=50))
    assert result["patterns"] == [] and result["events"] == [] and result["truncated"] is True
    assert result["scope"]["query"] == "q" and result["match_count"] == 3
    assert result["evidence_status"] == "EVIDENCE_FOUND"


def test_output_is_deterministic_for_a_fixed_clock() -> None:
    results = []
    for _ in range(2):
        tool = make_tool(ManualClock())
        arguments = {"topic": "APPLICATION", "query": "order-service payment-service timeout", "lookback_minutes": 120}
        results.append(json.dumps(tool.projector.project("c", arguments, tool.run("c", arguments)).agent_result))
    assert results[0] == results[1]


def test_source_kind_is_copied_from_raw() -> None:
    raw = _raw([(10, "INFO", "svc", "hello")])
    raw["source_kind"] = "CLS"
    assert _project(raw)["source_kind"] == "CLS"


def test_failure_raw_becomes_error_envelope() -> None:
    projection = QueryLogsResultProjector(LogsBudget()).project(
        "c", {}, failure_raw("LOGS_UNAVAILABLE", "The log store is unavailable.", detail="/secret/path: errno 2")
    )
    assert projection.evidence_status == "ERROR" and projection.error_code == "LOGS_UNAVAILABLE"
    assert projection.agent_result == {
        "evidence_status": "ERROR",
        "tool_call_id": "c",
        "error": {"code": "LOGS_UNAVAILABLE", "message": "The log store is unavailable."},
    }


@pytest.mark.parametrize(
    "raw",
    [
        {},
        [],
        "events",
        {"source_kind": "MOCK"},
        {**_raw([(1, "INFO", "s", "m")]), "source_kind": "mock; DROP"},
        {**_raw([(1, "INFO", "s", "m")]), "match_count": 0},
        {**_raw([(1, "INFO", "s", "m")]), "match_count": "1"},
        {**_raw([(1, "INFO", "s", "m")]), "events": [{"timestamp": "yesterday", "level": "I", "service": "s"}]},
        {
            **_raw([(1, "INFO", "s", "m")]),
            "events": [{"timestamp": "2026-07-21T02:00:00", "level": "INFO", "service": "s", "message": "naive"}],
        },
        {
            **_raw([(1, "INFO", "s", "m")]),
            "events": [{"timestamp": NOW.isoformat(), "level": 5, "service": "s", "message": "m"}],
        },
        {**_raw([]), "scope": {"topic": "METRICS", "query": "q"}},
        {"error": "boom"},
    ],
)
def test_malformed_raw_is_projection_failed(raw: Any) -> None:
    projection = QueryLogsResultProjector(LogsBudget()).project("c", {}, raw)
    assert projection.evidence_status == "ERROR" and projection.error_code == PROJECTION_FAILED
    assert set(projection.agent_result) == {"evidence_status", "tool_call_id", "error"}
    assert projection.agent_result["error"]["message"] == SAFE_MESSAGES[PROJECTION_FAILED]


@pytest.mark.parametrize("max_total_chars", [1200, 2000, 4000, 8000])
@pytest.mark.parametrize(("max_events", "max_patterns"), [(1, 1), (10, 8), (500, 100)])
def test_total_budget_always_holds(max_total_chars: int, max_events: int, max_patterns: int) -> None:
    budget = LogsBudget(max_total_chars=max_total_chars, max_events=max_events, max_patterns=max_patterns)
    tool = make_tool(ManualClock(), budget)
    arguments = {"topic": "APPLICATION", "query": "order-service payment-service", "lookback_minutes": 1440}
    result = tool.projector.project("c", arguments, tool.run("c", arguments)).agent_result
    assert _chars(result) <= max_total_chars
    assert result["returned_count"] == len(result["events"]) <= max_events
    assert len(result["patterns"]) <= max_patterns
    assert result["patterns"] or result["events"]
