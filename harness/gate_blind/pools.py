"""Invented but realistic infrastructure names (services, hosts, IPs, tables, orders, topics, pods, people...).

``INFRA_MAKERS`` maps a slot name to a function of a seeded ``random.Random`` that draws one value.
"""

from __future__ import annotations

import random

from .render import Maker

SERVICES = (
    "order-service",
    "checkout-api",
    "payment-gateway",
    "inventory-svc",
    "user-center",
    "risk-engine",
    "coupon-svc",
    "search-api",
    "notify-svc",
    "settlement-job",
    "cart-svc",
    "logistics-api",
    "member-points",
    "pricing-svc",
    "refund-worker",
    "edge-gateway",
)
HOSTS = (
    "db-prod-03",
    "mysql-ro-2.prod.internal",
    "redis-cache-02",
    "kafka-b3.dc2",
    "node-17.k8s.sz",
    "es-data-05",
    "mq-node-4",
    "app-vm-112",
    "redis-sess-01.internal",
    "pg-main-1",
)
TABLES = (
    "t_order",
    "order_item",
    "payment_txn",
    "user_account",
    "inventory_sku",
    "coupon_record",
    "refund_apply",
    "shipment_track",
    "settle_detail",
)
TOPICS = ("order-events", "payment.callback", "inventory.changed", "user-signup", "refund.request", "coupon.issued")
GROUPS = ("settlement-consumer", "order-sync-cg", "risk-scorer", "search-indexer", "points-accrual")
PEOPLE = ("张伟", "李娜", "王磊", "刘洋", "陈静", "老赵", "小林", "Alice", "Bob Chen", "Priya", "Marco", "Kenji")
NAMESPACES = ("prod", "trade", "payment", "infra", "mall-prod")
FLAGS = ("new-checkout-flow", "coupon_v2_enabled", "async_settlement", "enable_price_cache", "risk_shadow_mode")
DATABASES = ("order_db", "pay_db", "user_db", "inventory_db", "coupon_db")
CLUSTERS = ("sz-b", "sh-a", "hk-1", "backup-cluster", "idc-2")
DASHBOARDS = ("Trade Overview", "JVM Overview", "MySQL RDS", "Kafka Lag", "Golden Signals", "Redis Cluster")
DB_HOSTS = ("db-prod-03", "mysql-ro-2.prod.internal", "pg-main-1", "rds-order-01.internal", "10.8.12.31")
REDIS_HOSTS = ("redis-cache-02", "redis-sess-01.internal", "redis-cluster-n3", "codis-proxy-1")
BROKERS = ("kafka-b1.dc2", "kafka-b3.dc2", "kafka-b5.dc1", "mq-kafka-02")
JOBS = ("settle-daily", "coupon-expire", "order-timeout-close", "report-export")
DB_USERS = ("app_rw", "report_ro", "order_app", "etl_user", "svc_pay")
COLUMNS = ("user_id", "created_at", "status", "merchant_id", "order_no")
KEY_PREFIXES = ("order:lock:", "sku:stock:", "session:", "cart:", "price:")
PATHS = ("/api/v1/orders", "/api/v2/checkout", "/actuator/health", "/internal/ping")
_POD_CHARS = "bcdfghjklmnpqrstvwxz2456789"


def _pick(values: tuple[str, ...]) -> Maker:
    return lambda rng: rng.choice(values)


def _time(rng: random.Random) -> str:
    return f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}"


def _window(rng: random.Random) -> str:
    start = rng.randint(0, 22) * 60 + rng.choice((0, 5, 10, 15, 20, 30, 40, 45, 50))
    end = start + rng.choice((15, 20, 30, 45, 60))
    return f"{start // 60:02d}:{start % 60:02d}-{end // 60:02d}:{end % 60:02d}"


def _pod(rng: random.Random) -> str:
    replica_set = "".join(rng.choice(_POD_CHARS) for _ in range(rng.choice((9, 10))))
    suffix = "".join(rng.choice(_POD_CHARS) for _ in range(5))
    return f"{rng.choice(SERVICES)}-{replica_set}-{suffix}"


def _order(rng: random.Random) -> str:
    day = rng.choice(("20240611", "20240612", "20240903", "20241111", "20250118"))
    return f"{rng.choice(('ORD', 'SO'))}{day}{rng.randint(100000, 999999)}"


def _version(rng: random.Random) -> str:
    return f"v{rng.randint(1, 4)}.{rng.randint(0, 24)}.{rng.randint(0, 12)}"


def _ip(rng: random.Random) -> str:
    return f"10.{rng.randint(1, 254)}.{rng.randint(0, 254)}.{rng.randint(2, 254)}"


def _number(low: int, high: int) -> Maker:
    return lambda rng: str(rng.randint(low, high))


INFRA_MAKERS: dict[str, Maker] = {
    "svc": _pick(SERVICES),
    "host": _pick(HOSTS),
    "rhost": _pick(REDIS_HOSTS),
    "dbhost": _pick(DB_HOSTS),
    "broker": _pick(BROKERS),
    "ip": _ip,
    "table": _pick(TABLES),
    "order": _order,
    "topic": _pick(TOPICS),
    "group": _pick(GROUPS),
    "pod": _pod,
    "ver": _version,
    "time": _time,
    "window": _window,
    "ticket": lambda rng: f"{rng.choice(('INC', 'OPS', 'SRE', 'CHG'))}-{rng.randint(1000, 9999)}",
    "person": _pick(PEOPLE),
    "ns": _pick(NAMESPACES),
    "flag": _pick(FLAGS),
    "cm": lambda rng: f"{rng.choice(SERVICES)}-config",
    "db": _pick(DATABASES),
    "cluster": _pick(CLUSTERS),
    "dash": _pick(DASHBOARDS),
    "runbook": lambda rng: f"RB-{rng.randint(100, 499)}",
    "job": _pick(JOBS),
    "dbuser": _pick(DB_USERS),
    "col": _pick(COLUMNS),
    "key": lambda rng: f"{rng.choice(KEY_PREFIXES)}{rng.randint(1000, 99999)}",
    "keyprefix": _pick(KEY_PREFIXES),
    "path": _pick(PATHS),
    "n": _number(2, 9),
    "ms": _pick(("300", "500", "800", "1500", "2000", "3000", "5000")),
    "pct": _pick(("5", "10", "15", "20", "30", "50")),
    "hi_pct": _number(86, 99),
    "tid": _number(10000, 999999),
    "uid": _number(100000, 99999999),
    "port": _pick(("8080", "8081", "9090", "8443", "7001")),
    "tokcount": _number(180, 9000),
}
