"""A passage quoted as what a source returned must be something it returned, not the agent's own query."""

from __future__ import annotations

from harness.gate.evidence import evidence_of
from harness.gate.quotes import quote_failures

ENTRY = {
    "source": "APPLICATION",
    "scope": "order-service db-master-02 refused，2026-07-21T02:00:00Z 至 2026-07-21T02:30:00Z",
    "asked": ["order-service db-master-02 refused"],
    "pattern": "HikariPool-1 - Connection is not available, request timed out after 30007ms",
    "service": "order-service",
}


def failures(text: str) -> list[str]:
    return [failure.message for failure in quote_failures("analysis a1", text, evidence_of([ENTRY]))]


def test_a_quote_of_the_query_presented_as_a_log_line_is_refused() -> None:
    for text in (
        "日志显示「db-master-02 connection refused」",
        'The logs say "order-service db-master-02 refused"',
        "出现 `db-master-02 refused` 报错",
    ):
        assert failures(text), text


def test_a_quote_of_a_returned_line_passes_also_clipped() -> None:
    assert failures("日志「HikariPool-1 - Connection is not available」出现 72 次") == []
    assert failures("「Connection is not available … timed out after 30007ms」") == []


def test_the_query_named_as_the_query_passes() -> None:
    assert failures("以「order-service db-master-02 refused」查询 APPLICATION 日志") == []
    assert failures("searched for 'order-service db-master-02 refused'") == []


def test_a_paraphrase_in_quotes_is_left_to_the_other_rules() -> None:
    assert failures("日志提示「连接池没有可用连接」") == []
