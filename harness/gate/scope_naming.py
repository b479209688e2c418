"""When a claim may use a value the agent wrote into its own query: only to name the query's scope.

A value the agent asked with (a log query's words, an SQL literal or param) is no evidence that the data holds it:
``WHERE payment_status = 'REFUNDED'`` finds REFUNDED orders or none, and a log query for "db-master-02 down" says
nothing about the logs. So such a token passes only where the sentence names it as what was queried:

- a query marker governs it: the nearest marker before it in its clause is one of 以, 按, 根据, 针对, 条件, 筛选, 过滤,
  查询, 检索, 搜索, 匹配, 关键词, where, filter, query, search, matching, grep … (以 order-123 为条件查询;
  "queried for order-123"), not a result word (为, 是, 显示, 出现, 返回, 结果, 达到, is, was, shows, returned, ``:`` …:
  查询结果显示 db-master-02 is a finding);
- or a query marker closes it: 为条件, 作为条件, 为关键词, 的查询, 进行查询, as the filter, as the query;
- or it is written as the filter itself: ``key=value``, ``key = 'value'``, ``key IN (…)``;
- or it qualifies a counted set: ``3 笔 TIMEOUT``, ``TIMEOUT 支付单``, ``状态为 TIMEOUT 的订单``;
- or a label names it: 查询窗口：, 条件：, window:, params:; or a bracket after it says so: (a query condition);
- or, for a time, it bounds the queried range: ``00:30 之后创建的``, ``since 00:30``, ``自 00:30 起``, and what
  names one end of a span (``A 至 B``, ``between A and B``, ``[A, B)``) names the other.

Anywhere else (``db-master-02 宕机``, ``订单状态为 REFUNDED``, ``日志显示 db-master-02``) it is refused like any value
the evidence does not hold.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from harness.gate.moments import Moment

_CLAUSE_BREAK = re.compile(r"[,;!?\n。、]|\.(?:\s|$)")
_QUERY_MARKER = (
    r"(?<![可所难足加予])以(?![便上下后前来内外及免致至])|按(?!钮)|根据|针对|条件|筛选|过滤|查询|检索|搜索|匹配|关键词|关键字|查找"
    r"|(?<![A-Za-z])(?:where|filter(?:ed|ing)?|quer(?:y|ied|ying)|search(?:ed|ing)?|match(?:ing|ed)?|"
    r"grep(?:ped)?|select(?:ed|ing)?|lookup)(?![A-Za-z])"
)
_RESULT_WORD = (
    r"为|是|变为|变成|成为|置为|改为|显示|表明|处于|出现|存在|发生|报出|报|抛出|记录|返回|得到|查到|发现|包含|含有|命中|"
    r"等于|达到|结果|(?<!\d):|:(?!\d)|(?<![A-Za-z])(?:is|was|are|were|be|been|became|becomes|shows?|showed|reads?|equals?|returned|"
    r"returns|reported|logged|contains?|contained|found|hit|indicates?|says|said)(?![A-Za-z])"
)
_GOVERNING = re.compile(rf"(?:(?P<query>{_QUERY_MARKER})|(?P<result>{_RESULT_WORD}))", re.IGNORECASE)
_CLOSING_MARKER = re.compile(
    r"^[\s'\"「」“”‘’)）]*(?:为条件|作为条件|作条件|为关键词|作为关键词|为关键字|的查询|进行查询|进行检索|查询|检索|"
    r"as (?:the )?(?:filter|query|condition|keyword)"
    r"|[(（\[]\s*(?:a |the |as )?(?:query|查询|统计|筛选)\s*(?:'s\s*)?(?:condition|param|parameter|window|scope|"
    r"range|filter|条件|参数|窗口|范围)"
    r"|[(（\[]\s*(?:the |a )?(?:params?|parameters?|conditions?|window|scope|filter)\s+(?:of|for) (?:the |this )?"
    r"(?:query|call))",
    re.IGNORECASE,
)
"""What closes a value named as the query's: 为条件, as the filter, or a bracket that says so: (a query condition),
（查询参数）, (the params of the query)."""
_SCOPE_LABEL = re.compile(
    r"(?:(?:查询|统计|检索|筛选)?(?:时间窗口|窗口|时间范围|范围|条件|参数)"
    r"|(?:query |search |time )?(?:window|range|params?|parameters?|conditions?|filter|scope))"
    r"\s*[:=]\s*['\"「“(\[]?\s*$",
    re.IGNORECASE,
)
"""A label that names what follows as the query's scope: 查询窗口：, 条件：, window:, params:."""
_FILTER_BEFORE = re.compile(
    r"[A-Za-z_][A-Za-z0-9_.]*\s*(?:=|==|!=|<>|>=|<=|>|<|\bin\s*[(\[]|\blike)\s*['\"(\[]?\s*$", re.IGNORECASE
)
_COUNT_BEFORE = re.compile(
    r"\d+(?:\.\d+)?\s*(?:笔|条|个|行|次|单|项|件|名|rows?|records?|orders?|payments?|entries|lines|events|calls)\s*$",
    re.IGNORECASE,
)
_SET_AFTER = re.compile(
    r"^['\"」”’)）\s]*(?:的|状态的|类型的)?\s*(?:支付单|订单|记录|日志|行|条|笔|请求|事件|调用|payments?|orders?|records?|"
    r"rows?|requests?|entries|events|calls)",
    re.IGNORECASE,
)
_RELATIVE_AFTER = re.compile(r"^['\"」”’)）\s]*的")
_BOUND_AFTER = re.compile(r"^[\s)）]*(?:之后|以后|以来|之前|以前|起|开始|至|到|期间|以内|之内|前后)")
_BOUND_BEFORE = re.compile(r"(?:自|从|since|after|before|from|between|until)\s*['\"「“(（]?\s*$", re.IGNORECASE)


_PAIR_JOIN = re.compile(r"^[ \t]*(?:至|到|~|-|–|—|to|and|[,，])[ \t]*$", re.IGNORECASE)
_PAIR_OPEN = re.compile(r"[\[(（][ \t]*$")


def paired_ends(text: str, moments: Sequence[Moment]) -> dict[int, int]:
    """The two ends of each written span of times, by position, each to the other: ``A 至 B``, ``between A and B``,
    ``[A, B)``. What names one end as the query's window names the other."""
    ordered = sorted(moments, key=lambda moment: moment.at)
    pairs: dict[int, int] = {}
    for first, second in itertools.pairwise(ordered):
        join = text[first.at + len(first.written) : second.at]
        comma = "," in join or "，" in join
        if not _PAIR_JOIN.match(join) or (comma and not _PAIR_OPEN.search(text, 0, first.at)):
            continue
        pairs.setdefault(first.at, second.at)
        pairs.setdefault(second.at, first.at)
    return pairs


def names_scope(text: str, at: int, end: int, *, moment: bool = False) -> bool:
    """Whether the token at ``text[at:end]`` is named as the scope of a query rather than stated as a finding."""
    clause_start = max((found.end() for found in _CLAUSE_BREAK.finditer(text, 0, at)), default=0)
    before, after = text[clause_start:at], text[end : end + 48]
    if _FILTER_BEFORE.search(before) or _CLOSING_MARKER.match(after) or _COUNT_BEFORE.search(before):
        return True
    if _SCOPE_LABEL.search(before):
        return True
    if _SET_AFTER.match(after) or (moment and (_BOUND_AFTER.match(after) or _BOUND_BEFORE.search(before))):
        return True
    governing = None
    for found in _GOVERNING.finditer(before):
        governing = found
    if governing is not None and governing["result"] is not None and _RELATIVE_AFTER.match(after):
        return True  # 状态为 TIMEOUT 的支付单: the value of a relative clause describes the set
    return governing is not None and governing["query"] is not None
