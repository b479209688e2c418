"""The value rule: every fact token of a claim occurs in what its own evidence returned (or in the user's question).

Both sides are read the same way (:mod:`harness.gate.tokens`): identifiers case-insensitively, numbers by value with
their unit, times as instants when a zone is named; matching is whole-token (``300`` is not ``3000``,
``order-12`` is not ``order-123``). A token the evidence holds only among the agent's own query values is held
only where the claim names it as the query's scope (:mod:`harness.gate.scope_naming`). A number not in the
evidence passes when the claim shows its work (:mod:`harness.gate.derivation`). A token written right before an
ellipsis (a clipped quote) only needs to start an evidence token.

Examples (``claim | evidence | grounded?``; the unit tests run this table)::

    出现 72 次 ERROR 日志                  | {"count": 72, "level": "ERROR"}                 | yes
    失败率 87.3%                           | {"count": 72}                                   | no: 87.3%
    已退款（REFUNDED）                     | {"status": "TIMEOUT"}                           | no: REFUNDED
    订单 order-12 超时                     | order-123 TIMEOUT                               | no: order-12
    重试了 300 次                          | {"attempts": 3000}                              | no: 300 次
    七十二次连接超时                       | {"count": 72}                                   | yes
    ７２ 次                                | {"count": 72}                                   | yes
    持续 30 分钟                           | {"lookback_minutes": 30}                        | yes
    等待 30min                             | 等待 30 分钟                                    | yes
    共 1,234 条                            | {"match_count": 1234}                           | yes
    Order-Service 的 err_timeout           | ERR_TIMEOUT from order-service                  | yes
    **order-service** 与 `TIMEOUT`         | order-service TIMEOUT                           | yes
    130 行中 72 行，约 55%                 | {"match_count": 130, "count": 72}               | yes
    占比 55.4%（72/130）                   | {"match_count": 130, "count": 72}               | yes
    合计 98 次（72 次与 26 次）            | {"a": 72, "b": 26}                              | yes
    约 30 秒后超时                         | timed out after 30007ms                         | yes
    30 秒后超时                            | timed out after 30007ms                         | no: 30 秒
    30 秒后超时                            | timed out after 30000ms                         | yes
    约 60% 的请求                          | {"match_count": 130, "count": 72}               | no: 60%
    02:05:09 至 02:29:34（UTC）            | 2026-07-21T02:05:09Z … 2026-07-21T02:29:34Z     | yes
    北京时间 10:05                         | 2026-07-21T02:05:09+00:00                       | yes
    2026年7月21日 02:05                    | 2026-07-21T02:05:09.000+00:00                   | yes
    2026-07-20 起                          | 2026-07-21T02:05:09+00:00                       | no: 2026-07-20
    持续约 24 分钟（02:05:09 至 02:29:34） | 02:05:09 02:29:34                               | yes
    db-master-02 宕机                      | db-master-01 Lock wait                          | no: db-master-02
    来自 10.0.3.17                         | user=order_app@10.0.3.17                        | yes
    HTTP 504，SQL 与 UTC 时间              | 504                                             | yes
    「request timed out after 300…」       | timed out after 30007ms                         | yes
    见 a1，第 2 步，一次，三类             | {}                                              | yes
    没有 ERROR 级日志，并非 REFUNDED       | {}                                              | yes
    db-master-02 宕机                      | {"asked": ["db-master-02"], "n": 0}             | no: db-master-02
    以 db-master-02 为条件查询，0 条        | {"asked": ["db-master-02"], "n": 0}             | yes
    3 笔 REFUNDED，pay-9 为 REFUNDED       | {"asked": ["REFUNDED"], "n": 3, "id": "pay-9"}  | no: REFUNDED
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from harness.gate.arithmetic import check as shown_arithmetic
from harness.gate.arithmetic import durations_in_two_units
from harness.gate.compounds import joined
from harness.gate.computed import computed
from harness.gate.derivation import agrees, derived, held
from harness.gate.evidence import Grounds, Held
from harness.gate.moments import Moment, same_moment
from harness.gate.quantities import unit_class
from harness.gate.scope_naming import names_scope, paired_ends
from harness.gate.tokens import Identifier, Number, Tokens, tokenize

_LIST_GAP = re.compile(r"[ \t]*(?:[,，、/]|和|或|及|与|and|or)[ \t]*", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[。；;！!？?\n]|\.(?:\s|$)")
_ABSENCE = re.compile(
    r"没有|无(?!法)|未见|未发现|不存在|并无|(?<![A-Za-z])(?:no|none|not any|zero|nothing)(?![A-Za-z])", re.IGNORECASE
)
_ARITHMETIC = re.compile(r"[×*÷]|乘以|乘|(?<![A-Za-z])x(?=\s*\d)")


@dataclass(frozen=True)
class Missing:
    """A fact token of a claim its evidence does not hold, as written; ``asked``: it is only in the query."""

    written: str
    asked: bool = False


def ungrounded(
    text: str,
    grounds: Grounds,
    *,
    non_facts: frozenset[str] = frozenset(),
    ignore: frozenset[str] = frozenset(),
    operand_texts: Sequence[str] = (),
) -> list[str]:
    """The fact tokens of ``text`` that ``grounds`` does not hold, as written (see :func:`unsupported`)."""
    found = unsupported(text, grounds, non_facts=non_facts, ignore=ignore, operand_texts=operand_texts)
    return [missing.written for missing in found]


def unsupported(
    text: str,
    grounds: Grounds,
    *,
    non_facts: frozenset[str] = frozenset(),
    ignore: frozenset[str] = frozenset(),
    operand_texts: Sequence[str] = (),
) -> list[Missing]:
    """The fact tokens of ``text`` that ``grounds`` does not hold, in order, once each.

    ``ignore``: lower-case words that name parts of the report itself (its analysis ids). ``operand_texts``:
    other texts whose grounded numbers and times may serve as operands of a value derived in ``text`` (a
    conclusion shows its work in the analyses it rests on).
    """
    tokens = tokenize(text, non_facts)
    missing = _identifiers(tokens, grounds, ignore)
    moments, missed = _moments(tokens, grounds)
    arithmetic = bool(_ARITHMETIC.search(text))
    others = [tokenize(other, non_facts) for other in operand_texts]
    borrowed = [n for extra in others for n in extra.numbers if held(n, grounds.found)]
    moments += [m for extra in others for m in extra.moments if _held_moment(m, grounds.found)]
    arithmetic = arithmetic or any(_ARITHMETIC.search(other) for other in operand_texts)
    missing += missed + _numbers(tokens, grounds, borrowed, moments, arithmetic)
    return list({item.written: item for item in missing}.values())


def _named(tokens: Tokens, at: int, written: str, *, moment: bool = False) -> bool:
    return names_scope(tokens.text, at, at + len(written), moment=moment)


def _identifiers(tokens: Tokens, grounds: Grounds, ignore: frozenset[str]) -> list[Missing]:
    """The identifiers of ``tokens`` neither found nor named as the query's scope; an item of a list (``order_id IN
    (order-8821, order-6034, …)``, ``以 order-1、order-2 为条件``) is named as the list's first item is."""
    found, asked = grounds.found, grounds.asked
    missing: list[Missing] = []
    named_before: Identifier | None = None
    for identifier in tokens.identifiers:
        listed = named_before is not None and _LIST_GAP.fullmatch(
            tokens.text, named_before.at + len(named_before.written), identifier.at
        )
        named_before = None
        if identifier.key in ignore or identifier.negated or _has_word(found.words, identifier):
            continue
        if joined(identifier.key, found):
            continue
        only_asked = _has_word(asked.words, identifier)
        if only_asked and (listed or _named(tokens, identifier.at, identifier.written)):
            named_before = identifier
            continue
        missing.append(Missing(identifier.written, only_asked))
    return missing


def _moments(tokens: Tokens, grounds: Grounds) -> tuple[list[Moment], list[Missing]]:
    """The grounded moments of ``tokens`` and the missing ones; what names one end of a span names the other."""
    partner = paired_ends(tokens.text, tokens.moments)
    by_place = {moment.at: moment for moment in tokens.moments}

    def named(moment: Moment) -> bool:
        other = by_place.get(partner.get(moment.at, -1))
        ends = [moment] if other is None else [moment, other]
        return any(_named(tokens, end.at, end.written, moment=True) for end in ends)

    moments: list[Moment] = []
    missing: list[Missing] = []
    for moment in tokens.moments:
        if _held_moment(moment, grounds.found) or (_held_moment(moment, grounds.asked) and named(moment)):
            moments.append(moment)
        else:
            missing.append(Missing(moment.written, _held_moment(moment, grounds.asked)))
    return moments, missing


def _numbers(
    tokens: Tokens, grounds: Grounds, borrowed: list[Number], moments: list[Moment], arithmetic: bool
) -> list[Missing]:
    """The numbers of ``tokens`` neither held, computed, derived nor shown by correct arithmetic (and the results of
    wrong steps); ``borrowed``: grounded numbers of other texts that may be operands."""
    found, asked = grounds.found, grounds.asked
    operands = [n for n in tokens.numbers if held(n, found) or (held(n, asked) and _named(tokens, n.at, n.written))]
    operands += borrowed
    operands += [n for n in tokens.numbers if n not in operands and computed(n, tokens, found)]
    operands += [n for n in tokens.numbers if n not in operands and _counts_an_absence(tokens.text, n)]
    for whole, parts in durations_in_two_units(tokens.text, tokens.numbers):
        if any(part not in operands for part in parts) and (
            held(whole, found) or computed(whole, tokens, found) or derived(whole, operands, moments, arithmetic)
        ):
            operands += [part for part in parts if part not in operands] + [whole]
    pending = [n for n in tokens.numbers if n not in operands]
    wrong = shown_arithmetic(tokens.text, tokens.numbers, operands, agrees).wrong
    while pending:  # a derived value may be the operand of the next one (19 = 12 + 6 + 1, then 6/19 = 32%)
        shown_work = shown_arithmetic(tokens.text, tokens.numbers, operands, agrees).shown
        shown = [n for n in pending if n in shown_work or derived(n, operands, moments, arithmetic)]
        shown = [n for n in shown if n not in wrong]
        if not shown:
            break
        operands += shown
        pending = [n for n in pending if n not in shown]
    pending += [n for n in wrong if n not in pending]
    return [Missing(number.written, held(number, asked)) for number in pending]


def _counts_an_absence(text: str, number: Number) -> bool:
    """A zero count (0 笔, 0%) in a sentence that says what it counts is absent (没有 FAILED 的支付单，比例为 0%; no
    FAILED records: ALIPAY 0, CARD 0): a claim of absence, the SemanticGuard's to judge like a negated token."""
    if number.value != 0 or unit_class(number.unit) not in (None, "count", "percent"):
        return False
    start = max((m.end() for m in _SENTENCE_END.finditer(text, 0, number.at)), default=0)
    stop = next((m.start() for m in _SENTENCE_END.finditer(text, number.at)), len(text))
    return bool(_ABSENCE.search(text, start, stop))


def _held_moment(moment: Moment, evidence: Held) -> bool:
    return any(same_moment(moment, seen) for seen in evidence.moments)


def _has_word(words: set[str], identifier: Identifier) -> bool:
    if identifier.key in words:
        return True
    return identifier.clipped and any(word.startswith(identifier.key) for word in words)
