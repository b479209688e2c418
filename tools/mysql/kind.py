"""``query_mysql`` as an evidence kind: rows as evidence, the data source, tables and SQL as scope."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, StrictInt

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


def evidence(result: MysqlResult, found: bool) -> list[dict[str, Any]]:
    return [
        {
            "source_type": SOURCE_TYPE,
            "source": result.scope.data_source,
            "scope": scope(result).queried,
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
    build=lambda config, clock: QueryMysqlTool(config),
    result=MysqlResult,
    evidence=evidence,
    scope=scope,
    cite=cite,
    available=lambda config: bool(config.harness.mysql_tools.data_sources),
)
