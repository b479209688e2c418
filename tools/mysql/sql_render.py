"""The SQL regenerated from the validated tree, comments off, for MySQL and SQLite: the only text executed."""

from __future__ import annotations

from sqlglot import exp
from sqlglot.errors import ErrorLevel, UnsupportedError

from tools.mysql import sql_rules as rules
from tools.mysql.sql_rules import SqlRejected
from tools.mysql.sql_walk import Walk

SENTINEL = "sbz_param_sentinel"
"""Stands in for each ``?`` while generating, so ``%`` doubling never touches a placeholder."""


def render(root: exp.Select, walk: Walk, text: str) -> tuple[str, str]:
    if SENTINEL in text:  # it could then appear in a literal too; the counts below would reject it
        raise SqlRejected(rules.SQL_UNSUPPORTED, f"the word {SENTINEL!r} is reserved; remove it from the query")
    for placeholder in walk.placeholders:
        placeholder.replace(exp.var(SENTINEL))
    mysql_text = generate(root, "mysql", copy=False)
    for table in walk.tables:
        table.set("db", None)
    sqlite_text = generate(root, "sqlite", copy=False)
    expected = len(walk.placeholders)
    if mysql_text.count(SENTINEL) != expected or sqlite_text.count(SENTINEL) != expected:
        raise SqlRejected(rules.SQL_UNSUPPORTED, "the query could not be regenerated safely; simplify it")
    return mysql_text, sqlite_text


def generate(node: exp.Expr, dialect: str, copy: bool = True) -> str:
    try:
        return node.sql(dialect=dialect, copy=copy, comments=False, unsupported_level=ErrorLevel.RAISE)
    except RecursionError:
        raise SqlRejected(rules.SQL_TOO_COMPLEX, rules.TOO_DEEP) from None
    except UnsupportedError:
        raise SqlRejected(
            rules.SQL_UNSUPPORTED, f"the query cannot be regenerated faithfully; {rules.PLAIN_SELECT}"
        ) from None
