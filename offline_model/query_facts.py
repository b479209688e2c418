"""What a (Chinese or English) query says: services, order ids, error codes, symptoms and the time window.

Pure string rules, no model: a known-service list plus the ``xxx-service`` pattern, Chinese aliases (订单 ->
order-service …), ``order-\\d+`` ids, ``ERR_*`` codes, a small symptom vocabulary (each with the English terms
used to search logs) and "最近 N 分钟/小时" windows (default 30 minutes). A follow-up ("那退款服务呢") takes
what it does not say itself from the previous turn's query: the current query always wins.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from offline_model.entities import ERROR_CODE_PATTERN, ORDER_ID_PATTERN, SERVICE_PATTERN

DEFAULT_MINUTES = 30
KNOWN_SERVICES = ("order-service", "payment-service", "refund-service", "user-service", "api-gateway")
ALIASES = (
    ("订单服务", "order-service"),
    ("订单", "order-service"),
    ("支付服务", "payment-service"),
    ("支付", "payment-service"),
    ("付款", "payment-service"),
    ("退款服务", "refund-service"),
    ("退款", "refund-service"),
    ("用户服务", "user-service"),
    ("用户", "user-service"),
    ("登录", "user-service"),
    ("网关", "api-gateway"),
    ("gateway", "api-gateway"),
)
ORDER_DOMAIN = ("order-service", "payment-service")


@dataclass(frozen=True)
class Symptom:
    key: str
    pattern: re.Pattern[str]
    label: str
    log_terms: tuple[str, ...]


SYMPTOMS = (
    Symptom(
        "pool",
        re.compile(r"连接池|hikari|connection pool|拿不到连接", re.I),
        "连接池耗尽",
        ("HikariPool", "connection"),
    ),
    Symptom("timeout", re.compile(r"超时|timeout|timed out|转圈|卡住", re.I), "超时", ("timeout", "timed")),
    Symptom("duplicate_refund", re.compile(r"重复退款|duplicate refund", re.I), "重复退款", ("duplicate", "refund")),
    Symptom("login", re.compile(r"登录|登陆|login|sign in", re.I), "登录失败", ("login", "failed")),
    Symptom("failure", re.compile(r"失败|fail|[没未不](?:有)?\S{0,4}成功", re.I), "失败", ("failed", "error")),
    Symptom("error", re.compile(r"报错|异常|错误|故障|error|exception|5\d\d", re.I), "报错", ("error", "exception")),
    Symptom(
        "unavailable", re.compile(r"不可用|宕机|挂了|unavailable|\bdown\b", re.I), "不可用", ("unavailable", "down")
    ),
    Symptom("slow", re.compile(r"变慢|很慢|延迟|slow|latency", re.I), "变慢", ("slow", "latency")),
)
_DOMAINS = "支付|付款|退款|登录|下单|接口|回调|请求|调用|查询|数据库|连接池|订单|用户|网关|系统"
_PHRASE = re.compile(rf"({_DOMAINS})?(超时|失败|报错|异常|错误|故障|不可用|宕机|变慢|延迟|重复退款|耗尽)")
_DOMAIN_WORD = re.compile(_DOMAINS)
_CLAIMED_STATUS = re.compile(r"(?<![A-Za-z_])(?:PAID|SUCCESS|REFUNDED|CLOSED|CANCELLED)(?![A-Za-z_])")
_HTTP_CODE = re.compile(r"(?<![\w.\-])[45]\d\d(?![\w.])")
_CN_NUMBERS = {"一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "十": 10, "半": 0.5}
_WINDOW = re.compile(
    r"(?:最近|过去|近|last|past)\s*(\d+|[一两二三四五六十半])\s*(?:个)?\s*(分钟|小时|天|min(?:ute)?s?|hours?|h\b|days?)",
    re.I,
)


@dataclass(frozen=True)
class QueryFacts:
    query: str
    services: tuple[str, ...] = ()
    order_ids: tuple[str, ...] = ()
    error_codes: tuple[str, ...] = ()
    http_codes: tuple[str, ...] = ()
    symptoms: tuple[Symptom, ...] = ()
    phrase: str = ""
    """The symptom as the user wrote it, e.g. 支付超时 (empty when none)."""
    symptom_word: str = ""
    """The phrase without its domain word, e.g. 超时."""
    minutes: int = DEFAULT_MINUTES
    window_explicit: bool = False
    inherited: tuple[str, ...] = field(default=())
    """What came from the previous turn: "services", "symptoms", "window"."""
    claimed_status: str = ""
    """An order status the user asserts (``显示 PAID``). A known weakness of this offline model, kept on
    purpose: like a naive LLM it takes the user's premise as a fact in its conclusion, and the SemanticGuard
    must catch it (the demo's FALLBACK question shows that)."""

    @property
    def order_domain(self) -> bool:
        """Whether orders or payments are concerned (then the order database is worth a look)."""
        return bool(self.order_ids) or any(service in ORDER_DOMAIN for service in self.services)

    def log_terms(self) -> tuple[str, ...]:
        terms: list[str] = [*self.error_codes, *self.http_codes]
        for symptom in self.symptoms[:2]:
            terms.extend(symptom.log_terms)
        return tuple(dict.fromkeys(terms))[:4]

    def named_ids(self) -> tuple[tuple[str, int], ...]:
        """What the question names that a log line can name too, with its weight: order ids (3), ERR_ codes (2)
        and the services written out in the question (1; not those only implied by an alias)."""
        services = dict.fromkeys(match.group(0).lower() for match in SERVICE_PATTERN.finditer(self.query))
        return (
            *((order, 3) for order in self.order_ids),
            *((code, 2) for code in self.error_codes),
            *((service, 1) for service in services),
        )

    def symptom_label(self) -> str:
        return self.phrase or (self.symptoms[0].label if self.symptoms else "") or "异常"

    def subject(self) -> str:
        """How the conclusion names the problem, e.g. 订单 order-123 的支付超时."""
        if self.order_ids and self.claimed_status:
            return f"订单 {self.order_ids[0]}（已是 {self.claimed_status}）的{self.symptom_label()}"
        if self.order_ids:
            return f"订单 {self.order_ids[0]} 的{self.symptom_label()}"
        named = SERVICE_PATTERN.search(self.query)
        codes = " ".join(self.http_codes[:1])
        head = " ".join(part for part in (named.group(0).lower() if named else "", codes) if part)
        return f"{head} 的{self.symptom_label()}" if head else self.symptom_label()


def services_in(text: str) -> tuple[str, ...]:
    """Services named in ``text``: explicit names and aliases, in order of first appearance."""
    found: list[tuple[int, str]] = [(m.start(), m.group(0).lower()) for m in SERVICE_PATTERN.finditer(text)]
    taken = [(start, start + len(name)) for start, name in found]
    lowered = text.lower()
    for alias, service in ALIASES:
        for match in re.finditer(re.escape(alias.lower()), lowered):
            span = (match.start(), match.end())
            if any(start <= span[0] < end for start, end in taken):
                continue
            taken.append(span)
            found.append((match.start(), service))
    found.sort()
    return tuple(dict.fromkeys(name for _, name in found))


def window_minutes(text: str) -> int | None:
    match = _WINDOW.search(text)
    if match is None:
        return None
    amount_text, unit = match.group(1), match.group(2).lower()
    amount = float(amount_text) if amount_text.isdigit() else _CN_NUMBERS.get(amount_text, 1)
    factor = 60 if unit.startswith(("小时", "h")) else 1440 if unit.startswith(("天", "d")) else 1
    return max(1, int(amount * factor))


def extract(query: str, previous_turn: dict[str, Any] | None = None) -> QueryFacts:
    """The facts of ``query``; a follow-up completes them from ``previous_turn`` (its user query only)."""
    services = services_in(query)
    order_ids = tuple(dict.fromkeys(m.group(0).lower() for m in ORDER_ID_PATTERN.finditer(query)))
    codes = tuple(dict.fromkeys(ERROR_CODE_PATTERN.findall(query)))
    symptoms = tuple(symptom for symptom in SYMPTOMS if symptom.pattern.search(query))
    http_codes = tuple(dict.fromkeys(_HTTP_CODE.findall(query)))
    phrase_match = _PHRASE.search(query)
    minutes = window_minutes(query)
    facts = QueryFacts(
        query=query,
        services=services,
        order_ids=order_ids,
        error_codes=codes,
        http_codes=http_codes,
        symptoms=symptoms,
        phrase=phrase_match.group(0) if phrase_match else "",
        symptom_word=phrase_match.group(2) if phrase_match else "",
        minutes=minutes or DEFAULT_MINUTES,
        window_explicit=minutes is not None,
        claimed_status=claimed.group(0) if (claimed := _CLAIMED_STATUS.search(query)) else "",
    )
    previous_query = (previous_turn or {}).get("user_query")
    if not isinstance(previous_query, str) or not previous_query.strip():
        return facts
    return _complete(facts, extract(previous_query))


def _complete(facts: QueryFacts, previous: QueryFacts) -> QueryFacts:
    inherited: list[str] = []
    changes: dict[str, Any] = {}
    if not facts.services and not facts.order_ids:
        changes.update(services=previous.services, order_ids=previous.order_ids)
        inherited.append("services")
    if not facts.symptoms and not facts.error_codes and not facts.http_codes:
        phrase = previous.phrase
        domain = _DOMAIN_WORD.search(facts.query)
        if "services" not in inherited and previous.symptom_word:
            phrase = (domain.group(0) if domain else "") + previous.symptom_word
        changes.update(
            symptoms=previous.symptoms,
            phrase=phrase,
            symptom_word=previous.symptom_word,
            error_codes=previous.error_codes,
            http_codes=previous.http_codes,
        )
        inherited.append("symptoms")
    if not facts.window_explicit and previous.window_explicit:
        changes.update(minutes=previous.minutes, window_explicit=True)
        inherited.append("window")
    if not inherited:
        return facts
    return QueryFacts(**{**facts.__dict__, **changes, "inherited": tuple(inherited)})
