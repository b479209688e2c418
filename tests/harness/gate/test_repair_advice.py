"""A failure says what to write instead, in the report's language, and what it suggests passes."""

from __future__ import annotations

import re

import pytest

from harness.draft import Draft
from harness.gate import ClaimPolicy
from harness.gate.evidence import ASKED_KEY, SCOPE_KEY
from harness.gate.values import value_failures

POLICY = ClaimPolicy.default()
ROWS = {"source_type": "MYSQL", SCOPE_KEY: "SELECT * FROM payment_record WHERE status = ? params=[\"REFUNDED\"]",
        ASKED_KEY: ["REFUNDED"], "rows": [], "returned_count": 0}  # fmt: skip
LOGS = {"source_type": "LOG", SCOPE_KEY: "order-service ERROR", ASKED_KEY: ["order-service ERROR Exception"],
        "match_count": 20, "pattern": "Failed to mark order order-8821 as PAID", "count": 20}  # fmt: skip
_HAN = re.compile(r"[\u4e00-\u9fff]")


def _failures(text: str, entry: dict) -> list[str]:
    draft = Draft.model_validate(
        {
            "conclusion": None,
            "analysis": [{"analysis_id": "a1", "kind": "NORMAL", "text": text, "tool_call_ids": ["c1"]}],
            "action_plan": [],
            "recommendations": [],
            "limitations": {"scope": "payment_record", "missing_info": []},
        }
    )
    return [failure.message for failure in value_failures(draft, {"a1": [entry]}, "查一下", POLICY, set())]


@pytest.mark.parametrize(
    ("refused", "suggested", "entry"),
    [
        ("payment_record 中的支付单状态为 REFUNDED，0 行", "以 REFUNDED 为条件查询 payment_record，返回 0 行", ROWS),
        (
            "The payments are REFUNDED: 0 rows came back",
            "payment_record was queried for REFUNDED; 0 rows came back",
            ROWS,
        ),
        (
            "日志显示“order-service ERROR Exception”共 20 条",
            "以「order-service ERROR Exception」查询，返回 20 条 Failed to mark order order-8821 as PAID",
            LOGS,
        ),
        (
            'The logs say "order-service ERROR Exception" 20 times',
            'searched for "order-service ERROR Exception": 20 events of Failed to mark order order-8821 as PAID',
            LOGS,
        ),
    ],
)
def test_the_message_is_in_the_report_language_and_its_suggestion_passes(
    refused: str, suggested: str, entry: dict
) -> None:
    messages = _failures(refused, entry)
    assert messages
    chinese = bool(_HAN.search(refused))
    for message in messages:
        body = re.sub(r"「[^」]*」", "", message)  # the quoted token is the report's own
        assert bool(_HAN.search(body)) == chinese, message
        if not chinese:
            assert "以" not in body and "为条件" not in body
    assert _failures(suggested, entry) == []
