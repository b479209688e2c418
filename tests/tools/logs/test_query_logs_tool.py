"""QueryLogsTool: its ACI spec, argument checks, lookback default/clamp, matching and the raw response."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest

from config.loader import parse_config
from config.tool_budgets import LogsBudget
from contract.clock import ManualClock, isoformat
from contract.tool import INVALID_ARGUMENTS, EvidenceTool, failure_of
from tests.tools.logs.conftest import Call, make_tool
from tools.logs.kind import KIND
from tools.logs.matching import query_terms, required_hits
from tools.logs.tool import LOGS_UNAVAILABLE, QueryLogsTool


def test_tool_satisfies_the_evidence_tool_protocol(tool: QueryLogsTool) -> None:
    evidence_tool: EvidenceTool = tool
    assert evidence_tool.spec.name == "query_logs"
    tool.cancel("call-1")  # a no-op, never raises


def test_openai_definition_has_exactly_topic_query_lookback(tool: QueryLogsTool) -> None:
    definition = tool.spec.openai_tool()
    assert definition["type"] == "function"
    function = definition["function"]
    assert function["name"] == "query_logs"
    parameters = function["parameters"]
    assert set(parameters["properties"]) == {"topic", "query", "lookback_minutes"}
    assert parameters["required"] == ["topic", "query"]
    assert parameters["additionalProperties"] is False
    assert parameters["properties"]["topic"]["enum"] == ["APPLICATION", "ACCESS", "SLOW_SQL"]
    assert parameters["properties"]["query"]["maxLength"] == 300
    assert parameters["properties"]["lookback_minutes"] == {
        "type": "integer",
        "minimum": 1,
        "description": parameters["properties"]["lookback_minutes"]["description"],
    }
    assert "$defs" not in parameters


def test_description_states_purpose_limits_matching_and_clamp(tool: QueryLogsTool) -> None:
    text = tool.spec.description
    for phrase in ("lookup_knowledge", "query_mysql", "at least half", "default 30", "maximum 1440", "clamped"):
        assert phrase in text
    # what a pattern's fields mean: the example's values are that one event's (issue: counts given to its order id)
    for phrase in (
        "template",
        "<DUR1>",
        "occurrences",
        "slot_values",
        "the example's values belong to that event only",
    ):
        assert phrase in text
    assert "MOCK" not in text


@pytest.mark.parametrize(
    "arguments",
    [
        {"topic": "APPLICATION"},
        {"query": "order-service"},
        {"topic": "application", "query": "order-service"},
        {"topic": "METRICS", "query": "order-service"},
        {"topic": "APPLICATION", "query": ""},
        {"topic": "APPLICATION", "query": "   "},
        {"topic": "APPLICATION", "query": "!!! ??"},
        {"topic": "APPLICATION", "query": "x" * 301},
        {"topic": "APPLICATION", "query": "order-service", "lookback_minutes": 0},
        {"topic": "APPLICATION", "query": "order-service", "lookback_minutes": -5},
        {"topic": "APPLICATION", "query": "order-service", "lookback_minutes": "30"},
        {"topic": "APPLICATION", "query": "order-service", "lookback_minutes": True},
        {"topic": "APPLICATION", "query": "order-service", "limit": 100},
        {"topic": "APPLICATION", "query": "order-service", "region": "ap-shanghai"},
    ],
)
def test_invalid_arguments_are_a_failure_not_an_exception(call: Call, arguments: dict[str, object]) -> None:
    raw, projection = call(**arguments)
    failure = failure_of(raw)
    assert failure is not None and failure[0] == INVALID_ARGUMENTS
    assert projection.evidence_status == "ERROR" and projection.error_code == INVALID_ARGUMENTS
    assert projection.agent_result["error"]["code"] == INVALID_ARGUMENTS


def test_default_lookback_comes_from_config(clock: ManualClock) -> None:
    tool = make_tool(clock, LogsBudget.model_validate({"default-lookback": "10m"}))
    raw = tool.run("c", {"topic": "APPLICATION", "query": "order-service"})
    scope = raw["scope"]
    assert scope["lookback_minutes"] == 10 and "lookback_clamped" not in scope
    assert scope["end_time"] == "2026-07-21T02:30:00.000+00:00"
    assert scope["start_time"] == "2026-07-21T02:20:00.000+00:00"


def test_lookback_above_the_maximum_is_clamped_and_says_so(call: Call) -> None:
    raw, projection = call(topic="APPLICATION", query="order-service HikariPool", lookback_minutes=10_000)
    assert raw["scope"]["lookback_minutes"] == 1440
    scope = projection.agent_result["scope"]
    assert scope["lookback_clamped"] is True
    assert scope["requested_lookback_minutes"] == 10_000
    assert scope["lookback_minutes"] == 1440
    assert scope["start_time"] == "2026-07-20T02:30:00.000+00:00"
    # the older incident (just beyond 24 hours) stays outside the clamped window
    assert all(event["timestamp"] >= scope["start_time"] for event in raw["events"])


def test_lookback_at_the_maximum_is_not_clamped(call: Call) -> None:
    _, projection = call(topic="APPLICATION", query="order-service", lookback_minutes=1440)
    assert "lookback_clamped" not in projection.agent_result["scope"]


def test_raw_holds_every_match_unredacted_and_time_ordered(call: Call) -> None:
    raw, _ = call(topic="APPLICATION", query="order-service jdbc redis", lookback_minutes=30)
    assert raw["source_kind"] == "MOCK"
    assert raw["match_count"] == len(raw["events"]) > 0
    timestamps = [event["timestamp"] for event in raw["events"]]
    assert timestamps == sorted(timestamps)
    assert any("Sup3rS3cret" in event["message"] for event in raw["events"])  # raw is Harness-only
    assert set(raw["events"][0]) == {"timestamp", "topic", "service", "level", "message"}


def test_mock_times_follow_the_clock(clock: ManualClock, tool: QueryLogsTool) -> None:
    arguments = {"topic": "APPLICATION", "query": "order-service HikariPool connection"}
    before = tool.run("a", arguments)
    clock.advance(timedelta(days=3).total_seconds())
    after = tool.run("b", arguments)
    assert before["match_count"] == after["match_count"] > 0
    assert after["events"][0]["timestamp"] > before["events"][-1]["timestamp"]


def test_the_calls_of_one_run_see_one_clock(clock: ManualClock, tool: QueryLogsTool) -> None:
    arguments = {"topic": "SLOW_SQL", "query": "order_db biz_order", "lookback_minutes": 60}
    first = tool.run("a", arguments)
    for _ in range(5):  # later calls of the same run, each well within a run's deadline of the one before
        clock.advance(47.5)
        again = tool.run("b", arguments)
        assert again["events"] == first["events"] and again["match_count"] == first["match_count"] == 9
        assert again["scope"]["end_time"] > first["scope"]["end_time"]  # the window still ends now


def test_the_mock_clock_moves_on_only_after_a_quiet_longer_than_a_run(clock: ManualClock) -> None:
    tool = make_tool(clock, run_deadline_s=60.0)
    arguments = {"topic": "SLOW_SQL", "query": "order_db biz_order"}
    first = tool.run("a", arguments)
    clock.advance(60)
    assert tool.run("b", arguments)["events"] == first["events"]
    clock.advance(60.5)  # no run that saw the old clock can still be running
    moved = tool.run("c", arguments)
    assert [event["timestamp"] for event in moved["events"]] == [
        isoformat(datetime.fromisoformat(event["timestamp"]) + timedelta(seconds=120.5)) for event in first["events"]
    ]


def test_the_kind_holds_the_mock_clock_for_the_configured_run_deadline(clock: ManualClock) -> None:
    tool = KIND.build(parse_config("harness:\n  run:\n    deadline: 90s\n", {}), clock)
    arguments = {"topic": "SLOW_SQL", "query": "order_db biz_order"}
    first = tool.run("a", arguments)
    clock.advance(89)
    assert tool.run("b", arguments)["events"] == first["events"]
    clock.advance(91)
    assert tool.run("c", arguments)["events"] != first["events"]


def test_focused_query_finds_the_right_events(call: Call) -> None:
    raw, projection = call(topic="APPLICATION", query="order-service HikariCP connection")
    assert projection.evidence_status == "EVIDENCE_FOUND"
    assert {event["service"] for event in raw["events"]} == {"order-service"}
    top = projection.agent_result["patterns"][0]
    assert (top["level"], top["service"]) == ("ERROR", "order-service")
    assert "HikariPool-1 - Connection is not available" in top["example"]


def test_payment_timeouts_and_refund_duplicates(call: Call) -> None:
    raw, _ = call(topic="APPLICATION", query="payment-service ERR_TIMEOUT order-service")
    assert raw["match_count"] >= 26
    assert all("ERR_TIMEOUT" in event["message"] or event["service"] != "refund-service" for event in raw["events"])
    raw, _ = call(topic="APPLICATION", query="refund-service ERR_REFUND_DUPLICATE", lookback_minutes=1440)
    duplicates = [event for event in raw["events"] if "ERR_REFUND_DUPLICATE" in event["message"]]
    assert len(duplicates) == 11  # four recent, six hours ago five plus one warning
    raw, _ = call(topic="APPLICATION", query="退款 重复")
    assert raw["match_count"] == 1 and raw["events"][0]["service"] == "refund-service"


def test_topics_are_separate(call: Call) -> None:
    raw, _ = call(topic="SLOW_SQL", query="order_db biz_order UPDATE lock")
    assert raw["match_count"] > 0 and {event["topic"] for event in raw["events"]} == {"SLOW_SQL"}
    raw, _ = call(topic="ACCESS", query="api-gateway 504 /api/v1/orders")
    assert raw["match_count"] > 0 and {event["topic"] for event in raw["events"]} == {"ACCESS"}
    raw, _ = call(topic="SLOW_SQL", query="HikariPool connection timeout")
    assert raw["match_count"] == 0


@pytest.mark.parametrize("query", ["kafka consumer rebalance", "elasticsearch shard unassigned", "nginx worker oom"])
def test_unrelated_query_finds_nothing(call: Call, query: str) -> None:
    raw, projection = call(topic="APPLICATION", query=query, lookback_minutes=1440)
    assert raw["match_count"] == 0 and raw["events"] == []
    assert projection.evidence_status == "NO_EVIDENCE"


def test_secret_values_are_not_searchable(call: Call) -> None:
    raw, _ = call(topic="APPLICATION", query="Sup3rS3cret", lookback_minutes=1440)
    assert raw["match_count"] == 0


def test_query_terms_rule() -> None:
    assert query_terms("Order-Service HikariCP connection, the logs!") == ("order-service", "hikaricp", "connection")
    assert query_terms("api-gateway 504 /api/v1/orders order-123 10.0.3.17") == (
        "api-gateway",
        "504",
        "api/v1/orders",
        "order-123",
        "10.0.3.17",
    )
    assert query_terms("支付超时 order order") == ("支付", "付超", "超时", "order")
    assert query_terms("退款 a") == ("退款",)
    assert [required_hits(n) for n in range(1, 6)] == [1, 1, 2, 2, 3]


def test_missing_dataset_is_logs_unavailable(clock: ManualClock, tmp_path: Path) -> None:
    tool = make_tool(clock, dataset=str(tmp_path / "absent.jsonl"))
    raw = tool.run("c", {"topic": "APPLICATION", "query": "order-service"})
    assert failure_of(raw) == (
        LOGS_UNAVAILABLE,
        "The log store is unavailable right now; continue with other evidence.",
    )
    assert "absent" not in raw["error"]["message"]
    projection = tool.projector.project("c", {}, raw)
    assert projection.evidence_status == "ERROR" and projection.error_code == LOGS_UNAVAILABLE
    result = projection.agent_result
    assert set(result) == {"evidence_status", "tool_call_id", "source_kind", "scope", "error"}
    assert result["scope"]["query"] == "order-service" and result["source_kind"] == "MOCK"
    assert "detail" not in result["error"]


@pytest.mark.parametrize(
    "content",
    [
        b"\xff\xfe not utf-8",
        b'{"seconds_ago": 10, "topic": "APPLICATION"}\n',
        b'{"seconds_ago": -1, "topic": "APPLICATION", "service": "s", "level": "INFO", "message": "m"}\n',
        b'{"seconds_ago": 1, "topic": "METRICS", "service": "s", "level": "INFO", "message": "m"}\n',
        b"not json\n",
        b"[1, 2]\n",
    ],
)
def test_malformed_dataset_is_logs_unavailable(clock: ManualClock, tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content)
    tool = make_tool(clock, dataset=str(path))
    raw = tool.run("c", {"topic": "APPLICATION", "query": "order-service"})
    assert failure_of(raw) is not None and raw["error"]["code"] == LOGS_UNAVAILABLE
    assert tool.projector.project("c", {}, raw).error_code == LOGS_UNAVAILABLE


def test_a_dataset_that_appears_later_is_picked_up(clock: ManualClock, tmp_path: Path) -> None:
    path = tmp_path / "late.jsonl"
    tool = make_tool(clock, dataset=str(path))
    arguments = {"topic": "ACCESS", "query": "edge-proxy"}
    assert tool.run("a", arguments)["error"]["code"] == LOGS_UNAVAILABLE
    path.write_text(
        '{"seconds_ago": 60, "topic": "ACCESS", "service": "edge-proxy", "level": "INFO", "message": "GET / 200"}\n',
        encoding="utf-8",
    )
    assert tool.run("b", arguments)["match_count"] == 1
