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

import functools
import json
import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from config.schema import DEFAULT_NON_FACT_WORDS
from harness.gate import ClaimPolicy
from harness.gate.evidence import Grounds, evidence_of
from harness.gate.grounding import ungrounded
from harness.gate.proposals import mutating_part
from harness.gate.tokens import tokenize
from offline_model.entities import ERROR_CODE_PATTERN as CODE
from offline_model.entities import ORDER_ID_PATTERN as ORDER
from offline_model.entities import SERVICE_PATTERN as SERVICE
from offline_model.lexical import leaf_text, normalise
from offline_model.quoting import looks_like_instruction

HEALTH_CLAIMS = (
    "正常", "健康", "没有问题", "无问题", "已排除", "排除了", "可以排除", "无异常", "没有异常", "一切良好", "无关",
    "没有关系", "不相关", "不受影响", "无需处理", "不需要处理", "无需联系", "可以忽略", "可以不考虑", "healthy",
    "no problem", "no issue", "ruled out", "rule out", "working fine", "is fine", "not related", "unrelated",
    "not affected", "unaffected",
)  # fmt: skip
SIDE_EFFECTS = (
    "扩容", "扩大", "调大", "重启", "修改", "删除", "回滚", "终止", "杀掉", "切换", "限流", "降级", "清理",
    "kill", "restart", "delete", "drop", "truncate", "rollback", "scale", "update",
)  # fmt: skip
_HEALTH = re.compile(
    "|".join(map(re.escape, HEALTH_CLAIMS)) + r"|不存在\S{0,6}问题|未受\S{0,8}影响|没有受到\S{0,8}影响"
)
_HEDGE = re.compile(
    r"(?:不能|无法|不足以|不代表|并不|未必|不一定)\S{0,10}$|\b(?:not|never|cannot|can't|doesn't)\b[\w ]{0,12}$"
)
_INFERENCE = re.compile(
    r"(?<![只仅])(?:说明|表明|证明|可见|可以确认|因此|所以|意味着)|\b(?:which means|so|therefore|thus)\b"
)
_ZERO_READ = re.compile(r"没有匹配|无匹配|没有返回|\b0 次|match_count 0|returned_count 0|no match", re.I)
_CAUSE = re.compile(
    r"(?:根因已确认|根本原因是|原因已查明|已确认是|可以断定|一定是|肯定是|必然是|就是因为"
    r"|root cause (?:is |was )?confirmed|definitely|certainly)[:\s]*([^,。;.]+)", re.I,
)  # fmt: skip
_CONDITIONAL = re.compile(r"^\s*(?:如果|如|若|假如|一旦|\bif\b|\bonly if\b|\bonce\b)", re.I)
_DONE = re.compile(
    r"已(?:经)?[^,，。;]{0,12}?(?:" + "|".join(SIDE_EFFECTS[:13]) + r"|执行)|has been (?:restarted|rolled back)"
)
_NEGATION = re.compile(r"不要|禁止|不得|避免|切勿|不能|\bdo not\b|\bdon't\b|\bnever\b|\bnot\b", re.I)
_FORBIDS = re.compile(r"禁止|不要|不得|严禁|切勿|不应|must not|do not|never", re.I)
_VERBS = (  # the verbs a prohibition and an action may share, each in its usual wordings
    r"修改|改为|改成|更新|删除|写入|插入|\bupdate\b|\bdelete\b|\binsert\b|\bmodify\b", r"重启|restart|reboot",
    r"拆分|拆成|\bsplit\b", r"调大|扩大|加大|increase|raise", r"重复支付|重新支付|重新发起支付|再次支付|pay again",
)  # fmt: skip
_REPORTED = re.compile(
    r"(?:手册|文档|知识库|规范|指南|说明|runbook|playbook|docs?|documentation|guide|wiki)[^,。;]{0,8}?"
    r"(?:指出|提到|写道|写着|说|称|规定|要求|建议|表示|给出|says|states|notes|mentions|recommends|advises)"
    r"|according to|(?:根据|按照?|依据)[^,。;]{0,10}?(?:手册|文档|知识库|规范|指南|runbook)",
    re.I,
)
"""A clause that reports what a cited document says."""
_ENUM = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*")
_UNREAD = re.compile(r"未|没有?|不含|不包括|无|除了|\b(?:not|no|without|excluding|except)\b", re.I)
"""A limitation that names what was not looked at (未查看 inventory-service) names what the evidence lacks."""
_UNREAD_AFTER = re.compile(r"\s*(?:(?:was|were|is|are|has|have)\s+)?(?:not|never)\b|\s*(?:未|没有?)", re.I)
_QUALIFIER = re.compile(r"全部|所有|同时|一次性|大幅|\ball\b|\bevery\b|at once|simultaneous", re.I)
_MEMBER_KEYS = {"渠道": "channel", "实例": "instance|host|pod|node", "节点": "instance|host|pod|node", "用户": "user",
                "服务": "service|upstream|app", "订单": "order", "支付单": "order"}  # fmt: skip
_MEMBER_KEYS |= {keys.split("|")[0]: keys for keys in _MEMBER_KEYS.values()}
_CLASS = r"(渠道|实例|节点|用户|服务|订单|支付单|\b(?:channel|instance|user|service|order)s?\b)"
_DETERMINER = re.compile(r"(?:所有|全部|每个|每一个|每笔|\bevery\b|\ball\b|\beach\b)[^,。;]{0,12}?" + _CLASS, re.I)
_POSTPOSED = re.compile(_CLASS + r"[^,。;]{0,6}?(?:均|都|全部|全都)", re.I)
_PERIOD = re.compile(
    r"(?:最近|过去|\blast|\bpast)\s*(?P<n>\d+|[一两二三四五六七八九十半]+|an?\b)?\s*个?\s*"
    r"(?P<u>分钟|小时|天|周|(?:min(?:ute)?|hour|day|week)s?(?![a-z]))|(?P<d>今天|今日|全天|today|昨天|yesterday)", re.I,
)  # fmt: skip
_MINUTES = {"分": 1, "mi": 1, "小": 60, "ho": 60, "天": 1440, "da": 1440, "周": 10080, "we": 10080}
_CN = {"半": 0.5, "一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_FIRST, _LAST = re.compile(r"首次|第一次|最早|\bfirst\b|earliest", re.I), re.compile(r"最后|最晚|\blast\b|latest", re.I)
_STAMP = re.compile(r"(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)")
_TIME = re.compile(r"(?<![\d:])(\d{2}:\d{2}(?::\d{2})?)(?![\d:])")
_COUNT = re.compile(  # 第 2 次 is an ordinal (attempt=2), not a count
    r"(?<![\d.])(?<!第)(?<!第 )(\d+) ?(?:次|条|笔|lines?\b|times\b|errors?\b|warnings?\b|entries\b)", re.I
)
_VALUE = re.compile(r"(?<![\w.约~])(\d{3,}|\d+(?:\.\d+)?(?:ms|s))(?![\w.])")
_WORD = re.compile(
    r"(?<![\w-])(?:[A-Z][A-Z0-9]+(?:_[A-Z0-9]+)*|[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[A-Za-z]+\d*-\d+)(?![\w-])"
)
_IP = re.compile(r"(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?![\d.])")
_NUMBER = re.compile(r"\d{2,}")
_UPPER = re.compile(r"(?<![A-Za-z0-9_])[A-Z][A-Z0-9]{2,}(?:_[A-Z0-9]+)*(?![A-Za-z0-9_])")
_SNAKE = re.compile(r"(?<![A-Za-z0-9_])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![A-Za-z0-9_])")
_QUOTED = re.compile(r"「([^「」]+)」|“([^“”]+)”|\"([^\"]+)\"|(?<![A-Za-z])'([^']+)'(?![A-Za-z])|`([^`]+)`")
_NOT_FACTS = frozenset(word.lower() for word in DEFAULT_NON_FACT_WORDS)
_nfkc = functools.partial(unicodedata.normalize, "NFKC")
SCOPE_KEYS = frozenset({"scope", "query", "asked"})
"""Fields that restate what was asked (the query, window, SQL), not what was found."""
Anchor = tuple[str, str]
"""A value a clause states, with its kind (quote, time, count, value, word): what selects evidence records."""


def review(payload: dict[str, Any] | None) -> dict[str, str]:
    problem = _first_problem(payload) if isinstance(payload, dict) else "审查输入不是 JSON 对象，无法审查"
    if problem is None:
        reason = (
            "分析、结论和行动都能在所引证据中逐条读到：数值、引文、服务、时间与记录相互对应，行动有依据并按需人工确认。"
        )
        return {"verdict": "SUPPORTED", "reason": reason}
    return {"verdict": "UNSUPPORTED", "reason": problem}


def distinctive_tokens(text: str) -> list[str]:
    """Every token of ``text`` that states a checkable fact: quoted phrases, then ids, codes, names, numbers."""
    quoted = [next(g for g in m.groups() if g is not None).strip().rstrip("…").strip() for m in _QUOTED.finditer(text)]
    return list(dict.fromkeys([*filter(None, quoted), *_bare_tokens(text)]))


def _bare_tokens(text: str) -> list[str]:
    tokens = [match.group(0) for pattern in (ORDER, CODE, SERVICE, _SNAKE) for match in pattern.finditer(text)]
    return tokens + [word for word in _UPPER.findall(text) if word.lower() not in _NOT_FACTS] + _NUMBER.findall(text)


def unsupported_token(
    text: str, evidence: Any, scope_is_fact: bool = False, operands: tuple[str, ...] = ()
) -> str | None:
    """The first token of ``text`` its evidence does not hold, or None (rule 1 of the module docstring). Numbers,
    times and numbered ids are read as the release gate reads them (units, derivations from ``operands``)."""
    text, everything = _nfkc(text), _readable(leaf_text(evidence))
    data = everything if scope_is_fact else _readable(leaf_text(_data_of(evidence)))
    for match in _QUOTED.finditer(text):
        phrase = next(g for g in match.groups() if g is not None).strip()
        if any(piece not in everything for piece in _pieces(phrase)):
            return phrase.rstrip("….")
    rest = _QUOTED.sub(" ", text)
    for token in (t for t in _bare_tokens(rest) if not t.isdigit()):
        negated = re.search(rf"(?:没有|无|未|并非|不是|\bno|\bnot|without)\s*{re.escape(token)}", rest)
        if normalise(token) not in (everything if _SNAKE.fullmatch(token) else data) and not negated:
            return token
    missing = set(ungrounded(rest, _grounds(evidence, scope_is_fact, operands), operand_texts=operands))
    tokens = tokenize(rest)
    numeric = [number.written for number in tokens.numbers] + [moment.written for moment in tokens.moments]
    numeric += [i.written for i in tokens.identifiers if not i.negated and re.search(r"\d", i.written)]
    return next((token for token in numeric if token in missing and re.search(r"\d\d", token)), None)


def _grounds(evidence: Any, scope_is_fact: bool, texts: tuple[str, ...]) -> Grounds:
    """What the release gate reads numbers, times and derived values from: the snapshot entries themselves (so a
    count of one call's entries, the unit an entry names, the asked values are read as the gate reads them), and
    ``texts`` (the question, the analyses a conclusion rests on) as found."""
    return evidence_of(_entries(evidence), scope_is_fact=scope_is_fact).merged(evidence_of([], texts))


def _entries(evidence: Any) -> list[Any]:
    """The snapshot entries in ``evidence`` (one analysis's list, or the lists of several), flattened."""
    if isinstance(evidence, list | tuple):
        return [entry for item in evidence for entry in _entries(item)]
    return [] if evidence is None else [evidence]


def _readable(text: str) -> str:
    return normalise("\n".join(line for line in _nfkc(text).splitlines() if not looks_like_instruction(line)))


def _pieces(phrase: str) -> list[str]:
    return [normalise(piece) for piece in re.split(r"…|\.\.\.", _nfkc(phrase)) if piece.strip()]


def _data_of(evidence: Any) -> Any:
    """What an evidence entry found: not the scope it echoes, unless an SQL filter that returned rows (a metric's
    ``selection``, the label values its series were selected by, is data already)."""
    if isinstance(evidence, list):
        return [_data_of(item) for item in evidence]
    if not isinstance(evidence, dict) or (evidence.get("source_type") == "MYSQL" and evidence.get("returned_count")):
        return evidence
    return {key: value for key, value in evidence.items() if key not in SCOPE_KEYS}


@dataclass(frozen=True)
class _Draft:
    """The payload as the rules read it."""

    query: str
    analyses: dict[str, dict[str, Any]]
    evidence: dict[str, list[Any]]
    negative: frozenset[str]

    def texts(self, basis: list[str]) -> tuple[str, ...]:
        return tuple(str(self.analyses[ident].get("text") or "") for ident in basis)


def _first_problem(payload: dict[str, Any]) -> str | None:
    draft, groups = payload.get("draft"), payload.get("verified_evidence")
    if not isinstance(draft, dict) or not isinstance(groups, list):
        return "审查输入缺少 draft 或 verified_evidence"
    evidence = {str(g.get("analysis_id")): g.get("verified_evidence") or [] for g in groups if isinstance(g, dict)}
    analyses = {str(a.get("analysis_id")): a for a in draft.get("analysis") or [] if isinstance(a, dict)}
    negative = frozenset(ident for ident, a in analyses.items() if a.get("kind") == "NEGATIVE_OBSERVATION")
    d = _Draft(str(payload.get("query") or ""), analyses, evidence, negative)
    for ident in analyses:
        if problem := _analysis_problem(d, ident):
            return problem
        if problem := _reading_problem(str(analyses[ident].get("text") or ""), evidence.get(ident) or []):
            return f"分析 {ident} {problem}"
    if problem := _conclusion_problem(d, draft.get("conclusion")):
        return problem
    items = [("行动", a, a.get("action")) for a in draft.get("action_plan") or [] if isinstance(a, dict)]
    items += [("建议", r, r.get("text")) for r in draft.get("recommendations") or [] if isinstance(r, dict)]
    for label, item, text in items:
        if problem := _action_problem(d, str(text or ""), item):
            return f"{label}「{str(text)[:40]}」{problem}"
    return _scope_problem(draft.get("limitations") or {}, list(evidence.values()))


def _analysis_problem(d: _Draft, ident: str) -> str | None:
    text = _nfkc(str(d.analyses[ident].get("text") or ""))
    evidence, negative = d.evidence.get(ident), ident in d.negative
    if not evidence:
        return f"分析 {ident} 没有已验证的证据"
    zeros = [_zero(entry) for entry in evidence if isinstance(entry, dict)]
    inference = (m.group(0) for m in _INFERENCE.finditer(text) if not _HEDGE.search(text[: m.start()]))
    if negative and (claim := _health(text) or next(inference, None)):
        return f"分析 {ident} 从没有匹配的查询推出了结论（「{claim}」），超出了查询范围"
    if not negative and all(zeros):
        return f"分析 {ident} 是正常分析，但它的证据没有任何匹配"
    read = (claim for part in re.split(r"[。;]", text) if _ZERO_READ.search(part) and (claim := _health(part)))
    if not negative and any(zeros) and (claim := next(read, None)):
        return f"分析 {ident} 把没有匹配的查询读成了「{claim}」"
    token = unsupported_token(text, evidence, negative, (d.query,))
    return f"分析 {ident} 中的「{token}」在其已验证证据中找不到" if token is not None else None


def _conclusion_problem(d: _Draft, conclusion: Any) -> str | None:
    if not isinstance(conclusion, dict):
        return None
    basis = [str(ident) for ident in conclusion.get("based_on_analysis_ids") or []]
    if not basis or any(ident not in d.analyses for ident in basis):
        return "结论没有绑定到已有的分析"
    if set(basis) <= d.negative:
        return "结论只基于没有匹配的查询（负向观察），不能由此得出结论"
    text, entries = _nfkc(str(conclusion.get("text") or "")), [e for i in basis for e in d.evidence.get(i) or []]
    token = unsupported_token(text, [d.evidence.get(i) for i in basis], operands=(*d.texts(basis), d.query))
    if token is not None:
        return f"结论中的「{token}」在其所依据分析的证据中找不到"
    if d.negative & set(basis) and (claim := _health(text)):
        return f"结论基于没有匹配的查询，却断言了「{claim}」"
    cause, held = _CAUSE.search(text), _readable(leaf_text(entries))
    if cause and any(normalise(word) not in held for word in re.findall(r"[\w-]{2,}", cause.group(1))):
        return f"结论断言根因已确认（「{cause.group(0)[:30]}」），但所依据的证据没有说明这一原因"
    return f"结论{problem}" if (problem := _reading_problem(text, entries)) else None


# -- reading each clause against the evidence records --------------------------------------------------------


@dataclass(frozen=True)
class _Record:
    """One log line, log pattern or row as ``key=value`` text, with its counts, times and its query's end."""

    service: str
    text: str
    counts: frozenset[int]
    first: datetime | None
    last: datetime | None
    window_end: datetime | None
    call: str = ""
    """The call it came from (its source and scope): what a reader counts over."""
    pattern_count: int | None = None
    """A log pattern stands for ``count`` lines (None: a line, an event or a row, which stands for one)."""


def _records(entries: list[Any]) -> list[_Record]:
    records = []
    unique = {json.dumps(e, sort_keys=True, ensure_ascii=False): e for e in entries if isinstance(e, dict)}
    for entry in (e for e in unique.values() if e.get("source_type") != "KNOWLEDGE" and not _zero(e)):
        selection = entry.get("selection") if isinstance(entry.get("selection"), dict) else {}
        scope, service = (
            str(entry.get("scope") or ""),
            str(entry.get("service") or selection.get("service") or "").lower(),
        )
        params, window = " ".join(re.findall(r'"([^"]*)"', scope.partition("params=")[2])), _moments(scope)
        counts = frozenset(v for k, v in entry.items() if k in ("count", "match_count") and isinstance(v, int))
        for row in entry.get("rows") or [None]:
            cells = frozenset(v for v in (row or {}).values() if isinstance(v, int) and not isinstance(v, bool))
            body = row or {k: v for k, v in entry.items() if k not in {*SCOPE_KEYS, "source", "source_type"}}
            text = " ".join(f"{k}={v}" for k, v in body.items() if not isinstance(v, dict | list))
            times: list[datetime | None] = [*sorted(_moments(text) if row is None else [])] or [None]
            end = window[-1] if len(window) > 1 else None
            readable, call, lines = _readable(f"{text} {params}"), f"{entry.get('source')} {scope}", _lines(entry, row)
            records.append(_Record(service, readable, counts | cells, times[0], times[-1], end, call, lines))
    return records


def _lines(entry: dict[str, Any], row: Any) -> int | None:
    count = entry.get("count")
    return count if row is None and isinstance(count, int) and not isinstance(count, bool) else None


def _moments(text: str) -> list[datetime]:
    return [datetime.fromisoformat(f"{m.group(1)}T{m.group(2)}") for m in _STAMP.finditer(text)]


def _reading_problem(text: str, entries: list[Any]) -> str | None:
    if not (records := _records(entries)):
        return None
    if problem := _period_problem(text := _nfkc(text), records, entries):
        return problem
    documents = _readable(leaf_text([e.get("excerpt") for e in entries if _is_knowledge(e)]))
    values = _row_values(entries)
    for sentence in re.split(r"[。;!?\n]|\.\s", text):
        quotes = [next(g for g in m.groups() if g is not None) for m in _QUOTED.finditer(sentence)]
        plain = _QUOTED.sub(lambda m, q=quotes: f" ⟦{q.index(next(g for g in m.groups() if g))}⟧ ", sentence)
        named, inherited = {m.group(0).lower() for m in SERVICE.finditer(plain)}, list[Anchor]()
        stated = ""  # after "the runbook says": what a cited document states, not what the records show
        for part in re.split(r",(?!\d{3}(?!\d))|\+", plain):
            stated = stated or (documents if _REPORTED.search(part) else "")
            found = sorted((m for p in (SERVICE, ORDER, _IP) for m in p.finditer(part)), key=lambda m: m.start())
            masked = _IP.sub(" § ", ORDER.sub(" § ", SERVICE.sub(" § ", part)))
            anchors, head = _anchors(masked, quotes), _anchors(part[: found[0].start()] if found else "", quotes)
            previous, inherited = inherited, [a for a in anchors if a[0] != "time"] or inherited
            if problem := _attribution(part, found, head or previous, quotes, records, named):
                return problem
            if values and (problem := _attribution(part, list(values.finditer(part)), [], quotes, records, named)):
                return problem
            times = [a for a in anchors if a[0] == "time"]
            entities = [m.group(0).lower() for m in found]
            clause = _Clause(masked, entities, [*inherited, *times], records, named, stated)
            if not re.search(r"不是|并非|不能|没有|未|\bnot\b|\bno\b", masked) and (problem := clause.problem()):
                return problem
    return None


def _row_values(entries: list[Any]) -> re.Pattern[str] | None:
    """The enumerated values of returned rows (a status, a channel): each carries the numbers of its own row."""
    found = {
        cell
        for entry in entries
        if isinstance(entry, dict)
        for row in entry.get("rows") or []
        if isinstance(row, dict)
        for cell in row.values()
        if isinstance(cell, str) and _ENUM.fullmatch(cell)
    }
    names = "|".join(re.escape(value) for value in sorted(found, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{names})(?![\w-])") if found else None


def _attribution(
    text: str,
    found: list[re.Match[str]],
    fallback: list[Anchor],
    quotes: list[str],
    records: list[_Record],
    named: set[str],
) -> str | None:
    """Entities listed together (A、B 与 C) share the values after them (else those before them); one entity carries
    a record for each of its values, a listed one a record for any of them. A row's value (WECHAT 2 笔) carries
    only the numbers right after it."""
    groups: list[tuple[list[str], str]] = []
    for index, match in enumerate(found):
        after = text[match.end() : found[index + 1].start() if index + 1 < len(found) else len(text)]
        if groups and re.fullmatch(r"\s*(?:[、,&/]|与|和|及|以及|\band\b|\bor\b)\s*", groups[-1][1]):
            groups[-1] = ([*groups[-1][0], match.group(0).lower()], after)
        else:
            groups.append(([match.group(0).lower()], after))
    for group, after in groups:
        anchors = _anchors(after, quotes) or fallback
        if not any(p.fullmatch(entity) for entity in group for p in (SERVICE, ORDER, _IP)):
            anchors = [a for a in _anchors(after, quotes) if a[0] in ("count", "value")]
        holding = [a for a in anchors if any(_holds(r, a) for r in records)]
        for entity in group:
            for values in [[a] for a in holding] if len(group) == 1 else [holding] if holding else []:
                if any(a[0] == "count" and int(a[1]) in _tallies(records, entity, named) for a in values):
                    continue
                if not any(_carries(r, entity, named) for r in records if any(_holds(r, a) for a in values)):
                    return f"把「{values[0][1][:40]}」归到了 {entity}，但证据中持有它的记录不属于 {entity}"
    return None


def _tallies(records: list[_Record], entity: str, named: set[str]) -> set[int]:
    """What a reader counts for ``entity`` in one call: its lines (rows, events) shown, and the lines its
    patterns stand for."""
    found: set[int] = set()
    for call in {r.call for r in records}:
        mine = [r for r in records if r.call == call and _carries(r, entity, named)]
        found.add(sum(1 for r in mine if r.pattern_count is None))
        found.add(sum(r.pattern_count or 0 for r in mine))
    return found - {0}


def _anchors(clause: str, quotes: list[str]) -> list[Anchor]:
    found = [("quote", quotes[int(i)]) for i in re.findall(r"⟦(\d+)⟧", clause)]
    rest = _STAMP.sub(lambda m: m.group(2), _PERIOD.sub(" ", clause))
    found += [("time", t) for t in _TIME.findall(rest)]
    rest = _TIME.sub(" ", rest)
    found += [("count", c) for c in _COUNT.findall(rest)] + [("value", v) for v in _VALUE.findall(rest)]
    return found + [("word", w) for w in _WORD.findall(rest) if w.lower() not in _NOT_FACTS]


def _holds(record: _Record, anchor: Anchor) -> bool:
    kind, value = anchor
    if kind == "count":
        return int(value) in record.counts
    if kind in ("quote", "time"):
        return all(piece in record.text for piece in _pieces(value))
    return re.search(rf"(?<![\w.-]){re.escape(value.lower())}(?![\w-]|\.\d)", record.text) is not None


def _carries(record: _Record, entity: str, named: set[str]) -> bool:
    """About ``entity``: the service that logged it, an attribute (upstream=, app=, order=), a value of its row; a
    service merely mentioned in a line another service logged counts only if the sentence names that one too."""
    if record.service == entity or f"={entity}" in record.text:
        return True
    mentioned = re.search(rf"(?<![\w-]){re.escape(entity)}(?![\w-])", record.text) is not None
    return mentioned and (not SERVICE.fullmatch(entity) or record.service in named)


@dataclass(frozen=True)
class _Clause:
    """One clause (entities masked as §), the entities it names, its values, and the records they select."""

    text: str
    entities: list[str]
    anchors: list[Anchor]
    records: list[_Record]
    named: set[str]
    stated: str = ""
    """The cited documents' text when the clause reports what they say (a universal they state is theirs)."""

    def problem(self) -> str | None:
        return self._edge_problem() or self._recent_problem() or self._universal_problem()

    def holding(self) -> list[Anchor]:
        return [a for a in self.anchors if any(_holds(r, a) for r in self.records)]

    def subject(self, entities: list[str] | None = None) -> list[_Record]:
        """The records carrying one of ``entities`` (the clause's, by default) and each of its quotes and words."""
        selecting = [a for a in self.holding() if a[0] in ("quote", "word")]
        carried = self.entities if entities is None else entities
        return [
            r for r in self.records
            if all(_holds(r, a) for a in selecting) and any(_carries(r, e, self.named) for e in carried or [""])
        ]  # fmt: skip

    def _edge_problem(self) -> str | None:
        times, plain = [a[1] for a in self.anchors if a[0] == "time"], _PERIOD.sub(" ", self.text)
        subject = self.subject() if any(a[0] in ("quote", "word") for a in self.holding()) else []
        for marker, edge in ((_FIRST, min((r.first for r in subject if r.first), default=None)),
                             (_LAST, max((r.last for r in subject if r.last), default=None))):  # fmt: skip
            said = marker.search(plain)
            if (
                edge
                and times
                and said
                and not any(f"{edge + timedelta(hours=h):%H:%M:%S}".startswith(t) for t in times for h in (0, 8))
            ):
                return f"说{said.group(0)}是 {times[0]}，但证据中对应记录的这一时间是 {edge:%H:%M:%S}"
        return None

    def _recent_problem(self) -> str | None:
        """Every record a value of the clause cites, and some record of each entity it names, is recent."""
        if not (minutes := _minutes(_PERIOD.search(self.text))):
            return None
        span = timedelta(minutes=minutes)
        stale = [r for r in self.records if r.window_end and r.last and r.window_end - r.last > span]
        cited = [r for a in self.holding() if a[0] in ("value", "count", "time") for r in stale if _holds(r, a)]
        old = cited + [
            r for e in self.entities if (mine := self.subject([e])) and all(r in stale for r in mine) for r in mine
        ]
        return f"说最近 {minutes:g} 分钟，但引用的记录（{old[0].last:%m-%d %H:%M}）早于这个范围" if old else None

    def _universal_problem(self) -> str | None:
        holding = self.holding()
        for match in [*_DETERMINER.finditer(self.text), *_POSTPOSED.finditer(self.text)]:
            if self.stated and normalise(match.group(0)) in self.stated:
                continue
            keys = _MEMBER_KEYS[match.group(1).lower().rstrip("s") if match.group(1).isascii() else match.group(1)]
            members = {r: set(re.findall(rf"\b\w*(?:{keys})\w*=([\w.-]+)", r.text)) for r in self.records}
            every = set().union(*members.values())
            facts = [a for a in holding if a[1].lower() not in every]
            showing = {m for r, found in members.items() if all(_holds(r, a) for a in facts) for m in found}
            if match.re is _DETERMINER and (len(every) < 2 or every - showing):
                shown = ", ".join(sorted(showing)) or "无"
                return f"用「{match.group(0)}」概括了全部{match.group(1)}，但证据只显示了 {shown}"
            if match.re is _POSTPOSED and facts and not showing:
                return f"说「{match.group(0)}」，但证据中没有同时显示这些事实的{match.group(1)}"
        if not self.entities or not re.search(r"均|都|全部|\ball\b", self.text, re.I):
            return None
        selected = [r for r in self.records if any(_holds(r, a) for a in holding)]
        if any(not any(_carries(r, e, self.named) for e in self.entities) for r in selected):
            return f"说全部来自 {'、'.join(self.entities)}，但证据中有的记录不属于它"
        return None


def _minutes(match: re.Match[str] | None) -> float | None:
    if match is None or not (unit := match.group("u")):
        return None
    amount = (match.group("n") or "1").lower()
    tens, ten, units = amount.partition("十")
    number = float(amount) if amount.isdigit() else _CN.get(amount, 1)
    number = _CN.get(tens, 1) * 10 + _CN.get(units, 0) if ten else number
    return number * _MINUTES[unit[:2].lower() if unit.isascii() else unit[0]]


def _period_problem(text: str, records: list[_Record], entries: list[Any]) -> str | None:
    latest = max([m for r in records for m in (r.first, r.last) if m] + _moments(leaf_text(entries)), default=None)
    spans: list[tuple[datetime, datetime]] = []
    for window in (_moments(str(e.get("scope") or "")) for e in entries if isinstance(e, dict)):
        if len(window) > 1:
            spans.append((window[0], window[-1]))
        elif window and latest and latest > window[0]:  # an open window: it ends soon after the latest time seen
            spans.append((window[0], latest + timedelta(hours=1)))
    for match in _PERIOD.finditer(text) if spans else ():
        day, minutes = (match.group("d") or "").lower(), _minutes(match)
        fits = [
            end - start >= timedelta(minutes=minutes) if minutes is not None
            else start.date() < end.date() if day in ("昨天", "yesterday")
            else start <= end.replace(hour=0, minute=0, second=0)
            for start, end in spans
        ]  # fmt: skip
        if not any(fits):
            return f"说「{match.group(0)}」，但证据只覆盖 {spans[0][0]:%m-%d %H:%M} 至 {spans[0][1]:%m-%d %H:%M}"
    return None


# -- actions and recommendations -----------------------------------------------------------------------------


def _action_problem(d: _Draft, text: str, item: dict[str, Any]) -> str | None:
    basis = [str(ident) for ident in item.get("based_on_analysis_ids") or []]
    if not basis or any(ident not in d.analyses for ident in basis):
        return "没有绑定到已有的分析"
    effect = mutating_part(text, ClaimPolicy.default())
    if effect and "action" in item and item.get("requires_human_confirmation") is not True:
        return f"有副作用（「{effect}」），但没有标记需要人工确认"
    if effect and "action" in item and set(basis) <= d.negative:
        return "有副作用，但只基于没有匹配的查询，没有可据以行动的发现"
    if (done := _DONE.search(text)) and not _NEGATION.search(text[: done.start()]):
        return f"把建议的动作写成了已执行（「{done.group(0)}」）"
    if d.negative & set(basis) and (claim := _health(text)):
        return f"基于没有匹配的查询，却断言了「{claim}」"
    bound = normalise(leaf_text([d.texts(basis), [d.evidence.get(i) for i in basis]]))
    for token in (m.group(0).lower() for p in (SERVICE, ORDER, _SNAKE, _UPPER) for m in p.finditer(text)):
        if effect and not _CONDITIONAL.match(text) and token not in _NOT_FACTS and token not in bound:
            return f"涉及的「{token}」不在它所依据的分析及其证据中"
    knowledge = (
        e for g in d.evidence.values() for e in g if isinstance(e, dict) and e.get("source_type") == "KNOWLEDGE"
    )
    rule = next((rule for entry in knowledge for rule in _prohibitions(entry) if _violates(text, rule)), None)
    return f"做了所引知识禁止的事（「{rule.strip(' -')[:40]}」）" if rule else None


def _prohibitions(entry: dict[str, Any]) -> list[str]:
    """Each line a cited excerpt forbids: after 禁止 / 不要 …, or every line of a section about forbidden actions."""
    section = "禁止" in str(entry.get("breadcrumb") or "")
    lines = re.split(r"[\n。；]", str(entry.get("excerpt") or ""))
    return [line if section or not m else line[m.end() :] for line in lines if (m := _FORBIDS.search(line)) or section]


def _violates(action: str, rule: str) -> bool:
    tables, unless = {t.lower() for t in _SNAKE.findall(rule)}, re.search(r"在未(\w{2})", rule)
    if (_QUALIFIER.search(rule) and not _QUALIFIER.search(action)) or (unless and unless.group(1) in action):
        return False
    for clause in re.split(r"[,，。;；]", action):
        said = next((m for v in _VERBS if re.search(v, rule, re.I) and (m := re.search(v, clause, re.I))), None)
        named = not tables or tables & {t.lower() for t in _SNAKE.findall(clause)}
        if said and named and not _NEGATION.search(clause[: said.start()]):
            return True
    return False


def _health(text: str) -> str | None:
    lowered = text.lower()
    return next((m.group(0) for m in _HEALTH.finditer(lowered) if not _HEDGE.search(lowered[: m.start()])), None)


def _scope_problem(limitations: dict[str, Any], evidence: list[Any]) -> str | None:
    scope, everything = str(limitations.get("scope") or ""), normalise(leaf_text(evidence))
    for match in SERVICE.finditer(scope):
        before, after = re.split(r"[,，。;；:：]", scope[: match.start()])[-1], scope[match.end() :]
        unread = _UNREAD.search(before) or _UNREAD_AFTER.match(after)
        if match.group(0).lower() not in everything and not unread:
            return f"诊断范围提到的 {match.group(0)} 不在任何已验证证据中"
    if "(mock)" in everything and not re.search(r"mock|模拟", scope, re.I):
        return "日志证据来自模拟数据，但诊断范围没有说明"
    return None


def _is_knowledge(entry: Any) -> bool:
    return isinstance(entry, dict) and entry.get("source_type") == "KNOWLEDGE"


def _zero(entry: dict[str, Any]) -> bool:
    counts = [entry.get(key) for key in ("match_count", "returned_count", "series_count") if key in entry]
    return bool(counts) and all(count == 0 for count in counts)
