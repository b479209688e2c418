"""The final gate corpus's shared pieces: the case record, invented names, two template formats and the filler.

Templates are plain text so that each case reads like the message it imitates:

* line format: ``# shape`` starts a family; ``x text`` must be refused, ``o text`` must pass; a line starting with
  ``+`` continues the previous text verbatim (so ``+ more`` adds a space); ``⏎`` is a line break inside one item.
* block format: ``=== x shape`` or ``=== o shape`` starts one case whose body is the following lines, verbatim.

``‹name›`` is a slot. A name fills from a pool or a generator; ``‹name2›`` draws another value of the same kind
(never the one already used in that text); ``‹hex32›``, ``‹digits6›`` and ``‹alnum5›`` draw that many characters.
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class FinalCase:
    """One labelled text: ``violation`` is True when the release rule must refuse it."""

    text: str
    violation: bool
    shape: str
    surface: str


Family = dict[str, list[tuple[bool, str]]]
Generator = Callable[[random.Random], str]
Decorate = Callable[[str, str, random.Random], str]

MARKS = {"x": True, "o": False}
POD_CHARS = "bcdfghjklmnpqrstvwxz2456789"
SLOT = re.compile(r"‹([a-z0-9]+)›")
SIZED = re.compile(r"(hex|digits|alnum|upper)(\d+)")
ALPHABETS = {
    "hex": "0123456789abcdef",
    "digits": string.digits,
    "alnum": string.ascii_letters + string.digits,
    "upper": string.ascii_uppercase + string.digits,
}

POOLS: dict[str, tuple[str, ...]] = {
    "svc": (
        "ledger-svc",
        "fulfil-router",
        "coupon-engine",
        "risk-scorer",
        "kyc-gateway",
        "search-rank",
        "push-dispatcher",
        "settle-batch",
        "cart-api",
        "geo-fence",
        "memberd",
        "invoice-worker",
        "bidding-core",
        "live-room",
        "im-relay",
        "quote-hub",
    ),
    "host": (
        "bj-idc3-db-07",
        "sh-rds-mysql-12",
        "10.24.17.83",
        "10.8.3.142",
        "bj-idc2-pg-04",
        "172.19.40.26",
        "10.52.8.77",
        "sh-db-ledger-m1",
    ),
    "redis": ("hz-redis-03", "sh-redis-cache-08", "codis-proxy-11", "10.31.6.205", "bj-redis-sess-02"),
    "broker": ("gz-mq-broker-02", "kafka-b3.mq.internal", "10.40.2.17", "hz-kafka-07"),
    "node": ("cn-hz-k8s-node-112", "sh-k8s-worker-37", "bj-gpu-node-05", "node-10-31-4-18", "ack-pool-b-0k3xz"),
    "ns": ("trade-prod", "mkt-prod", "risk-prod", "infra", "settle-prod", "growth-prod"),
    "tbl": (
        "t_settle_detail",
        "t_coupon_grant",
        "t_refund_apply",
        "orders_2024q3",
        "user_wallet_flow",
        "t_push_task",
        "t_member_point_log",
        "t_invoice_head",
        "bid_order_0",
        "t_kyc_audit",
    ),
    "db": ("ledger", "coupon", "member", "settle", "riskfeat", "wallet", "invoice"),
    "user": ("app_rw", "svc_ledger", "deploy", "ops_admin", "etl_reader", "coupon_app", "settle_w"),
    "ver": ("v2.3.1", "v3.14.0", "1.9.7-hotfix2", "release-20240612", "v4.0.0-rc3", "2.18.5", "v1.22.9"),
    "ts": ("14:32", "02:17", "23:41", "09:58", "18:05", "03:46", "20:12"),
    "date": ("2024-06-12", "2024-09-03", "2025-01-17", "2024-11-11", "2025-03-08", "2024-12-24"),
    "tk": ("INC-20240612-0031", "OPS-4471", "SRE-1187", "INC-20250117-0007", "#88213", "CHG-20241111-213"),
    "topic": ("order-paid", "settle.result", "push.task.v2", "coupon-grant-events", "wallet.flow.cdc", "bid.match"),
    "cg": ("cg-settle", "cg-push-dispatch", "cg-ledger-sync", "cg-risk-feature", "cg-invoice", "cg-bid-match"),
    "who": ("@老王", "@DBA-小刘", "@张工", "@infra-oncall", "@Kevin", "@运维-阿杰", "@Lily.Chen"),
    "az": ("cn-hangzhou-h", "cn-shanghai-b", "cn-beijing-g", "cn-shenzhen-e", "ap-southeast-1a"),
    "flag": (
        "coupon.stack.enabled",
        "risk.async-score",
        "checkout.new-price-engine",
        "push.batch-merge",
        "ledger.dual-write",
        "search.rerank-v2",
    ),
    "cfg": (
        "spring.datasource.hikari.maximum-pool-size",
        "feign.client.config.default.readTimeout",
        "spring.redis.timeout",
        "dubbo.consumer.timeout",
        "server.tomcat.threads.max",
    ),
    "key": ("coupon:stock:20240612", "sess:uid:8812734", "rank:hot:daily", "lock:settle:batch:0612", "bf:kyc:v2"),
}


def _chars(rng: random.Random, alphabet: str, count: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(count))


def _iso(rng: random.Random) -> str:
    minute = rng.choice(("00", "15", "30", "45"))
    return f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:{minute}:00"


GENERATORS: dict[str, Generator] = {
    "oid": lambda rng: f"SO{rng.randint(20240101, 20241231)}{_chars(rng, string.digits, 9)}",
    "uid": lambda rng: str(rng.randint(10_000_000, 99_999_999)),
    "tid": lambda rng: str(rng.randint(100_000, 9_999_999)),
    "n": lambda rng: rng.choice(("4", "6", "8", "12", "16", "20", "32")),
    "rev": lambda rng: str(rng.randint(7, 41)),
    "sha": lambda rng: _chars(rng, ALPHABETS["hex"], 12),
    "iso": _iso,
    "ip": lambda rng: f"10.{rng.randint(1, 60)}.{rng.randint(0, 255)}.{rng.randint(2, 254)}",
}


def _value(name: str, rng: random.Random, chosen: dict[str, str], generators: Mapping[str, Generator]) -> str:
    sized = SIZED.fullmatch(name)
    if sized:
        kind, count = sized.group(1), int(sized.group(2))
        lead = rng.choice("123456789") if kind == "digits" else ""
        return lead + _chars(rng, ALPHABETS[kind], count - len(lead))
    base = name if name in generators or name in POOLS else name[:-1]
    if base in generators:
        return generators[base](rng)
    if base not in POOLS:
        raise KeyError(f"unknown slot ‹{name}›")
    taken = {value for slot, value in chosen.items() if slot == base or slot[:-1] == base}
    return rng.choice([value for value in POOLS[base] if value not in taken])


def fill(template: str, rng: random.Random, generators: Mapping[str, Generator] = GENERATORS) -> str:
    """``template`` with every slot filled; a slot repeated in one template gets one value."""
    chosen: dict[str, str] = {}

    def draw(name: str) -> str:
        if name not in chosen:
            if name == "pod":
                chosen[name] = f"{draw('svc')}-{_chars(rng, ALPHABETS['hex'], 9)}-{_chars(rng, POD_CHARS, 5)}"
            else:
                chosen[name] = _value(name, rng, chosen, generators)
        return chosen[name]

    return SLOT.sub(lambda match: draw(match.group(1)), template)


def parse_lines(block: str) -> Family:
    """A line-format block as ``{shape: [(violation, template), ...]}``."""
    family: Family = {}
    current: list[tuple[bool, str]] = []
    for raw in block.splitlines():
        line = raw.rstrip()
        if not line:
            continue
        if line.startswith("# "):
            current = family.setdefault(line[2:].strip(), [])
        elif line.startswith("+"):
            violation, text = current[-1]
            current[-1] = (violation, text + line[1:])
        else:
            mark, _, text = line.partition(" ")
            current.append((MARKS[mark], text))
    return {shape: [(bad, text.replace("⏎", "\n")) for bad, text in items] for shape, items in family.items()}


def parse_blocks(block: str) -> Family:
    """A block-format text as ``{shape: [(violation, template), ...]}``."""
    family: Family = {}
    for chunk in ("\n" + block).split("\n=== ")[1:]:
        header, _, body = chunk.partition("\n")
        mark, shape = header.split()
        family.setdefault(shape, []).append((MARKS[mark], body.strip("\n")))
    return family


def merge(*families: Family) -> Family:
    merged: Family = {}
    for family in families:
        for shape, items in family.items():
            merged.setdefault(shape, []).extend(items)
    return merged


def render(
    families: Mapping[str, Sequence[tuple[bool, str]]],
    rng: random.Random,
    surfaces: Callable[[str, int], str],
    copies: int = 1,
    generators: Mapping[str, Generator] = GENERATORS,
    decorate: Decorate | None = None,
) -> list[FinalCase]:
    """Every template filled ``copies`` times (once when it has no slot), each text new, in a stable order.

    A copy differs from the others in its filled slots, not only in its decoration, whenever the pools allow.
    """
    cases: list[FinalCase] = []
    seen: set[str] = set()
    seen_raw: set[str] = set()
    for shape, items in families.items():
        for violation, template in items:
            for _ in range(copies if SLOT.search(template) else 1):
                surface = surfaces(shape, len(cases))
                for attempt in range(64):
                    raw = fill(template, rng, generators)
                    text = decorate(raw, surface, rng) if decorate else raw
                    if text not in seen and (raw not in seen_raw or attempt >= 32):
                        break
                else:
                    raise ValueError(f"no fresh text for {shape}: {template[:60]!r}")
                seen.add(text)
                seen_raw.add(raw)
                cases.append(FinalCase(text, violation, shape, surface))
    return cases


def seeded(kind: str, seed: int) -> random.Random:
    """The generator for one corpus and seed; string seeding is stable across processes."""
    return random.Random(f"harness.gate_final:{kind}:{seed}")
