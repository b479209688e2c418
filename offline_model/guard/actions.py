"""Rule 6: actions and recommendations are bound, confirmed where they change things, not done, not forbidden."""

from __future__ import annotations

import re
from typing import Any

from harness.gate import ClaimPolicy
from harness.gate.proposals import mutating_part
from offline_model.entities import ORDER_ID_PATTERN as ORDER
from offline_model.entities import SERVICE_PATTERN as SERVICE
from offline_model.guard.claims import health
from offline_model.guard.draft import Draft
from offline_model.guard.evidence import NOT_FACTS
from offline_model.guard.problem import Problem
from offline_model.guard.tokens import SNAKE, UPPER
from offline_model.lexical import leaf_text, normalise

SIDE_EFFECTS = (
    "扩容", "扩大", "调大", "重启", "修改", "删除", "回滚", "终止", "杀掉", "切换", "限流", "降级", "清理",
    "kill", "restart", "delete", "drop", "truncate", "rollback", "scale", "update",
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
_QUALIFIER = re.compile(r"全部|所有|同时|一次性|大幅|\ball\b|\bevery\b|at once|simultaneous", re.I)


def action_problem(d: Draft, text: str, item: dict[str, Any]) -> Problem | None:
    """What is wrong with one action or recommendation, said as a predicate of it."""
    basis = [str(ident) for ident in item.get("based_on_analysis_ids") or []]
    if not basis or any(ident not in d.analyses for ident in basis):
        return Problem("没有绑定到已有的分析", "is not bound to existing analyses")
    effect = mutating_part(text, ClaimPolicy.default())
    if effect and "action" in item and item.get("requires_human_confirmation") is not True:
        return Problem(
            f"有副作用（「{effect}」），但没有标记需要人工确认",
            f'has a side effect ("{effect}") but is not marked as needing human confirmation',
        )
    if effect and "action" in item and set(basis) <= d.negative:
        return Problem(
            "有副作用，但只基于没有匹配的查询，没有可据以行动的发现",
            "has a side effect but rests only on queries with no match: there is no finding to act on",
        )
    if (done := _DONE.search(text)) and not _NEGATION.search(text[: done.start()]):
        return Problem(
            f"把建议的动作写成了已执行（「{done.group(0)}」）",
            f'states the proposed action as done ("{done.group(0)}")',
        )
    if d.negative & set(basis) and (claim := health(text)):
        return Problem(
            f"基于没有匹配的查询，却断言了「{claim}」",
            f'rests on a query with no match, yet asserts "{claim}"',
        )
    bound = normalise(leaf_text([d.texts(basis), [d.evidence.get(i) for i in basis]]))
    for token in (m.group(0).lower() for p in (SERVICE, ORDER, SNAKE, UPPER) for m in p.finditer(text)):
        if effect and not _CONDITIONAL.match(text) and token not in NOT_FACTS and token not in bound:
            return Problem(
                f"涉及的「{token}」不在它所依据的分析及其证据中",
                f'touches "{token}", which is not in the analyses it rests on or in their evidence',
            )
    knowledge = (
        e for g in d.evidence.values() for e in g if isinstance(e, dict) and e.get("source_type") == "KNOWLEDGE"
    )
    rule = next((rule for entry in knowledge for rule in _prohibitions(entry) if _violates(text, rule)), None)
    if rule is None:
        return None
    forbidden = rule.strip(" -")[:40]
    return Problem(f"做了所引知识禁止的事（「{forbidden}」）", f'does what the cited knowledge forbids ("{forbidden}")')


def _prohibitions(entry: dict[str, Any]) -> list[str]:
    """Each line a cited excerpt forbids: after 禁止 / 不要 …, or every line of a section about forbidden actions."""
    section = "禁止" in str(entry.get("breadcrumb") or "")
    lines = re.split(r"[\n。；]", str(entry.get("excerpt") or ""))
    return [line if section or not m else line[m.end() :] for line in lines if (m := _FORBIDS.search(line)) or section]


def _violates(action: str, rule: str) -> bool:
    tables, unless = {t.lower() for t in SNAKE.findall(rule)}, re.search(r"在未(\w{2})", rule)
    if (_QUALIFIER.search(rule) and not _QUALIFIER.search(action)) or (unless and unless.group(1) in action):
        return False
    for clause in re.split(r"[,，。;；]", action):
        said = next((m for v in _VERBS if re.search(v, rule, re.I) and (m := re.search(v, clause, re.I))), None)
        named = not tables or tables & {t.lower() for t in SNAKE.findall(clause)}
        if said and named and not _NEGATION.search(clause[: said.start()]):
            return True
    return False
