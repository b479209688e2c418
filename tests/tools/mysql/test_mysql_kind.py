"""What a query_mysql result shows as evidence: the equalities every returned row meets (tools/mysql/kind.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tools.mysql.kind import MysqlResult, selection


def result(sql: str, params: list[Any], returned: int = 1) -> MysqlResult:
    scope = {"data_source": "order_db", "sql": sql, "params": params}
    return MysqlResult.model_validate({"scope": scope, "columns": [], "rows": [], "returned_count": returned})


@pytest.mark.parametrize(
    ("sql", "params", "selected"),
    [
        (
            "SELECT channel, COUNT(*) AS n FROM payment_record WHERE status = 'TIMEOUT' GROUP BY channel",
            [],
            {"status": "TIMEOUT"},
        ),
        (
            "SELECT o.status FROM biz_order AS o WHERE o.order_id = ? AND o.status = ? LIMIT 50",
            ["order-9", "PAID"],
            {"order_id": "order-9", "status": "PAID"},
        ),
        ("SELECT x FROM t WHERE created_at >= ? AND id = ?", ["2026-12-01", "i-1"], {"id": "i-1"}),
        ("SELECT x FROM t WHERE 'A' = kind", [], {"kind": "A"}),
        (
            "SELECT COUNT(*) FROM biz_order WHERE order_id = ? AND status = 'REFUNDED'",
            ["order-9"],
            {},
        ),  # one row always
        ("SELECT x FROM t WHERE a = 1 OR b = 2", [], {}),
        ("SELECT x FROM t WHERE a IN ('p', 'q')", [], {}),
    ],
)
def test_the_equalities_every_returned_row_meets(sql: str, params: list[Any], selected: dict[str, Any]) -> None:
    assert selection(result(sql, params)) == selected


def test_a_query_that_returned_nothing_selects_nothing() -> None:
    assert selection(result("SELECT x FROM t WHERE id = ?", ["i-1"], returned=0)) == {}
