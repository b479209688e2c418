"""What one data source lets a query touch, and the query's tables, columns and functions resolved against it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from sqlglot import exp

from config.tool_budgets import DataSourceSettings, MysqlBudget
from tools.mysql import sql_rules as rules
from tools.mysql.sql_render import generate
from tools.mysql.sql_rules import SqlRejected
from tools.mysql.sql_walk import Walk


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
class _Source:
    """A table of the FROM/JOIN list: ``ref`` (alias, else table name) is what its columns are qualified with."""

    ref: str
    schema: str
    table: str
    columns: frozenset[str]
    aliased: bool


def resolve_tables(tables: list[exp.Table], allowlist: SqlAllowlist) -> list[_Source]:
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


def resolve_columns(walk: Walk, sources: list[_Source]) -> None:
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


def check_functions(functions: list[exp.Func], allowlist: SqlAllowlist) -> None:
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
        text = generate(node, "mysql")
    except SqlRejected:
        return ""
    head, paren, _ = text.partition("(")
    return head.upper() if paren and rules.is_plain_name(head) else ""
