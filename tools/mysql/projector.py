"""``MysqlResultProjector``: rows -> the bounded §9.4 envelope (rows, cells, bytes capped; sensitive masked)."""

from __future__ import annotations

import json
from typing import Any

from config.tool_budgets import MysqlBudget
from contract.secrets import redact
from contract.tool import (
    PROJECTION_FAILED,
    RAW_RESULT_TOO_LARGE,
    SAFE_MESSAGES,
    Projection,
    clip,
    error_projection,
    failure_of,
)
from contract.vocabulary import EvidenceStatus

MASK = "***"


class MysqlResultProjector:
    def __init__(self, budget: MysqlBudget) -> None:
        self._budget = budget
        self._masked = frozenset(name.lower() for name in budget.masked_columns)

    def project(self, tool_call_id: str, arguments: dict[str, Any], raw: dict[str, Any]) -> Projection:
        failure = failure_of(raw)
        if failure is not None:
            return error_projection(tool_call_id, *failure)
        try:
            return self._project(tool_call_id, raw)
        except (KeyError, TypeError, ValueError, AttributeError):
            return error_projection(tool_call_id, PROJECTION_FAILED, SAFE_MESSAGES[PROJECTION_FAILED])

    def _project(self, tool_call_id: str, raw: dict[str, Any]) -> Projection:
        columns = [str(column) for column in raw["columns"]]
        rows = raw["rows"]
        if not isinstance(rows, list) or any(len(row) != len(columns) for row in rows):
            raise ValueError("rows do not match columns")
        truncated = bool(raw["limit_is_cap"]) and len(rows) >= int(raw["limit"])
        if len(rows) > self._budget.max_rows:
            rows, truncated = rows[: self._budget.max_rows], True
        clipped_columns: set[str] = set()
        projected: list[dict[str, Any]] = []
        used = 0
        for row in rows:
            record = {
                column: self._cell(column, value, clipped_columns) for column, value in zip(columns, row, strict=True)
            }
            size = len(json.dumps(record, ensure_ascii=False).encode())
            if used + size > self._budget.max_total_bytes:
                truncated = True
                break
            used += size
            projected.append(record)
        if rows and not projected:
            return error_projection(
                tool_call_id,
                RAW_RESULT_TOO_LARGE,
                "A single row is larger than the result budget; select fewer columns.",
            )
        params = [redact(value)[0] if isinstance(value, str) else value for value in raw["params"]]
        found = EvidenceStatus.EVIDENCE_FOUND if projected else EvidenceStatus.NO_EVIDENCE
        agent_result: dict[str, Any] = {
            "evidence_status": found.value,
            "tool_call_id": tool_call_id,
            "scope": {
                "data_source": str(raw["data_source"]),
                "tables": [str(table) for table in raw.get("tables", [])],
                "sql": str(raw["sql"]),
                "params": params,
            },
            "columns": columns,
            "rows": projected,
            "returned_count": len(projected),
            "truncated": truncated or bool(clipped_columns),
        }
        if clipped_columns:
            agent_result["truncated_columns"] = sorted(clipped_columns)
        return Projection(agent_result, found)

    def _cell(self, column: str, value: Any, clipped_columns: set[str]) -> Any:
        if value is None or isinstance(value, bool | int | float):
            return MASK if value is not None and column.lower() in self._masked else value
        if column.lower() in self._masked:
            return MASK
        text, _ = redact(str(value))
        text, cut = clip(text, self._budget.max_cell_chars)
        if cut:
            clipped_columns.add(column)
        return text
