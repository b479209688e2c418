"""No seeded secret reaches an agent_result, whatever the query, topic, window or budget; log text stays data."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from config.tool_budgets import LogsBudget
from contract.clock import ManualClock
from tests.tools.logs.conftest import Call, make_tool
from tests.tools.logs.mock_logs_dataset import INJECTION, SEEDED_SECRETS

QUERIES = [
    "password",
    "pwd passwd",
    "secret",
    "token",
    "api_key apikey",
    "access_token",
    "Authorization Basic",
    "Bearer",
    "jdbc mysql",
    "redis",
    "aws s3 client config",
    "session validated",
    "ldap bind",
    "geocode",
    "channel request",
    "order-service",
    "user-service",
    "payment-service",
    "refund-service",
    "inventory-service",
    "api-gateway",
    "api-gateway 200 users/me",
    "report-service export",
    "order_db",
    "user_db user_account",
    "HikariPool configuration",
    "user-service password=Passw0rd!23",
]
BUDGETS = [
    LogsBudget(),
    LogsBudget(max_message_chars=12),
    LogsBudget(max_events=50, max_patterns=50, max_total_chars=100_000),
]


def _leaks(text: str) -> list[str]:
    return [secret for secret in SEEDED_SECRETS if secret in text]


def test_no_seeded_secret_in_any_agent_result() -> None:
    seen_in_raw: set[str] = set()
    results = 0
    for budget in BUDGETS:
        tool = make_tool(ManualClock(), budget)
        for query, topic, lookback in itertools.product(QUERIES, ("APPLICATION", "ACCESS", "SLOW_SQL"), (30, 1440)):
            arguments = {"topic": topic, "query": query, "lookback_minutes": lookback}
            raw = tool.run("c", arguments)
            seen_in_raw.update(_leaks(json.dumps(raw, ensure_ascii=False)))
            result = tool.projector.project("c", arguments, raw).agent_result
            assert _leaks(json.dumps(result, ensure_ascii=False)) == [], (topic, query, lookback)
            results += 1
    assert results == len(BUDGETS) * len(QUERIES) * 3 * 2
    assert seen_in_raw == set(SEEDED_SECRETS)  # every secret was really in play


def test_secret_in_the_query_is_redacted_in_the_scope(call: Call) -> None:
    _, projection = call(topic="APPLICATION", query="user-service password=Passw0rd!23", lookback_minutes=60)
    assert projection.agent_result["scope"]["query"] == "user-service password=[REDACTED]"


def test_secret_in_the_query_is_redacted_in_an_error(clock: ManualClock, tmp_path: Path) -> None:
    tool = make_tool(clock, dataset=str(tmp_path / "missing.jsonl"))
    arguments = {"topic": "APPLICATION", "query": "order-service token=tk_live_4f9a2c81e7"}
    result = tool.projector.project("c", arguments, tool.run("c", arguments)).agent_result
    assert result["evidence_status"] == "ERROR"
    assert result["scope"]["query"] == "order-service token=[REDACTED]"


@pytest.mark.parametrize("topic", ["APPLICATION", "ACCESS", "SLOW_SQL"])
def test_redacted_lines_are_still_evidence(call: Call, topic: str) -> None:
    _, projection = call(topic=topic, query="password token secret api_key Authorization", lookback_minutes=1440)
    text = json.dumps(projection.agent_result, ensure_ascii=False)
    assert _leaks(text) == []
    if projection.agent_result["match_count"]:
        assert "[REDACTED]" in text


def test_prompt_injection_in_a_log_line_is_returned_as_data(call: Call) -> None:
    _, projection = call(topic="APPLICATION", query="user-service u-20931 profile nickname", lookback_minutes=30)
    result = projection.agent_result
    assert result["evidence_status"] == "EVIDENCE_FOUND"
    assert list(result) == [
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
    messages = [event["message"] for event in result["events"]]
    assert any(INJECTION in message for message in messages)
    assert any(INJECTION in pattern["example"] for pattern in result["patterns"])
    assert result["scope"]["query"] == "user-service u-20931 profile nickname"


WORDS_AND_NUMBERS = (
    ("复现用的只读账号密码是 mellowkangarootrek", "mellowkangarootrek"),
    ("The admin console password is frostedpinekeyriver", "frostedpinekeyriver"),
    ("只读账号的密码是 58203917", "58203917"),
    ("The DBA changed the app_ro password to Zq580vR7mXw0Lk last night", "Zq580vR7mXw0Lk"),
    ("mysql -h order-db-1 -u app_ro \\\n  -pZq575vR7mXw5Lk -e 'SHOW PROCESSLIST'", "Zq575vR7mXw5Lk"),
)


def test_a_value_named_as_a_credential_reaches_no_agent_whatever_it_looks_like(
    clock: ManualClock, tmp_path: Path
) -> None:
    dataset = tmp_path / "logs.jsonl"
    records = [
        {
            "seconds_ago": 60 + index,
            "topic": "APPLICATION",
            "service": "order-service",
            "level": "WARN",
            "message": text,
        }
        for index, (text, _) in enumerate(WORDS_AND_NUMBERS)
    ]
    dataset.write_text("".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records))
    tool = make_tool(clock, dataset=str(dataset))
    arguments = {"topic": "APPLICATION", "query": "order-service", "lookback_minutes": 30}
    raw = tool.run("c", arguments)
    result = json.dumps(tool.projector.project("c", arguments, raw).agent_result, ensure_ascii=False)
    assert all(value in json.dumps(raw, ensure_ascii=False) for _, value in WORDS_AND_NUMBERS[:4])
    assert [value for _, value in WORDS_AND_NUMBERS if value in result] == []
    assert result.count("[REDACTED]") >= len(WORDS_AND_NUMBERS)


@pytest.mark.parametrize("repeats", [3, 9])
def test_the_values_a_pattern_shows_are_redacted(clock: ManualClock, tmp_path: Path, repeats: int) -> None:
    """A pattern's template, each event's values and each slot's values go through the same redaction."""
    secrets = [f"Pw{index}x!Secret{index * 7}" for index in range(repeats)]
    tokens = [f"tk_live_{index:02d}4f9a2c81e7" for index in range(repeats)]
    lines = [
        f"Login ok user=u-{1000 + index} password={secret} token={token} took {20 + index}ms"
        for index, (secret, token) in enumerate(zip(secrets, tokens, strict=True))
    ]
    dataset = tmp_path / "logs.jsonl"
    records = [
        {
            "seconds_ago": 600 - index,
            "topic": "APPLICATION",
            "service": "user-service",
            "level": "INFO",
            "message": line,
        }
        for index, line in enumerate(lines)
    ]
    dataset.write_text("".join(json.dumps(record) + "\n" for record in records))
    tool = make_tool(clock, dataset=str(dataset))
    arguments = {"topic": "APPLICATION", "query": "user-service login", "lookback_minutes": 30}
    [pattern] = tool.projector.project("c", arguments, tool.run("c", arguments)).agent_result["patterns"]
    detail = json.dumps({key: pattern[key] for key in ("template", "occurrences", "slot_values") if key in pattern})
    assert "<ID1>" in pattern["template"] and "[REDACTED]" in pattern["template"]
    assert "u-1000" in detail
    assert [value for value in secrets + tokens if value in json.dumps(pattern)] == []
