"""Where a clause's verb is when it does not lead: after a modal (连接池需要调大, the logs should be reviewed), inside a
nominalisation (进行执行计划分析, perform a read-only review, a targeted inspection … is recommended), after 将/把/给
(把这次的排查结论写入知识库: the action is 写入), or after a verb that carries it (执行一次全量比对).

Names are not verbs: text inside 《》, 「」, quotes and code is skipped when a verb is looked for
(按《订单服务超时排查》第 5 步处理: the verb is 处理, not the 排查 of a title).
"""

from __future__ import annotations

import re

from harness.gate import lexicon as words

INVESTIGATE, MUTATE = "INVESTIGATE", "MUTATE"


def _two_or_more(spec: str) -> str:
    """The alternatives of ``spec`` of two characters or more: a one-character verb (关, 开, 加, 调) is a verb where
    it leads a clause, and most often part of a word elsewhere (相关, 开发, 参加, 调用)."""
    kept = [word for word in _alternatives(spec) if len(_letters(word)) >= 2]
    return "(?:" + "|".join(sorted(kept, key=lambda word: len(_letters(word)), reverse=True)) + ")"


def _letters(word: str) -> str:
    return re.sub(r"\(\?.*?\)", "", word)


def _alternatives(spec: str) -> list[str]:
    """Every word of an alternation, nested groups of words flattened."""
    if spec.startswith("(?:") and spec.endswith(")") and _closes_at_end(spec):
        return [word for part in words._top_level(spec[3:-1]) for word in _alternatives(part)]
    return [spec]


def _closes_at_end(spec: str) -> bool:
    depth = 0
    for index, char in enumerate(spec):
        depth += 1 if char == "(" else -1 if char == ")" else 0
        if depth == 0 and index < len(spec) - 1:
            return False
    return True


_ZH_INVESTIGATE = re.compile(words.ZH_INVESTIGATE)
_ZH_MUTATE = re.compile(_two_or_more(words.ZH_MUTATE))
ZH_VERB_WORD = _two_or_more(words._either(words.ZH_INVESTIGATE, words.ZH_MUTATE, words.ZH_CARRIER))
"""An investigative, side-effect or carrying verb of two characters or more (what a clause may be cut before)."""
_ZH_ANY = re.compile(_two_or_more(words._either(words.ZH_INVESTIGATE, words.ZH_MUTATE)))
_QUOTED = re.compile(r"《[^》]*》|「[^」]*」|『[^』]*』|“[^”]*”|‘[^’]*’|\"[^\"]*\"|(?<![A-Za-z])'[^']*'(?![A-Za-z])")
_ZH_MODAL_VERB = re.compile(
    r"(?:需要|需|应当|应该|应|要|须|必须|务必|可以|可|建议|请|得|有必要|最好|有待|待)\s*"
    r"(?:再|先|逐一|逐个|仔细|及时|一并|同时|重新|尽快|立即|马上|被|给|来|去|进一步|认真|好好)?\s*"
    rf"(?P<verb>{words._either(words.ZH_INVESTIGATE, words.ZH_MUTATE)})"
)
_ZH_VERB_A_LITTLE = re.compile(
    rf"(?P<verb>{words._either(words.ZH_INVESTIGATE, words.ZH_MUTATE)})\s*(?:一下|一遍|一番|下)"
)
_ZH_LIGHT = re.compile(r"(?:进行|做一次|做一下|做|作|开展|实施|安排|执行(?!计划))(?:一次|一下|一轮|一遍)?")
_ZH_MIXED = re.compile(r"(?<![A-Za-z-])(?P<verb>[A-Za-z][a-z-]+)\s*(?:掉|一下|一把|下|了)")
"""An English verb in a Chinese clause (那几个进程 kill 掉, 先 check 一下)."""
_EN_PASSIVE = re.compile(
    r"\b(?:should|must|can|could|may|might|will|would|needs? to|ought to|has to|have to|is to|are to)\s+"
    r"(?:(?:then|also|first|now|still|probably|all|each|immediately|quickly|safely)\s+)*be\s+"
    r"(?:(?:carefully|then|also|immediately|quickly|manually|safely)\s+)*(?P<verb>[a-z][a-z-]+)",
    re.IGNORECASE,
)


def _words(spec: str) -> list[str]:
    return spec.split()


_EN_NOUN_VERBS = {
    **dict.fromkeys(
        _words(
            "inspection review check comparison analysis audit investigation assessment examination verification look "
            "diff scan survey walkthrough walk-through sanity-check spot-check query lookup readout read-through "
            "triage evaluation breakdown correlation profile trace dry-run"
        ),
        INVESTIGATE,
    ),
    **dict.fromkeys(
        _words(
            "restart rollback roll-back failover fail-over redeploy redeployment deployment deploy migration cleanup "
            "purge flush deletion refund replay rotation upgrade downgrade reboot rebuild backfill scale-out scale-up "
            "scale-down change update fix patch hotfix rollout roll-out reindex resync cutover cut-over drain reset "
            "recreation recreate reprocessing rerun re-run retry increase decrease bump"
        ),
        MUTATE,
    ),
}
"""What a nominalised step does (perform a review, a rollback is recommended)."""
_EN_NOUNS = "|".join(sorted(map(re.escape, _EN_NOUN_VERBS), key=len, reverse=True))
_EN_NOMINAL = re.compile(
    r"^(?:(?:perform|do|run|conduct|carry out|make|take|have|schedule|kick off|start|get)\s+)?"
    rf"(?:(?:a|an|the|one|some)\s+(?:[\w-]+\s+){{0,4}}?(?P<noun>{_EN_NOUNS})(?![\w-])"
    rf"(?!\s+{words.EN_NOUN_AFTER_VERB}(?![\w-]))"
    rf"|(?:(?!(?:no|not|without|any)\b)[\w-]+\s+)?(?P<bare>{_EN_NOUNS})\s+(?:of|on|for|into|across)\b)",
    re.IGNORECASE,
)
"""Perform a review of …, a rollback is recommended, Verification of …, Targeted inspection of …; not a name or a
noun the word only describes (the refund-service runbook, the refund queue, the restart count)."""


def masked(text: str) -> str:
    """``text`` with what is quoted or titled blanked (same length): a name, not a verb of the clause."""
    return _QUOTED.sub(lambda found: found.group()[0] + " " * (len(found.group()) - 2) + found.group()[-1], text)


_NOUN_NEXT = re.compile(
    r"\s*(?:单|量|速率|吞吐|成功率|失败率|批次|日志|记录|历史|情况|数据|信息|结果|方案|计划|流程|工单|窗口|状态|次数|时间|耗时|参数|配置项|版本|说明|提示|通知|报告|描述"
    r"|文档|策略|规则|开关|接口|服务|模块|功能|的(?!话))"
)
"""A verb followed by one of these names a thing (应用日志, 发布记录) or describes one (昨天创建的订单,
订单是昨天创建的): no verb of the clause."""


def verb_after(
    text: str, start: int = 0, *, last: bool = False, mutating_first: bool = False
) -> tuple[str, str] | None:
    """The first investigative or side-effect verb of ``text`` from ``start``, outside quotes and titles. With
    ``last``, the last one: the head of a Chinese nominal comes last (配置比对, 执行计划分析). With
    ``mutating_first``, any side-effect verb before an investigative one: after 将/把/给 the verb that acts is the
    point (给 X 加上 … 的监控, 把排查结论写入知识库)."""
    scanned = masked(text)
    found = [verb for verb in _ZH_ANY.finditer(scanned, start) if not _NOUN_NEXT.match(scanned, verb.end())]
    acting = [verb for verb in found if not _ZH_INVESTIGATE.fullmatch(verb.group())]
    if mutating_first and acting:
        return MUTATE, acting[0].group()
    if not found:
        return None
    verb = (found[-1] if last else found[0]).group()
    return (INVESTIGATE if _ZH_INVESTIGATE.fullmatch(verb) else MUTATE), verb


def mixed_verb(text: str) -> tuple[str, str] | None:
    """The last English verb of a Chinese clause, with what marks it as the clause's verb (kill 掉, check 一下)."""
    found = [
        (lead, match["verb"]) for match in _ZH_MIXED.finditer(masked(text)) if (lead := english_lead_of(match["verb"]))
    ]
    return found[-1] if found else None


def buried_verb(rest: str, english: bool) -> tuple[str, str] | None:
    """The verb of a clause that no verb leads: after a modal, in a nominalisation, a passive or "verb 一下"."""
    if english:
        passive = _EN_PASSIVE.search(rest)
        if passive is not None and (lead := english_lead_of(passive["verb"])) is not None:
            return lead, passive["verb"].lower()
        nominal = _EN_NOMINAL.match(rest)
        if nominal is not None:
            noun = (nominal["noun"] or nominal["bare"]).lower()
            return _EN_NOUN_VERBS[noun], noun
        return None
    scanned = masked(rest)
    for pattern in (_ZH_MODAL_VERB, _ZH_VERB_A_LITTLE):
        found = pattern.search(scanned)
        if found is not None:
            verb = found["verb"]
            return (INVESTIGATE if _ZH_INVESTIGATE.fullmatch(verb) else MUTATE), verb
    light = _ZH_LIGHT.search(scanned)
    return verb_after(rest, light.end(), last=True) if light is not None else mixed_verb(rest)


_EN_INVESTIGATE = re.compile(rf"^{words.EN_INVESTIGATE}$", re.IGNORECASE)
_EN_MUTATE = re.compile(rf"^{words.EN_MUTATE}$", re.IGNORECASE)
_AGAIN = re.compile(r"re-(?P<verb>[a-z]{2,}[a-z-]*)")
"""A verb done again (re-query, re-deploy): the verb it repeats."""


def english_lead_of(word: str) -> str | None:
    """INVESTIGATE or MUTATE for an English verb in any of its forms (checks, checking, checked), else None; a verb
    done again is the verb (re-query, re-deploy)."""
    word = word.lower()
    for stem in _stems(word):
        if _EN_INVESTIGATE.match(stem):
            return INVESTIGATE
        if _EN_MUTATE.match(stem):
            return MUTATE
    again = _AGAIN.fullmatch(word)
    return english_lead_of(again["verb"]) if again is not None else None


def _stems(word: str) -> list[str]:
    stems = [word]
    for suffix, replacement in (("ing", ""), ("ing", "e"), ("ed", ""), ("ed", "e"), ("es", ""), ("s", ""), ("d", "")):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            stems.append(word[: -len(suffix)] + replacement)
    if len(word) > 5 and word[-3:-2] == word[-4:-3] and word.endswith(("ing", "ed")):  # stopped, dropping
        stems.append(word[: -4 if word.endswith("ing") else -3])
    if word.endswith("ied"):
        stems.append(word[:-3] + "y")
    return stems


def side_effect_word(text: str) -> str | None:
    """The first side-effect verb anywhere in ``text``, outside quotes (what makes a clause that is not read-only
    act)."""
    scanned = masked(text)
    found = _ZH_MUTATE.search(scanned)
    english = next(
        (match for match in re.finditer(r"[A-Za-z][A-Za-z-]+", scanned) if english_lead_of(match.group()) == MUTATE),
        None,
    )
    if found is not None and (english is None or found.start() < english.start()):
        return found.group()
    return english.group() if english is not None else None


_ACT_GIVEN = (
    r"退款|补偿|赔付|赔偿|优惠券|代金券|红包|积分|返现|折扣|权限|额度"
    r"|(?<![A-Za-z])(?:refunds?|credits?|compensation|coupons?|vouchers?|discounts?|chargebacks?|access|permissions?"
    r"|quota)(?![\w-])"
)
"""What a verb of giving may give that is an act or a grant, not information."""
_GIVES = re.compile(
    rf"^(?P<zh>提供|给出)\s*[^，,;；。]{{0,24}}?(?:{_ACT_GIVEN})(?=\s*(?:给|$|[，,;；。(（]))"
    r"|^(?P<en>provide|give|share|hand)\s+(?:[\w.-]+\s+){0,3}?(?:with\s+)?(?:(?:a|an|the|some)\s+)?"
    rf"(?:[\w.%$¥-]+\s+){{0,2}}?(?:{_ACT_GIVEN})"
    rf"(?!\s+{words.EN_NOUN_AFTER_VERB}(?![\w-]))",
    re.IGNORECASE,
)


def given_act(rest: str) -> str | None:
    """The verb of giving that leads ``rest`` when what it gives is an act or a grant (提供退款, 提供写权限给研发, give
    the customer a refund, provide write access), not information (提供时间和订单号, provide the refund ID)."""
    found = _GIVES.match(masked(rest).strip())
    return (found["zh"] or found["en"]) if found is not None else None
