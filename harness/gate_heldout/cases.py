"""The held-out case type, the shared slot fillers and the seeded expansion of templates into cases.

A template is model-style text with ``{slot}`` markers (lower-case names only, so JSON braces, ``${ENV}``
references and Helm ``{{ .Values }}`` expressions are left alone). Each template is rendered a few times with
seeded fillers; a rendering that repeats an earlier text is skipped, so the output never holds a duplicate.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple


@dataclass(frozen=True)
class HeldoutCase:
    text: str
    violation: bool  # True: the rule must refuse it
    shape: str  # short stable family label
    surface: str


class Base(NamedTuple):
    """One template: its family, its label, its surface (``None``: picked per rendering) and its text."""

    shape: str
    violation: bool
    surface: str | None
    template: str


Key = tuple[str, bool, str | None]
"""A family's shape, its label and its surface (``None``: picked per rendering)."""

Lookup = Callable[[str], str]
Filler = Callable[[random.Random, Lookup], str]

SLOT = re.compile(r"\{([a-z][a-z0-9_]*)\}")


def table(families: Mapping[Key, Sequence[str]]) -> list[Base]:
    """Flatten a family table into templates, in table order."""
    return [Base(*key, template) for key, templates in families.items() for template in templates]


def _pick(*options: str) -> Filler:
    return lambda rng, _get: rng.choice(options)


def _other(slot: str, *options: str) -> Filler:
    """A value different from the one already chosen for ``slot`` in the same rendering."""
    return lambda rng, get: rng.choice([option for option in options if option != get(slot)])


def _clock(rng: random.Random) -> str:
    return f"{rng.randrange(24):02d}:{rng.randrange(60):02d}"


def _later(rng: random.Random, get: Lookup) -> str:
    hour, minute = (int(part) for part in get("t").split(":"))
    total = min(hour * 60 + minute + rng.randrange(10, 50), 23 * 60 + 59)
    return f"{total // 60:02d}:{total % 60:02d}"


def _alnum(rng: random.Random, size: int) -> str:
    return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(size))


SERVICES = (
    "order-service",
    "payment-gateway",
    "checkout-api",
    "inventory-svc",
    "user-center",
    "coupon-service",
    "search-api",
    "notify-worker",
    "settlement-job",
    "cart-service",
    "risk-engine",
    "ledger-service",
)
COMMON: dict[str, Filler] = {
    "svc": _pick(*SERVICES),
    "svc2": _other("svc", *SERVICES),
    "db": _pick("orders_db", "pay_core", "mall_main", "user_db", "ledger", "promo_db"),
    "table": _pick("t_order", "payment_record", "coupon_issue", "user_account", "inventory_sku", "settle_batch"),
    "host": _pick("db-master-01", "mysql-prod-02", "pg-main-1", "mysql-order-m1", "rds-pay-01"),
    "redishost": _pick("redis-prod-03", "redis-cache-01", "codis-proxy-2", "redis-session-a"),
    "node": _pick("ip-10-12-3-41", "node-prod-17", "cn-hz-k8s-w09", "worker-c5-22"),
    "pod": lambda rng, get: f"{get('svc')}-{_alnum(rng, 9)}-{_alnum(rng, 5)}",
    "topic": _pick("order-events", "pay-callback", "stock-sync", "refund-notify", "user-behavior"),
    "cachekey": _pick("order:detail:", "sku:stock:", "session:", "coupon:user:", "cart:v2:"),
    "flag": _pick("new-pricing-engine", "async-settlement", "recommend-v3", "checkout-redesign", "risk-bypass"),
    "pool": _pick("HikariPool-1", "druid-order-ds", "HikariPool-pay", "pool-ledger-rw"),
    "index": _pick("app-logs-2024.06.11", "nginx-access-000123", "order-audit-v2"),
    "t": lambda rng, _get: _clock(rng),
    "t2": _later,
    "date": lambda rng, _get: f"2024-{rng.randrange(1, 13):02d}-{rng.randrange(1, 29):02d}",
    "n": lambda rng, _get: str(rng.randrange(2, 7)),
    "n2": lambda rng, _get: str(rng.randrange(8, 17)),
    "n3": lambda rng, _get: str(rng.randrange(1200, 98000)),
    "n4": lambda rng, _get: str(rng.randrange(900, 4800)),
    "pct": lambda rng, _get: f"{rng.randrange(5, 60)}.{rng.randrange(10)}",
    "req": lambda rng, _get: f"req-{_alnum(rng, 12)}",
    "hi_zh": _pick("你好", "您好", "嗨", "Hi"),
    "hi_en": _pick("Hi", "Hello", "Hey there", "Hi there"),
    "assistant_zh": _pick("SuperBiz 运维助手", "SRE 诊断助手", "SuperBiz 值班助手"),
    "assistant_en": _pick("SuperBiz ops assistant", "SRE diagnosis assistant", "SuperBiz on-call assistant"),
}


def render(template: str, rng: random.Random, fillers: Mapping[str, Filler]) -> str:
    """Fill every known slot; the same slot gets the same value throughout one rendering."""
    chosen: dict[str, str] = {}

    def get(name: str) -> str:
        if name not in chosen:
            chosen[name] = fillers[name](rng, get)
        return chosen[name]

    return SLOT.sub(lambda match: get(match[1]) if match[1] in fillers else match[0], template)


def expand(
    name: str,
    seed: int,
    bases: Sequence[Base],
    per_base: int,
    surfaces: Sequence[str],
    extra: Mapping[str, Filler] | None = None,
) -> list[HeldoutCase]:
    """Render each template ``per_base`` times (skipping repeats), in template order, deterministically."""
    rng = random.Random(f"gate_heldout/{name}/{seed}")
    fillers = {**COMMON, **(extra or {})}
    seen: set[str] = set()
    cases: list[HeldoutCase] = []
    for base in bases:
        made = 0
        for _attempt in range(per_base * 6):
            if made == per_base:
                break
            text = render(base.template, rng, fillers)
            if text in seen:
                continue
            seen.add(text)
            surface = base.surface or rng.choice(list(surfaces))
            cases.append(HeldoutCase(text, base.violation, base.shape, surface))
            made += 1
    return cases
