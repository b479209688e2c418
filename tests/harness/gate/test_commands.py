"""Commands and SQL in prose: where a statement ends, what it runs, and whether it only reads."""

from __future__ import annotations

import pytest

from harness.gate.commands import Command, commands, sql_read_only
from harness.gate.text import normal


def found(text: str) -> list[Command]:
    form = normal(text)
    return commands(form.text, form.code_spans)


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("inspect the slow UPDATE biz_order statements", "UPDATE biz_order"),
        ("Inspect the slow DELETE FROM order_locks queries", "DELETE FROM order_locks"),
    ],
)
def test_a_word_that_names_statements_ends_the_statement(text: str, statement: str) -> None:
    assert [command.text for command in found(text)] == [statement]


def test_a_clause_of_a_statement_is_no_statement_of_its_own() -> None:
    """The SET of an UPDATE that prose follows is part of it, not a statement."""
    assert all(not command.text.startswith("SET") for command in found("Look for UPDATE t SET a = 1 in the binlog"))


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        (
            "Verify that UPDATE biz_order SET status='PAID' WHERE order_id='order-1' fixes the row",
            "UPDATE biz_order SET status='PAID' WHERE order_id='order-1'",
        ),
        (
            "Check whether SELECT * FROM biz_order WHERE order_id='order-1' FOR UPDATE returns the row",
            "SELECT * FROM biz_order WHERE order_id='order-1' FOR UPDATE",
        ),
    ],
)
def test_a_statement_that_acts_is_read_up_to_the_prose_after_it(text: str, statement: str) -> None:
    assert [(command.text, command.read_only) for command in found(text)] == [(statement, False)]


@pytest.mark.parametrize(
    ("sql", "reads"),
    [
        ("SELECT * FROM t WHERE a = 1 FOR UPDATE", False),
        ("SELECT * FROM t FOR SHARE", False),
        ("SELECT * FROM t LOCK IN SHARE MODE", False),
        ("LOCK TABLES t WRITE", False),
        ("EXPLAIN SELECT * FROM t FOR UPDATE", True),
        ("EXPLAIN ANALYZE SELECT * FROM t", True),
        ("EXPLAIN ANALYZE DELETE FROM t", False),
        ("SELECT * FROM t", True),
    ],
)
def test_a_lock_is_no_read_and_explain_runs_nothing(sql: str, reads: bool) -> None:
    assert sql_read_only(sql) is reads
