"""query_mysql on the embedded SQLite demo: the same validated SQL, transpiled, tells the demo story."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from config import load_config
from tools.mysql.tool import QueryMysqlTool
from tools.registry import BUNDLED


@pytest.fixture(scope="module")
def tool() -> Iterator[QueryMysqlTool]:
    tool = QueryMysqlTool(load_config())
    yield tool
    tool.close()


def call(tool: QueryMysqlTool, sql: str, *params: object) -> dict:
    raw = tool.run(f"run:{sql[:10]}", {"data_source": "order_readonly", "sql": sql, "params": list(params)})
    return tool.projector.project("call_1", {}, raw).agent_result


def test_order_123_timed_out(tool: QueryMysqlTool) -> None:
    result = call(
        tool,
        "SELECT o.order_id, o.payment_status, p.channel, p.status, p.updated_at FROM biz_order o "
        "LEFT JOIN payment_record p ON p.order_id = o.order_id WHERE o.order_id = ?",
        "order-123",
    )
    assert result["evidence_status"] == "EVIDENCE_FOUND"
    [row] = result["rows"]
    assert (row["order_id"], row["payment_status"], row["channel"], row["status"]) == (
        "order-123",
        "TIMEOUT",
        "ALIPAY",
        "TIMEOUT",
    )


def test_aggregates_over_the_window(tool: QueryMysqlTool) -> None:
    result = call(
        tool,
        "SELECT status, COUNT(*) AS n FROM payment_record GROUP BY status HAVING COUNT(*) > ? ORDER BY n DESC",
        0,
    )
    counts = {row["status"]: row["n"] for row in result["rows"]}
    assert counts == {"SUCCESS": 12, "TIMEOUT": 6, "INIT": 1}


def test_unknown_order_is_no_evidence_with_its_conditions(tool: QueryMysqlTool) -> None:
    result = call(tool, "SELECT order_id, payment_status FROM biz_order WHERE order_id = ?", "order-999")
    assert result["evidence_status"] == "NO_EVIDENCE"
    assert result["scope"]["params"] == ["order-999"] and "order_id = ?" in result["scope"]["sql"]


def test_hidden_column_is_rejected_safely(tool: QueryMysqlTool) -> None:
    result = call(tool, "SELECT order_id, amount FROM biz_order")
    assert result["evidence_status"] == "ERROR"
    assert result["error"]["code"] == "SQL_COLUMN_NOT_ALLOWED"
    assert "amount" in result["error"]["message"] and "allowed columns" in result["error"]["message"]


def test_limit_is_injected_and_truncation_reported(tool: QueryMysqlTool) -> None:
    small = QueryMysqlTool(load_config().model_copy(deep=True))
    small._budget = small._budget.model_copy(update={"max_rows": 3})
    raw = small.run("run:l", {"data_source": "order_readonly", "sql": "SELECT order_id FROM biz_order", "params": []})
    assert raw["sql"].endswith("LIMIT 3") and raw["row_count"] == 3
    assert small.projector.project("call_1", {}, raw).agent_result["truncated"] is True
    small.close()


def test_cancel_interrupts_a_running_sqlite_query(tool: QueryMysqlTool) -> None:
    slow = (
        "SELECT COUNT(*) FROM biz_order a JOIN biz_order b ON b.order_id <> a.order_id "
        "JOIN biz_order c ON c.order_id <> b.order_id JOIN biz_order d ON d.order_id <> c.order_id "
        "JOIN biz_order e ON e.order_id <> d.order_id JOIN biz_order f ON f.order_id <> e.order_id"
    )
    outcome: list[dict] = []
    worker = threading.Thread(
        target=lambda: outcome.append(
            tool.run("run:slow", {"data_source": "order_readonly", "sql": slow, "params": []})
        )
    )
    worker.start()
    time.sleep(0.3)
    tool.cancel("run:slow")
    worker.join(5)
    assert not worker.is_alive()
    assert outcome[0]["error"]["code"] == "TOOL_CANCELLED"


def test_schema_offers_only_configured_data_sources() -> None:
    parameters = BUNDLED["query_mysql"].spec(load_config()).openai_tool()["function"]["parameters"]
    assert set(parameters["properties"]) == {"data_source", "sql", "params"}
    assert parameters["properties"]["data_source"]["enum"] == ["order_readonly"]
    assert parameters["required"] == ["data_source", "sql"]
