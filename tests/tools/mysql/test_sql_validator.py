"""The fail-closed SQL validator: every rejection category, realistic accepted queries, and their renderings."""

from __future__ import annotations

import random
import sqlite3
from collections import Counter
from datetime import UTC, datetime

import pymysql
import pytest
import sqlglot
from pymysql.converters import escape_item
from pymysql.cursors import Cursor
from sqlglot import exp

from config.schema import DEFAULT_SQL_FUNCTIONS
from tests.mysql_fixtures import READONLY_PASSWORD, READONLY_USER, OrderDb
from tests.tools.mysql.sql_corpus import ALLOW, MAX_ROWS, PITFALLS, REJECT, Allow, Reject, seed_allowlist
from tools.mysql import sql_rules
from tools.mysql.demo_db import TABLES, demo_rows
from tools.mysql.sql_validator import SqlAllowlist, SqlRejected, ValidatedQuery, validate_sql

ALLOWLIST = seed_allowlist()
ORDER_123 = (
    "SELECT o.order_id, o.payment_status, p.status, p.channel FROM biz_order o "
    "JOIN payment_record p ON p.order_id = o.order_id WHERE o.order_id = ?"
)
PARSER_TEXT = ("Traceback", "Line 1", "Col:", "Unexpected token", "Invalid expression", "sqlglot", "\x1b[", "Error")


def validate(sql: str, params: tuple[object, ...] = (), max_rows: int = MAX_ROWS) -> ValidatedQuery:
    return validate_sql(sql, params, ALLOWLIST, max_rows)


def case_id(case: Allow | Reject) -> str:
    return case.sql[:60] or "<empty>"


class FakeConnection:
    """What ``Cursor.mogrify`` needs of a connection: pymysql's own literal escaping, no server."""

    encoding = "utf8mb4"

    def escape(self, value: object) -> str:
        return escape_item(value, self.encoding)


def mogrify(query: ValidatedQuery) -> str:
    """The text pymysql sends for ``cursor.execute(query.pymysql_sql, query.params)``."""
    return Cursor(FakeConnection()).mogrify(query.pymysql_sql, query.params)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def demo_sqlite() -> sqlite3.Connection:
    connection = sqlite3.connect(":memory:")
    for statement in TABLES:
        connection.execute(statement)
    for table, rows in demo_rows(datetime.now(UTC)).items():
        connection.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(rows[0]))})", rows)
    return connection


def test_corpus_covers_every_code_with_enough_cases() -> None:
    codes = {value for name, value in vars(sql_rules).items() if name.startswith("SQL_") and isinstance(value, str)}
    assert Counter(case.code for case in REJECT).keys() == codes
    assert len(REJECT) >= 60 and len(ALLOW) >= 25


@pytest.mark.parametrize("case", REJECT, ids=case_id)
def test_rejected_with_its_code_and_a_safe_message(case: Reject) -> None:
    with pytest.raises(SqlRejected) as rejected:
        validate(case.sql, case.params)
    assert rejected.value.code == case.code, rejected.value.message
    message = rejected.value.message
    assert 20 < len(message) < 400
    assert not any(text in message for text in PARSER_TEXT)


@pytest.mark.parametrize("case", PITFALLS, ids=case_id)
def test_pitfalls_are_rejected_before_anything_is_regenerated(case: Reject) -> None:
    with pytest.raises(SqlRejected) as rejected:
        validate(case.sql, case.params)
    assert rejected.value.code == case.code


@pytest.mark.parametrize("case", ALLOW, ids=case_id)
def test_allowed_query_is_regenerated_bounded_and_parameterised(case: Allow) -> None:
    query = validate(case.sql, case.params)
    tree = sqlglot.parse_one(query.sql, read="mysql")
    assert type(tree) is exp.Select
    assert not any(node.comments for node in tree.walk())
    assert "/*" not in query.sql and "--" not in query.sql and "#" not in query.sql
    limit = tree.args["limit"].expression
    assert int(limit.this) == query.limit == case.limit <= MAX_ROWS
    assert len(list(tree.find_all(exp.Placeholder))) == len(query.params) == len(case.params)
    assert query.params == case.params
    assert query.pymysql_sql.count("%s") - query.sql.count("%s") == len(case.params)
    assert query.pymysql_sql.replace("%%", "").count("%") == len(case.params)
    assert all(column.table for column in tree.find_all(exp.Column) if column.name not in _aliases(tree))
    assert set(query.tables) <= {"order_db.biz_order", "order_db.payment_record"} and query.tables
    assert "order_db" not in query.sqlite_sql


@pytest.mark.parametrize("case", ALLOW, ids=case_id)
def test_validation_is_idempotent(case: Allow) -> None:
    query = validate(case.sql, case.params)
    assert validate(query.sql, query.params) == query


def test_allowed_queries_run_on_sqlite_demo_tables(demo_sqlite: sqlite3.Connection) -> None:
    for case in ALLOW:
        query = validate(case.sql, case.params)
        rows = demo_sqlite.execute(query.sqlite_sql, query.params).fetchall()
        assert len(rows) <= query.limit, case.sql


def test_sqlite_results_are_the_ones_asked_for(demo_sqlite: sqlite3.Connection) -> None:
    query = validate(ORDER_123, ("order-123",))
    assert demo_sqlite.execute(query.sqlite_sql, query.params).fetchall() == [
        ("order-123", "TIMEOUT", "TIMEOUT", "ALIPAY")
    ]
    literal = validate("SELECT order_id FROM biz_order WHERE payment_status LIKE 'TIME%' AND order_id LIKE ?", ("%3",))
    assert sorted(demo_sqlite.execute(literal.sqlite_sql, literal.params).fetchall()) == [
        ("order-123",),
        ("order-4733",),
    ]


def test_allowed_queries_run_on_mariadb_with_column_grants_only(order_db: OrderDb) -> None:
    """The read-only account may SELECT only the allowlisted columns: a leak would fail with a grant error."""
    connection = order_db.server.connect(database="order_db", user=READONLY_USER, password=READONLY_PASSWORD)
    with connection, connection.cursor() as cursor:
        for case in ALLOW:
            query = validate(case.sql, case.params)
            cursor.execute(query.pymysql_sql, query.params)
            assert len(cursor.fetchall()) <= query.limit, case.sql
        query = validate(ORDER_123, ("order-123",))
        cursor.execute(query.pymysql_sql, query.params)
        assert cursor.fetchall() == (("order-123", "TIMEOUT", "TIMEOUT", "ALIPAY"),)
        percent = validate("SELECT order_id FROM biz_order WHERE payment_status LIKE 'TIME%' AND order_id = ?", ("%s",))
        cursor.execute(percent.pymysql_sql, percent.params)
        assert cursor.fetchall() == ()
        with pytest.raises(pymysql.err.OperationalError):  # the account really cannot read hidden columns
            cursor.execute("SELECT amount FROM biz_order")


def test_pymysql_rendering_doubles_percent_and_keeps_question_marks_in_literals() -> None:
    query = validate(
        "SELECT order_id FROM biz_order WHERE payment_status LIKE '%FAIL%' AND user_id = '?%s' AND order_id = ?",
        ("o'1%",),
    )
    assert query.sql.endswith("user_id = '?%s' AND biz_order.order_id = ? LIMIT 50")
    assert query.pymysql_sql.endswith(
        "LIKE '%%FAIL%%' AND biz_order.user_id = '?%%s' AND biz_order.order_id = %s LIMIT 50"
    )
    assert mogrify(query).endswith(
        "LIKE '%FAIL%' AND biz_order.user_id = '?%s' AND biz_order.order_id = 'o\\'1%' LIMIT 50"
    )


def test_pymysql_rendering_without_params_still_needs_a_tuple() -> None:
    query = validate("SELECT order_id FROM biz_order WHERE payment_status LIKE 'T%'")
    assert query.params == ()
    assert (
        mogrify(query) == "SELECT biz_order.order_id FROM biz_order WHERE biz_order.payment_status LIKE 'T%' LIMIT 50"
    )


def test_limit_is_injected_lowered_or_kept() -> None:
    assert validate("SELECT order_id FROM biz_order").limit == MAX_ROWS
    assert validate("SELECT order_id FROM biz_order LIMIT 7").limit == 7
    lowered = validate("SELECT order_id FROM biz_order LIMIT 30 OFFSET 5", max_rows=10)
    assert (lowered.limit, lowered.sql) == (10, "SELECT biz_order.order_id FROM biz_order LIMIT 10 OFFSET 5")
    with pytest.raises(ValueError):
        validate("SELECT order_id FROM biz_order", max_rows=0)


def test_columns_are_qualified_with_the_table_they_resolve_to() -> None:
    query = validate(
        "SELECT status, payment_status FROM biz_order o JOIN payment_record p ON p.order_id = o.order_id "
        "ORDER BY status"
    )
    assert query.sql == (
        "SELECT p.status, o.payment_status FROM biz_order AS o JOIN payment_record AS p ON p.order_id = o.order_id "
        "ORDER BY p.status LIMIT 50"
    )
    assert query.tables == ("order_db.biz_order", "order_db.payment_record")


def test_order_by_alias_stays_an_alias() -> None:
    query = validate("SELECT payment_status AS s, COUNT(*) AS n FROM biz_order GROUP BY payment_status ORDER BY n")
    assert query.sql.endswith("GROUP BY biz_order.payment_status ORDER BY n LIMIT 50")


def test_messages_help_the_agent_fix_the_query() -> None:
    def message(sql: str, params: tuple[object, ...] = ()) -> str:
        with pytest.raises(SqlRejected) as rejected:
            validate(sql, params)
        return rejected.value.message

    assert message("SELECT amount FROM biz_order") == (
        "column 'amount' of table 'biz_order' is not allowed; "
        "allowed columns: created_at, order_id, payment_status, updated_at, user_id"
    )
    assert "only a single SELECT statement is allowed" in message("SELECT order_id FROM biz_order; SELECT 1")
    assert "`order_db`.`biz_order`" in message("SELECT order_id FROM `order_db.biz_order`")
    assert "o.order_id or p.order_id" in message(
        "SELECT order_id FROM biz_order o JOIN payment_record p ON p.order_id = o.order_id"
    )
    assert "SLEEP" in message("SELECT SLEEP(1) FROM biz_order") and "COUNT" in message("SELECT SLEEP(1) FROM biz_order")
    assert "line 1, column" in message("SELECT order_id FROM biz_order WHERE (")


@pytest.mark.parametrize("name", DEFAULT_SQL_FUNCTIONS)
def test_each_default_function_is_usable(name: str) -> None:
    args = {"COUNT": "order_id", "ROUND": "1.25, 1", "COALESCE": "order_id, ?", "IFNULL": "order_id, ?"}
    sql = f"SELECT {name}({args.get(name, 'order_id')}) FROM biz_order"
    query = validate(sql, ("x",) if "?" in sql else ())
    assert query.sql.startswith("SELECT COALESCE(" if name == "IFNULL" else f"SELECT {name}(")


def test_function_allowlist_comes_from_the_budget() -> None:
    only_count = SqlAllowlist(ALLOWLIST.default_schema, ALLOWLIST.schemas, frozenset({"COUNT"}))
    validate_sql("SELECT COUNT(*) FROM biz_order", (), only_count, 5)
    with pytest.raises(SqlRejected) as rejected:
        validate_sql("SELECT MAX(order_id) FROM biz_order", (), only_count, 5)
    assert rejected.value.code == "SQL_FUNCTION_NOT_ALLOWED"


def test_allowlist_from_settings() -> None:
    assert ALLOWLIST.default_schema == "order_db"
    assert ALLOWLIST.schemas["order_db"]["payment_record"] == frozenset(
        {"payment_id", "order_id", "channel", "status", "created_at", "updated_at"}
    )
    assert "DATE" in ALLOWLIST.functions and "SLEEP" not in ALLOWLIST.functions
    with pytest.raises(ValueError):
        SqlAllowlist("other", ALLOWLIST.schemas, ALLOWLIST.functions)


@pytest.mark.parametrize(
    ("sql", "regenerated"),
    [
        ("SELECT 1 INTO @x", "CREATE TABLE @x AS SELECT 1"),
        ("SELECT a FROM t WHERE id=1 /*!50000 UNION SELECT user FROM mysql.user */", "SELECT a FROM t WHERE id = 1"),
        ("FLUSH PRIVILEGES", "FLUSH AS PRIVILEGES"),
        ("SELECT a FROM t1 JOIN t2", "SELECT a FROM t1, t2"),
    ],
)
def test_sqlglot_behaviour_the_validator_relies_on(sql: str, regenerated: str) -> None:
    """Pins of PITFALLS behaviour: if an upgrade changes one, re-check the validator's reasoning."""
    assert sqlglot.parse_one(sql, read="mysql").sql(dialect="mysql", comments=False) == regenerated


FRAGMENTS = (
    " UNION SELECT order_id FROM biz_order",
    "; DROP TABLE biz_order",
    " /*!50000 OR 1 */",
    " -- ",
    " '",
    ' "',
    " `",
    " ?",
    " :p",
    " @x",
    " *",
    " amount",
    " o.amount",
    " SLEEP(1)",
    " (SELECT 1)",
    " INTO OUTFILE '/tmp/x'",
    " FOR UPDATE",
    " OR 1 = 1",
    " AND user_id IN (?, ?)",
    " LIMIT 99999",
    " ORDER BY amount",
    " GROUP BY phone",
    ", amount",
    ", *",
    " %s",
    " \\",
    " information_schema.tables",
    " JOIN mysql.user u ON 1",
)


def test_anything_accepted_from_mangled_queries_is_closed_under_revalidation() -> None:
    """Splice hostile fragments into accepted queries: each result is rejected, or regenerates to SQL that
    names only allowlisted columns, carries a bounded LIMIT, and validates again to itself."""
    rng = random.Random(20260720)
    accepted = 0
    for _ in range(600):
        case = rng.choice(ALLOW)
        words = case.sql.split(" ")
        for _ in range(rng.randint(1, 3)):
            words.insert(rng.randrange(len(words) + 1), rng.choice(FRAGMENTS).strip())
        sql = " ".join(words)
        params = (1,) * (sql.count("?") - sql.count("'?'"))
        try:
            query = validate(sql, params)
        except SqlRejected as rejected:
            assert rejected.code.startswith("SQL_")
            continue
        accepted += 1
        assert validate(query.sql, query.params) == query
        tree = sqlglot.parse_one(query.sql, read="mysql")
        columns = {column.name for column in tree.find_all(exp.Column)} - _aliases(tree)
        assert columns <= set().union(*ALLOWLIST.schemas["order_db"].values()), sql
        assert query.limit <= MAX_ROWS
    assert accepted > 0


def _aliases(tree: exp.Expr) -> set[str]:
    return {alias.alias for alias in tree.find_all(exp.Alias)}
