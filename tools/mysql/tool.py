"""``query_mysql``: one read-only, parameterised SELECT on a configured logical data source (ISS-014 §9)."""

from __future__ import annotations

import threading
from typing import Annotated, Any, Literal

from pydantic import Field, WithJsonSchema, create_model

from config.app import AppConfig
from config.tool_budgets import DataSourceSettings, MysqlBudget
from contract.clock import Clock
from contract.tool import TOOL_CANCELLED, TOOL_TIMEOUT, TOOL_UNAVAILABLE, ToolArguments, ToolSpec, failure_raw
from tools.mysql.executor import QueryExecutor, QueryFailed, build_executor
from tools.mysql.projector import MysqlResultProjector
from tools.mysql.sql_allowlist import SqlAllowlist
from tools.mysql.sql_validator import SqlRejected, validate_sql

TOOL_NAME = "query_mysql"
SQL_PERMISSION_DENIED = "SQL_PERMISSION_DENIED"
SQL_EXECUTION_ERROR = "SQL_EXECUTION_ERROR"

DESCRIPTION = (
    "Run ONE read-only, parameterised SELECT against a configured business database (e.g. order_db) to check "
    "the current state of orders and payments. Take table and column names from the data dictionary in the "
    "knowledge base (lookup_knowledge); only documented tables and columns are allowed. Write every value as a "
    "? placeholder and pass the values in params. Allowed: explicit columns, INNER/LEFT JOIN, WHERE, GROUP BY, "
    "HAVING, ORDER BY, LIMIT, COUNT/SUM/AVG/MIN/MAX; not allowed: SELECT *, subqueries, WITH, UNION, writes, "
    "and constants in the select list (select only columns and functions or aggregates of columns, e.g. "
    "COUNT(*), MAX(updated_at); no 'text', numbers, NULL or ? there). "
    "At most {max_rows} rows come back. Not for logs, metrics or documentation."
)


def query_mysql_spec(config: AppConfig) -> ToolSpec:
    sources = sorted(config.harness.mysql_tools.data_sources)
    if not sources:
        raise ValueError("query_mysql needs at least one configured data source")
    arguments = create_model(
        "QueryMysqlArguments",
        __base__=ToolArguments,
        data_source=(
            Annotated[
                Literal[tuple(sources)],  # type: ignore[valid-type]
                WithJsonSchema({"type": "string", "enum": sources, "description": "Logical data source id."}),
            ],
            ...,
        ),
        sql=(str, Field(min_length=1, max_length=8000, description="One SELECT with ? placeholders.")),
        params=(
            list[str | int | float | bool | None],
            Field(default_factory=list, max_length=100, description="Values for the ? placeholders, in order."),
        ),
    )
    return ToolSpec(TOOL_NAME, DESCRIPTION.format(max_rows=config.harness.mysql.max_rows), arguments)


_FAILURES = {
    "TIMEOUT": (
        TOOL_TIMEOUT,
        "The query exceeded its time limit; add a selective condition (e.g. order_id = ?) or narrow the time range.",
    ),
    "CANCELLED": (TOOL_CANCELLED, "The query was cancelled."),
    "UNAVAILABLE": (TOOL_UNAVAILABLE, "The database is unavailable right now; continue with other evidence."),
    "PERMISSION": (
        SQL_PERMISSION_DENIED,
        "The read-only account may not read this; query only the documented tables and columns.",
    ),
    "ERROR": (
        SQL_EXECUTION_ERROR,
        "The database could not run the query; check column names and value types against the data dictionary.",
    ),
}


class QueryMysqlTool:
    """Validates with the AST allowlist, then runs the regenerated SQL on the data source's own pool."""

    def __init__(self, config: AppConfig, clock: Clock | None = None) -> None:
        self._clock = clock
        self.spec = query_mysql_spec(config)
        self.projector = MysqlResultProjector(config.harness.mysql)
        self._budget: MysqlBudget = config.harness.mysql
        self._sources: dict[str, DataSourceSettings] = dict(config.harness.mysql_tools.data_sources)
        self._allowlists = {
            name: SqlAllowlist.from_settings(source, self._budget) for name, source in self._sources.items()
        }
        self._executors: dict[str, QueryExecutor] = {}
        self._lock = threading.Lock()
        self._calls: dict[str, QueryExecutor] = {}

    def run(self, call_id: str, arguments: dict[str, Any]) -> dict[str, Any]:
        name, sql, params = arguments["data_source"], arguments["sql"], arguments.get("params", [])
        try:
            query = validate_sql(sql, params, self._allowlists[name], self._budget.max_rows)
        except SqlRejected as rejected:
            return failure_raw(rejected.code, rejected.message)
        executor = self._executor(name)
        with self._lock:
            self._calls[call_id] = executor
        driver_sql = query.sqlite_sql if self._sources[name].driver == "sqlite" else query.pymysql_sql
        try:
            result = executor.execute(call_id, driver_sql, query.params, query.limit)
        except QueryFailed as failure:
            code, message = _FAILURES[failure.kind]
            return failure_raw(code, message, detail=failure.detail)
        finally:
            with self._lock:
                self._calls.pop(call_id, None)
        return {
            "data_source": name,
            "sql": query.sql,
            "params": list(query.params),
            "tables": list(query.tables),
            "limit": query.limit,
            "limit_is_cap": query.limit == self._budget.max_rows,
            "columns": result.columns,
            "rows": result.rows,
            "row_count": len(result.rows),
            "server": result.server,
            "duration_ms": result.duration_ms,
        }

    def cancel(self, call_id: str) -> None:
        with self._lock:
            executor = self._calls.get(call_id)
        if executor is not None:
            executor.cancel(call_id)

    def close(self) -> None:
        for executor in self._executors.values():
            executor.close()

    def _executor(self, name: str) -> QueryExecutor:
        with self._lock:
            if name not in self._executors:
                now = self._clock.now() if self._clock is not None else None
                self._executors[name] = build_executor(self._sources[name], self._budget, now)
            return self._executors[name]
