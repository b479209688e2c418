"""The bundled mock dataset: exactly what its generator produces, well-formed, and covering the story."""

from __future__ import annotations

import json
import re
from pathlib import Path

import sqlglot
from sqlglot import exp

from config.loader import BUNDLED_DEFAULT, parse_config
from tests.tools.logs.mock_logs_dataset import SEEDED_SECRETS, build_lines
from tools.logs.source import BUNDLED_DATASET, LogTopic

DICTIONARY = Path("tools/knowledge/docs/order-db-data-dictionary.md")


def test_committed_dataset_is_the_generator_output() -> None:
    assert BUNDLED_DATASET.read_text(encoding="utf-8") == "\n".join(build_lines()) + "\n"


def test_generator_is_deterministic() -> None:
    assert build_lines() == build_lines()


def test_dataset_shape_and_time_coverage() -> None:
    rows = [json.loads(line) for line in BUNDLED_DATASET.read_text(encoding="utf-8").splitlines()]
    assert 300 <= len(rows) <= 1000
    for row in rows:
        assert list(row) == ["seconds_ago", "topic", "service", "level", "message"]
        assert LogTopic(row["topic"]) and row["seconds_ago"] >= 1
    ages = [row["seconds_ago"] for row in rows]
    assert ages == sorted(ages, reverse=True)  # oldest first
    assert sum(age <= 1_800 for age in ages) > 100
    assert sum(1_800 < age <= 86_400 for age in ages) > 100
    assert any(age > 86_400 for age in ages)
    assert {row["topic"] for row in rows} == {topic.value for topic in LogTopic}
    services = {row["service"] for row in rows}
    assert {"order-service", "payment-service", "refund-service", "user-service", "api-gateway", "order_db"} <= services


def test_every_seeded_secret_is_in_the_dataset() -> None:
    text = BUNDLED_DATASET.read_text(encoding="utf-8")
    assert [secret for secret in SEEDED_SECRETS if secret not in text] == []


def test_the_slow_order_db_statements_use_only_the_columns_the_dictionary_and_the_allowlist_list() -> None:
    allowlist = parse_config(BUNDLED_DEFAULT.read_text(), {}).harness.mysql_tools.data_sources["order_readonly"]
    tables = {name: set(spec.columns) for name, spec in allowlist.allowed_schemas["order_db"].tables.items()}
    dictionary = DICTIONARY.read_text(encoding="utf-8")
    fields = r"^### 2\.\d (\w+)[^\n]*\n.*?^\| 字段 \| 含义 \|\n\| --- \| --- \|\n(.*?)\n\n"
    listed = {
        table: set(re.findall(r"^\| (\w+) \|", rows, re.MULTILINE))
        for table, rows in re.findall(fields, dictionary, re.MULTILINE | re.DOTALL)
    }
    assert listed == tables  # the dictionary lists exactly the allowlist
    rows = [json.loads(line) for line in BUNDLED_DATASET.read_text(encoding="utf-8").splitlines()]
    statements = [row["message"].split(" sql=", 1)[1] for row in rows if row["service"] == "order_db"]
    assert len(statements) >= 8
    for sql in statements:
        tree = sqlglot.parse_one(sql, read="mysql")
        used = {table.name for table in tree.find_all(exp.Table)}
        assert used and used <= set(tables), sql
        columns = {column.name for column in tree.find_all(exp.Column)}
        assert columns and columns <= set.union(*(tables[name] for name in used)), sql
