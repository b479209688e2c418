"""What to look at next: the plan, and each turn's tool calls, decided only from the query and the results so far.

Rules (each call is made at most once; a call with the same arguments is never repeated):

1. ``lookup_knowledge`` with the symptom (``支付超时 排查``);
2. ``lookup_knowledge`` for the order_db data dictionary, when orders/payments are concerned and query_mysql is
   offered (its tables and columns must be documented before a query is written);
3. ``query_logs`` for each named service (at most two), ``<service> <order id> <symptom terms>``;
   — after results are in —
4. ``query_logs`` for a service that a key error pattern names (a callee: "ERR_TIMEOUT calling order-service"),
   at most three log queries in all; else, when a service's symptom search matched nothing, one service-wide
   error search (``<service> error ERR_``) to see which errors it does have;
5. ``lookup_knowledge`` with the error signature of the root pattern, when no knowledge sentence explains it yet
   (deferred while a log query of rule 4 is pending, since the root may still move; three lookups at most);
6. ``query_mysql`` on the offered data source: the order and its payment records for order ids, else the payment
   status distribution, only if every table and column is in the data dictionary's excerpts;
7. ``query_metrics``, once no log query of rule 4 is pending (the root service is settled): when the root pattern
   is a connection-pool error, the root service's pool gauges (a listed gauge named ``…connections_active`` or
   ``…connections_pending`` with a ``service`` label, ``max``); and for the root service and each service whose
   key pattern names it (a caller), its requests per second by status (a listed histogram with ``service`` and
   ``status`` labels, ``sum`` by ``status``).

Rules 1–3 make the first (parallel) batch; 4–7 the next ones; no new call means the Draft is due.
"""

from __future__ import annotations

import re
from typing import Any

from offline_model.conversation import KNOWLEDGE, LOGS, METRICS, MYSQL, Conversation, Observation
from offline_model.query_facts import QueryFacts
from offline_model.reading import Signature, explanation, key_pattern, queried_service, services_named, signature

DICTIONARY_QUERY = "order_db 数据字典 biz_order payment_record 字段"
MAX_LOG_QUERIES = 3
MAX_KNOWLEDGE_QUERIES = 3
MAX_ORDER_IDS = 3
ORDER_COLUMNS = ("o.order_id", "o.payment_status", "o.updated_at", "p.channel", "p.status")
ORDER_IDENTIFIERS = ("biz_order", "payment_record", "order_id", "payment_status", "updated_at", "channel", "status")
STATUS_SQL = "SELECT status, COUNT(*) AS n FROM payment_record GROUP BY status ORDER BY n DESC"
STATUS_IDENTIFIERS = ("payment_record", "status")
POOL_ERROR = re.compile(r"pool|连接池", re.I)
POOL_GAUGE = re.compile(r"connections_(?:active|pending)$")
MAX_METRIC_SERVICES = 2

Call = tuple[str, dict[str, Any]]


def knowledge_query(facts: QueryFacts) -> str:
    parts = [*facts.http_codes, facts.phrase or (facts.symptoms[0].label if facts.symptoms else ""), *facts.error_codes]
    if not any(parts):
        parts = [*facts.services[:1], "故障"]
    return " ".join(part for part in dict.fromkeys(parts) if part) + " 排查"


def log_args(facts: QueryFacts, service: str | None) -> dict[str, Any]:
    words = [service or "", *facts.order_ids[:1], *(facts.log_terms() or ("error", "ERR_"))]
    topic = "ACCESS" if service == "api-gateway" else "APPLICATION"
    return {
        "topic": topic,
        "query": " ".join(dict.fromkeys(word for word in words if word)),
        "lookback_minutes": facts.minutes,
    }


def broad_log_args(facts: QueryFacts, service: str) -> dict[str, Any]:
    """Any error of ``service``: ``error`` or an ``ERR_`` code, when the symptom's own terms matched nothing."""
    topic = "ACCESS" if service == "api-gateway" else "APPLICATION"
    return {"topic": topic, "query": f"{service} error ERR_", "lookback_minutes": facts.minutes}


def mysql_sql(facts: QueryFacts) -> tuple[str, list[str], tuple[str, ...]]:
    """(sql, params, identifiers the dictionary must document)."""
    if facts.order_ids:
        ids = list(facts.order_ids[:MAX_ORDER_IDS])
        condition = "o.order_id = ?" if len(ids) == 1 else f"o.order_id IN ({', '.join('?' for _ in ids)})"
        sql = (
            f"SELECT {', '.join(ORDER_COLUMNS)} FROM biz_order o "
            f"LEFT JOIN payment_record p ON p.order_id = o.order_id WHERE {condition}"
        )
        return sql, ids, ORDER_IDENTIFIERS
    return STATUS_SQL, [], STATUS_IDENTIFIERS


def wants_mysql(facts: QueryFacts, conversation: Conversation) -> bool:
    return facts.order_domain and conversation.offers(MYSQL) and conversation.offers(KNOWLEDGE)


def plan(facts: QueryFacts, conversation: Conversation) -> list[str]:
    label = facts.symptom_label()
    steps = []
    if conversation.offers(KNOWLEDGE):
        steps.append(f"查阅知识库中与{label}相关的排障手册和错误码说明")
    if conversation.offers(LOGS):
        targets = " " + "、".join(facts.services[:2]) + " " if facts.services else ""
        steps.append(f"查询{targets}最近 {facts.minutes} 分钟的日志中与{label}相关的错误")
        metrics = "，查看相关服务的连接池与请求指标" if conversation.offers(METRICS) else ""
        steps.append(f"根据日志中的错误特征追查上下游服务{metrics}，并查阅知识库对该错误的说明")
    if wants_mysql(facts, conversation):
        target = (
            f"订单 {'、'.join(facts.order_ids[:MAX_ORDER_IDS])} 的支付记录状态"
            if facts.order_ids
            else "支付单的状态分布"
        )
        steps.append(f"先查阅 order_db 数据字典确认可查询的表和字段，再核对{target}")
    steps.append("汇总证据，给出结论、下一步行动和诊断范围说明")
    return steps[:5] if len(steps) >= 3 else [*steps, "若证据不足，说明还缺少哪些材料"][:5]


def next_calls(facts: QueryFacts, conversation: Conversation) -> list[Call]:
    calls: list[Call] = []

    def want(name: str, args: dict[str, Any]) -> None:
        if conversation.offers(name) and not conversation.done(name, args) and (name, args) not in calls:
            calls.append((name, args))

    want(KNOWLEDGE, {"query": knowledge_query(facts)})
    if wants_mysql(facts, conversation):
        want(KNOWLEDGE, {"query": DICTIONARY_QUERY})
    for service in facts.services[:2] or (None,):
        want(LOGS, log_args(facts, service))
    if not conversation.observations:
        return calls
    logs = [o for o in conversation.calls(LOGS) if o.found]
    queried = {queried_service(o) for o in conversation.calls(LOGS)}
    hop = next((s for s in _callees(logs) if s not in queried), None)
    searched = {queried_service(o) for o in conversation.calls(LOGS) if is_broad(o)}
    silent = [
        service
        for o in conversation.calls(LOGS)
        if o.empty and not is_broad(o) and (service := queried_service(o)) and service not in searched
    ]
    if hop is not None and len(conversation.calls(LOGS)) < MAX_LOG_QUERIES:
        want(LOGS, log_args(facts, hop))
    elif silent and len(conversation.calls(LOGS)) < MAX_LOG_QUERIES:
        want(LOGS, broad_log_args(facts, silent[0]))
    elif (
        (sig := root_signature(logs)) is not None
        and len(conversation.calls(KNOWLEDGE)) < MAX_KNOWLEDGE_QUERIES
        and explanation(conversation.calls(KNOWLEDGE), sig) is None
    ):
        want(KNOWLEDGE, {"query": sig.lookup_query()})
    if hop is None or len(conversation.calls(LOGS)) >= MAX_LOG_QUERIES:
        for name, args in metric_calls(facts, conversation, logs):
            want(name, args)
    if wants_mysql(facts, conversation) and not conversation.calls(MYSQL):
        mysql = _mysql_call(facts, conversation)
        if mysql is not None:
            calls.append(mysql)
    return calls


def metric_calls(facts: QueryFacts, conversation: Conversation, logs: list[Observation]) -> list[Call]:
    """Rule 7: the root service's pool gauges (on a pool error) and the requests by status of it and its callers."""
    root = root_pattern(logs)
    if root is None:
        return []
    service = str(root[1].get("service") or "")
    window = {"lookback_minutes": facts.minutes}
    calls: list[Call] = []
    if POOL_ERROR.search(str(root[1].get("example") or "")):
        for offer in conversation.metrics:
            if offer.type == "gauge" and "service" in offer.labels and POOL_GAUGE.search(offer.name):
                matchers = {"service": service}
                calls.append((METRICS, {"metric": offer.name, "aggregation": "max", "matchers": matchers, **window}))
    requests = [o for o in conversation.metrics if o.type == "histogram" and {"service", "status"} <= set(o.labels)]
    if requests:
        callers = [str(key.get("service")) for o in logs if (key := key_pattern(o)) and service in services_named(key)]
        for target in list(dict.fromkeys([service, *callers]))[:MAX_METRIC_SERVICES]:
            args = {"metric": requests[0].name, "aggregation": "sum", "by": "status", "matchers": {"service": target}}
            calls.append((METRICS, {**args, **window}))
    return calls


def mysql_skip_reason(facts: QueryFacts, conversation: Conversation) -> str | None:
    """Why the order database was not queried (None when it was, or when it does not concern the question)."""
    if conversation.calls(MYSQL) or not facts.order_domain:
        return None
    if not conversation.tools_known:
        return "本次没有查询订单库，未核对订单与支付单状态"
    if not conversation.offers(MYSQL):
        return "本次未提供订单库查询工具，未核对订单与支付单状态"
    return "数据字典检索没有确认所需的表和字段，未查询订单库"


def _mysql_call(facts: QueryFacts, conversation: Conversation) -> Call | None:
    from offline_model.reading import dictionary_mentions

    dictionary = next((o for o in conversation.calls(KNOWLEDGE) if o.args.get("query") == DICTIONARY_QUERY), None)
    sql, params, identifiers = mysql_sql(facts)
    if not dictionary_mentions(dictionary, identifiers):
        return None
    sources = conversation.mysql_sources
    source = "order_readonly" if "order_readonly" in sources else (sources[0] if sources else "order_readonly")
    return MYSQL, {"data_source": source, "sql": sql, "params": params}


def is_broad(observation: Observation) -> bool:
    """Whether a log query was the service-wide error search of rule 4 (not a search for the symptom)."""
    return str(observation.args.get("query", "")).endswith(" error ERR_")


def _callees(logs: list[Observation]) -> list[str]:
    names: list[str] = []
    for observation in logs:
        key = key_pattern(observation)
        if key is not None:
            names.extend(services_named(key))
    return list(dict.fromkeys(names))


def root_pattern(logs: list[Observation]) -> tuple[Observation, dict[str, Any]] | None:
    """The key pattern closest to the cause: one whose service other key patterns name (a callee) and that names
    no other service itself; else the first key pattern of level ERROR/FATAL; else the first one."""
    keyed = [(o, key) for o in logs if (key := key_pattern(o)) is not None]
    if not keyed:
        return None
    callees = set(_callees(logs))
    for observation, key in keyed:
        if key.get("service") in callees and not services_named(key):
            return observation, key
    errors = [(o, k) for o, k in keyed if str(k.get("level")).upper() in ("ERROR", "FATAL")]
    return (errors or keyed)[0]


def root_signature(logs: list[Observation]) -> Signature | None:
    root = root_pattern(logs)
    return signature(root[1]) if root else None
