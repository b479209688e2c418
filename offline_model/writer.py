"""The final Draft, composed only from the tool results in the conversation.

* analysis: one per non-ERROR result (:mod:`offline_model.findings`);
* conclusion: only when the root error pattern of the logs is explained by a knowledge sentence that names a
  cause; based on that log analysis, that knowledge analysis, the log analyses whose key pattern names the root
  service, the metric analyses of the root service and the MySQL analysis; else null, with what is missing;
* action_plan / recommendations: per named cause (read-only checks need no confirmation; enlarging a pool or
  restarting does, and so does any text the release gate's ``ClaimPolicy`` finds a side effect in), bound to the
  analyses they rest on;
* limitations.scope: the scopes actually queried (log topics, services, windows, MOCK), metrics, MySQL and
  documents.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from harness.gate import ClaimPolicy
from harness.gate.proposals import side_effect
from offline_model.conversation import KNOWLEDGE, LOGS, METRICS, MYSQL, Conversation, Observation
from offline_model.findings import Finding, findings, source_label
from offline_model.investigator import mysql_skip_reason, root_pattern
from offline_model.lexical import leaf_text
from offline_model.query_facts import QueryFacts
from offline_model.quoting import short_time
from offline_model.reading import Explanation, explanation, key_pattern, queried_service, services_named, signature

ACTIONS = {
    "pool": [
        (
            "查询 {svc} 的连接泄漏与长事务日志（Connection leak detection、Transaction held connection）",
            False,
        ),
        ("临时扩大 {svc} 的连接池容量（maximum-pool-size），须先核算数据库连接上限", True),
        ("如需释放被占用的连接，逐个实例滚动重启 {svc}，每次间隔并观察连接池指标", True),
    ],
    "leak": [("按连接泄漏日志中的调用栈定位 {svc} 未归还连接的代码", False)],
    "long_tx": [("排查 {svc} 中持有数据库连接时间过长的事务", False)],
    "lock": [("请 DBA 值班查看 order_db 的慢查询与锁等待", False)],
    "channel": [("按渠道统计 {svc} 的超时错误，确认是否集中在单一渠道", False)],
    "idempotent": [("查询原请求的处理状态，确认首次提交为何失败或超时", False)],
}
RECOMMENDATIONS = {
    "pool": "为 {svc} 增加连接池等待线程数（pending）与获取连接耗时告警，并治理长事务与连接泄漏",
    "idempotent": "在客户端和客服后台的重试逻辑中复用原请求号，避免超时后重复提交",
}


def compose(facts: QueryFacts, conversation: Conversation) -> dict[str, Any]:
    observations = [o for o in conversation.observations if o.result is not None]
    logs = [o for o in observations if o.name == LOGS and o.found]
    root = root_pattern(logs)
    link = explanation([o for o in observations if o.name == KNOWLEDGE], signature(root[1])) if root else None
    items = findings(facts, observations, link)
    by_call = {finding.observation.call_id: finding for finding in items}
    conclusion, basis = _conclusion(facts, root, link, items, by_call)
    actions, recommendations = _next_steps(facts, root, link, items, by_call, basis)
    return {
        "conclusion": conclusion,
        "analysis": [finding.item() for finding in items],
        "action_plan": actions,
        "recommendations": recommendations,
        "limitations": {
            "scope": _scope(observations, by_call),
            "missing_info": _missing(facts, conversation, observations, items, conclusion is not None, root),
        },
    }


def _conclusion(
    facts: QueryFacts,
    root: tuple[Observation, dict[str, Any]] | None,
    link: Explanation | None,
    items: list[Finding],
    by_call: dict[str, Finding],
) -> tuple[dict[str, Any] | None, list[Finding]]:
    if root is None or link is None or link.cause is None or not matches_symptom(facts, root[1]):
        return None, []
    if unseen_orders(facts, items):
        return None, []
    service = str(root[1].get("service"))
    basis = [by_call[root[0].call_id], by_call[link.observation.call_id]]
    for finding in items:
        observation = finding.observation
        key = key_pattern(observation) if observation.name == LOGS and observation.found else None
        if key is not None and service in services_named(key):
            basis.append(finding)
        if observation.name == METRICS and observation.found and _selects(observation, service):
            basis.append(finding)
        if observation.name == MYSQL and observation.found:
            basis.append(finding)
    basis = list({finding.analysis_id: finding for finding in sorted(basis, key=_order)}.values())
    subject = facts.subject()
    if facts.order_ids and facts.order_ids[0] not in _data(basis):
        subject = facts.symptom_label()
    text = f"{subject}与 {service} 的{link.cause[0]}有关"
    return {"text": text, "based_on_analysis_ids": [finding.analysis_id for finding in basis]}, basis


def _selects(observation: Observation, service: str) -> bool:
    """Whether a metric query was of ``service`` (its ``service`` matcher)."""
    return (observation.result or {}).get("scope", {}).get("matchers", {}).get("service") == service


def _data(findings_: list[Finding]) -> str:
    """What the results found (never the scope or query they echo), lower-cased."""
    return "\n".join(leaf_text(f.observation.result, skip=("scope", "query")) for f in findings_).lower()


def unseen_orders(facts: QueryFacts, items: list[Finding]) -> list[str]:
    """Order ids of the question that no result holds as data: nothing can be concluded about them."""
    data = _data([finding for finding in items if finding.kind == "NORMAL"])
    return [order for order in facts.order_ids[:3] if order not in data]


def matches_symptom(facts: QueryFacts, pattern: dict[str, Any]) -> bool:
    """Whether an error pattern is about the symptom asked (its message holds a symptom term or the error code)."""
    terms = [*facts.log_terms(), *facts.error_codes, *facts.http_codes]
    example = str(pattern.get("example") or "").lower()
    return not terms or any(term.lower() in example for term in terms)


def _order(finding: Finding) -> int:
    return int(finding.analysis_id[1:])


def _next_steps(
    facts: QueryFacts,
    root: tuple[Observation, dict[str, Any]] | None,
    link: Explanation | None,
    items: list[Finding],
    by_call: dict[str, Finding],
    basis: list[Finding],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    actions: list[dict[str, Any]] = []
    recommendations: list[dict[str, Any]] = []
    if root is not None and root[0].call_id in by_call:
        service = str(root[1].get("service"))
        log_id = by_call[root[0].call_id].analysis_id
        ids = [log_id] + ([by_call[link.observation.call_id].analysis_id] if link is not None else [])
        cause_key = link.cause[1] if basis and link is not None and link.cause is not None else None
        if link is not None:
            title = link.item["title"]
            actions.append(_action(f"按知识库《{title}》的排查步骤继续核对 {service} 的日志与相关指标", ids))
        for template, confirm in ACTIONS.get(cause_key or "", []):
            actions.append(_action(template.format(svc=service), ids, confirm))
        if cause_key in RECOMMENDATIONS:
            text = RECOMMENDATIONS[cause_key].format(svc=service)
            recommendations.append(
                {"text": text, "based_on_analysis_ids": ids[::-1], "requires_human_confirmation": _confirms(text)}
            )
    for finding in items:
        observation = finding.observation
        if observation.name == MYSQL and observation.found and facts.order_ids:
            target = "、".join(facts.order_ids[:3])
            actions.append(_action(f"通过只读查询持续跟踪订单 {target} 的支付单状态", [finding.analysis_id]))
        if observation.name == LOGS and observation.empty:
            service = queried_service(observation)
            text = f"放宽时间窗口或更换关键词，再次查询 {service} 的日志" if service else "指明具体的服务后重新发起排查"
            actions.append(_action(text, [finding.analysis_id]))
    merged: dict[str, dict[str, Any]] = {}
    for action in actions:
        same = merged.setdefault(action["action"], action)
        if same is not action:
            same["based_on_analysis_ids"] = list(
                dict.fromkeys(same["based_on_analysis_ids"] + action["based_on_analysis_ids"])
            )
    return list(merged.values())[:8], recommendations


def _action(text: str, ids: list[str], confirm: bool = False) -> dict[str, Any]:
    confirm = confirm or _confirms(text)
    return {"action": text, "based_on_analysis_ids": list(dict.fromkeys(ids)), "requires_human_confirmation": confirm}


def _confirms(text: str) -> bool:
    """Whether a proposal waits for a human: the release gate's own rule, so a draft never disagrees with it."""
    return side_effect(text, ClaimPolicy.default()) is not None


def _scope(observations: list[Observation], by_call: dict[str, Finding]) -> str:
    cited = [o for o in observations if o.call_id in by_call]
    parts: list[str] = []
    logs = [o for o in cited if o.name == LOGS]
    if logs:
        services = "、".join(dict.fromkeys(s for o in logs if (s := queried_service(o)))) or "未指定服务（全部服务）"
        topics = "、".join(dict.fromkeys(str((o.result or {}).get("scope", {}).get("topic")) for o in logs))
        starts = sorted(str((o.result or {}).get("scope", {}).get("start_time")) for o in logs)
        ends = sorted(str((o.result or {}).get("scope", {}).get("end_time")) for o in logs)
        minutes = _minutes(starts[0], ends[-1])
        span = f"{short_time(starts[0])} 至 {short_time(ends[-1])}（UTC" + (
            f"，约 {minutes} 分钟）" if minutes else "）"
        )
        parts.append(f"日志：{services} 的 {topics} 日志，{span}，来源为{source_label(logs[0].result or {})}")
    metrics = [o for o in cited if o.name == METRICS]
    if metrics:
        scopes = [(o.result or {}).get("scope") or {} for o in metrics]
        names = "、".join(dict.fromkeys(str(scope.get("metric")) for scope in scopes))
        targets = "、".join(dict.fromkeys(str(v) for scope in scopes for v in (scope.get("matchers") or {}).values()))
        span = f"{short_time(str(scopes[0].get('start_time')))} 至 {short_time(str(scopes[0].get('end_time')))}（UTC）"
        where = f"（{targets}）" if targets else ""
        parts.append(f"指标：{names}{where}，{span}，来源为{source_label(metrics[0].result or {}, '指标')}")
    for observation in (o for o in cited if o.name == MYSQL):
        scope = (observation.result or {}).get("scope") or {}
        params = "、".join(str(value) for value in scope.get("params") or [])
        parts.append(
            f"订单库：{scope.get('data_source')} 只读查询" + (f"（{params}）" if params else "（全表按状态统计）")
        )
    titles = [
        str(item.get("title"))
        for o in cited
        if o.name == KNOWLEDGE
        for item in (o.result or {}).get("evidence") or []
        if isinstance(item, dict)
    ]
    if titles:
        parts.append("知识库：" + "".join(f"《{title}》" for title in dict.fromkeys(titles)))
    return "；".join(parts) or "本次没有取得可引用的证据"


def _minutes(start: str, end: str) -> int | None:
    try:
        return round((datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds() / 60)
    except ValueError:
        return None


def _missing(
    facts: QueryFacts,
    conversation: Conversation,
    observations: list[Observation],
    items: list[Finding],
    concluded: bool,
    root: tuple[Observation, dict[str, Any]] | None,
) -> list[str]:
    missing: list[str] = []
    cited = {finding.observation.call_id for finding in items}
    for observation in observations:
        if observation.name == KNOWLEDGE and observation.found and observation.call_id not in cited:
            missing.append(f"知识库以 '{observation.args.get('query')}' 检索到的文档与本问题没有直接关系，未引用")
        if observation.status not in ("EVIDENCE_FOUND", "NO_EVIDENCE"):
            code = ((observation.result or {}).get("error") or {}).get("code", "ERROR")
            missing.append(f"{observation.name} 调用失败（{code}），相应证据缺失")
        elif observation.name == LOGS and observation.empty:
            service = queried_service(observation) or "所查"
            query = (observation.result or {}).get("scope", {}).get("query") or observation.args.get("query")
            missing.append(
                f"{service} 的日志中没有与 '{query}' 匹配的记录，尚不能判断它与{facts.symptom_label()}的关系"
            )
    unseen = unseen_orders(facts, items)
    for order in unseen:
        missing.append(f"订单库和日志中都没有找到订单 {order} 的记录，无法确认该订单的{facts.symptom_label()}原因")
    reason = mysql_skip_reason(facts, conversation)
    if reason:
        missing.append(reason)
    if not concluded and not unseen:
        label = facts.symptom_label()
        if root is None:
            what = "日志中没有找到相关错误"
        elif not matches_symptom(facts, root[1]):
            what = f"{root[1].get('service')} 日志中的主要错误与所问的{label}没有直接对应"
        else:
            what = "日志错误特征没有在知识库中找到对应的原因说明"
        missing.append(f"证据不足以确认{label}的原因：{what}")
    if conversation.tools_known and not conversation.offers(METRICS):
        missing.append("本次未提供指标工具，未核对监控指标（如连接池、接口延迟曲线）")
    elif conversation.offers(METRICS) and not conversation.calls(METRICS):
        missing.append("日志中没有定位到出错的服务，未查询监控指标")
    return missing[:20]
