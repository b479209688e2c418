"""``order_db``: the private MariaDB holding the demo order_db, a large slow_db, and a SELECT-only account."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime

import pytest

from config.app import AppConfig
from config.loader import parse_config
from tests.services import MariaDBServer
from tools.mysql.demo_db import mysql_script

READONLY_USER, READONLY_PASSWORD = "superbiz_ro", "ro-test-password"
ALLOWED = {
    "biz_order": ("order_id", "user_id", "payment_status", "created_at", "updated_at"),
    "payment_record": ("payment_id", "order_id", "channel", "status", "created_at", "updated_at"),
}
SLOW_ROWS = 12000


@dataclass(frozen=True)
class OrderDb:
    server: MariaDBServer

    def config(
        self,
        database: str = "order_db",
        user: str = READONLY_USER,
        password: str = READONLY_PASSWORD,
        timeout: str = "5s",
    ) -> AppConfig:
        text = textwrap.dedent(
            f"""
            harness:
              mysql:
                query-timeout: {timeout}
              mysql-tools:
                data-sources:
                  order_readonly:
                    driver: mysql
                    jdbc-url: ${{ORDER_MYSQL_JDBC_URL}}
                    username: ${{ORDER_MYSQL_USERNAME}}
                    password: ${{ORDER_MYSQL_PASSWORD}}
                    default-schema: {database}
                    allowed-schemas:
                      {database}:
                        tables:
                          biz_order:
                            columns: [{", ".join(ALLOWED["biz_order"])}]
                          payment_record:
                            columns: [{", ".join(ALLOWED["payment_record"])}]
            """
        )
        environ = {
            "ORDER_MYSQL_JDBC_URL": f"jdbc:mariadb://127.0.0.1:{self.server.port}/{database}",
            "ORDER_MYSQL_USERNAME": user,
            "ORDER_MYSQL_PASSWORD": password,
        }
        return parse_config(text, environ)

    def running_queries(self, fragment: str) -> list[str]:
        with self.server.connect() as connection, connection.cursor() as cursor:
            cursor.execute("SELECT INFO FROM information_schema.PROCESSLIST WHERE INFO IS NOT NULL")
            return [row[0] for row in cursor.fetchall() if fragment in row[0] and "PROCESSLIST" not in row[0]]


def seed_order_db(server: MariaDBServer) -> OrderDb:
    """Load the demo order_db, a large slow_db and the SELECT-only account into ``server`` (idempotent)."""
    script = mysql_script(datetime.now(UTC))
    with server.connect() as connection, connection.cursor() as cursor:
        for statement in filter(None, (part.strip() for part in script.split(";\n"))):
            cursor.execute(statement)
        cursor.execute("DROP DATABASE IF EXISTS slow_db")
        cursor.execute("CREATE DATABASE slow_db")
        for table in ALLOWED:
            cursor.execute(f"CREATE TABLE slow_db.{table} LIKE order_db.{table}")
        cursor.execute(
            "INSERT INTO slow_db.biz_order SELECT CONCAT('gen-', seq), CONCAT('u-', seq MOD 97), 'PAID', 1.00, NULL, "
            f"NOW(), NOW() FROM seq_1_to_{SLOW_ROWS}"
        )
        cursor.execute(
            "INSERT INTO slow_db.payment_record SELECT CONCAT('p-', seq), CONCAT('gen-', seq), 'CARD', 'SUCCESS', "
            f"NULL, NOW(), NOW() FROM seq_1_to_{SLOW_ROWS}"
        )
        cursor.execute(f"DROP USER IF EXISTS '{READONLY_USER}'@'127.0.0.1'")
        cursor.execute(f"CREATE USER '{READONLY_USER}'@'127.0.0.1' IDENTIFIED BY '{READONLY_PASSWORD}'")
        for database in ("order_db", "slow_db"):
            for table, columns in ALLOWED.items():
                cursor.execute(
                    f"GRANT SELECT ({', '.join(columns)}) ON {database}.{table} TO '{READONLY_USER}'@'127.0.0.1'"
                )
    return OrderDb(server)


@pytest.fixture(scope="session")
def order_db(mariadb_server: MariaDBServer) -> Iterator[OrderDb]:
    yield seed_order_db(mariadb_server)
