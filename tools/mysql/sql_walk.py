"""The one walk over a statement's tree: every node accepted by its class's rule (``sql_rules``) or rejected,
and the check of the select list that no item holds a constant."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlglot import exp

from tools.mysql import sql_rules as rules
from tools.mysql.sql_rules import SqlRejected

_ALLOWED_JOINS = frozenset({("", ""), ("", "INNER"), ("LEFT", ""), ("LEFT", "OUTER")})
_MAX_LIMIT_DIGITS = 18


def _unsupported(node: exp.Expr, what: str = "") -> SqlRejected:
    return SqlRejected(
        rules.SQL_UNSUPPORTED, f"{what or rules.describe(type(node))} is not supported here; {rules.PLAIN_SELECT}"
    )


class Walk:
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
_HANDLERS: dict[type[exp.Expr], Callable[[Walk, Any], None]] = {
    exp.Select: Walk.select,
    exp.Join: Walk.join,
    exp.Table: Walk.table,
    exp.Identifier: Walk.identifier,
    exp.Column: Walk.column,
    exp.Star: Walk.star,
    exp.Placeholder: Walk.placeholder,
    exp.Alias: Walk.alias,
    exp.Distinct: Walk.distinct,
    exp.Limit: Walk.limit_or_offset,
    exp.Offset: Walk.limit_or_offset,
}


def _check_args(node: exp.Expr, allowed: frozenset[str]) -> None:
    for key, value in node.args.items():
        if value is None or value is False or (type(value) is list and not value) or key in allowed:
            continue
        raise _unsupported(node, f"{rules.describe(type(node))} with {key.strip('_').replace('_', ' ')!r}")


def check_select_list(root: exp.Select) -> int | None:
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
