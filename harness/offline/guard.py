"""The SemanticGuard role, by lexical support: one call, no memory, no tools.

Reads ``{query, draft, verified_evidence}`` and checks, in report order, stopping at the first problem:

1. each analysis has a verified_evidence group, and every distinctive token of its text occurs in ITS OWN
   evidence: order ids, ERR_ codes, service names, numbers of two or more digits, upper-case words (TIMEOUT,
   PAID, ALIPAY …) and snake_case names in the evidence's data (not merely in the query scope it echoes, unless
   the analysis is a negative observation), quoted phrases (「…」 “…” "…" '…' `…`) anywhere in it;
2. a NEGATIVE_OBSERVATION does not claim health (正常 / 健康 / 没有问题 / 已排除 …), and a NORMAL analysis
   does not rest on evidence with zero matches only;
3. the conclusion rests on existing analyses, at least one NORMAL, and its tokens occur in their evidence;
4. actions with side effects (扩容 / 扩大 / 重启 / 修改 / 删除 / 回滚 / 终止 / kill / restart …) require human
   confirmation, and every action / recommendation is bound to existing analyses;
5. limitations.scope names no service absent from all evidence, and says so when logs are MOCK.

Lexical support is necessary, not sufficient: it cannot tell a wrong inference made of true words.
"""

from __future__ import annotations

import re
from typing import Any

from harness.offline.text import ERROR_CODE_PATTERN, ORDER_ID_PATTERN, SERVICE_PATTERN, leaf_text, normalise

HEALTH_CLAIMS = (
    "正常", "健康", "没有问题", "无问题", "不存在问题", "已排除", "排除了", "可以排除",
    "无异常", "没有异常", "一切良好",
    "healthy", "no problem", "no issue", "ruled out", "working fine", "is fine",
)  # fmt: skip
SIDE_EFFECTS = (
    "扩容", "扩大", "重启", "修改", "删除", "回滚", "终止", "杀掉", "切换", "限流", "降级", "清理",
    "kill", "restart", "delete", "drop", "truncate", "rollback", "scale", "update",
)  # fmt: skip
_NUMBER = re.compile(r"\d{2,}")
_UPPER = re.compile(r"(?<![A-Za-z0-9_])[A-Z][A-Z0-9]{2,}(?:_[A-Z0-9]+)*(?![A-Za-z0-9_])")
_SNAKE = re.compile(r"(?<![A-Za-z0-9_])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![A-Za-z0-9_])")
_QUOTED = re.compile(r"「([^「」]+)」|“([^“”]+)”|\"([^\"]+)\"|(?<![A-Za-z])'([^']+)'(?![A-Za-z])|`([^`]+)`")
_NOT_FACTS = frozenset({"UTC", "JSON", "SQL", "API", "MOCK"})
SCOPE_KEYS = frozenset({"scope", "query"})
"""Fields that restate what was asked (the query, window, SQL), not what was found."""


def review(payload: dict[str, Any] | None) -> dict[str, str]:
    problem = _first_problem(payload) if isinstance(payload, dict) else "审查输入不是 JSON 对象，无法审查"
    if problem is None:
        return {
            "verdict": "SUPPORTED",
            "reason": "每条分析的关键数值、标识和引文都能在其自身的已验证证据中找到；结论只基于已支持的分析；"
            "有副作用的操作已标记人工确认；诊断范围没有超出证据。",
        }
    return {"verdict": "UNSUPPORTED", "reason": problem}


def distinctive_tokens(text: str) -> list[str]:
    """Every token of ``text`` that states a checkable fact: quoted phrases, then ids, codes, names, numbers."""
    return list(dict.fromkeys([*_quoted(text), *_bare_tokens(text)]))


def _quoted(text: str) -> list[str]:
    phrases = (next(g for g in match.groups() if g is not None) for match in _QUOTED.finditer(text))
    return [phrase.strip().rstrip("…").strip() for phrase in phrases if phrase.strip().rstrip("…").strip()]


def _bare_tokens(text: str) -> list[str]:
    tokens: list[str] = []
    for pattern in (ORDER_ID_PATTERN, ERROR_CODE_PATTERN, SERVICE_PATTERN, _SNAKE):
        tokens.extend(match.group(0) for match in pattern.finditer(text))
    tokens.extend(word for word in _UPPER.findall(text) if word not in _NOT_FACTS)
    tokens.extend(_NUMBER.findall(text))
    return tokens


def unsupported_token(text: str, evidence: Any, scope_is_fact: bool = False) -> str | None:
    """The first token of ``text`` its evidence does not hold, or None.

    A quoted phrase may cite the query scope itself ("以 'order-service timeout' 查询"); every other token must
    occur in the evidence's data (rows, patterns, events, excerpts): a value the agent merely put into its own
    query is no evidence that it exists. Only a negative observation, which is about the scope, may rely on it.
    """
    data = normalise(leaf_text(evidence, skip=SCOPE_KEYS))
    everything = normalise(leaf_text(evidence))
    rest = text
    for match in _QUOTED.finditer(text):
        phrase = next(g for g in match.groups() if g is not None).strip().rstrip("…").strip()
        if phrase and normalise(phrase) not in everything:
            return phrase
        rest = rest.replace(match.group(0), " ")
    haystack = everything if scope_is_fact else data
    return next((token for token in _bare_tokens(rest) if normalise(token) not in haystack), None)


def _first_problem(payload: dict[str, Any]) -> str | None:
    draft = payload.get("draft") if isinstance(payload.get("draft"), dict) else None
    groups = payload.get("verified_evidence")
    if draft is None or not isinstance(groups, list):
        return "审查输入缺少 draft 或 verified_evidence"
    evidence = {str(g.get("analysis_id")): g.get("verified_evidence") or [] for g in groups if isinstance(g, dict)}
    analyses = {str(a.get("analysis_id")): a for a in draft.get("analysis") or [] if isinstance(a, dict)}
    for analysis_id, analysis in analyses.items():
        problem = _analysis_problem(analysis_id, analysis, evidence.get(analysis_id))
        if problem:
            return problem
    problem = _conclusion_problem(draft.get("conclusion"), analyses, evidence)
    if problem:
        return problem
    for index, action in enumerate(draft.get("action_plan") or []):
        text = str(action.get("action") or "")
        if any(word in text.lower() for word in SIDE_EFFECTS) and action.get("requires_human_confirmation") is not True:
            return f"行动 {index + 1}「{text[:40]}」有副作用，但没有标记需要人工确认"
        if not _bound(action, analyses):
            return f"行动 {index + 1} 没有绑定到已有的分析"
    for index, recommendation in enumerate(draft.get("recommendations") or []):
        if not _bound(recommendation, analyses):
            return f"建议 {index + 1} 没有绑定到已有的分析"
    return _scope_problem(draft.get("limitations") or {}, list(evidence.values()))


def _analysis_problem(analysis_id: str, analysis: dict[str, Any], evidence: Any) -> str | None:
    text = str(analysis.get("text") or "")
    if not evidence:
        return f"分析 {analysis_id} 没有已验证的证据"
    if analysis.get("kind") == "NEGATIVE_OBSERVATION":
        claim = next((word for word in HEALTH_CLAIMS if word in text.lower()), None)
        if claim:
            return f"分析 {analysis_id} 把没有匹配的查询当作正向证据（「{claim}」），超出了查询范围"
    elif all(_zero(entry) for entry in evidence if isinstance(entry, dict)):
        return f"分析 {analysis_id} 是正常分析，但它的证据没有任何匹配"
    token = unsupported_token(text, evidence, scope_is_fact=analysis.get("kind") == "NEGATIVE_OBSERVATION")
    if token is not None:
        return f"分析 {analysis_id} 中的「{token}」在其已验证证据中找不到"
    return None


def _conclusion_problem(conclusion: Any, analyses: dict[str, Any], evidence: dict[str, Any]) -> str | None:
    if not isinstance(conclusion, dict):
        return None
    basis = [str(ident) for ident in conclusion.get("based_on_analysis_ids") or []]
    if not basis or any(ident not in analyses for ident in basis):
        return "结论没有绑定到已有的分析"
    if not any(analyses[ident].get("kind") == "NORMAL" for ident in basis):
        return "结论只基于没有匹配的查询（负向观察），不能由此得出结论"
    token = unsupported_token(str(conclusion.get("text") or ""), [evidence.get(ident) for ident in basis])
    if token is not None:
        return f"结论中的「{token}」在其所依据分析的证据中找不到"
    return None


def _scope_problem(limitations: dict[str, Any], evidence: list[Any]) -> str | None:
    scope = str(limitations.get("scope") or "")
    everything = normalise(leaf_text(evidence))
    for match in SERVICE_PATTERN.finditer(scope):
        if match.group(0).lower() not in everything:
            return f"诊断范围提到的 {match.group(0)} 不在任何已验证证据中"
    if "(mock)" in everything and not re.search(r"mock|模拟", scope, re.I):
        return "日志证据来自模拟数据，但诊断范围没有说明"
    return None


def _bound(item: Any, analyses: dict[str, Any]) -> bool:
    basis = item.get("based_on_analysis_ids") if isinstance(item, dict) else None
    return bool(basis) and all(str(ident) in analyses for ident in basis)


def _zero(entry: dict[str, Any]) -> bool:
    counts = [entry.get(key) for key in ("match_count", "returned_count") if key in entry]
    return bool(counts) and all(count == 0 for count in counts)
