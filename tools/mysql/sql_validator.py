"""Fail-closed validation of the agent's read-only SQL (ISS-014 §9.3), pure: no database, no Ray.

``validate_sql`` parses the text with sqlglot (MySQL dialect), walks every node of the one statement against
an allowlist of expression classes (``sql_rules``), resolves every table and column against the data source's
schema/table/column allowlist, counts ``?`` placeholders against the params, injects or lowers LIMIT, and
regenerates the SQL from the validated tree with comments removed. The input text is never executed: only
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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import sqlglot
from sqlglot import exp
from sqlglot.dialects.mysql import MySQL
from sqlglot.errors import ErrorLevel, ParseError, SqlglotError, UnsupportedError
from sqlglot.tokens import TokenType

from config.schema import DataSourceSettings, MysqlBudget
from tools.mysql import sql_rules as rules
from tools.mysql.sql_rules import SqlRejected

__all__ = ["SqlAllowlist", "SqlRejected", "ValidatedQuery", "validate_sql"]

# sqlglot logs a warning quoting the SQL when it falls back to exp.Command; tool requests never go to logs.
logging.getLogger("sqlglot").setLevel(logging.ERROR)

_ALLOWED_JOINS = frozenset({("", ""), ("", "INNER"), ("LEFT", ""), ("LEFT", "OUTER")})
_MAX_LIMIT_DIGITS = 18


@dataclass(frozen=True)
class SqlAllowlist:
    """What one data source lets a query touch: schema -> table -> columns, and function names (upper case)."""

    default_schema: str
    schemas: Mapping[str, Mapping[str, frozenset[str]]]
    functions: frozenset[str]

    def __post_init__(self) -> None:
        if self.default_schema not in self.schemas:
            raise ValueError("default_schema must be one of schemas")

    @classmethod
    def from_settings(cls, source: DataSourceSettings, budget: MysqlBudget) -> SqlAllowlist:
        schemas = {
            schema: MappingProxyType({table: frozenset(spec.columns) for table, spec in allowed.tables.items()})
            for schema, allowed in source.allowed_schemas.items()
        }
        return cls(
            default_schema=source.default_schema,
            schemas=MappingProxyType(schemas),
            functions=frozenset(name.upper() for name in budget.allowed_functions),
        )


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
    walk = _Walk(root)
    walk.run()
    if not walk.tables:
        raise SqlRejected(rules.SQL_UNSUPPORTED, "the query must read FROM an allowlisted table; " + rules.PLAIN_SELECT)
    sources = _resolve_tables(walk.tables, allowlist)
    _resolve_columns(walk, sources)
    column_free = _check_select_list(root)
    _check_functions(walk.functions, allowlist)
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
    mysql_text, sqlite_text = _render(root, walk, sql)
    return ValidatedQuery(
        sql=mysql_text.replace(_SENTINEL, "?"),
        params=values,
        tables=tuple(dict.fromkeys(f"{source.schema}.{source.table}" for source in sources)),
        limit=limit,
        pymysql_sql=mysql_text.replace("%", "%%").replace(_SENTINEL, "%s"),
        sqlite_sql=sqlite_text.replace(_SENTINEL, "?"),
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


def _unsupported(node: exp.Expr, what: str = "") -> SqlRejected:
    return SqlRejected(
        rules.SQL_UNSUPPORTED, f"{what or rules.describe(type(node))} is not supported here; {rules.PLAIN_SELECT}"
    )


class _Walk:
    """One pre-order walk over the statement: every node is accepted by its class's rule or rejected.

    Collects what the later steps resolve (tables, columns, functions, placeholders, select aliases, LIMIT).
    """

    def __init__(self, root: exp.Select) -> None:
        self.root = root
        self.tables: list[exp.Table] = []
        self.columns: list[exp.Column] = []
        self.functions: list[exp.Func] = []
        self.placeholders: list[exp.Placeholder] = []
        self.aliases: set[str] = set()
        self.limit: int | None = None

    def run(self) -> None:
        stack: list[tuple[exp.Expr, int]] = [(self.root, 0)]
        rule_for, handlers = rules.rule_for, _HANDLERS
        while stack:
            node, depth = stack.pop()
            if depth > rules.MAX_DEPTH:
                raise SqlRejected(rules.SQL_TOO_COMPLEX, rules.TOO_DEEP)
            rule = rule_for(type(node))
            if rule.code is not None:
                raise SqlRejected(rule.code, rule.message)
            if rule.function:
                self.functions.append(node)  # type: ignore[arg-type]  # rule.function: an exp.Func
            else:
                handler = handlers.get(type(node))
                if handler is not None:
                    handler(self, node)
                _check_args(node, rule.args)
            depth += 1
            stack.extend((child, depth) for child in node.iter_expressions(reverse=True))  # pre-order, left first

    def select(self, node: exp.Select) -> None:
        if node is not self.root:
            raise SqlRejected(rules.SQL_SUBQUERY, rules.rule_for(exp.Subquery).message)

    def join(self, node: exp.Join) -> None:
        if node.args.get("using"):
            raise _unsupported(node, "JOIN ... USING")
        if node.args.get("method") or (node.side, node.kind) not in _ALLOWED_JOINS or node.args.get("on") is None:
            raise SqlRejected(
                rules.SQL_UNSUPPORTED,
                "only [INNER] JOIN and LEFT [OUTER] JOIN with an ON condition are allowed (no CROSS, RIGHT, FULL, "
                "NATURAL, STRAIGHT_JOIN, USING or comma joins); write e.g. "
                "FROM a x JOIN b y ON y.a_id = x.id",
            )

    def table(self, node: exp.Table) -> None:
        if not isinstance(node.parent, (exp.From, exp.Join)) or not isinstance(node.this, exp.Identifier):
            raise _unsupported(node, "this table reference")
        self.tables.append(node)

    def identifier(self, node: exp.Identifier) -> None:
        parent = node.parent
        if isinstance(parent, (exp.Alias, exp.TableAlias)):
            if not rules.is_plain_name(node.name):
                raise SqlRejected(
                    rules.SQL_UNSUPPORTED,
                    f"alias {rules.shown(node.name)} must be a plain name (letters, digits, underscore)",
                )
        elif not isinstance(parent, (exp.Column, exp.Table)):
            raise _unsupported(node, f"the identifier {rules.shown(node.name)}")

    def column(self, node: exp.Column) -> None:
        if isinstance(node.this, exp.Star):
            raise SqlRejected(rules.SQL_WILDCARD, _WILDCARD_MESSAGE)
        if not isinstance(node.this, exp.Identifier):
            raise _unsupported(node, "this column reference")
        self.columns.append(node)

    def star(self, node: exp.Star) -> None:
        parent = node.parent
        if not (type(parent) is exp.Count and node.arg_key == "this" and not parent.expressions):
            raise SqlRejected(rules.SQL_WILDCARD, _WILDCARD_MESSAGE)

    def placeholder(self, node: exp.Placeholder) -> None:
        if any(node.args.values()):
            raise SqlRejected(
                rules.SQL_UNSUPPORTED, "named placeholders such as ':name' are not supported; write '?' and pass params"
            )
        self.placeholders.append(node)

    def alias(self, node: exp.Alias) -> None:
        if node.parent is not self.root or node.arg_key != "expressions":
            raise _unsupported(node, "an alias outside the select list")
        self.aliases.add(node.alias)

    def distinct(self, node: exp.Distinct) -> None:
        in_select = node.parent is self.root and node.arg_key == "distinct" and not node.expressions
        if not in_select and not (isinstance(node.parent, exp.Func) and node.arg_key == "this"):
            raise _unsupported(node, "DISTINCT here")

    def limit_or_offset(self, node: exp.Limit | exp.Offset) -> None:
        value = node.expression
        literal = isinstance(value, exp.Literal) and not value.is_string and value.this.isascii()
        if node.parent is not self.root or not (
            literal and value.this.isdecimal() and len(value.this) <= _MAX_LIMIT_DIGITS
        ):
            raise SqlRejected(
                rules.SQL_UNSUPPORTED, "LIMIT and OFFSET must be non-negative integer literals, e.g. LIMIT 20 OFFSET 40"
            )
        if isinstance(node, exp.Limit):
            self.limit = int(value.this)


_WILDCARD_MESSAGE = "'*' is only allowed as COUNT(*); list the allowlisted columns you need instead of * or t.*"
_HANDLERS: dict[type[exp.Expr], Callable[[_Walk, Any], None]] = {
    exp.Select: _Walk.select,
    exp.Join: _Walk.join,
    exp.Table: _Walk.table,
    exp.Identifier: _Walk.identifier,
    exp.Column: _Walk.column,
    exp.Star: _Walk.star,
    exp.Placeholder: _Walk.placeholder,
    exp.Alias: _Walk.alias,
    exp.Distinct: _Walk.distinct,
    exp.Limit: _Walk.limit_or_offset,
    exp.Offset: _Walk.limit_or_offset,
}


def _check_args(node: exp.Expr, allowed: frozenset[str]) -> None:
    for key, value in node.args.items():
        if value is None or value is False or (type(value) is list and not value) or key in allowed:
            continue
        raise _unsupported(node, f"{rules.describe(type(node))} with {key.strip('_').replace('_', ' ')!r}")


@dataclass(frozen=True)
class _Source:
    """A table of the FROM/JOIN list: ``ref`` (alias, else table name) is what its columns are qualified with."""

    ref: str
    schema: str
    table: str
    columns: frozenset[str]
    aliased: bool


def _resolve_tables(tables: list[exp.Table], allowlist: SqlAllowlist) -> list[_Source]:
    sources: dict[str, _Source] = {}
    for node in tables:
        name, schema = node.name, node.db or allowlist.default_schema
        if schema.lower() in rules.METADATA_SCHEMAS or name.split(".", 1)[0].lower() in rules.METADATA_SCHEMAS:
            raise SqlRejected(
                rules.SQL_METADATA, "database metadata (information_schema, mysql, sys, ...) is not queryable"
            )
        allowed = allowlist.schemas.get(schema)
        if allowed is None:
            raise SqlRejected(
                rules.SQL_SCHEMA_NOT_ALLOWED,
                f"schema {rules.shown(schema)} is not allowed; allowed schemas: {', '.join(sorted(allowlist.schemas))}",
            )
        if name not in allowed:
            hint = " (quote schema and table separately, e.g. `order_db`.`biz_order`)" if "." in name else ""
            raise SqlRejected(
                rules.SQL_TABLE_NOT_ALLOWED,
                f"table {rules.shown(name)} is not allowed{hint}; "
                f"allowed tables in {schema!r}: {', '.join(sorted(allowed))}",
            )
        ref = node.alias or name
        if ref in sources:
            raise SqlRejected(
                rules.SQL_AMBIGUOUS_COLUMN,
                f"table name or alias {rules.shown(ref)} is used twice; give each table its own alias",
            )
        sources[ref] = _Source(ref, schema, name, allowed[name], bool(node.alias))
    return list(sources.values())


def _resolve_columns(walk: _Walk, sources: list[_Source]) -> None:
    """Resolve every column to exactly one source, then qualify it with that source in the tree.

    Only a whole ORDER BY item may name a select-list alias: MySQL resolves a bare name in GROUP BY and HAVING
    against the tables first, so an alias named like a hidden column would read that column there.
    """
    by_ref = {source.ref: source for source in sources}
    for column in walk.columns:
        name, qualifier, db = column.name, column.table, column.db
        if qualifier:
            source = by_ref.get(qualifier)
            if source is None or (db and (source.aliased or source.schema != db)):
                written = ".".join(part for part in (db, qualifier, name) if part)
                raise SqlRejected(
                    rules.SQL_AMBIGUOUS_COLUMN,
                    f"{rules.shown(written)} does not name a table or alias of this query; "
                    f"qualify columns with one of: {', '.join(by_ref)}",
                )
            if name not in source.columns:
                raise SqlRejected(rules.SQL_COLUMN_NOT_ALLOWED, _unknown_column(name, [source], False))
        else:
            if name in walk.aliases and isinstance(column.parent, exp.Ordered) and column.arg_key == "this":
                continue
            candidates = [source for source in sources if name in source.columns]
            if len(candidates) > 1:
                refs = " or ".join(f"{source.ref}.{name}" for source in candidates)
                raise SqlRejected(
                    rules.SQL_AMBIGUOUS_COLUMN, f"column {rules.shown(name)} is in more than one table; write {refs}"
                )
            if not candidates:
                raise SqlRejected(rules.SQL_COLUMN_NOT_ALLOWED, _unknown_column(name, sources, name in walk.aliases))
            source = candidates[0]
        column.set("table", exp.to_identifier(source.ref))
        column.set("db", None)


def _check_select_list(root: exp.Select) -> int | None:
    """SQL_SELECT_CONSTANT: a result row holds only what the database holds, never a value the agent wrote.

    Each select-list item (below its one alias) is walked to its leaves. Any ``rules.CONSTANT_NODES`` node on
    the way (literal, NULL, TRUE/FALSE, ``?``) refuses the item at once, whatever wraps it (parentheses,
    DISTINCT, functions, aggregates, CASE/IF, arithmetic, comparisons). Every leaf must be a column or the
    ``*`` of ``COUNT(*)`` (the walk allowed no other ``*``); the position of the first item with another leaf
    (a function of no column, such as ``NOW()``) is returned, to be refused after the function allowlist has
    named a function that is not allowed at all. Runs after the walk, so every node here is of an allowlisted
    class; before the function allowlist, so ``CONCAT(order_id, '-x')`` is named a constant even where CONCAT
    is not allowed.
    """
    column_free: int | None = None
    for position, item in enumerate(root.expressions, start=1):
        stack: list[exp.Expr] = [item.this if type(item) is exp.Alias else item]
        while stack:
            node = stack.pop()
            if type(node) is exp.Column or type(node) is exp.Star:
                continue
            if isinstance(node, rules.CONSTANT_NODES):
                raise SqlRejected(
                    rules.SQL_SELECT_CONSTANT,
                    f"select-list item {position} holds a constant (a literal, NULL, TRUE/FALSE or '?'); "
                    + rules.SELECT_CONSTANT,
                )
            children = list(node.iter_expressions())
            if not children and column_free is None:
                column_free = position
            stack.extend(children)
    return column_free


def _unknown_column(name: str, sources: list[_Source], is_alias: bool) -> str:
    if is_alias:
        return (
            f"{rules.shown(name)} is a select-list alias; an alias may only be a whole ORDER BY item, "
            "so repeat the expression itself in WHERE, GROUP BY and HAVING"
        )
    if len(sources) == 1:
        source = sources[0]
        return (
            f"column {rules.shown(name)} of table {source.table!r} is not allowed; "
            f"allowed columns: {', '.join(sorted(source.columns))}"
        )
    allowed = "; ".join(f"{source.ref}: {', '.join(sorted(source.columns))}" for source in sources)
    return f"column {rules.shown(name)} is not an allowed column of any table in this query; allowed: {allowed}"


def _check_functions(functions: list[exp.Func], allowlist: SqlAllowlist) -> None:
    """The name checked is the one MySQL will run: the head of the function's regenerated text
    (``IFNULL`` is regenerated as ``COALESCE``, ``DATE`` stays ``DATE``)."""
    for node in functions:
        if isinstance(node, exp.Anonymous):
            name = node.name.upper()
        else:
            name = rules.fallback_function_name(type(node)) or _generated_name(node)
        if name not in allowlist.functions:
            raise SqlRejected(
                rules.SQL_FUNCTION_NOT_ALLOWED,
                f"function {rules.shown(name or node.key.upper())} is not allowed; "
                f"allowed functions: {', '.join(sorted(allowlist.functions))}",
            )


def _generated_name(node: exp.Func) -> str:
    try:
        text = _generate(node, "mysql")
    except SqlRejected:
        return ""
    head, paren, _ = text.partition("(")
    return head.upper() if paren and rules.is_plain_name(head) else ""


_SENTINEL = "sbz_param_sentinel"
"""Stands in for each ``?`` while generating, so ``%`` doubling never touches a placeholder."""


def _render(root: exp.Select, walk: _Walk, text: str) -> tuple[str, str]:
    if _SENTINEL in text:  # it could then appear in a literal too; the counts below would reject it
        raise SqlRejected(rules.SQL_UNSUPPORTED, f"the word {_SENTINEL!r} is reserved; remove it from the query")
    for placeholder in walk.placeholders:
        placeholder.replace(exp.var(_SENTINEL))
    mysql_text = _generate(root, "mysql", copy=False)
    for table in walk.tables:
        table.set("db", None)
    sqlite_text = _generate(root, "sqlite", copy=False)
    expected = len(walk.placeholders)
    if mysql_text.count(_SENTINEL) != expected or sqlite_text.count(_SENTINEL) != expected:
        raise SqlRejected(rules.SQL_UNSUPPORTED, "the query could not be regenerated safely; simplify it")
    return mysql_text, sqlite_text


def _generate(node: exp.Expr, dialect: str, copy: bool = True) -> str:
    try:
        return node.sql(dialect=dialect, copy=copy, comments=False, unsupported_level=ErrorLevel.RAISE)
    except RecursionError:
        raise SqlRejected(rules.SQL_TOO_COMPLEX, rules.TOO_DEEP) from None
    except UnsupportedError:
        raise SqlRejected(
            rules.SQL_UNSUPPORTED, f"the query cannot be regenerated faithfully; {rules.PLAIN_SELECT}"
        ) from None
