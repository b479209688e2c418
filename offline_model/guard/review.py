"""The SemanticGuard role, by lexical reading: one call, no memory, no tools (a deterministic model, not an LLM).

Reads ``{query, draft, verified_evidence}`` and checks, in report order, stopping at the first problem:

1. each analysis has evidence and says only what ITS OWN evidence holds: quoted phrases (「…」 “…” "…" '…' `…`, an
   ellipsis skips text) anywhere in it; ids, ERR_ codes, services and upper-case values in its data (a value put
   only into a query shows nothing, unless the analysis is a negative observation or an SQL query returned rows);
   table and column names, numbers, dates and times anywhere in it, read as the release gate reads them
   (``harness.gate.grounding`` on the snapshot entries: derived values, counts of one call's entries, the unit an
   entry names). A value right after a negation is not claimed; evidence that addresses the reader (an injection)
   says nothing;
2. nothing is concluded from absence: a NEGATIVE_OBSERVATION (zero matches, no rows, no document), or a sentence
   reading a zero-match result, states no health or exclusion (正常 / 无关 / 已排除 / 未受影响 / ruled out …) and
   draws no inference (说明 / 因此 / which means; 只说明 is fine); a NORMAL analysis rests on matches; a conclusion,
   action or recommendation based on a negative observation states no health or exclusion either;
3. each clause is read against the records (log lines, patterns, rows) its values select; a clause without values
   continues the previous one of its sentence:
   - a service, order id or IP said to have a quote, code, count, time or value is carried by a record holding it
     (the service that logged it, or an attribute: upstream= / app= / channel=), not merely by a record near it; a
     count is also carried when it is what a reader counts for the entity in one call (its lines shown, or the
     lines its patterns stand for); 第 N 次 is an ordinal, not a count;
   - 首次 / 最早 / first names the earliest time of the records selected, 最后 / last the latest;
   - 最近 N / last N over a longer window: each record a value of the clause cites, and some record of each entity
     it names, lies in the last N of it;
   - 所有 / 全部 / 每个 / every + a class (渠道, 实例, 用户, 服务, 订单) needs two or more members in the evidence, each
     showing the clause's facts; "class 均 / 都" needs one member showing them; 均 / 都 / all said of a named
     entity needs every selected record to carry it; after "the runbook says" (手册指出 …) a universal the cited
     documents state is theirs, not a claim about the records;
4. a claimed period fits a window of the evidence: 最近 / 过去 N, 今天 / today, 昨天 / yesterday (an open SQL window
   ends at most an hour after the latest time it shows);
5. the conclusion rests on existing analyses, at least one NORMAL, says only what their evidence holds, and asserts
   no confirmed cause (根因已确认 / 一定是 / root cause confirmed …) whose words that evidence does not state;
6. actions and recommendations are bound to existing analyses; a side effect (the release gate's ``mutating_part``)
   needs, in an action, a NORMAL analysis to act on and human confirmation, and, unless conditional (如 / if …), every
   identifier it touches in the text or evidence of its analyses; none is written as done (已重启 …); none does
   what cited knowledge forbids (禁止 / 不要 / 不得, or a 禁止 section: the same verb, table and 全部 / 同时 / 大幅,
   unless it does the check an "在未…的情况下" names);
7. limitations.scope names no service absent from all evidence (unless as what was not looked at: 未查看 …, not
   checked …), and says so when logs are MOCK.

Lexical reading is necessary, not sufficient: it cannot tell every wrong inference made of true words.
"""

from __future__ import annotations

import re
from typing import Any

from harness.language import DEFAULT_LANGUAGE, Language
from offline_model.entities import SERVICE_PATTERN as SERVICE
from offline_model.guard.actions import action_problem
from offline_model.guard.claims import CAUSE, HEDGE, INFERENCE, ZERO_READ, health
from offline_model.guard.draft import Draft
from offline_model.guard.evidence import is_zero, nfkc, readable_text
from offline_model.guard.problem import Problem
from offline_model.guard.reading import reading_problem
from offline_model.guard.tokens import unsupported_token
from offline_model.lexical import leaf_text, normalise

_UNREAD = re.compile(r"未|没有?|不含|不包括|无|除了|\b(?:not|no|without|excluding|except)\b", re.I)
"""A limitation that names what was not looked at (未查看 inventory-service) names what the evidence lacks."""
_UNREAD_AFTER = re.compile(r"\s*(?:(?:was|were|is|are|has|have)\s+)?(?:not|never)\b|\s*(?:未|没有?)", re.I)


SUPPORTED = Problem(
    "分析、结论和行动都能在所引证据中逐条读到：数值、引文、服务、时间与记录相互对应，行动有依据并按需人工确认。",
    "Every analysis, the conclusion and the actions can be read item by item in the cited evidence: the values, "
    "quotes, services, times and records match, and the actions have a basis and wait for a human where needed.",
)
"""The reason of a SUPPORTED verdict, in both languages."""


def review(payload: dict[str, Any] | None, language: Language = DEFAULT_LANGUAGE) -> dict[str, str]:
    """The verdict on ``payload``, its reason in ``language`` (the one the guard prompt asks for)."""
    not_json = Problem(
        "审查输入不是 JSON 对象，无法审查",
        "The review input is not a JSON object and cannot be reviewed",
    )
    problem = _first_problem(payload) if isinstance(payload, dict) else not_json
    if problem is None:
        return {"verdict": "SUPPORTED", "reason": SUPPORTED.text(language)}
    return {"verdict": "UNSUPPORTED", "reason": problem.text(language)}


def _first_problem(payload: dict[str, Any]) -> Problem | None:
    draft, groups = payload.get("draft"), payload.get("verified_evidence")
    if not isinstance(draft, dict) or not isinstance(groups, list):
        return Problem(
            "审查输入缺少 draft 或 verified_evidence",
            "The review input lacks the draft or verified_evidence",
        )
    evidence = {str(g.get("analysis_id")): g.get("verified_evidence") or [] for g in groups if isinstance(g, dict)}
    analyses = {str(a.get("analysis_id")): a for a in draft.get("analysis") or [] if isinstance(a, dict)}
    negative = frozenset(ident for ident, a in analyses.items() if a.get("kind") == "NEGATIVE_OBSERVATION")
    d = Draft(str(payload.get("query") or ""), analyses, evidence, negative)
    for ident in analyses:
        if problem := _analysis_problem(d, ident):
            return problem
        if problem := reading_problem(str(analyses[ident].get("text") or ""), evidence.get(ident) or []):
            return problem.of(f"分析 {ident} ", f"Analysis {ident} ")
    if problem := _conclusion_problem(d, draft.get("conclusion")):
        return problem
    items = [("行动", "Action", a, a.get("action")) for a in draft.get("action_plan") or [] if isinstance(a, dict)]
    items += [
        ("建议", "Recommendation", r, r.get("text")) for r in draft.get("recommendations") or [] if isinstance(r, dict)
    ]
    for zh, en, item, text in items:
        if problem := action_problem(d, str(text or ""), item):
            return problem.of(f"{zh}「{str(text)[:40]}」", f'{en} "{str(text)[:40]}" ')
    return _scope_problem(draft.get("limitations") or {}, list(evidence.values()))


def _analysis_problem(d: Draft, ident: str) -> Problem | None:
    text = nfkc(str(d.analyses[ident].get("text") or ""))
    evidence, negative = d.evidence.get(ident), ident in d.negative
    if not evidence:
        return Problem(f"分析 {ident} 没有已验证的证据", f"Analysis {ident} has no verified evidence")
    zeros = [is_zero(entry) for entry in evidence if isinstance(entry, dict)]
    inference = (m.group(0) for m in INFERENCE.finditer(text) if not HEDGE.search(text[: m.start()]))
    if negative and (claim := health(text) or next(inference, None)):
        return Problem(
            f"分析 {ident} 从没有匹配的查询推出了结论（「{claim}」），超出了查询范围",
            f'Analysis {ident} draws a conclusion ("{claim}") from a query with no match, beyond what it queried',
        )
    if not negative and all(zeros):
        return Problem(
            f"分析 {ident} 是正常分析，但它的证据没有任何匹配",
            f"Analysis {ident} is a NORMAL analysis, but its evidence has no match at all",
        )
    read = (claim for part in re.split(r"[。;]", text) if ZERO_READ.search(part) and (claim := health(part)))
    if not negative and any(zeros) and (claim := next(read, None)):
        return Problem(
            f"分析 {ident} 把没有匹配的查询读成了「{claim}」",
            f'Analysis {ident} reads a query with no match as "{claim}"',
        )
    token = unsupported_token(text, evidence, negative, (d.query,))
    if token is None:
        return None
    return Problem(
        f"分析 {ident} 中的「{token}」在其已验证证据中找不到",
        f'Analysis {ident} states "{token}", which its verified evidence does not hold',
    )


def _conclusion_problem(d: Draft, conclusion: Any) -> Problem | None:
    if not isinstance(conclusion, dict):
        return None
    basis = [str(ident) for ident in conclusion.get("based_on_analysis_ids") or []]
    if not basis or any(ident not in d.analyses for ident in basis):
        return Problem("结论没有绑定到已有的分析", "The conclusion is not bound to existing analyses")
    if set(basis) <= d.negative:
        return Problem(
            "结论只基于没有匹配的查询（负向观察），不能由此得出结论",
            "The conclusion rests only on queries with no match (negative observations), which support no conclusion",
        )
    text, entries = nfkc(str(conclusion.get("text") or "")), [e for i in basis for e in d.evidence.get(i) or []]
    token = unsupported_token(text, [d.evidence.get(i) for i in basis], operands=(*d.texts(basis), d.query))
    if token is not None:
        return Problem(
            f"结论中的「{token}」在其所依据分析的证据中找不到",
            f'The conclusion states "{token}", which the evidence of the analyses it rests on does not hold',
        )
    if d.negative & set(basis) and (claim := health(text)):
        return Problem(
            f"结论基于没有匹配的查询，却断言了「{claim}」",
            f'The conclusion rests on a query with no match, yet asserts "{claim}"',
        )
    cause, held = CAUSE.search(text), readable_text(leaf_text(entries))
    if cause and any(normalise(word) not in held for word in re.findall(r"[\w-]{2,}", cause.group(1))):
        said = cause.group(0)[:30]
        return Problem(
            f"结论断言根因已确认（「{said}」），但所依据的证据没有说明这一原因",
            f'The conclusion asserts a confirmed root cause ("{said}"), but the evidence it rests on does not state it',
        )
    return problem.of("结论", "The conclusion ") if (problem := reading_problem(text, entries)) else None


def _scope_problem(limitations: dict[str, Any], evidence: list[Any]) -> Problem | None:
    scope, everything = str(limitations.get("scope") or ""), normalise(leaf_text(evidence))
    for match in SERVICE.finditer(scope):
        before, after = re.split(r"[,，。;；:：]", scope[: match.start()])[-1], scope[match.end() :]
        unread = _UNREAD.search(before) or _UNREAD_AFTER.match(after)
        if match.group(0).lower() not in everything and not unread:
            return Problem(
                f"诊断范围提到的 {match.group(0)} 不在任何已验证证据中",
                f"The diagnosis scope names {match.group(0)}, which is in no verified evidence",
            )
    if "(mock)" in everything and not re.search(r"mock|模拟", scope, re.I):
        return Problem(
            "日志证据来自模拟数据，但诊断范围没有说明",
            "The log evidence is mock data, but the diagnosis scope does not say so",
        )
    return None
