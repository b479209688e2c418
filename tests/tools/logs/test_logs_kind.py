"""query_logs as an evidence kind: a pattern's details reach the typed result, the snapshot and the references, so
each event's own values are evidence of that event (not only the example's)."""

from __future__ import annotations

from decimal import Decimal

from harness.gate.evidence import evidence_of
from tests.tools.logs.conftest import Call
from tools.logs.kind import KIND

SLOW = {"topic": "SLOW_SQL", "query": "order_db biz_order", "lookback_minutes": 60}


def test_a_patterns_details_are_evidence_in_one_shape(call: Call) -> None:
    _, projection = call(**SLOW)
    result = KIND.read(projection.agent_result)
    assert result is not None
    [lock] = [pattern for pattern in result.patterns if "FOR UPDATE" in pattern.example]
    assert lock.template is not None and "<DUR1>" in lock.template
    assert [occurrence.values for occurrence in lock.occurrences] == [
        {"DUR1": "15.171s", "DUR2": "14.307s"},
        {"DUR1": "11.775s", "DUR2": "10.509s"},
    ]
    entries = [entry for entry in KIND.evidence(result, True) if "pattern" in entry]
    assert len(entries) == len(result.patterns) == 3
    assert len({frozenset(entry) for entry in entries}) == 1  # one shape, whatever details each pattern has
    [entry] = [entry for entry in entries if "FOR UPDATE" in entry["pattern"]]
    assert entry["detail"]["occurrences"][0]["values"] == {"DUR1": "15.171s", "DUR2": "14.307s"}
    found = {number.value for number in evidence_of(entries).found.numbers}
    assert {Decimal("15.171"), Decimal("14.307"), Decimal("11.775"), Decimal("10.509")} <= found


def test_a_reference_shows_the_details_of_a_pattern(call: Call) -> None:
    _, projection = call(**SLOW)
    result = KIND.read(projection.agent_result)
    cited = [item for item in KIND.cite(result, True) if "count" in item]
    [lock] = [item for item in cited if "FOR UPDATE" in item["excerpt"]]
    assert lock["occurrences"][1] == {
        "timestamp": lock["last_seen"],
        "values": {"DUR1": "11.775s", "DUR2": "10.509s"},
    }
    assert all(
        set(item) - {"template", "occurrences", "slot_values"}
        == set(cited[0]) - {"template", "occurrences", "slot_values"}
        for item in cited
    )
    large = [item for item in cited if item["count"] > 5]
    assert large and all("slot_values" in item for item in large)
