"""Findings judged by shape: a plan step must be an instruction, and neither a step nor a SYSTEM_CHAT sentence may
state a finding, in any wording.

The same classifier serves both (:func:`finding`, :func:`is_instruction`), clause by clause
(:mod:`harness.gate.clauses`). A clause states a finding when

- it opens with a finding's label and a colon (结论：, 根因：, 定位结果：, Root cause:, Diagnosis:);
- or, not being an instruction, a question, a prohibition or a condition, it states a cause, a discovery or a
  verdict (导致, 由于, 经排查, 已定位, 日志显示, 就是; caused by, due to, turned out, we found, is down …), a state
  (已, 已经, 正在, or a state word with a subject: 耗尽, 宕机, 不可用 …), or a phrase of the operator's
  ``harness.plan.assertion-markers``;
- or it is led by an investigative verb that reports rather than instructs: 确认了, 定位到, 查到, 发现 …;
  Confirmed, Verified, Found, Identified ….

An instruction is led by an investigative verb (确认主库是否宕机, Verify whether the root cause is lock contention:
what follows the verb is what to look at, whatever it names) or asks a question to investigate. A sentence about
the assistant itself, a greeting, or one on what the user may ask (我可以帮你查询日志, 你好, 例如：…) states no
finding.
"""

from __future__ import annotations

import re

from harness.gate import lexicon as words
from harness.gate.clauses import Clause, Lead, clauses, judge
from harness.gate.policy import ClaimPolicy
from harness.gate.text import normal
from harness.gate.tokens import tokenize
from harness.gate.verbs import masked

_LABEL = re.compile(
    rf"^\s*(?:\d{{1,2}}\s*[.、)]\s*)?(?:(?:{words.ZH_FINDING_LABEL}){{1,3}}|(?:{words.EN_FINDING_LABEL}\s*){{1,3}})"
    r"\s*(?:[:：=]|[-—]\s)",
    re.IGNORECASE,
)
_DECLARATIVE = re.compile(words.EN_DECLARATIVE, re.IGNORECASE)
_PERFECTIVE = re.compile(r"[\u4e00-\u9fff]了(?!解)")
_COLON = re.compile(r"(?<!\d)[:：](?!\d)\s*(?=\S)")
_OBJECT_BEFORE_COLON = re.compile(
    r"(?:假设|猜想|推测|可能|可能性|疑点|问题|说法|观点|hypothesis|theory|question|whether|if|claim|assumption|idea)\s*$",
    re.IGNORECASE,
)
"""验证假设：X, the hypothesis: X — what follows the colon is what to verify, not a statement."""
_LABELLED = re.compile(rf"^\s*(?:{words.CHECK_LABEL}|{words.INTENT_LABEL})\s*[:：]", re.IGNORECASE)
"""Hypothesis to verify:, 目标： — the colon belongs to the label, and what follows is the clause itself."""
_FINDING = re.compile(rf"{words.ZH_FINDING}|{words.EN_FINDING}", re.IGNORECASE)
_STATE_WORD = re.compile(words.ZH_STATE_WORD)
_SPEAKER = re.compile(words.SPEAKER, re.IGNORECASE)
_REPORTED = re.compile(
    r"^\s*(?:了|到(?!底)|出(?!现)|完|过(?![滤去来])|得|:|：|发现|显示|表明|结果|后发现|后确认|中发现|可知)"
)
_EN_REPORTED = re.compile(
    r"^(?:confirmed|verified|checked|found|identified|determined|discovered|traced|located|pinpointed|noticed|"
    r"observed|saw|seen|detected|established|proved|proven|isolated|narrowed|diagnosed|analy[sz]ed|investigated)\b",
    re.IGNORECASE,
)
_ABLE = re.compile(r"可以|能够|能|会|支持|帮你|帮您|帮助|用于|负责|擅长|\b(?:can|could|will|able to|help)\b", re.I)
"""What the assistant can do (可以排查线上故障): a capability names a state without stating it."""
_WEAK_WITH_ABILITY = frozenset({"已", "已经", "正在", "存在", "出现", "故障", "超时", "失败", "异常", "报错", "告警"})
"""Words that a capability names without stating (我可以帮你排查故障、超时和异常): no finding next to 可以/can."""
_PURPOSE = re.compile(
    rf"^(?:以便|以免|便于|用于|从而|来确认|以确认|看是否|像|类似|诸如|{words.EXAMPLE_LABEL}|so that|to see|to confirm"
    r"|to check"
    r"|to verify|to determine|to find|to understand|to rule out|in order to|e\.g\.|for example|for instance|such as)",
    re.IGNORECASE,
)
"""An aside that only says why or gives an example: nothing is stated in it."""
_LISTING = re.compile(r"^(?:例如|比如|譬如|诸如|such as|like|e\.g\.?|for example|including|包括)", re.IGNORECASE)
"""例如支付超时、连接池耗尽: kinds of problem listed, none stated (a value with them would be a claim)."""
_GREETING = re.compile(rf"{words.GREETING}[\s~!,.:;]*", re.IGNORECASE)
_COPULA = re.compile(r"[是为有]|\b(?:is|are|was|were|has|have|had)\b", re.IGNORECASE)
_WEAK = re.compile(words.ZH_WEAK_STATE)
_STATED_IN_OBJECT = re.compile(
    r"已经(?![^,;，；]{0,6}的)|\b(?:is|are|was|were) (?:now |already |still )?(?:down|up|full|exhausted)\b"
)
_ASKING = re.compile(rf"{words.ZH_QUESTION}|\b(?:whether|if)\b", re.IGNORECASE)
_GOES_ON = re.compile(
    r"^(?:and\s+|but\s+)?(?:say|tell|mention|note|flag|mark|state|cite|show|give|explain|point|admit|answer|ask|let"
    r"|keep|stay|never|always|only|also|just|don't|do not|won't|will|can|cannot)\b"
    r"|^(?:也|还|并|而且|但|但是|同时)?\s*(?:会|不会|可以|能|只|仅|帮|为你|给出|提供|说明|标注|注明|引用)",
    re.IGNORECASE,
)
_NOT_FINDINGS = frozenset({Lead.QUESTION, Lead.PROHIBIT, Lead.CONDITION})
_INSTRUCTING = frozenset({Lead.INVESTIGATE, Lead.QUESTION})


def finding(text: str, policy: ClaimPolicy) -> str | None:
    """The first clause of ``text`` that states a finding (its marker, or its start), or None. A clause that goes on
    from what the assistant says of itself (I only report …, and say so …) is the assistant's too."""
    speaking = False
    for clause in clauses(normal(text).text):
        if clause.starts_step:
            speaking = False
        if speaking and _GOES_ON.match(clause.rest):
            continue
        marker = _finding_in(clause, policy)
        if marker is not None:
            return marker
        speaking = bool(_SPEAKER.match(clause.rest) or _SPEAKER.match(clause.text)) or speaking
    return None


def _finding_in(clause: Clause, policy: ClaimPolicy) -> str | None:
    """A finding of the clause itself, or of what follows a colon in it (Check the pool: it is exhausted)."""
    marker = _finding_of(clause, policy)
    colon = _COLON.search(clause.rest)
    if (
        marker is None
        and colon is not None
        and clause.lead not in (Lead.ASIDE, Lead.QUESTION)
        and not clause.question
        and not _LABEL.match(clause.rest)
        and not _LABELLED.match(clause.rest)
        and not _OBJECT_BEFORE_COLON.search(clause.rest[: colon.start()])
    ):
        after = judge(clause.rest[colon.end() :], aside=clause.aside)
        marker = _finding_of(after, policy)
        if marker is None and after.lead not in _INSTRUCTING | _NOT_FINDINGS and _states_a_fact(after.rest, policy):
            marker = after.rest[:20]  # Trace the request: 92% of the latency sits in risk-engine
    return marker


def is_instruction(step: str, policy: ClaimPolicy) -> bool:
    """Whether ``step`` is an instruction to investigate: every step it starts is led by an investigative verb or
    a question, and no clause of it states a finding."""
    found = [clause for clause in clauses(normal(step).text) if clause.rest]
    if not any(clause.lead in _INSTRUCTING for clause in found):
        return False
    for clause in found:
        if _finding_in(clause, policy) is not None:
            return False
        if clause.starts_step and not clause.aside and clause.lead not in _INSTRUCTING | _NOT_FINDINGS:
            return False
    return True


def _finding_of(clause: Clause, policy: ClaimPolicy) -> str | None:
    greeting = _GREETING.match(clause.rest)
    if greeting is not None:  # 你好～看起来 X 有点问题: the greeting says nothing, the rest may
        rest = clause.rest[greeting.end() :].lstrip(" ~!,.:;")
        if not rest:
            return None
        clause = judge(rest, aside=clause.aside)
    label = _LABEL.match(clause.text) or _LABEL.match(clause.rest)
    if label is not None:
        return label.group().strip()
    if clause.question or clause.lead in _NOT_FINDINGS:
        return None
    if clause.lead is Lead.INVESTIGATE and clause.rest.lower().startswith(clause.verb.lower()):
        return _reported(clause)
    if _SPEAKER.match(clause.rest) or _SPEAKER.match(clause.text):
        return None
    if clause.lead is Lead.ASIDE and _PURPOSE.match(clause.rest):
        return None
    rest = masked(clause.rest)  # 比如《支付超时排查手册》: a title states nothing
    strong = _FINDING.search(rest) or _STATE_WORD.search(rest)
    able = _ABLE.search(clause.text)
    listing = clause.lead is Lead.ASIDE and _LISTING.match(clause.rest) and not _states_a_fact(clause.rest, policy)
    if strong is not None and not (able and strong.group() in _WEAK_WITH_ABILITY) and not listing:
        return strong.group()
    if (configured := _configured(rest, policy)) is not None:
        return configured
    weak = _PERFECTIVE.search(rest) or _DECLARATIVE.search(rest) or _COPULA.search(rest) or _WEAK.search(rest)
    if weak is not None and not able and _states_a_fact(clause.rest, policy):
        return weak.group()
    return None


def _reported(clause: Clause) -> str | None:
    """An investigative verb that reports what was found (确认了, 定位到, Confirmed), or whose object states a fact
    (看 RT 已经翻倍) rather than asks one (确认主库是否已宕机)."""
    after = clause.rest[len(clause.verb) :]
    if _REPORTED.match(after) or _EN_REPORTED.match(clause.rest):
        return clause.rest[: len(clause.verb) + 1]
    stated = _STATED_IN_OBJECT.search(after)
    if stated is not None and not _ASKING.search(after):
        return stated.group()
    return None


def _states_a_fact(text: str, policy: ClaimPolicy) -> bool:
    """A value a reader could check: an identifier, a number or a time (what turns "is"/"了" into a claim)."""
    tokens = tokenize(text, policy.non_facts)
    return bool(tokens.identifiers or tokens.numbers or tokens.moments)


def _configured(text: str, policy: ClaimPolicy) -> str | None:
    lowered = text.lower()
    return next((marker for marker in policy.assertion_markers if marker in lowered), None)
