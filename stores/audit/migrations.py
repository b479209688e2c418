"""Bringing a database's audit schema up to this version: create what is missing, add the columns a later
version added, refuse a schema that needs a migration by hand.

Safe to run from several processes at once (every supervisor of a pool does when it starts): a table, index or
column that another process created first is not an error.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, inspect
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.schema import CreateIndex, CreateTable, ExecutableDDLElement

from contract.vocabulary import HarnessError
from stores.audit.schema import METADATA, TABLES

ADDED_COLUMNS = frozenset(
    {
        ("agent_step", "attempt"),
        ("diagnosis_run", "released_content"),
        ("diagnosis_run", "cited_tool_calls"),
        ("diagnosis_run", "trace_id"),
    }
)
"""Nullable columns a later version added to an existing table: ``init_schema`` adds them (ALTER TABLE ADD
COLUMN); rows written before keep NULL there. Any other missing column needs a migration by hand."""


class AddColumn(ExecutableDDLElement):
    """``ALTER TABLE t ADD COLUMN c <type>`` for a nullable column of this schema."""

    def __init__(self, column: Column[Any]) -> None:
        self.column = column


@compiles(AddColumn)
def _compile_add_column(element: AddColumn, compiler: Any, **kw: Any) -> str:
    column = element.column
    return (
        f"ALTER TABLE {compiler.preparer.format_table(column.table)} "
        f"ADD COLUMN {compiler.get_column_specification(column)}"
    )


class AuditSchemaError(HarnessError):
    """The database holds an audit table that lacks columns this version writes: it needs a migration."""

    code = "AUDIT_SCHEMA_MISMATCH"


@dataclass(frozen=True)
class SchemaChanges:
    created_tables: tuple[str, ...]
    created_indexes: tuple[str, ...]
    added_columns: tuple[str, ...]


def init_schema(engine: Engine) -> SchemaChanges:
    """Create what is missing (tables, and indexes of existing tables); idempotent.

    It adds the nullable columns a later version added (``ADDED_COLUMNS``) and never alters an existing column: a
    table that lacks any other column this version writes raises ``AuditSchemaError`` and needs a migration
    (ALTER TABLE) first.
    """
    existing = set(inspect(engine).get_table_names())
    added_columns = tuple(
        f"{column.table.name}.{column.name}"
        for column in _addable_columns(engine, existing)
        if _create(engine, AddColumn(column), functools.partial(_has_column, engine, column))
    )
    created_tables = tuple(
        table.name
        for table in METADATA.sorted_tables
        if table.name not in existing
        and _create(engine, CreateTable(table), functools.partial(_has_table, engine, table.name))
    )
    created_indexes: list[str] = []
    for table in METADATA.sorted_tables:
        present_indexes = {index["name"] for index in inspect(engine).get_indexes(table.name)}
        for index in sorted(table.indexes, key=lambda index: str(index.name)):
            created = index.name not in present_indexes and _create(
                engine, CreateIndex(index), functools.partial(_has_index, engine, table.name, str(index.name))
            )
            if created and table.name not in created_tables:
                created_indexes.append(str(index.name))
    return SchemaChanges(created_tables, tuple(created_indexes), added_columns)


def missing_tables(engine: Engine) -> list[str]:
    """The audit tables the database lacks (all of them before ``init_schema``)."""
    present = set(inspect(engine).get_table_names())
    return [name for name in TABLES if name not in present]


def _addable_columns(engine: Engine, existing: set[str]) -> list[Column[Any]]:
    """The ``ADDED_COLUMNS`` the existing tables lack; raises ``AuditSchemaError`` if they lack any other."""
    inspector = inspect(engine)
    missing_columns: list[str] = []
    addable: list[Column[Any]] = []
    for table in METADATA.tables.values():
        if table.name in existing:
            present = {column["name"] for column in inspector.get_columns(table.name)}
            for column in table.columns:
                if column.name in present:
                    continue
                if (table.name, column.name) in ADDED_COLUMNS:
                    addable.append(column)
                else:
                    missing_columns.append(f"{table.name}.{column.name}")
    if missing_columns:
        raise AuditSchemaError(
            "the audit schema is older than this version (missing "
            + ", ".join(missing_columns)
            + "): migrate it with ALTER TABLE"
        )
    return addable


def _create(engine: Engine, statement: ExecutableDDLElement, exists: Callable[[], bool]) -> bool:
    """Run one CREATE: True if it created the object, False if another process had just created it."""
    try:
        with engine.begin() as connection:
            connection.execute(statement)
    except DBAPIError:
        if exists():
            return False
        raise
    return True


def _has_table(engine: Engine, table_name: str) -> bool:
    return table_name in inspect(engine).get_table_names()


def _has_column(engine: Engine, column: Column[Any]) -> bool:
    return column.name in {found["name"] for found in inspect(engine).get_columns(column.table.name)}


def _has_index(engine: Engine, table_name: str, index_name: str) -> bool:
    return index_name in {index["name"] for index in inspect(engine).get_indexes(table_name)}
