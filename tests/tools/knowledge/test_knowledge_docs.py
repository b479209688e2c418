"""The bundled knowledge base is consistent with the configuration a demo runs with.

The data dictionary names exactly the allowlisted columns; every SQL example is a parameterised SELECT over
allowlisted tables and columns that the SQL validator accepts (so an agent that copies one is not rejected);
every error code the documents mention is defined in the error-code reference; the one prompt-injection line
is where the tests expect it.
"""

from __future__ import annotations

import re

import pytest
import sqlglot
from sqlglot import exp

from config.loader import load_config
from tools.knowledge.chunks import split_sections
from tools.knowledge.tool import BUNDLED_DOCS
from tools.mysql.sql_allowlist import SqlAllowlist
from tools.mysql.sql_validator import validate_sql

DOCS = {path.name: path.read_text(encoding="utf-8") for path in sorted(BUNDLED_DOCS.glob("*.md"))}
SQL_BLOCK = re.compile(r"```sql\n(.*?)\n```", re.DOTALL)
ERROR_CODE = re.compile(r"\bERR_[A-Z_]+\b")


def allowlist() -> dict[str, set[str]]:
    source = load_config(None, {}).harness.mysql_tools.data_sources["order_readonly"]
    tables = source.allowed_schemas[source.default_schema].tables
    return {name: set(table.columns) for name, table in tables.items()}


def first_table_keys(markdown: str) -> set[str]:
    """The first column of the first markdown table in ``markdown`` (header and rule excluded)."""
    lines = markdown.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append(line.split("|")[1].strip())
    return set(rows)


def test_the_data_dictionary_lists_exactly_the_allowlisted_columns() -> None:
    sections = {
        c.document_id: c.text
        for c in split_sections("order-db-data-dictionary.md", DOCS["order-db-data-dictionary.md"])
    }
    tables = {
        "biz_order": sections["order-db-data-dictionary#21-biz_order订单表"],
        "payment_record": sections["order-db-data-dictionary#22-payment_record支付单表"],
    }
    listed = {name: first_table_keys(text) for name, text in tables.items()}
    assert listed == allowlist()


SQL_EXAMPLES = [(name, sql) for name, text in DOCS.items() for sql in SQL_BLOCK.findall(text)]


def test_there_are_sql_examples() -> None:
    assert len(SQL_EXAMPLES) >= 5


@pytest.mark.parametrize(("document", "sql"), SQL_EXAMPLES)
def test_sql_examples_are_parameterised_selects_over_allowlisted_columns(document: str, sql: str) -> None:
    allowed = allowlist()
    tree = sqlglot.parse_one(sql, read="mysql")
    assert isinstance(tree, exp.Select)
    assert "?" in sql and not list(tree.find_all(exp.Star))
    aliases = {table.alias_or_name: table.name for table in tree.find_all(exp.Table)}
    assert set(aliases.values()) <= set(allowed)
    for column in tree.find_all(exp.Column):
        tables = [aliases[column.table]] if column.table else list(aliases.values())
        assert any(column.name in allowed[table] for table in tables), (document, column.sql())
    config = load_config(None, {}).harness
    source = config.mysql_tools.data_sources["order_readonly"]
    params = ["x"] * len(list(tree.find_all(exp.Placeholder)))
    validate_sql(sql, params, SqlAllowlist.from_settings(source, config.mysql), config.mysql.max_rows)


def test_every_error_code_mentioned_is_defined() -> None:
    defined = set(re.findall(r"^### (ERR_[A-Z_]+)$", DOCS["error-codes.md"], re.MULTILINE))
    mentioned = {code for text in DOCS.values() for code in ERROR_CODE.findall(text)}
    assert {"ERR_TIMEOUT", "ERR_POOL_EXHAUSTED", "ERR_CHANNEL_DECLINED", "ERR_REFUND_DUPLICATE"} <= defined
    assert mentioned == defined


def test_exactly_one_document_carries_the_injection_line() -> None:
    carriers = [name for name, text in DOCS.items() if "忽略之前的所有指令" in text]
    assert carriers == ["refund-service-runbook.md"]
