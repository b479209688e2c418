"""What the SQL validator accepts: rejection codes, bounds, and the allowlist of sqlglot expression classes.

Everything here is data or a small pure function; ``sql_walk`` walks the tree and applies it. A class
that is not listed in ``NODE_ARGS`` or ``REJECTED`` and is not a function is unsupported: the walk is an
allowlist, so a construct sqlglot learns in a later version is rejected until someone lists it here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from sqlglot import exp
from sqlglot.dialects.mysql import MySQL

from contract.vocabulary import HarnessError

# Stable rejection codes (the module docstring of sql_validator says what each means).
SQL_EMPTY: Final = "SQL_EMPTY"
SQL_TOO_LONG: Final = "SQL_TOO_LONG"
SQL_TOO_COMPLEX: Final = "SQL_TOO_COMPLEX"
SQL_EXECUTABLE_COMMENT: Final = "SQL_EXECUTABLE_COMMENT"
SQL_PARSE_ERROR: Final = "SQL_PARSE_ERROR"
SQL_MULTIPLE_STATEMENTS: Final = "SQL_MULTIPLE_STATEMENTS"
SQL_NOT_SELECT: Final = "SQL_NOT_SELECT"
SQL_CTE: Final = "SQL_CTE"
SQL_SUBQUERY: Final = "SQL_SUBQUERY"
SQL_SET_OPERATION: Final = "SQL_SET_OPERATION"
SQL_WINDOW: Final = "SQL_WINDOW"
SQL_WILDCARD: Final = "SQL_WILDCARD"
SQL_SELECT_CONSTANT: Final = "SQL_SELECT_CONSTANT"
SQL_LOCKING: Final = "SQL_LOCKING"
SQL_INTO: Final = "SQL_INTO"
SQL_VARIABLE: Final = "SQL_VARIABLE"
SQL_FUNCTION_NOT_ALLOWED: Final = "SQL_FUNCTION_NOT_ALLOWED"
SQL_METADATA: Final = "SQL_METADATA"
SQL_SCHEMA_NOT_ALLOWED: Final = "SQL_SCHEMA_NOT_ALLOWED"
SQL_TABLE_NOT_ALLOWED: Final = "SQL_TABLE_NOT_ALLOWED"
SQL_COLUMN_NOT_ALLOWED: Final = "SQL_COLUMN_NOT_ALLOWED"
SQL_AMBIGUOUS_COLUMN: Final = "SQL_AMBIGUOUS_COLUMN"
SQL_PARAM_COUNT: Final = "SQL_PARAM_COUNT"
SQL_PARAM_INVALID: Final = "SQL_PARAM_INVALID"
SQL_UNSUPPORTED: Final = "SQL_UNSUPPORTED"

MAX_SQL_CHARS: Final = 8000
MAX_DEPTH: Final = 48
"""Deepest expression nesting accepted; sqlglot's recursive parser and generator fail not far above it."""
MAX_PARAMS: Final = 100
MAX_PARAM_CHARS: Final = 1000
MAX_INT_PARAM: Final = 2**63
MAX_NAME_CHARS: Final = 64
EXECUTABLE_COMMENT_MARKERS: Final = ("/*!", "/*m!", "/*+")
"""Compared against the lower-cased raw text: MySQL and MariaDB execute what is inside these comments."""
METADATA_SCHEMAS: Final = frozenset({"information_schema", "mysql", "performance_schema", "sys"})
CONSTANT_NODES: Final[tuple[type[exp.Expr], ...]] = (exp.Literal, exp.Null, exp.Boolean, exp.Placeholder)
"""Values the agent writes into its query (a ``?`` is one too: the agent supplies its param). None of them may
appear anywhere in a select-list item: a result row must hold only what the database holds."""

EMPTY: Final = "the query is empty; send one SELECT statement"
TOO_DEEP: Final = "the query is nested too deeply; simplify it"
SELECT_CONSTANT: Final = (
    "every select-list item must be a column, or a function or aggregate of columns (status, COUNT(*), "
    "MAX(updated_at), DATE(created_at)) with no constant in it: select columns or aggregates of columns only, "
    "and put constants in WHERE/HAVING with ? params"
)
PLAIN_SELECT: Final = (
    "write one plain SELECT of allowlisted columns FROM allowlisted tables, with optional INNER/LEFT JOIN ... ON, "
    "WHERE, GROUP BY, HAVING, ORDER BY and LIMIT"
)


class SqlRejected(HarnessError):
    """The query is outside the allowed subset. ``message`` is safe to show the agent and says how to fix it."""

    code = "SQL_REJECTED"

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def shown(name: str) -> str:
    """An identifier as written, quoted and clipped, for a message."""
    return repr(name if len(name) <= MAX_NAME_CHARS else name[: MAX_NAME_CHARS - 1] + "…")


def is_plain_name(name: str) -> bool:
    """``[A-Za-z_][A-Za-z0-9_]{0,63}``: the only shape of alias we regenerate (no quoting surprises)."""
    return (
        0 < len(name) <= MAX_NAME_CHARS
        and name.isascii()
        and (name[0].isalpha() or name[0] == "_")
        and name.replace("_", "a").isalnum()
    )


def check_text(sql: str) -> None:
    """Checks of the raw text, before parsing: the only place the input is looked at as characters."""
    if not isinstance(sql, str) or not sql.strip():
        raise SqlRejected(SQL_EMPTY, EMPTY)
    if len(sql) > MAX_SQL_CHARS:
        raise SqlRejected(SQL_TOO_LONG, f"the query is longer than {MAX_SQL_CHARS} characters; shorten it")
    lowered = sql.lower()
    if any(marker in lowered for marker in EXECUTABLE_COMMENT_MARKERS):
        raise SqlRejected(
            SQL_EXECUTABLE_COMMENT,
            "executable comments (/*! ... */, /*M! ... */) and optimizer hints (/*+ ... */) are not allowed; "
            "remove them, and do not put these character sequences in string literals either",
        )


def checked_params(params: Sequence[object]) -> tuple[object, ...]:
    """``params`` as a tuple of plain scalars, or SQL_PARAM_INVALID."""
    if isinstance(params, (str, bytes)) or not isinstance(params, Sequence):
        raise SqlRejected(SQL_PARAM_INVALID, "params must be a list of values, one per '?' placeholder")
    if len(params) > MAX_PARAMS:
        raise SqlRejected(SQL_PARAM_INVALID, f"at most {MAX_PARAMS} params are allowed; narrow the query")
    for index, value in enumerate(params, start=1):
        kind = type(value)
        if kind is str and len(value) > MAX_PARAM_CHARS:  # type: ignore[arg-type]
            raise SqlRejected(SQL_PARAM_INVALID, f"param {index} is longer than {MAX_PARAM_CHARS} characters")
        elif kind is int and abs(value) >= MAX_INT_PARAM:  # type: ignore[arg-type]
            raise SqlRejected(SQL_PARAM_INVALID, f"param {index} is outside the 64-bit integer range")
        elif kind is float and not math.isfinite(value):  # type: ignore[arg-type]
            raise SqlRejected(SQL_PARAM_INVALID, f"param {index} must be a finite number")
        elif kind not in (str, int, float, bool, type(None)):
            raise SqlRejected(
                SQL_PARAM_INVALID, f"param {index} must be a string, number, boolean or null, not {kind.__name__}"
            )
    return tuple(params)


# Node classes the walk accepts, each with the arguments it may carry (any other non-empty argument is
# rejected). Keys marked "pass-through" hold children whose own class gives the precise rejection code.
_BINARY = frozenset({"this", "expression"})
_BINARY_OPERATORS: tuple[type[exp.Expr], ...] = (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE, exp.NullSafeEQ)
_BINARY_OPERATORS += (exp.And, exp.Or, exp.Add, exp.Sub, exp.Mul, exp.Mod)
NODE_ARGS: Final[dict[type[exp.Expr], frozenset[str]]] = {
    exp.Select: frozenset(
        {"expressions", "distinct", "from_", "joins", "where", "group", "having", "order", "limit", "offset"}
        | {"with_", "into", "locks", "hint", "windows"}  # pass-through
    ),
    exp.From: frozenset({"this"}),
    exp.Join: frozenset({"this", "on", "side", "kind"}),
    exp.Table: frozenset({"this", "db", "alias"}),
    exp.TableAlias: frozenset({"this"}),
    exp.Identifier: frozenset({"this", "quoted"}),
    exp.Column: frozenset({"this", "table", "db"}),
    exp.Alias: frozenset({"this", "alias"}),
    exp.Where: frozenset({"this"}),
    exp.Having: frozenset({"this"}),
    exp.Group: frozenset({"expressions"}),
    exp.Order: frozenset({"expressions"}),
    exp.Ordered: frozenset({"this", "desc", "nulls_first"}),
    exp.Limit: frozenset({"expression"}),
    exp.Offset: frozenset({"expression"}),
    exp.Literal: frozenset({"this", "is_string"}),
    exp.Placeholder: frozenset(),
    exp.Null: frozenset(),
    exp.Boolean: frozenset({"this"}),
    exp.Star: frozenset(),
    exp.Distinct: frozenset({"expressions"}),
    exp.In: frozenset({"this", "expressions", "query"}),  # query: pass-through (a subquery)
    exp.Between: frozenset({"this", "low", "high"}),
    exp.Like: frozenset({"this", "expression", "negate"}),
    exp.Escape: _BINARY,
    exp.Is: _BINARY,
    exp.Not: frozenset({"this"}),
    exp.Paren: frozenset({"this"}),
    exp.Neg: frozenset({"this"}),
    exp.Case: frozenset({"this", "ifs", "default"}),
    exp.If: frozenset({"this", "true", "false"}),
    exp.Div: frozenset({"this", "expression", "typed", "safe"}),
    **dict.fromkeys(_BINARY_OPERATORS, _BINARY),
}

# Classes rejected with their own code, matched with issubclass in this order.
REJECTED: Final[tuple[tuple[type[exp.Expr], str, str], ...]] = (
    (exp.Hint, SQL_EXECUTABLE_COMMENT, "optimizer hints are not allowed; remove the /*+ ... */ hint"),
    (exp.With, SQL_CTE, "WITH (common table expressions) is not allowed; " + PLAIN_SELECT),
    (exp.CTE, SQL_CTE, "WITH (common table expressions) is not allowed; " + PLAIN_SELECT),
    (exp.SetOperation, SQL_SET_OPERATION, "UNION/INTERSECT/EXCEPT are not allowed; send one SELECT per call"),
    (exp.Subquery, SQL_SUBQUERY, "subqueries are not allowed; run the inner query first and pass its values"),
    (exp.Exists, SQL_SUBQUERY, "EXISTS subqueries are not allowed; use a JOIN or run the inner query first"),
    (exp.Any, SQL_SUBQUERY, "ANY/SOME/ALL subqueries are not allowed; run the inner query first"),
    (exp.All, SQL_SUBQUERY, "ANY/SOME/ALL subqueries are not allowed; run the inner query first"),
    (exp.Window, SQL_WINDOW, "window functions (OVER, WINDOW) are not allowed; use GROUP BY aggregates"),
    (exp.WindowSpec, SQL_WINDOW, "window functions (OVER, WINDOW) are not allowed; use GROUP BY aggregates"),
    (exp.Lock, SQL_LOCKING, "locking reads (FOR UPDATE, FOR SHARE, LOCK IN SHARE MODE) are not allowed; remove it"),
    (exp.Into, SQL_INTO, "SELECT ... INTO (OUTFILE, DUMPFILE, variables) is not allowed; remove the INTO clause"),
    (exp.DataType, SQL_UNSUPPORTED, "type conversions (CAST, CONVERT, BINARY, DATE '...') are not supported"),
    (exp.Parameter, SQL_VARIABLE, "user variables (@name) are not allowed; pass values as '?' params"),
    (exp.SessionParameter, SQL_VARIABLE, "system variables (@@name) are not allowed"),
)


@dataclass(frozen=True)
class Rule:
    """How the walk treats one expression class: accepted node, function, or rejection."""

    args: frozenset[str] = frozenset()
    function: bool = False
    code: str | None = None
    message: str = ""


_RULES: dict[type[exp.Expr], Rule] = {}


def rule_for(cls: type[exp.Expr]) -> Rule:
    rule = _RULES.get(cls)
    if rule is None:
        rule = _RULES[cls] = _rule(cls)
    return rule


def _rule(cls: type[exp.Expr]) -> Rule:
    # Exact class first: And/Or/Case/If are exp.Func subclasses but are operators here.
    if cls in NODE_ARGS:
        return Rule(args=NODE_ARGS[cls])
    for base, code, message in REJECTED:
        if issubclass(cls, base):
            return Rule(code=code, message=message)
    if issubclass(cls, exp.Func):
        return Rule(function=True)
    return Rule(code=SQL_UNSUPPORTED, message=f"{describe(cls)} is not supported; {PLAIN_SELECT}")


def describe(cls: type[exp.Expr]) -> str:
    """A construct's name for a message (the sqlglot class key, never parser text)."""
    return f"the SQL construct {cls.key.upper().replace('_', ' ')!r}"


def fallback_function_name(cls: type[exp.Func]) -> str | None:
    """The name MySQL output gives every ``cls`` node, when sqlglot renders the class with its generic
    ``NAME(args)`` fallback (no class-specific rendering); else None, and the node's own rendering must be read."""
    generator = MySQL.generator_class
    if cls is exp.Anonymous or MySQL.ORIGINAL_NAME_META_KEY or cls in generator.TRANSFORMS:
        return None
    return None if hasattr(generator, f"{cls.key}_sql") else cls.sql_name().upper()
