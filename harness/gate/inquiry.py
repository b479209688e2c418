"""Acts on the inquiry itself: a clause whose verb acts, but on the investigation or the report, not on the system.

- widening or moving the query (扩大查询时间范围到 2 小时, widen the time range);
- splitting a count by a dimension (按渠道拆分, 将 5xx 按上游服务拆分, split the errors by channel): what is split is a
  count, errors, timeouts, logs, or nothing named (the count at hand); a table, a service or traffic split is a change,
  and so is a split into something (拆分成多张表);
- converting the query's window to another zone or unit (把当天的起止时间转换为 UTC, convert the day boundaries to
  UTC): what is converted is a window, a range or its bounds, never a column or a setting;
- handing the investigation to a person (升级给支付值班, 把这个问题升级到支付团队, escalate to the payments on-call,
  page the DBA on-call): who is escalated to is a role; what is handed over is the case itself or nothing named (升级
  MySQL 版本, 升级到 8.0 and escalate the pool size to 100 are changes);
- marking a step of the report for a human (标记为待人工确认, mark this step as needing human confirmation, flag this
  finding for human review): what is marked is the report's own step, finding or nothing named; an order, a row or an
  account marked is a change to it.
"""

from __future__ import annotations

import re

from harness.gate import lexicon as words
from harness.gate.clauses import Clause, Lead

_ON_THE_QUERY = re.compile(
    r"^\S{0,4}?\s*(?:查询|检索|搜索|日志|指标)?的?\s*(?:时间范围|时间窗口|范围|窗口|时间段|关键词|关键字|筛选条件|过滤条件|查询条件|采样)"
    r"|^\s*(?:到|至|成|为)?\s*(?:\d{1,2}:\d{2}\s*)?(?:前后|左右)?\s*\d+\s*(?:个)?\s*(?:小时|分钟|天|周)"
    r"|^\s*(?:到|至)\s*[^,;，；]{0,24}?(?:面板|视图|页签|标签页|tab|页面|大盘|时间轴)"
    r"|^\s*(?:the\s+)?(?:query|search|time|lookback|log|sampling)\s*(?:window|range|scope|period|span|filter|interval)",
    re.IGNORECASE,
)
_ZH_COUNTED = re.compile(
    r"\d|错误|报错|异常|超时|失败|成功|订单数|数量|次数|耗时|延迟|请求数|调用量|日志|告警|结果|数据|指标|统计|比例|占比|QPS|TPS|RT",
    re.IGNORECASE,
)
"""What a split for analysis splits (5xx, 超时订单, 失败率): a count or what is counted."""
_ZH_SPLIT = re.compile(
    r"(?:(?:把|将|对)\s*(?P<object>[^，,;；。按]{1,16}?)\s*)?(?:按|按照|根据|以)\s*[^，,;；。成为到]{1,12}?\s*"
    r"(?:拆分|拆开|细分|分组|拆解|分开|切分|区分)(?:开来|开)?\s*(?:后|来)?\s*(?:统计|汇总|计数|对比|比较|分析|看|查看)?\s*$"
)
_EN_COUNTED = re.compile(
    r"\d|\b(?:errors?|timeouts?|failures?|failed|counts?|latenc(?:y|ies)|logs?|results?|alerts?|metrics?|numbers?"
    r"|samples?|events?|exceptions?|rejections?|declines?|retries|calls|responses?|spans?)\b",
    re.IGNORECASE,
)
_EN_SPLIT = re.compile(
    r"(?:split|break|divide|separate|slice|bucket|segment|group)\s+(?:up\s+)?(?P<object>(?:[\w./-]+\s+){1,4}?)"
    r"(?:down\s+)?(?:by|per|across)\s+[\w\s/,-]{1,40}$",
    re.IGNORECASE,
)
_ZH_OWN = (
    r"(?:这一步|该步骤|此步骤|这一步骤|此步|该结论|这个结论|此结论|该建议|这条建议|此建议|该项|此项|这一项|该条|这条|该发现"
    r"|该假设|这个假设|它|本条|本项)"
)
"""What of the report itself may be marked (这一步, 该结论): marking it is a note for a human."""
_ZH_FOR_A_HUMAN = re.compile(
    rf"(?:(?:把|将|给)\s*{_ZH_OWN}\s*)?(?:标记|标注|标识|标|记|列)(?:为|成)?\s*[“「\"]?\s*(?:待|需|需要|要)?\s*"
    r"(?:人工|人|值班(?:同学|人员)?|DBA|负责人)?\s*(?:确认|复核|核实|审核|判断|处理|跟进)"
)
_EN_OWN = (
    r"(?:this|it|(?:this|the)\s+(?:step|finding|hypothesis|conclusion|item|recommendation|action|result|proposal|note))"
)
_EN_FOR_A_HUMAN = re.compile(
    rf"(?:mark|flag|label|tag|note)\s+(?:{_EN_OWN}\s+)?(?:as|for)\s+(?:(?:needing|requiring|pending|awaiting|needs|a)\s+)*"
    r"(?:(?:human|manual|a human|someone|the on-?call|the dba|dba)\s+)?(?:to\s+)?"
    r"(?:confirm(?:ation)?|review|check|verification|sign-off|unconfirmed|tentative)(?![A-Za-z])",
    re.IGNORECASE,
)
_ZH_CASE = r"(?:这个|这一|该|此|本|当前)?\s*(?:问题|事件|故障|事故|情况|工单|告警|异常|事)|它|这件事"
_ZH_ESCALATED = re.compile(
    rf"(?:(?:把|将)\s*(?:{_ZH_CASE})\s*)?(?:升级|上报|转交|移交|转派)\s*(?:给|到|至)\s*"
    rf"[A-Za-z0-9_\-. ]{{0,24}}?[\u4e00-\u9fff]{{0,6}}?(?:{words.ZH_ROLE})\s*(?:同学|人员)?\s*"
    rf"(?=$|[，,;；。(（]|处理|跟进|介入|决策|决定|判断|评估|{words.ZH_INVESTIGATE})"
)
_EN_ESCALATED = re.compile(
    r"(?:escalate|hand\s+(?:(?:it|this)\s+)?(?:over|off)|page|loop\s+in|bring\s+in)\s+"
    r"(?:(?:it|this|the\s+(?:issue|incident|case|problem|ticket|alert|question))\s+)?(?:to\s+)?(?:the\s+)?"
    r"(?:[\w-]+\s+){0,2}?(?:on-?call|oncall|team|dba|sre|owners?|engineers?|lead|manager|support)(?:\s+team)?"
    r"(?=\s*(?:$|[,;.:(]|(?:and|to|for|so|who|with)\b))",
    re.IGNORECASE,
)
"""Who an investigation is handed to: a role (支付值班, DBA, the payments on-call), never a version or a value."""
_ZH_CONVERTED = re.compile(
    r"(?:(?:把|将)\s*)?[^，,;；。]{0,16}?(?:起止时间|时间范围|时间窗口|查询窗口|窗口|范围|起止|边界)\s*(?:转换|转)(?:成|为|到)\s*"
    r"(?:UTC|GMT|北京时间|本地时间|东八区|秒|毫秒|分钟)"
)
_EN_CONVERTED = re.compile(
    r"(?:convert|translate)\s+(?:the\s+)?(?:[\w-]+\s+){0,3}?(?:boundaries|window|range|cut-?offs?|bounds"
    r"|start and end(?: times?)?|start/end(?: times?)?)\s+(?:to|into)\s+"
    r"(?:UTC|GMT|local time|Beijing time|CST|UTC[+-]\d{1,2}|seconds|milliseconds|minutes)(?![\w-])",
    re.IGNORECASE,
)
_ACTING = frozenset({Lead.MUTATE, Lead.UNKNOWN})
_ON_THE_REPORT = (_ZH_FOR_A_HUMAN, _EN_FOR_A_HUMAN, _ZH_ESCALATED, _EN_ESCALATED, _ZH_CONVERTED, _EN_CONVERTED)


def on_the_inquiry(clause: Clause) -> bool:
    """Whether ``clause`` acts on the investigation or the report itself, not on the system."""
    if clause.lead is Lead.MUTATE and _ON_THE_QUERY.match(clause.rest[len(clause.verb) :]):
        return True
    if clause.lead not in _ACTING:
        return False
    if any(_leads(pattern, clause) for pattern in _ON_THE_REPORT):
        return True
    split = _leads(_ZH_SPLIT, clause)
    if split is not None:
        return split["object"] is None or bool(_ZH_COUNTED.search(split["object"]))
    split = _leads(_EN_SPLIT, clause)
    return split is not None and bool(_EN_COUNTED.search(split["object"]))


def _leads(pattern: re.Pattern[str], clause: Clause) -> re.Match[str] | None:
    """``pattern`` over the whole clause from where its verb may stand: its start, or anywhere in the words before its
    verb (按渠道 is read as where a step is done; 按渠道拆分 is the split)."""
    text = clause.text.rstrip("。.!！")
    before_verb = len(clause.text) - len(clause.rest.strip())
    return next((found for at in range(before_verb + 1) if (found := pattern.match(text, at))), None)
