"""``query_mysql`` as an evidence kind: rows as evidence, the data source, tables and SQL as scope."""

from __future__ import annotations

import json
from typing import Any

import sqlglot
from pydantic import BaseModel, ConfigDict, StrictInt
from sqlglot import exp
from sqlglot.errors import SqlglotError

from contract.kind import EvidenceKind, Scope
from tools.mysql.projector import MysqlResultProjector
from tools.mysql.tool import TOOL_NAME, QueryMysqlTool, query_mysql_spec

SOURCE_TYPE = "MYSQL"


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class MysqlScope(_Model):
    data_source: str
    tables: list[str] = []
    sql: str
    params: list[Any] = []


class MysqlResult(_Model):
    """A READY ``query_mysql`` agent_result (§9.4)."""

    scope: MysqlScope
    columns: list[str]
    rows: list[dict[str, Any]]
    returned_count: StrictInt
    truncated: bool = False


def scope(result: MysqlResult) -> Scope:
    params = json.dumps(result.scope.params, ensure_ascii=False, separators=(", ", ": "))
    return Scope(
        source=result.scope.data_source,
        queried=f"{result.scope.sql} params={params}",
        verified="、".join(result.scope.tables) or "只读查询",
        complete=bool(result.scope.sql.strip()) and result.returned_count == 0,
    )


def asked(result: MysqlResult) -> list[Any]:
    """The values the agent wrote into its query: its params and every literal of its SQL (the SQL is the validated
    one, regenerated; a text sqlglot cannot read gives its params only)."""
    try:
        tree = sqlglot.parse_one(result.scope.sql, read="mysql")
    except (SqlglotError, RecursionError, ValueError):
        return list(result.scope.params)
    return [*result.scope.params, *(literal.this for literal in tree.find_all(exp.Literal))]


def selection(result: MysqlResult) -> dict[str, Any]:
    """The ``column = value`` conditions every returned row meets: the equalities AND-ed at the top of the WHERE of
    a query that returned rows, each of which is a table row (no aggregate) or a group of them (GROUP BY). An
    aggregate without GROUP BY returns its one row whatever matched (``COUNT(*)`` = 0), so it selects nothing."""
    try:
        tree = sqlglot.parse_one(result.scope.sql, read="mysql")
    except (SqlglotError, RecursionError, ValueError):
        return {}
    where = tree.args.get("where") if isinstance(tree, exp.Select) else None
    if where is None or result.returned_count == 0:
        return {}
    if not tree.args.get("group") and any(node.find(exp.AggFunc) for node in tree.expressions):
        return {}
    placeholders = [id(node) for node in tree.find_all(exp.Placeholder, bfs=False)]
    selected: dict[str, Any] = {}
    for condition in where.this.flatten() if isinstance(where.this, exp.And) else [where.this]:
        if not isinstance(condition, exp.EQ):
            continue
        column, value = condition.this, condition.expression
        if isinstance(column, exp.Literal | exp.Placeholder):
            column, value = value, column
        if not isinstance(column, exp.Column):
            continue
        if isinstance(value, exp.Literal):
            selected[column.name] = value.this
        elif isinstance(value, exp.Placeholder) and placeholders.index(id(value)) < len(result.scope.params):
            selected[column.name] = result.scope.params[placeholders.index(id(value))]
    return selected


def evidence(result: MysqlResult, found: bool) -> list[dict[str, Any]]:
    selected = selection(result)
    return [
        {
            "source_type": SOURCE_TYPE,
            "source": result.scope.data_source,
            "tables": list(result.scope.tables),
            "scope": scope(result).queried,
            "asked": asked(result),
            **({"selection": selected} if selected else {}),
            "columns": list(result.columns),
            "rows": [dict(row) for row in result.rows],
            "returned_count": result.returned_count,
            "truncated": result.truncated,
        }
    ]


def cite(result: MysqlResult, found: bool) -> list[dict[str, Any]]:
    return [{"columns": list(result.columns), "rows": [dict(row) for row in result.rows]}]


KIND = EvidenceKind(
    name=TOOL_NAME,
    source_type=SOURCE_TYPE,
    spec=query_mysql_spec,
    projector=lambda config: MysqlResultProjector(config.harness.mysql),
    build=lambda config, clock: QueryMysqlTool(config, clock),
    result=MysqlResult,
    evidence=evidence,
    scope=scope,
    cite=cite,
    available=lambda config: bool(config.harness.mysql_tools.data_sources),
    default_settings={"concurrency": 2, "max-pending": 8},
    # the order and its payment rows, then neighbours, counts and a corrected query after one the SQL validator
    # refused (the offline model asks 1) -> 8.
    max_calls=8,
)
