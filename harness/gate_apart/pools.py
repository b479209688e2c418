"""Slot pools of the apart corpus: hosts, users, services, labels, and credential values of many shapes.

Every value a ``*_value`` function returns is a plausible value a human or a system would set (never a
placeholder, a mask or a reference to where a value is stored); the ``NOT_VALUES`` pool holds those instead.
"""

from __future__ import annotations

import random
import string
from typing import TypeVar

HOSTS = [
    "order-db-1",
    "order-db-2.prod.internal",
    "pay-mysql-0",
    "10.20.3.41",
    "inventory-db.svc.cluster.local",
    "mysql-ro.order.svc",
    "172.16.8.23",
    "user-center-db",
]
REDIS_HOSTS = ["redis-cache-2", "redis-session-0.redis", "10.20.5.12", "cache-order.svc"]
DB_USERS = ["app_ro", "order_rw", "pay_svc", "report_ro", "checkout", "dba_ops", "grafana_reader", "inv_writer"]
SERVICES = [
    "order-service",
    "payment-gateway",
    "checkout-api",
    "inventory-service",
    "user-center",
    "coupon-svc",
    "notify-worker",
    "search-api",
]
NODES = ["node-5", "node-12", "k8s-worker-03", "ip-10-0-4-17", "node-a7", "gpu-node-2"]
NAMESPACES = ["order", "payment", "prod", "checkout", "default"]
ORDERS = ["order-123", "order-88231", "ORD-20240611-0042", "order-5567", "PO-771203"]
TIMES = ["19:02", "02:15", "10:47", "21:30", "08:05", "14:20", "23:58", "03:40"]
IPS = ["203.0.113.45", "198.51.100.7", "45.77.12.9", "103.21.244.18"]
TABLES = ["orders", "payments", "order_items", "inventory", "coupons", "refunds"]

ZH_PASSWORD_LABELS = ["密码", "口令", "登录密码", "数据库密码", "账号密码", "root 密码", "临时密码"]
EN_PASSWORD_LABELS = ["password", "Password", "passwd", "pwd", "db password", "admin password", "login password"]
ZH_TOKEN_LABELS = ["令牌", "访问令牌", "API 密钥", "密钥", "凭据", "token", "接口密钥"]
EN_TOKEN_LABELS = [
    "token",
    "api key",
    "API key",
    "access token",
    "secret",
    "client secret",
    "auth token",
    "bearer token",
]
CONFIG_KEYS = [
    "password",
    "db_password",
    "DB_PASSWORD",
    "MYSQL_PASSWORD",
    "redis_password",
    "api_key",
    "API_TOKEN",
    "secret_key",
    "client_secret",
    "access_token",
    "auth_token",
    "passwd",
]

WORDS = [
    "amber",
    "river",
    "lantern",
    "copper",
    "willow",
    "sundae",
    "otter",
    "pancake",
    "marble",
    "stork",
    "window",
    "velvet",
    "canyon",
    "orbit",
    "maple",
    "hazel",
    "comet",
    "sprout",
    "quiet",
    "harbor",
    "sundial",
    "frost",
    "pebble",
    "tangerine",
    "moonlit",
    "ferry",
    "silver",
    "tulip",
    "badger",
    "cobalt",
    "meadow",
    "violin",
    "saffron",
    "glacier",
    "pepper",
    "walnut",
    "thistle",
    "ember",
    "juniper",
    "falcon",
    "nectar",
    "quartz",
    "rustic",
    "tundra",
    "zephyr",
    "cinder",
    "dapple",
    "orchid",
    "plume",
    "raven",
    "summit",
    "yonder",
]
NUMBER_WORDS = ["forty", "ninety", "seven", "twelve", "eleven", "sixty"]

NOT_VALUES = [
    "${DB_PASSWORD}",
    "[REDACTED]",
    "******",
    "<redacted>",
    "{{ .Values.db.password }}",
    "${REDIS_PASSWORD:?unset}",
    "(hidden)",
    "***",
    "<your-password>",
    "${{ secrets.DB_PASSWORD }}",
    "vault:secret/data/order-db#password",
    "[FILTERED]",
]


T = TypeVar("T")


def pick(rng: random.Random, pool: list[T]) -> T:
    """One element of ``pool``."""
    return pool[rng.randrange(len(pool))]


def letters_value(rng: random.Random) -> str:
    """A letters-only value made of three or four joined words, e.g. ``copperwillowsundae``."""
    return "".join(rng.sample(WORDS, rng.choice([3, 3, 4])))


def passphrase_value(rng: random.Random) -> str:
    """A passphrase of four words separated by spaces, sometimes ending with a number word."""
    words = rng.sample(WORDS, 4)
    if rng.random() < 0.3:
        words[-1] = pick(rng, NUMBER_WORDS)
    return " ".join(words)


def hyphen_value(rng: random.Random) -> str:
    """Words joined by hyphens with a two-digit tail, e.g. ``tulip-orbit-canyon-47``."""
    return "-".join(rng.sample(WORDS, 3)) + f"-{rng.randrange(10, 100)}"


def digits_value(rng: random.Random) -> str:
    """Six to ten digits, the first not zero."""
    length = rng.randint(6, 10)
    return str(rng.randint(1, 9)) + "".join(rng.choice(string.digits) for _ in range(length - 1))


def mixed_value(rng: random.Random, length: int | None = None) -> str:
    """Letters of both cases and digits, 12 to 18 long, with at least one of each kind."""
    length = length or rng.randint(12, 18)
    chars = [rng.choice(string.ascii_uppercase), rng.choice(string.ascii_lowercase), rng.choice(string.digits)]
    chars += [rng.choice(string.ascii_letters + string.digits) for _ in range(length - 3)]
    rng.shuffle(chars)
    return "".join(chars)


def signed_value(rng: random.Random) -> str:
    """A mixed value holding signs that need no quoting in a shell word or a YAML plain scalar."""
    base = list(mixed_value(rng, rng.randint(10, 14)))
    for _ in range(2):
        base.insert(rng.randrange(1, len(base)), rng.choice("@%^_+=.~"))
    return "".join(base)


def hex_value(rng: random.Random, length: int = 32) -> str:
    """Lower-case hex, as an API token often is."""
    return "".join(rng.choice("0123456789abcdef") for _ in range(length))


def password_value(rng: random.Random) -> tuple[str, str]:
    """A password-like value of a random shape, and the shape's name."""
    kind = rng.choice(["letters", "passphrase", "digits", "mixed", "signed", "hyphen"])
    maker = {
        "letters": letters_value,
        "passphrase": passphrase_value,
        "digits": digits_value,
        "mixed": mixed_value,
        "signed": signed_value,
        "hyphen": hyphen_value,
    }[kind]
    return maker(rng), kind


def word_value(rng: random.Random) -> tuple[str, str]:
    """Like ``password_value`` but never with spaces, for slots that end at white space."""
    value, kind = password_value(rng)
    if " " in value:
        return letters_value(rng), "letters"
    return value, kind


def token_value(rng: random.Random) -> tuple[str, str]:
    """A token-like value of a random shape, and the shape's name."""
    kind = rng.choice(["hex", "mixed", "provider", "jwt"])
    if kind == "hex":
        return hex_value(rng, rng.choice([32, 40])), kind
    if kind == "mixed":
        return mixed_value(rng, rng.randint(20, 28)), kind
    if kind == "provider":
        prefix = rng.choice(["sk-proj-", "sk_live_", "ghp_", "glpat-", "xoxb-"])
        return prefix + mixed_value(rng, 28), kind
    head = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
    return f"{head}.eyJ{mixed_value(rng, 30)}.{mixed_value(rng, 28)}", kind
