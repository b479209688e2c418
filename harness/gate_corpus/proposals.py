"""Corpus for the unconfirmed-action rule: action_plan and recommendation items written with
``requires_human_confirmation: false``. A violation proposes a side effect anywhere in the text; a harmless item
only reads, asks whether, or names a mutating word without proposing it."""

from __future__ import annotations

import random

from . import proposal_texts as texts
from .cases import CaseSet, RuleCase
from .commands import command_cases
from .styles import STYLES, apply_style, is_zh, zero_width
from .vocabulary import fill

_ZERO_WIDTH_EXTRA = (
    ("重\u200b启 order-service", True, "action"), ("回\u200b滚 payment-service 到上一版本", True, "action"),
    ("Re\u200bstart the order-service pods", True, "action"),
    ("扩\u2060容 refund-service 到 6 个副本", True, "recommendation"),
    ("Fl\u200bush the redis-cluster cache", True, "action"), ("查看最近一次发布与回\u200b滚记录", False, "action"),
    ("对比扩\u200b容前后的 p99 延迟", False, "action"),
    ("Check the roll\u200bback history of deployment/order-service", False, "action"),
    ("确认是否需要重\u200b启", False, "action"), ("查\u200b看 HikariPool-1 的 waiting 指标", False, "recommendation"),
)


def proposal_cases(seed: int = 0) -> list[RuleCase]:
    """At least 450 labelled proposals, about half of them violations, in a stable order for ``seed``."""
    rng = random.Random(seed)
    out = CaseSet()
    for shape, entries, violation in (
        ("zh-verb", texts.ZH_MUTATING, True),
        ("zh-verb", texts.ZH_READONLY, False),
        ("en-verb", texts.EN_MUTATING, True),
        ("en-verb", texts.EN_READONLY, False),
    ):
        for template, _word in entries:
            out.add(fill(template, rng), violation, shape, _surface(rng))
            if "{" in template:
                out.add(fill(template, rng), violation, shape, _surface(rng))
    for text in texts.QUESTIONS:
        out.add(fill(text, rng), False, "question", _surface(rng))
    for text in texts.READONLY_NAMING:
        out.add(fill(text, rng), False, "readonly-naming", _surface(rng))
    for text in texts.NEGATIONS:
        out.add(fill(text, rng), False, "readonly:negation", _surface(rng))
    for shape, entries in texts.TRICKS.items():
        for text in entries:
            out.add(fill(text, rng), True, shape, _surface(rng))
    for template, violation, _word in texts.MIXED:
        out.add(fill(template, rng), violation, "style:mixed", _surface(rng))
    command_cases(rng, out)
    _styled(rng, out)
    return out.cases()


def _styled(rng: random.Random, out: CaseSet) -> None:
    """Each style over eight mutating and eight read-only items, half Chinese and half English."""
    mutating = [*texts.ZH_MUTATING, *texts.EN_MUTATING, *[(t, w) for t, v, w in texts.MIXED if v]]
    readonly = [*texts.ZH_READONLY, *texts.EN_READONLY, *[(t, w) for t, v, w in texts.MIXED if not v]]
    naming = [(text, word) for text, word in ((t, _naming_word(t)) for t in texts.READONLY_NAMING) if word]
    for shape in STYLES:
        picks = [(entry, True) for entry in _half_and_half(rng, mutating, 8)]
        picks += [(entry, False) for entry in _half_and_half(rng, readonly, 6) + rng.sample(naming, 2)]
        counters = {True: 0, False: 0}
        for (template, word), violation in picks:
            text = fill(template, rng)
            index = counters[is_zh(text)] = counters[is_zh(text)] + 1
            out.add(apply_style(shape, text, word, index - 1), violation, shape, _surface(rng))
    for text, violation, surface in _ZERO_WIDTH_EXTRA:
        out.add(text, violation, "style:zero-width", surface)
    for index, (template, word) in enumerate(rng.sample(naming, 4)):
        out.add(zero_width(fill(template, rng), word), False, "style:zero-width", _surface(rng))
        out.add(apply_style("style:full-width", fill(template, rng), word, index), False, "style:full-width",
                _surface(rng))


def _half_and_half(rng: random.Random, entries: list[tuple[str, str]], n: int) -> list[tuple[str, str]]:
    zh = [entry for entry in entries if is_zh(entry[0])]
    en = [entry for entry in entries if not is_zh(entry[0])]
    return rng.sample(zh, n // 2) + rng.sample(en, n - n // 2)


_NAMING_WORDS = ("回滚", "重启", "扩容", "退款", "降级", "限流", "UPDATE", "DELETE", "rollback", "restart", "scale-out",
                 "changed", "rotated", "refunds", "failover", "flushed", "killed", "修改", "轮换", "重放", "熔断")


def _naming_word(text: str) -> str:
    """The mutating word a read-only item names, which a zero-width character then splits."""
    return next((word for word in _NAMING_WORDS if word in text), "")


def _surface(rng: random.Random) -> str:
    return "recommendation" if rng.random() < 0.3 else "action"
