"""The MySQL executor and query_mysql on a real MariaDB: read-only, timeout, cancel, least privilege."""

from __future__ import annotations

import threading
import time

import pytest

from tests.mysql_fixtures import OrderDb
from tools.mysql.executor import MysqlExecutor, QueryFailed
from tools.mysql.tool import QueryMysqlTool

SLOW_SQL = (
    "SELECT COUNT(*) AS n FROM biz_order o JOIN payment_record p "
    "ON p.order_id <> o.order_id AND p.channel <> o.payment_status"
)


def executor(db: OrderDb, **kwargs: str) -> MysqlExecutor:
    config = db.config(**kwargs)
    return MysqlExecutor(config.harness.mysql_tools.data_sources["order_readonly"], config.harness.mysql)


def test_select_returns_json_safe_rows(order_db: OrderDb) -> None:
    run = executor(order_db)
    result = run.execute(
        "run:1", "SELECT order_id, payment_status, updated_at FROM biz_order WHERE order_id = %s", ["order-123"], 10
    )
    assert result.columns == ["order_id", "payment_status", "updated_at"]
    assert result.rows[0][:2] == ["order-123", "TIMEOUT"]
    assert isinstance(result.rows[0][2], str) and len(result.rows[0][2]) == 19
    assert result.server == "mariadb"
    run.close()


@pytest.mark.parametrize(
    "statement",
    [
        "INSERT INTO biz_order (order_id, user_id, payment_status, created_at, updated_at) "
        "VALUES ('x', 'u', 'PAID', NOW(), NOW())",
        "UPDATE biz_order SET payment_status = 'PAID' WHERE order_id = 'order-123'",
        "DELETE FROM payment_record",
    ],
)
@pytest.mark.parametrize("account", ["readonly-account", "root-on-a-read-only-session"])
def test_writes_fail_at_the_server_through_the_tools_connection(
    order_db: OrderDb, statement: str, account: str
) -> None:
    run = executor(order_db) if account == "readonly-account" else executor(order_db, user="root", password="")
    with pytest.raises(QueryFailed) as failed:
        run.execute("run:w", statement, [], 10)
    assert failed.value.kind == "PERMISSION"
    run.close()
    with order_db.server.connect() as admin, admin.cursor() as cursor:
        cursor.execute("SELECT payment_status FROM order_db.biz_order WHERE order_id = 'order-123'")
        assert cursor.fetchone() == ("TIMEOUT",)
        cursor.execute("SELECT COUNT(*) FROM order_db.biz_order WHERE order_id = 'x'")
        assert cursor.fetchone() == (0,)


def test_hidden_columns_are_refused_by_the_account_too(order_db: OrderDb) -> None:
    run = executor(order_db)
    with pytest.raises(QueryFailed) as failed:
        run.execute("run:h", "SELECT amount, phone FROM biz_order", [], 10)
    assert failed.value.kind == "PERMISSION"
    run.close()


def test_server_side_timeout_stops_a_slow_query(order_db: OrderDb) -> None:
    run = executor(order_db, database="slow_db", timeout="1s")
    started = time.monotonic()
    with pytest.raises(QueryFailed) as failed:
        run.execute("run:t", SLOW_SQL, [], 10)
    assert failed.value.kind == "TIMEOUT"
    assert time.monotonic() - started < 3
    assert order_db.running_queries("p.channel <> o.payment_status") == []
    run.close()


def test_cancel_kills_the_running_query(order_db: OrderDb) -> None:
    run = executor(order_db, database="slow_db", timeout="60s")
    outcome: list[BaseException] = []

    def query() -> None:
        try:
            run.execute("run:c", SLOW_SQL, [], 10)
        except QueryFailed as exc:
            outcome.append(exc)

    worker = threading.Thread(target=query)
    worker.start()
    deadline = time.monotonic() + 10
    while not order_db.running_queries("p.channel <> o.payment_status") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert order_db.running_queries("p.channel <> o.payment_status"), "the slow query never started"
    started = time.monotonic()
    run.cancel("run:c")
    worker.join(10)
    assert not worker.is_alive() and time.monotonic() - started < 3
    assert isinstance(outcome[0], QueryFailed) and outcome[0].kind == "CANCELLED"
    deadline = time.monotonic() + 3
    while order_db.running_queries("p.channel <> o.payment_status") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert order_db.running_queries("p.channel <> o.payment_status") == []
    run.close()


def test_unreachable_database_is_unavailable_without_details(order_db: OrderDb) -> None:
    config = order_db.config()
    source = config.harness.mysql_tools.data_sources["order_readonly"]
    broken = source.model_copy(update={"jdbc_url": type(source.jdbc_url)("jdbc:mysql://127.0.0.1:1/order_db", "${X}")})
    with pytest.raises(QueryFailed) as failed:
        MysqlExecutor(broken, config.harness.mysql).execute("run:u", "SELECT 1", [], 1)
    assert failed.value.kind == "UNAVAILABLE"
    assert "127.0.0.1" not in failed.value.detail


def test_tool_round_trip_on_mariadb(order_db: OrderDb) -> None:
    tool = QueryMysqlTool(order_db.config())
    raw = tool.run(
        "run:r",
        {
            "data_source": "order_readonly",
            "sql": "SELECT o.order_id, o.payment_status, p.status, p.channel FROM biz_order o "
            "JOIN payment_record p ON p.order_id = o.order_id WHERE o.order_id = ?",
            "params": ["order-123"],
        },
    )
    assert raw["rows"] == [["order-123", "TIMEOUT", "TIMEOUT", "ALIPAY"]]
    assert "LIMIT" in raw["sql"]
    rejected = tool.run("run:x", {"data_source": "order_readonly", "sql": "SELECT amount FROM biz_order", "params": []})
    assert rejected["error"]["code"] == "SQL_COLUMN_NOT_ALLOWED"
    write = tool.run("run:y", {"data_source": "order_readonly", "sql": "DELETE FROM biz_order", "params": []})
    assert write["error"]["code"] == "SQL_NOT_SELECT"
    tool.close()


def test_tool_timeout_is_a_safe_error(order_db: OrderDb) -> None:
    tool = QueryMysqlTool(order_db.config(database="slow_db", timeout="1s"))
    raw = tool.run(
        "run:s", {"data_source": "order_readonly", "sql": SLOW_SQL.replace("COUNT(*) AS n", "COUNT(*)"), "params": []}
    )
    assert raw["error"]["code"] == "TOOL_TIMEOUT"
    assert "1969" not in raw["error"]["message"] and "max_statement_time" not in raw["error"]["message"]
    tool.close()


def test_demo_sql_script_loads_into_mariadb(order_db: OrderDb, capsys: pytest.CaptureFixture[str]) -> None:
    from cli.main import main

    assert main(["demo-sql"]) == 0
    script = capsys.readouterr().out.replace("order_db", "demo_sql_check")
    with order_db.server.connect() as connection, connection.cursor() as cursor:
        for statement in filter(None, (part.strip() for part in script.split(";\n"))):
            cursor.execute(statement)
        cursor.execute("SELECT COUNT(*), SUM(payment_status = 'TIMEOUT') FROM demo_sql_check.biz_order")
        assert cursor.fetchone() == (19, 6)
        cursor.execute("DROP DATABASE demo_sql_check")
