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

_LABEL = re.compile(
    rf"^\s*(?:\d{{1,2}}\s*[.、)]\s*)?(?:(?:{words.ZH_FINDING_LABEL}){{1,3}}|(?:{words.EN_FINDING_LABEL}\s*){{1,3}})"
    r"\s*(?:[:：=]|[-—]\s)",
    re.IGNORECASE,
)
_DECLARATIVE = re.compile(words.EN_DECLARATIVE, re.IGNORECASE)
_PERFECTIVE = re.compile(r"[\u4e00-\u9fff]了(?!解)")
_COLON = re.compile(r"[:：]\s*(?=\S)")
_OBJECT_BEFORE_COLON = re.compile(
    r"(?:假设|猜想|推测|可能|可能性|疑点|问题|说法|观点|hypothesis|theory|question|whether|if|claim|assumption|idea)\s*$",
    re.IGNORECASE,
)
"""验证假设：X, the hypothesis: X — what follows the colon is what to verify, not a statement."""
_FINDING = re.compile(rf"{words.ZH_FINDING}|{words.EN_FINDING}", re.IGNORECASE)
_STATE_WORD = re.compile(words.ZH_STATE_WORD)
_SPEAKER = re.compile(rf"{words.SPEAKER}|{words.GREETING}", re.IGNORECASE)
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
_ASPECT = frozenset({"已", "已经", "正在"})
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
        and clause.lead is not Lead.ASIDE
        and not _LABEL.match(clause.rest)
        and not _OBJECT_BEFORE_COLON.search(clause.rest[: colon.start()])
    ):
        marker = _finding_of(judge(clause.rest[colon.end() :], aside=clause.aside), policy)
    return marker


def is_instruction(step: str, policy: ClaimPolicy) -> bool:
    """Whether ``step`` is an instruction to investigate: every step it starts is led by an investigative verb or
    a question, and no clause of it states a finding."""
    found = clauses(normal(step).text)
    if not any(clause.lead in _INSTRUCTING for clause in found):
        return False
    for clause in found:
        if _finding_in(clause, policy) is not None:
            return False
        if clause.starts_step and not clause.aside and clause.lead not in _INSTRUCTING | _NOT_FINDINGS:
            return False
    return True


def _finding_of(clause: Clause, policy: ClaimPolicy) -> str | None:
    label = _LABEL.match(clause.text) or _LABEL.match(clause.rest)
    if label is not None:
        return label.group().strip()
    if clause.lead is Lead.INVESTIGATE:
        reported = _REPORTED.match(clause.rest[len(clause.verb) :]) or _EN_REPORTED.match(clause.rest)
        return clause.rest[: len(clause.verb) + 1] if reported else None
    if clause.lead in _NOT_FINDINGS or _SPEAKER.match(clause.rest) or _SPEAKER.match(clause.text):
        return None
    if clause.lead is Lead.ASIDE and not clause.aside:
        return None
    marker = _FINDING.search(clause.rest) or _configured(clause.rest, policy)
    if marker is not None and _ABLE.search(clause.rest) and not isinstance(marker, str) and marker.group() in _ASPECT:
        marker = None
    if marker is not None:
        return marker if isinstance(marker, str) else marker.group()
    if clause.lead not in (Lead.STATE, Lead.UNKNOWN) or _ABLE.search(clause.rest):
        return None
    state = _STATE_WORD.search(clause.rest) or _PERFECTIVE.search(clause.rest) or _DECLARATIVE.search(clause.rest)
    return state.group() if state is not None else None


def _configured(text: str, policy: ClaimPolicy) -> str | None:
    lowered = text.lower()
    return next((marker for marker in policy.assertion_markers if marker in lowered), None)
