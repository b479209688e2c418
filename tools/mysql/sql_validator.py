"""Fail-closed validation of the agent's read-only SQL (ISS-014 §9.3), pure: no database, no Ray.

``validate_sql`` parses the text with sqlglot (MySQL dialect), walks every node of the one statement against
an allowlist of expression classes (``sql_walk`` over ``sql_rules``), resolves every table, column and function
against the data source's schema/table/column allowlist (``sql_allowlist``), counts ``?`` placeholders against
the params, injects or lowers LIMIT, and regenerates the SQL from the validated tree with comments removed
(``sql_render``). The input text is never executed: only
the regenerated renderings of ``ValidatedQuery`` are.

Rejections raise ``SqlRejected(code, message)``; the message is safe for the agent (what was wrong, how to fix
it) and never carries parser text. Codes:

    SQL_EMPTY                 no statement (blank, only comments or semicolons)
    SQL_TOO_LONG              more than MAX_SQL_CHARS characters
    SQL_TOO_COMPLEX           nested deeper than MAX_DEPTH (or deeper than sqlglot can parse)
    SQL_EXECUTABLE_COMMENT    ``/*! */``, ``/*M! */`` (MySQL/MariaDB execute them) or an optimizer hint ``/*+ */``
    SQL_PARSE_ERROR           not parseable as MySQL
    SQL_MULTIPLE_STATEMENTS   more than one statement
    SQL_NOT_SELECT            anything but SELECT: writes, DDL, SHOW, DESCRIBE, CALL, SET, transactions, commands
    SQL_CTE                   WITH
    SQL_SUBQUERY              a subquery anywhere (IN/EXISTS/ANY/ALL/scalar/derived table/parenthesised query)
    SQL_SET_OPERATION         UNION / INTERSECT / EXCEPT
    SQL_WINDOW                OVER / WINDOW
    SQL_WILDCARD              ``*`` or ``t.*`` (only ``COUNT(*)`` is allowed)
    SQL_SELECT_CONSTANT       a select-list item holding a constant anywhere inside it (literal, NULL, TRUE/FALSE,
                              ``?``: ``SELECT 'x' AS host``, ``COUNT(1)``, ``amount * 100``, ``COALESCE(s, 'NONE')``,
                              CASE/IF branches, conditions) or not read from a table (a function of no column);
                              constants stay allowed in WHERE, JOIN ... ON, GROUP BY, HAVING, ORDER BY and LIMIT
    SQL_LOCKING               FOR UPDATE / FOR SHARE / LOCK IN SHARE MODE
    SQL_INTO                  SELECT ... INTO OUTFILE / DUMPFILE / @variable
    SQL_VARIABLE              user (``@x``) or system (``@@x``) variables
    SQL_FUNCTION_NOT_ALLOWED  a function whose MySQL name is not in the allowlist (SLEEP, BENCHMARK, LOAD_FILE, ...)
    SQL_METADATA              information_schema, mysql, performance_schema, sys
    SQL_SCHEMA_NOT_ALLOWED    a schema outside the allowlist
    SQL_TABLE_NOT_ALLOWED     a table outside the allowlist (identifiers match exactly; `a.b` quoted is one name)
    SQL_COLUMN_NOT_ALLOWED    a column outside its table's allowlist, in any clause
    SQL_AMBIGUOUS_COLUMN      a column that does not resolve to exactly one table of the query
    SQL_PARAM_COUNT           the number of ``?`` placeholders differs from the number of params
    SQL_PARAM_INVALID         params that are not str/int/float/bool/None, too many, too long, or out of range
    SQL_UNSUPPORTED           any other construct (joins other than INNER/LEFT ... ON, named placeholders,
                              non-literal LIMIT, casts, collations, intervals, SELECT without FROM, ...)
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

import sqlglot
from sqlglot import exp
from sqlglot.dialects.mysql import MySQL
from sqlglot.errors import ParseError, SqlglotError
from sqlglot.tokens import TokenType

from tools.mysql import sql_rules as rules
from tools.mysql.sql_allowlist import SqlAllowlist, check_functions, resolve_columns, resolve_tables
from tools.mysql.sql_render import SENTINEL, render
from tools.mysql.sql_rules import SqlRejected
from tools.mysql.sql_walk import Walk, check_select_list

__all__ = ["SqlRejected", "ValidatedQuery", "validate_sql"]

# sqlglot logs a warning quoting the SQL when it falls back to exp.Command; tool requests never go to logs.
logging.getLogger("sqlglot").setLevel(logging.ERROR)


@dataclass(frozen=True)
class ValidatedQuery:
    """A query that passed validation, regenerated from its tree (never the input text).

    ``sql`` is the MySQL text with ``?`` placeholders, for audit and display. ``pymysql_sql`` has ``%s``
    placeholders and every other ``%`` doubled: execute it as ``cursor.execute(q.pymysql_sql, q.params)``
    with ``params`` always a tuple (even empty), so pymysql always applies ``%`` formatting. ``sqlite_sql``
    is the same query for SQLite, ``?`` placeholders, without schema qualifiers.
    """

    sql: str
    params: tuple[object, ...]
    tables: tuple[str, ...]
    limit: int
    pymysql_sql: str
    sqlite_sql: str


def validate_sql(sql: str, params: Sequence[object], allowlist: SqlAllowlist, max_rows: int) -> ValidatedQuery:
    """The validated query, or ``SqlRejected`` with a stable code and a safe, recoverable message."""
    if max_rows < 1:
        raise ValueError("max_rows must be positive")
    rules.check_text(sql)
    values = rules.checked_params(params)
    root = _parse(sql)
    walk = Walk(root)
    walk.run()
    if not walk.tables:
        raise SqlRejected(rules.SQL_UNSUPPORTED, "the query must read FROM an allowlisted table; " + rules.PLAIN_SELECT)
    sources = resolve_tables(walk.tables, allowlist)
    resolve_columns(walk, sources)
    column_free = check_select_list(root)
    check_functions(walk.functions, allowlist)
    if column_free is not None:
        raise SqlRejected(
            rules.SQL_SELECT_CONSTANT,
            f"select-list item {column_free} reads no column (a function of no column); " + rules.SELECT_CONSTANT,
        )
    if len(walk.placeholders) != len(values):
        raise SqlRejected(
            rules.SQL_PARAM_COUNT,
            f"the query has {len(walk.placeholders)} '?' placeholder(s) but {len(values)} param(s) were given; "
            "pass exactly one param per '?' (a '?' inside a quoted string is not a placeholder)",
        )
    limit = max_rows if walk.limit is None else min(walk.limit, max_rows)
    root.set("limit", exp.Limit(expression=exp.Literal.number(limit)))
    mysql_text, sqlite_text = render(root, walk, sql)
    return ValidatedQuery(
        sql=mysql_text.replace(SENTINEL, "?"),
        params=values,
        tables=tuple(dict.fromkeys(f"{source.schema}.{source.table}" for source in sources)),
        limit=limit,
        pymysql_sql=mysql_text.replace("%", "%%").replace(SENTINEL, "%s"),
        sqlite_sql=sqlite_text.replace(SENTINEL, "?"),
    )


def _parse(sql: str) -> exp.Select:
    try:
        statements = [statement for statement in sqlglot.parse(sql, read="mysql") if statement is not None]
    except ParseError as exc:
        if _selects_into(sql):
            raise SqlRejected(rules.SQL_INTO, rules.rule_for(exp.Into).message) from None
        where = exc.errors[0] if exc.errors else {}
        near = f" near line {where['line']}, column {where['col']}" if "line" in where and "col" in where else ""
        raise SqlRejected(
            rules.SQL_PARSE_ERROR,
            f"the query could not be parsed as MySQL{near}; check quotes, parentheses and commas. {rules.PLAIN_SELECT}",
        ) from None
    except RecursionError:
        raise SqlRejected(rules.SQL_TOO_COMPLEX, rules.TOO_DEEP) from None
    except Exception:  # sqlglot failing in any other way on hostile input must reject, never crash the tool
        raise SqlRejected(
            rules.SQL_PARSE_ERROR, f"the query could not be parsed as MySQL. {rules.PLAIN_SELECT}"
        ) from None
    if not statements:
        raise SqlRejected(rules.SQL_EMPTY, rules.EMPTY)
    if len(statements) > 1:
        raise SqlRejected(rules.SQL_MULTIPLE_STATEMENTS, "only a single SELECT statement is allowed; send one per call")
    root = statements[0]
    if isinstance(root, exp.SetOperation):
        raise SqlRejected(rules.SQL_SET_OPERATION, rules.rule_for(type(root)).message)
    if isinstance(root, exp.Subquery):
        raise SqlRejected(rules.SQL_SUBQUERY, "write the SELECT without enclosing parentheses")
    if type(root) is not exp.Select:
        raise SqlRejected(
            rules.SQL_NOT_SELECT, "only a single SELECT statement is allowed (no writes, DDL, SHOW, SET, ...)"
        )
    return root


def _selects_into(sql: str) -> bool:
    """sqlglot cannot parse ``SELECT ... INTO OUTFILE``; name the real problem instead of a parse error."""
    try:
        tokens = MySQL().tokenize(sql)
    except SqlglotError:
        return False
    return (
        bool(tokens)
        and tokens[0].token_type == TokenType.SELECT
        and any(t.token_type == TokenType.INTO for t in tokens)
    )
