"""Corpus for the finding rule: Diagnosis Plan steps (surface ``plan``) must be instructions, and a SYSTEM_CHAT
sentence (surface ``system``) must state no finding about the user's systems."""

from __future__ import annotations

import random

from . import finding_texts as texts
from .cases import CaseSet, RuleCase
from .styles import apply_style, is_zh, zero_width
from .vocabulary import fill

_STYLES = ("style:markdown", "style:numbered", "style:full-width", "style:zero-width", "style:punct", "style:combined")
_ZERO_WIDTH_EXTRA = (
    ("根\u200b因是连接池耗尽", True, "plan"), ("根\u200b因：order_db 主库宕机", True, "plan"),
    ("经\u200b排查，HikariPool-1 已耗尽", True, "plan"),
    ("Root\u200b cause: lock contention on biz_order", True, "plan"),
    ("Ro\u200bot cause: the ALIPAY channel", True, "plan"), ("结\u200c论：支付超时由连接池耗尽导致", True, "plan"),
    ("根\u200b因是主库宕机，不过我需要更多信息", True, "system"), ("定位根\u200b因", False, "plan"),
    ("确认主库是否宕\u200b机", False, "plan"),
    ("Verify whether the root\u200b cause is lock contention", False, "plan"),
    ("我可以帮你定位根\u200b因", False, "system"),
)


def finding_cases(seed: int = 0) -> list[RuleCase]:
    """At least 350 labelled plan steps and SYSTEM_CHAT sentences, in a stable order for ``seed``."""
    rng = random.Random(seed)
    out = CaseSet()
    for text, shape in texts.SYSTEM_FINDINGS:
        out.add(fill(text, rng), True, shape, "system")
    for shape, entries in texts.INSTRUCTIONS.items():
        for template in entries:
            _twice(out, rng, template, False, shape, "plan")
    for text in texts.FINDING_WORDS:
        out.add(fill(text, rng), False, "trick:finding-words", "plan")
    for text in texts.FINDING_THEN_INSTRUCTION:
        out.add(fill(text, rng), True, "trick:finding-then-instruction", "plan")
    for shape, family in texts.FAMILIES.items():
        for index, (template, violation) in enumerate(family):
            _twice(out, rng, template, violation, shape, "plan")
            if violation:
                out.add(_system_variant(fill(template, rng), index), True, shape, "system")
    for shape, system_entries in texts.SYSTEM.items():
        for template, violation in system_entries:
            out.add(fill(template, rng), violation, shape, "system")
    _styled(rng, out)
    return out.cases()


def _twice(out: CaseSet, rng: random.Random, template: str, violation: bool, shape: str, surface: str) -> None:
    out.add(fill(template, rng), violation, shape, surface)
    if "{" in template:
        out.add(fill(template, rng), violation, shape, surface)


def _system_variant(text: str, index: int) -> str:
    """A finding as a chat answer would put it: a short lead-in, then the same statement."""
    if is_zh(text):
        return texts.SYSTEM_LEADS_ZH[index % len(texts.SYSTEM_LEADS_ZH)] + text
    return texts.SYSTEM_LEADS_EN[index % len(texts.SYSTEM_LEADS_EN)] + text


def keyword(text: str) -> str:
    """The marker a mutation goes into: the first finding marker of the text, else its leading verb."""
    for words in (texts.MARKERS, texts.WEAK_MARKERS, texts.LEADING_VERBS):
        found = [(text.find(word), -len(word), word) for word in words if word in text]
        if found:
            return min(found)[2]
    return text[:2] if is_zh(text) else next(word for word in text.split() if len(word) > 1)


def _styled(rng: random.Random, out: CaseSet) -> None:
    findings = [(t, "plan") for family in texts.FAMILIES.values() for t, v in family if v]
    findings += [(t, "system") for t, _shape in texts.SYSTEM_FINDINGS]
    harmless = [(t, "plan") for family in texts.INSTRUCTIONS.values() for t in family]
    harmless += [(t, "plan") for t in texts.FINDING_WORDS]
    harmless += [(t, "system") for family in texts.SYSTEM.values() for t, v in family if not v]
    for shape in _STYLES:
        picks = [(entry, True) for entry in rng.sample(findings, 9)]
        picks += [(entry, False) for entry in rng.sample(harmless, 9)]
        counters = {True: 0, False: 0}
        for (template, surface), violation in picks:
            text = fill(template, rng)
            index = counters[is_zh(text)] = counters[is_zh(text)] + 1
            out.add(apply_style(shape, text, keyword(text), index - 1), violation, shape, surface)
    for text, violation, surface in _ZERO_WIDTH_EXTRA:
        out.add(text, violation, "style:zero-width", surface)
    for template, _surface in rng.sample(findings, 6):
        text = fill(template, rng)
        out.add(zero_width(text, keyword(text), "\u200d"), True, "style:zero-width", _surface)
