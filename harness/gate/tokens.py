"""Fact tokens: what a model fabricates and a reader acts on, read out of a normalised text.

A number with its unit or percent sign, a date, a time, an identifier (order and payment ids, service and host
names, error codes, upper-case status words, snake_case table and column names, IPs, URL paths). Every token keeps
where it stands in the text (``at``), so a rule can read what is around it. Tokens that are not facts (``UTC``,
``SQL``, ``read-only`` …) are a configured list (``harness.claims.non-fact-words``); single-character Chinese
numerals (一次、两个、三类) and ordinals (第 2 步) are not fact tokens either.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from decimal import Decimal

from harness.gate.moments import MOMENT_PATTERN, RANGE_JOIN, Moment, moment_of, share_range, span_seconds
from harness.gate.quantities import COUNT_UNITS, MULTIPLIERS, SIZE_UNITS, TIME_UNITS, UNIT_AFTER
from harness.gate.text import value_text

APPROX, NEARLY, ABOVE, AT_LEAST, BELOW, AT_MOST, TENS = (
    "approx", "nearly", "above", "at_least", "below", "at_most", "tens"
)  # fmt: skip
"""How a number is qualified: 约 X; 近 X (just under X); 超过 X; 至少 X / X 以上; 低于 X; 最多 X / X 以下; X 多 (X up
to the next step)."""

_TOKEN = re.compile(
    MOMENT_PATTERN + r"|(?P<path>(?<![\w/.:])(?:/[A-Za-z0-9_.\-]+){2,}/?)"
    r"|(?P<ip>(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?![\w.]))"
    r"|(?P<thousands>(?<![\w.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w,]))"
    r"|(?P<word>(?<![A-Za-z0-9_])[A-Za-z0-9_]+(?:[-.][A-Za-z0-9_]+)*)"
)
_NUMBER_WORD = re.compile(r"(?P<number>\d+(?:\.\d+)?)-?(?P<unit>[A-Za-z]+)?")
_NUMBER_RANGE = re.compile(r"\d+(?:-\d+)+")
_ORDINAL_SUFFIXES = frozenset({"st", "nd", "rd", "th"})
_SUM_BEFORE = re.compile(
    r"(?:共|合计|总计|累计|总共|一共|总和|加起来|总数|in total|total|sum)[^0-9]{0,6}$", re.IGNORECASE
)
_DIFFERENCE_BEFORE = re.compile(
    r"(?:相差|差了|差|多了|多出|少了|少|多|高出|低了|长了|短了|晚了|早了|晚|早|增加了|减少了|gap|difference|"
    r"more|less|fewer|longer|shorter|later|earlier)[^0-9]{0,6}$",
    re.IGNORECASE,
)
_SUBTRACTION = re.compile(r"\d[ \t]*(?:[A-Za-z]{1,12}|毫秒|秒|分钟|小时)?[ \t]*[-−][ \t]*\d")
"""The work of a difference written out: ``27.932 − 26.506``, ``27.932s − 26.506s``."""
_PLURAL_CODE = re.compile(r"(?:\d|\b(?:the|all|many|some|these|those|of|no|more|fewer))[ \t]+$", re.IGNORECASE)
"""What stands before ``504s`` when it is the plural of a status code (the 10 504s), not 504 seconds."""
_DURATION_BEFORE = re.compile(
    r"(?:耗时|用时|持续|历时|等待|超时|after|took|takes|lasted|for|waited|wait|rt=|latency|duration|elapsed)[ \t:=]*$",
    re.IGNORECASE,
)
"""What stands before ``504s`` when it is 504 seconds (took 504s); anywhere else a code's plural is meant (the 504s)."""
_SPAN_BEFORE = re.compile(
    r"(?:同一|同样的|整个|这|该|the same|the whole|the entire|over the|across the|over|across)[ \t]*$", re.IGNORECASE
)
_SPAN_AFTER = re.compile(
    r"^[ \t]*(?:的)?(?:应用|访问|慢查询|错误)?(?:日志|数据|指标|记录|窗口|范围)"
    r"|^[ \t]*(?:of|worth of)[ \t]+(?:logs|data|metrics)",
    re.IGNORECASE,
)
_LABELS = re.compile(r"(?<![A-Za-z])TL;\s?DR(?![A-Za-z])", re.IGNORECASE)
"""Labels a report uses that read as upper-case words: TL;DR."""
_UPPER_WORD = re.compile(r"[A-Z][A-Z0-9_]*[A-Z][A-Z0-9_]*")
_ALNUM_ID = re.compile(r"(?=(?:[^a-z]*[a-z]){2})(?=[^0-9]*[0-9])[a-z0-9]+", re.IGNORECASE)
_QUALIFIER_BEFORE = (
    (APPROX, r"约|大约|大概|差不多|~|≈|about|around|approximately|approx\.?|roughly"),
    (NEARLY, r"近|将近|接近|逼近|nearly|almost|close to"),
    (ABOVE, r"超过|超出|高于|多于|大于|逾|>|over|more than|above"),
    (AT_LEAST, r"至少|不少于|不低于|≥|at least"),
    (BELOW, r"低于|少于|小于|不足|不到|<|under|less than|below"),
    (AT_MOST, r"至多|不超过|≤|at most"),  # 最多 / 最少 / up to name the extremes (最多 50 个, up to 27.372s): exact
)
_QUALIFIERS_BEFORE = tuple(
    (name, re.compile(r"(?:" + words + r")[ \t]*$", re.IGNORECASE)) for name, words in _QUALIFIER_BEFORE
)
_QUALIFIERS_AFTER = (
    (APPROX, re.compile(r"^[ \t]*(?:左右|上下)")),
    (TENS, re.compile(r"^[ \t]*(?:多|余)")),
    (AT_LEAST, re.compile(r"^[ \t]*(?:以上|\+(?![ \t]*[\d(（]))")),  # 100+, not 0.39 + 0.10
    (AT_MOST, re.compile(r"^[ \t]*(?:以下|以内)")),
)
_WINDOW_BEFORE = re.compile(
    r"(?:最近|过去|近|前|窗口|范围|lookback|last|past|within|previous)[^0-9]{0,4}$", re.IGNORECASE
)
_WINDOW_AFTER = re.compile(r"^[^0-9，。；,;]{0,3}(?:窗口|范围|内|以内|之内|基线|window|baseline)", re.IGNORECASE)
_ORDINAL_BEFORE = re.compile(r"(?:第|No\.|#)[ \t]*$", re.IGNORECASE)
_LIST_MARKER = re.compile(r"(?:^|\n)[ \t]*$")
_ELLIPSIS = re.compile(r"^(?:…|\.\.\.)")
_NEGATION_BEFORE = re.compile(
    r"(?:没有|没|无|未|未见|未发现|不存在|并非|不是|不含|不包括|(?<![A-Za-z0-9_])(?:no|not|without|never|none of))"
    r"[ \t]*(?:出现|发现|记录|看到|查到|匹配|返回|包含|找到|显示|any|a|an)?[ \t]*$",
    re.IGNORECASE,
)
_NEGATED_LIST = re.compile(
    r"(?:没有|没|无|未见|未发现|不存在|不含|并无|(?<![A-Za-z])(?:no|not any|without|neither|none of))"
    r"(?:[ \t]*(?:出现|发现|记录|看到|查到|匹配|返回|包含|找到|显示|任何|any))?"
    r"[ \t]*[^。；;，,:：\n]{1,40}?(?:、|或|和|及|与|以及|/|(?<![A-Za-z])(?:or|and|nor)(?![A-Za-z]))[ \t]*$",
    re.IGNORECASE,
)
"""A negation that governs a list (没有 timeout、timed out 或 ERROR 级别的日志): each item after it is absent."""
_INFRA_WORDS = frozenset((
    "service", "svc", "gateway", "gw", "api", "db", "database", "server", "srv", "worker", "job", "cron", "pod",
    "node", "host", "cluster", "proxy", "cache", "redis", "mysql", "mq", "queue", "kafka", "topic", "center",
    "centre", "app", "web", "backend", "frontend", "admin", "console", "platform", "engine", "manager",
    "scheduler", "agent", "broker", "store", "storage", "bucket", "lb", "nginx", "ingress", "master", "slave",
    "replica", "primary", "standby",
))  # fmt: skip
"""A lower-case hyphenated word names something (order-service, api-gateway) when a part is one of these or a
number; otherwise it is English (slow-query, row-lock, read-only) and states nothing checkable."""
_CAMEL_STEP = re.compile(r"[a-z][A-Z]")
_ANY_PATH = re.compile(r"(?:/[A-Za-z0-9_.\-]+){2,}")


@dataclass(frozen=True)
class Number:
    value: Decimal
    unit: str | None
    written: str
    qualifier: str | None = None
    clipped: bool = False
    """Written right before an ellipsis: a clipped quote whose last token may be cut short."""
    total: bool = False
    """Written as a total (共, 合计, in total …): it may be the sum of several stated operands."""
    window: bool = False
    """Written as the length of a queried window (最近 30 分钟, 30 分钟内): the scope's window may ground it."""
    difference: bool = False
    """Written as a difference (相差, 多, 少, gap, more than …): it may be the difference of two stated values."""
    at: int = -1

    @property
    def approximate(self) -> bool:
        return self.qualifier == APPROX


@dataclass(frozen=True)
class Identifier:
    key: str
    written: str
    clipped: bool = False
    negated: bool = False
    """Named as absent (没有 ERROR 级日志, no TIMEOUT): a claim of absence is the SemanticGuard's to judge."""
    at: int = -1


@dataclass
class Tokens:
    """The fact tokens of one text, in order of appearance."""

    text: str = ""
    """The normalised text the tokens were read from (their ``at`` is a position in it)."""
    numbers: list[Number] = field(default_factory=list)
    moments: list[Moment] = field(default_factory=list)
    identifiers: list[Identifier] = field(default_factory=list)
    words: set[str] = field(default_factory=set)
    """Every word of the text, lower-cased (what an identifier of a claim is matched against)."""
    windows: list[Decimal] = field(default_factory=list)
    """Seconds between the two ends of each ``A 至 B`` span of timestamps."""
    span_ends: list[Moment] = field(default_factory=list)
    """The moments that end such a span (what a query scope's window is made of)."""


@functools.lru_cache(maxsize=4096)
def tokenize(text: str, non_facts: frozenset[str] = frozenset()) -> Tokens:
    """Every fact token of ``text`` (and all its words); ``non_facts`` are lower-case words that are not facts.

    Cached: evidence strings recur (an entry cited by several analyses, and again by the conclusion), so callers
    read the result and never change it."""
    text = value_text(text)
    tokens = Tokens(text)
    previous: tuple[Moment, int] | None = None
    for match in _TOKEN.finditer(text):
        start, end = match.span()
        before, after = text[max(0, start - 16) : start], text[end : end + 12]
        clipped = bool(_ELLIPSIS.match(after))
        if match["datetime"] or match["date"] or match["time"]:
            moment = moment_of(match)
            if previous is not None and RANGE_JOIN.match(text[previous[1] : start]):
                moment, earlier = share_range(previous[0], moment)
                tokens.moments[-1] = earlier
                tokens.span_ends += [earlier, moment]
                if earlier.has_time and moment.has_time and earlier.has_date == moment.has_date:
                    tokens.windows.append(span_seconds(earlier, moment))
            tokens.moments.append(moment)
            previous = (moment, end)
            continue
        previous = None
        written = match.group(0)
        if match["path"]:
            if "/..." not in written:  # an elided path names nothing whole
                tokens.identifiers.append(Identifier(written.lower().rstrip("/"), written, clipped, at=start))
            continue
        if match["ip"]:
            tokens.identifiers.append(Identifier(written.lower(), written, clipped, at=start))
            tokens.words.add(written.lower())
            continue
        if match["thousands"]:
            _add_number(tokens, text, written.replace(",", ""), None, start, end, before, clipped)
            continue
        word = match["word"]
        tokens.words.update(word_forms(word))
        number = _NUMBER_WORD.fullmatch(word)
        if number is not None and (number["unit"] or "").lower() in _ORDINAL_SUFFIXES:
            continue
        if number is not None and (number["unit"] is None or _is_unit(number["unit"])):
            plural = _is_plural_code(word) and (_PLURAL_CODE.search(before) or not _DURATION_BEFORE.search(before))
            unit = None if plural else number["unit"]
            _add_number(tokens, text, number["number"], unit, start, end, before, clipped)
            continue
        if _NUMBER_RANGE.fullmatch(word):
            for part in word.split("-"):
                tokens.numbers.append(Number(Decimal(part), None, part, at=start))
            continue
        if _is_identifier(word, non_facts) and not _in_label(text, start, end):
            negated = bool(_NEGATION_BEFORE.search(before) or _NEGATED_LIST.search(text, max(0, start - 48), start))
            tokens.identifiers.append(Identifier(word.lower(), word, clipped, negated, at=start))
    for path in _ANY_PATH.finditer(text):
        tokens.words |= _path_forms(path.group(0))
    return tokens


def _path_forms(path: str) -> set[str]:
    """A URL path, every run of two or more of its segments, and each segment's words: what a claim may quote."""
    segments = path.lower().strip("/").split("/")
    forms = {"/" + "/".join(segments[i:j]) for i in range(len(segments)) for j in range(i + 2, len(segments) + 1)}
    for segment in segments:
        forms |= word_forms(segment)
    return forms


def word_forms(word: str) -> set[str]:
    lowered = word.lower().rstrip(".")
    return {lowered, *lowered.split(".")} if "." in lowered else {lowered}


def _in_label(text: str, start: int, end: int) -> bool:
    return any(
        label.start() <= start and end <= label.end() for label in _LABELS.finditer(text, max(0, start - 6), end + 6)
    )


def _span_named(unit: str | None, before: str, after: str) -> bool:
    """A length in minutes, hours or days written as the stretch of data queried (同一 24 小时的应用日志, over the same
    24 hours, 24 hours of logs), not as how long something lasted or what a figure measured."""
    lowered = (unit or "").lower()
    if lowered not in TIME_UNITS or TIME_UNITS[lowered] < 60:
        return False
    return bool(_SPAN_BEFORE.search(before) or _SPAN_AFTER.match(after))


def _is_plural_code(word: str) -> bool:
    return len(word) == 4 and word.endswith("s") and 100 <= int(word[:3]) <= 599 if word[:3].isdigit() else False


def _is_unit(text: str) -> bool:
    """A unit written onto its number (``30s``, ``64KB``, ``2k``, ``50-connection``)."""
    lowered = text.lower()
    return lowered in TIME_UNITS or lowered in SIZE_UNITS or lowered in MULTIPLIERS or lowered in COUNT_UNITS


def _is_identifier(word: str, non_facts: frozenset[str]) -> bool:
    lowered = word.lower()
    if lowered in non_facts or not any(char.isalpha() for char in word):
        return False
    if "_" in word or "." in word:
        return True
    if "-" in word:
        parts = word.split("-")
        cased = any(part != part.lower() and part.lower() not in non_facts for part in parts)  # slow-SQL is English
        return cased or any(part.lower() in _INFRA_WORDS or any(c.isdigit() for c in part) for part in parts)
    camel_steps = len(_CAMEL_STEP.findall(word))
    return bool(_UPPER_WORD.fullmatch(word)) or bool(_ALNUM_ID.fullmatch(word)) or camel_steps >= 2


def _add_number(
    tokens: Tokens, text: str, digits: str, unit: str | None, start: int, end: int, before: str, clipped: bool
) -> None:
    if _ORDINAL_BEFORE.search(before) or (_LIST_MARKER.search(before) and re.match(r"[.)、]", text[end : end + 1])):
        return
    value = Decimal(digits)
    written = text[start:end]
    after_end = end
    multiplier = None
    if unit is not None and unit.lower() in MULTIPLIERS:
        multiplier, unit = unit.lower(), None
    if unit is None:
        following = UNIT_AFTER.match(text, end)
        if following is not None:
            multiplier = following["mult"] or multiplier
            unit = following["unit"] or following["munit"]
            after_end = following.end()
            written = text[start:after_end]
    if multiplier is not None:
        value *= MULTIPLIERS[multiplier]
    following_text = text[after_end : after_end + 8]
    qualifier = next((name for name, marker in _QUALIFIERS_BEFORE if marker.search(before)), None)
    qualifier = qualifier or next((name for name, marker in _QUALIFIERS_AFTER if marker.match(following_text)), None)
    total = bool(_SUM_BEFORE.search(before)) or "+" in text
    window = bool(_WINDOW_BEFORE.search(before) or _WINDOW_AFTER.match(following_text)) or _span_named(
        unit, before, text[after_end : after_end + 16]
    )
    difference = bool(_DIFFERENCE_BEFORE.search(before)) or bool(_SUBTRACTION.search(text))
    if unit is not None and unit.lower() in ("time", "times") and value != value.to_integral_value():
        unit = "倍"  # 24.8 times the baseline is a ratio; 3 times is a count
    tokens.numbers.append(
        Number(
            value,
            unit.lower() if unit else None,
            written.strip(),
            qualifier,
            clipped,
            total,
            window,
            difference,
            at=start,
        )
    )
