"""The demo ``order_db``: the same rows for the embedded SQLite copy and for a MariaDB/MySQL script.

Timestamps are relative to *now*, like the mock logs, so "the last 30 minutes" tells the same story in
both: order-123 and a cluster of other orders were created while order-service's connection pool was
exhausted, and the timeout compensator closed them as TIMEOUT 15 minutes later; earlier orders paid
normally. The tables hold more columns than the allowlist exposes (``amount``, ``phone``, ``error_code``):
the allowlist hides them, a realistic case.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

SCHEMA = "order_db"

TABLES = (
    """CREATE TABLE biz_order (
  order_id VARCHAR(64) NOT NULL PRIMARY KEY,
  user_id VARCHAR(64) NOT NULL,
  payment_status VARCHAR(16) NOT NULL,
  amount DECIMAL(12, 2) NOT NULL,
  phone VARCHAR(32),
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL
)""",
    """CREATE TABLE payment_record (
  payment_id VARCHAR(64) NOT NULL PRIMARY KEY,
  order_id VARCHAR(64) NOT NULL,
  channel VARCHAR(16) NOT NULL,
  status VARCHAR(16) NOT NULL,
  error_code VARCHAR(32),
  created_at DATETIME NOT NULL,
  updated_at DATETIME NOT NULL
)""",
    "CREATE INDEX idx_payment_record_order ON payment_record (order_id)",
    "CREATE INDEX idx_biz_order_updated ON biz_order (updated_at)",
)

COMPENSATION_AFTER_MIN = 15
"""order-service's ``payment-timeout-compensator`` closes a payment still INIT this many minutes after it was
created (the bundled payment-system overview says so): every TIMEOUT row was updated exactly then, and a
payment younger than that is still INIT."""

_TIMED_OUT = [
    # order_id, user, minutes ago created, channel
    ("order-123", "u-1001", 26, "ALIPAY"),
    ("order-4711", "u-2042", 24, "WECHAT"),
    ("order-4718", "u-2077", 21, "ALIPAY"),
    ("order-4725", "u-3101", 19, "CARD"),
    ("order-4730", "u-3150", 17, "WECHAT"),
    ("order-4733", "u-3188", 16, "ALIPAY"),
]
_PAID = [(f"order-{4600 + i}", f"u-{1200 + i}", 40 + 7 * i, ("ALIPAY", "WECHAT", "CARD")[i % 3]) for i in range(12)]
_PENDING = [("order-4735", "u-3190", 4, "ALIPAY")]


def _stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S")


def demo_rows(now: datetime) -> dict[str, list[tuple[object, ...]]]:
    """Rows of each table, timestamps as ``YYYY-MM-DD HH:MM:SS`` in UTC, relative to ``now``."""
    orders: list[tuple[object, ...]] = []
    payments: list[tuple[object, ...]] = []
    for i, (order_id, user, ago, channel) in enumerate(_TIMED_OUT):
        created, gave_up = now - timedelta(minutes=ago), now - timedelta(minutes=ago - COMPENSATION_AFTER_MIN)
        orders.append(
            (order_id, user, "TIMEOUT", f"{88 + 11 * i}.00", f"1380013{i:04d}", _stamp(created), _stamp(gave_up))
        )
        payments.append(
            (f"pay-{order_id[6:]}", order_id, channel, "TIMEOUT", "ERR_TIMEOUT", _stamp(created), _stamp(gave_up))
        )
    for i, (order_id, user, ago, channel) in enumerate(_PAID):
        created, paid = now - timedelta(minutes=ago), now - timedelta(minutes=ago, seconds=-3)
        orders.append((order_id, user, "PAID", f"{59 + 5 * i}.90", f"1390013{i:04d}", _stamp(created), _stamp(paid)))
        payments.append((f"pay-{order_id[6:]}", order_id, channel, "SUCCESS", None, _stamp(created), _stamp(paid)))
    for order_id, user, ago, channel in _PENDING:
        created = _stamp(now - timedelta(minutes=ago))
        orders.append((order_id, user, "PENDING", "42.00", "13700000000", created, created))
        payments.append((f"pay-{order_id[6:]}", order_id, channel, "INIT", None, created, created))
    return {"biz_order": orders, "payment_record": payments}


def _literal(value: object) -> str:
    if value is None:
        return "NULL"
    return "'" + str(value).replace("\\", "\\\\").replace("'", "''") + "'"


def insert_statements(now: datetime) -> Iterator[str]:
    for table, rows in demo_rows(now).items():
        values = ",\n  ".join("(" + ", ".join(_literal(v) for v in row) + ")" for row in rows)
        yield f"INSERT INTO {table} VALUES\n  {values}"


def mysql_script(now: datetime) -> str:
    """A script that (re)creates ``order_db`` with the demo rows on MariaDB/MySQL."""
    statements = [
        f"CREATE DATABASE IF NOT EXISTS {SCHEMA} CHARACTER SET utf8mb4",
        f"USE {SCHEMA}",
        "DROP TABLE IF EXISTS payment_record",
        "DROP TABLE IF EXISTS biz_order",
        *TABLES,
        *insert_statements(now),
    ]
    return ";\n".join(statements) + ";\n"
