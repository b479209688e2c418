"""The demo systems' vocabulary (services, tables, channels, hosts) and seeded helpers for realistic values."""

from __future__ import annotations

import base64
import random
import re
import string

SERVICES = ("order-service", "payment-service", "refund-service", "user-service", "inventory-service", "api-gateway")
JAVA_SERVICES = ("order-service", "payment-service", "refund-service")
CHANNELS = ("ALIPAY", "WECHAT", "CARD")
ERROR_CODES = ("ERR_TIMEOUT", "ERR_CHANNEL_TIMEOUT", "ERR_POOL_EXHAUSTED", "ERR_RATE_LIMITED", "ERR_DUPLICATE_PAYMENT",
               "ERR_SIGNATURE_INVALID", "ERR_REFUND_DUPLICATE", "ERR_ORDER_STATUS_INVALID")
NAMESPACES = ("prod", "trade", "payment")
NODES = ("ip-10-2-3-41.internal", "worker-07", "node-10-8-6-107", "k8s-prod-node-12")
DB_HOSTS = ("order-db-primary", "order-db-ro", "db-1", "order-db.internal", "10.0.3.17")
DB_USERS = ("order_app", "ro_user", "dba_admin", "root", "app", "refund_app")
REDIS_HOSTS = ("redis-cluster", "cache", "redis-cluster-0.redis", "10.0.5.21")

ALNUM = string.ascii_letters + string.digits
UPPER_ALNUM = string.ascii_uppercase + string.digits
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"
BASE32 = string.ascii_uppercase + "234567"

_WORDS = ("Sup3r", "Ord3r", "Paym3nt", "Hik4ri", "Tr4de", "Refund", "W1nter", "Qw3rty", "M0ney", "Dba", "Kaf4a")
_TAILS = ("S3cret", "Db", "Pass", "Prod", "Admin", "Key", "Vault")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def chars(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def order_id(rng: random.Random) -> str:
    return f"order-{rng.randint(100, 99999)}"


def pod_name(rng: random.Random, service: str) -> str:
    return f"{service}-{chars(rng, '56789bcdf', 9)}-{chars(rng, 'bcdfghjklmnpqrstvwxz2456789', 5)}"


def fills(rng: random.Random) -> dict[str, str]:
    """One consistent set of placeholder values: a service, an order, a channel, sizes and a pod of that service."""
    service = rng.choice(SERVICES)
    return {
        "svc": service,
        "jsvc": rng.choice(JAVA_SERVICES),
        "order": order_id(rng),
        "channel": rng.choice(CHANNELS),
        "code": rng.choice(ERROR_CODES),
        "n": str(rng.choice((4, 6, 8, 10, 12))),
        "pool": str(rng.choice((80, 100, 120, 150))),
        "qps": str(rng.choice((100, 200, 300, 500))),
        "minutes": str(rng.choice((15, 30, 60))),
        "ns": rng.choice(NAMESPACES),
        "node": rng.choice(NODES),
        "pod": pod_name(rng, service),
        "host": rng.choice(DB_HOSTS),
        "user": rng.choice(DB_USERS),
        "redis": rng.choice(REDIS_HOSTS),
        "session": str(rng.randint(1000, 99999)),
        "uid": f"u-{rng.randint(10000, 39999)}",
    }


def fill(template: str, rng: random.Random) -> str:
    """Replace the known ``{name}`` placeholders; every other brace (JSON, curl formats) is left as written."""
    values = fills(rng)
    return _PLACEHOLDER.sub(lambda match: values.get(match.group(1), match.group(0)), template)


def password(rng: random.Random, url_safe: bool = False) -> str:
    """A password as people choose them: words with digits and symbols, or a generated string."""
    symbols = "-_." if url_safe else "!#$%&*-_."
    style = rng.randrange(3)
    if style == 0:
        return rng.choice(_WORDS) + rng.choice(symbols) + rng.choice(_TAILS) + str(rng.randint(10, 2099))
    if style == 1:
        return chars(rng, ALNUM, 6) + rng.choice(symbols) + chars(rng, ALNUM, 7) + str(rng.randint(2, 9))
    return rng.choice(_WORDS) + str(rng.randint(1000, 9999)) + rng.choice(symbols) + rng.choice(_TAILS)


def b64(data: str, url: bool = False) -> str:
    raw = data.encode()
    return (base64.urlsafe_b64encode(raw).decode().rstrip("=") if url else base64.b64encode(raw).decode())


def uuid4(rng: random.Random) -> str:
    h = chars(rng, HEX, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{rng.choice('89ab')}{h[17:20]}-{h[20:]}"
