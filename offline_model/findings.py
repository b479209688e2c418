"""One analysis per tool result, written only from the concrete values of that result.

EVIDENCE_FOUND -> kind NORMAL, NO_EVIDENCE -> kind NEGATIVE_OBSERVATION limited to the query's own scope,
ERROR -> nothing (it is never cited; the writer lists it under missing_info). A log analysis quotes the lines
:mod:`offline_model.log_lines` chooses: its key pattern, then a line naming what the question names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from offline_model.conversation import KNOWLEDGE, LOGS, METRICS, Observation
from offline_model.investigator import DICTIONARY_QUERY
from offline_model.log_lines import Line, Quotes, choose, named
from offline_model.query_facts import QueryFacts
from offline_model.quoting import clip_prefix, short_time
from offline_model.reading import Explanation, best_sentence, innermost, severe_patterns

QUOTE_CHARS = 150
MAX_SERIES_TOLD = 3
RATES = {"counter": "每秒速率", "histogram": "每秒请求数"}
"""What a counter's or a histogram's series holds (the tool reads both as per-second rates)."""
EXAMPLE_CHARS = 110
MIN_RELEVANCE = 2
"""A background sentence must share more than a bare symptom word (超时) with the question."""


@dataclass(frozen=True)
class Finding:
    analysis_id: str
    kind: str
    text: str
    observation: Observation

    def item(self) -> dict[str, Any]:
        return {
            "analysis_id": self.analysis_id,
            "kind": self.kind,
            "text": self.text,
            "tool_call_ids": [self.observation.call_id],
        }


def findings(facts: QueryFacts, observations: list[Observation], link: Explanation | None) -> list[Finding]:
    quotes = choose(facts, [o for o in observations if o.name == LOGS and o.found])
    result: list[Finding] = []
    for observation in observations:
        if observation.found:
            text = _found_text(facts, observation, link, quotes)
            kind = "NORMAL"
        elif observation.empty:
            text, kind = _empty_text(observation), "NEGATIVE_OBSERVATION"
        else:
            continue
        if text:
            result.append(Finding(f"a{len(result) + 1}", kind, text, observation))
    return result


def source_label(result: dict[str, Any], what: str = "日志") -> str:
    kind = str(result.get("source_kind") or "")
    return f"模拟{what}，MOCK" if kind == "MOCK" else (kind or what)


def _found_text(
    facts: QueryFacts, observation: Observation, link: Explanation | None, quotes: dict[str, Quotes]
) -> str | None:
    result = observation.result or {}
    if observation.name == KNOWLEDGE:
        return _knowledge_text(facts, observation, link)
    if observation.name == LOGS:
        return _log_text(result, quotes[observation.call_id])
    if observation.name == METRICS:
        return _metric_text(result)
    return _mysql_text(result)


def _knowledge_text(facts: QueryFacts, observation: Observation, link: Explanation | None) -> str | None:
    if link is not None and link.observation.call_id == observation.call_id:
        item, sentence = link.item, link.sentence
    else:
        focus = [(code, 3) for code in facts.error_codes] + [(facts.phrase, 3)] + [(i, 3) for i in facts.order_ids]
        focus += [(service, 2) for service in facts.services] + [(s.label[:2], 1) for s in facts.symptoms]
        if observation.args.get("query") == DICTIONARY_QUERY:
            focus += [("payment_record", 2), ("biz_order", 2), ("status", 1), ("payment_status", 1)]
        chosen = best_sentence(observation, focus)
        if chosen is None or chosen[2] < MIN_RELEVANCE:
            return None
        item, sentence, _ = chosen
    section = item["breadcrumb"].split(" > ")[-1] if " > " in item["breadcrumb"] else ""
    where = f"《{item['title']}》" + (f"「{section}」一节" if section else "")
    return f"知识库{where}指出：「{_quote(sentence, QUOTE_CHARS)}」"


def _log_text(result: dict[str, Any], quotes: Quotes) -> str:
    scope = result.get("scope") or {}
    query, matched = scope.get("query", ""), result.get("match_count", 0)
    if quotes.key is None:
        levels = "、".join(dict.fromkeys(str(p.get("level")) for p in result.get("patterns") or []))
        text = f"{scope.get('topic', '')} 日志以 '{query}' 查询共匹配 {matched} 条，级别为 {levels or '未知'}"
        if severe_patterns(result):  # keys go in report order: only an earlier analysis can have taken them
            text += "，其中的错误模式已在前面的分析中引用"
    else:
        where = f"（{source_label(result)}，{scope.get('topic', '')} 日志以 '{query}' 查询共匹配 {matched} 条）"
        text = _line_text(quotes.key) + where
    side = quotes.side
    if side is not None:
        label = f"涉及 {'、'.join(side.names)} 的有" if side.names else "同一查询中还有"
        text += f"；{label} {_line_text(side)}"
    return text


def _line_text(line: Line) -> str:
    quote = _excerpt(line)
    if line.count in (None, 1):
        return f"{line.service} 在 {short_time(line.at or line.first_seen)}（UTC）有一条 {line.level} 日志{quote}"
    text = (
        f"{line.service} 在 {short_time(line.first_seen)} 至 {short_time(line.last_seen)}（UTC）"
        f"出现 {line.count} 次 {line.level} 日志"
    )
    return text + (f"，其中 {short_time(line.at)} 的一条为{quote}" if line.at else quote)


def _excerpt(line: Line) -> str:
    """The innermost exception of the message; when that drops an id the line names, the outermost message that
    holds it comes first."""
    core = innermost(line.message)
    if named(core, line.names) == line.names:
        return f"「{_quote(core, EXAMPLE_CHARS)}」"
    head = re.split(r":\s+", line.message, maxsplit=1)[0]
    if named(head, line.names) == line.names and head != line.message:
        return f"「{_quote(head, EXAMPLE_CHARS)}」，底层异常为「{_quote(core, EXAMPLE_CHARS)}」"
    return f"「{_quote(line.message, EXAMPLE_CHARS)}」"


def _quote(text: str, limit: int) -> str:
    """An exact prefix of ``text``; a cut is marked with a trailing ellipsis."""
    short = clip_prefix(text, limit)
    return short if short == text else short + "…"


def _metric_text(result: dict[str, Any]) -> str | None:
    """The metric, its selection and window, then per series (at most three) its labels, min, max and last; a
    single series also tells its largest change."""
    scope = result.get("scope") or {}
    series = [item for item in result.get("series") or [] if isinstance(item, dict)]
    if not series:
        return None
    how = [f"{label}={value}" for label, value in sorted((scope.get("matchers") or {}).items())]
    how += [_measure(scope)] + ([f"按 {scope['by']} 分组"] if scope.get("by") else [])
    head = (
        f"指标 {scope.get('metric')}（{'，'.join(how)}，{source_label(result, '指标')}）在 "
        f"{short_time(str(scope.get('start_time')))} 至 {short_time(str(scope.get('end_time')))}（UTC）"
    )
    parts = []
    for item in series[:MAX_SERIES_TOLD]:
        labels = "，".join(f"{label}={value}" for label, value in (item.get("labels") or {}).items())
        figures = f"最小 {item.get('min')}、最大 {item.get('max')}、最后一个点 {item.get('last')}"
        text = f"{labels} {figures}" if labels else figures
        if item.get("first_time") and item.get("first_time") != scope.get("start_time"):
            text += f"（{short_time(str(item['first_time']))} 起才有数据）"
        change = item.get("largest_change")
        if len(series) == 1 and isinstance(change, dict):
            text += (
                f"；变化最大的一步在 {short_time(str(change.get('from_time')))} 至 "
                f"{short_time(str(change.get('to_time')))}，由 {change.get('from')} 变为 {change.get('to')}"
            )
        parts.append(text)
    more = f"（共 {result.get('series_count')} 条序列）" if len(series) > MAX_SERIES_TOLD else ""
    return f"{head}：" + "；".join(parts) + more


def _measure(scope: dict[str, Any]) -> str:
    aggregation, kind = str(scope.get("aggregation")), str(scope.get("type"))
    if aggregation in ("p50", "p90", "p99"):
        return f"{aggregation} 延迟（秒）"
    if kind in RATES:
        return RATES[kind] + ("" if aggregation == "rate" else f"（{aggregation}）")
    return aggregation


def _mysql_text(result: dict[str, Any]) -> str | None:
    rows = [row for row in result.get("rows") or [] if isinstance(row, dict)]
    columns = [str(column) for column in result.get("columns") or []]
    source = (result.get("scope") or {}).get("data_source", "")
    if not rows:
        return None
    lead = f"订单库 {source} 只读查询返回 {len(rows)} 行" if len(rows) > 9 else f"订单库 {source} 只读查询结果"
    if "order_id" in columns:
        parts = [_order_row(row) for row in rows[:3]]
        return f"{lead}：" + "；".join(parts)
    if len(columns) == 2 and columns[1] in ("n", "count", "cnt"):
        parts = [f"{row.get(columns[0])} {row.get(columns[1])} 条" for row in rows[:8]]
        return f"{lead}：按 {columns[0]} 统计为 " + "、".join(parts)
    parts = ["，".join(f"{column}={row.get(column)}" for column in columns) for row in rows[:3]]
    return f"{lead}：" + "；".join(parts)


def _order_row(row: dict[str, Any]) -> str:
    text = f"订单 {row.get('order_id')}"
    if row.get("payment_status") is not None:
        text += f" 的 payment_status 为 {row['payment_status']}"
    if row.get("status") is not None:
        text += f"，支付单 status 为 {row['status']}"
    elif "status" in row:
        text += "，没有关联的支付单记录"
    if row.get("channel") is not None:
        text += f"，渠道 {row['channel']}"
    if row.get("updated_at") is not None:
        text += f"（订单 updated_at {row['updated_at']}）"
    return text


def _empty_text(observation: Observation) -> str:
    result = observation.result or {}
    if observation.name == KNOWLEDGE:
        return f"知识库中以 '{result.get('query') or observation.args.get('query')}' 检索，没有返回匹配的文档"
    scope = result.get("scope") or {}
    if observation.name == METRICS:
        matchers = "，".join(f"{label}={value}" for label, value in sorted((scope.get("matchers") or {}).items()))
        return (
            f"指标 {scope.get('metric')}（{matchers or '不限标签'}，{source_label(result, '指标')}）在 "
            f"{short_time(str(scope.get('start_time')))} 至 {short_time(str(scope.get('end_time')))}（UTC）"
            "没有任何序列（series_count 为 0）"
        )
    if observation.name == LOGS:
        return (
            f"在 {scope.get('topic')} 日志（{source_label(result)}）中以 '{scope.get('query')}' 查询 "
            f"{short_time(str(scope.get('start_time')))} 至 {short_time(str(scope.get('end_time')))}（UTC）的记录，"
            "没有匹配记录（match_count 为 0）"
        )
    params = "、".join(str(value) for value in scope.get("params") or [])
    return f"在订单库 {scope.get('data_source')} 中执行只读查询（参数 {params or '无'}），没有返回记录"
