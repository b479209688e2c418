"""Value grounding: the fact tokens of a claim, and whether the claim's own evidence holds each of them.

A *fact token* is what a model fabricates and a reader acts on: a number with its unit or percent sign, a date,
a time, an identifier (order and payment ids, service and host names, error codes, upper-case status words,
snake_case table and column names, IPs). Both sides are normalised the same way before they are compared:
NFKC (full-width digits and punctuation), Chinese numerals to digits, identifiers case-insensitively, numbers
by value with their unit (``30 分钟`` = ``30min`` = ``30 minutes``; ``1,234`` = ``1234``), and timestamps as
instants when a zone is named (``10:05 北京时间`` = ``02:05Z``). Matching is whole-token: ``300`` is not
``3000`` and ``order-12`` is not ``order-123``.

A token is grounded when the evidence (or the user's query) holds it, or when it is a value the item shows the
work for: a number derived from operands stated in the same item that are themselves grounded (a ratio or
percentage, a sum, a difference, a total of several, a duration between two stated times), rounded to the precision it
is written with; or a grounded value converted to another unit and rounded, with the item marking it
approximate (约, 近, 大约, 左右, ~, about, around …). A token written right before an ellipsis (a clipped quote)
only needs to start an evidence token. Tokens that are not facts (``UTC``, ``SQL``, ``read-only`` …) are a
configured list (``harness.claims.non-fact-words``); single-character Chinese numerals (一次、两个、三类) and
ordinals (第 2 步) are not fact tokens either.

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
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from decimal import Decimal, InvalidOperation
from itertools import combinations
from typing import Any

from harness.quantities import (
    MEASURED,
    MULTIPLIERS,
    SIZE_UNITS,
    TIME_UNITS,
    UNIT_AFTER,
    key_unit,
    replace_cn_numbers,
    unit_class,
    unit_factor,
)

APPROX, ABOVE, AT_LEAST, BELOW, AT_MOST, TENS = "approx", "above", "at_least", "below", "at_most", "tens"
"""How a number is qualified: 约 X; 超过 X; 至少 X / X 以上; 低于 X; 最多 X / X 以下; X 多 (X up to the next step)."""
BOUND_REACH = Decimal("1.5")
"""超过 X holds for a value above X up to 1.5 X (低于 X: from X / 1.5): a bound states a nearby value, not any."""
MAX_SUMMANDS = 10
"""A total is checked against the sums of at most this many of the item's stated counts."""

# -- tokens -----------------------------------------------------------------------------------------------

_ZONE = (
    r"(?:[ \t]*[(（]?[ \t]*(?P<{p}zone>Z(?![A-Za-z])|(?:UTC|GMT)(?:[ \t]*[+-][ \t]*\d{{1,2}}(?::?\d{{2}})?)?"
    r"|[+-]\d{{2}}:?\d{{2}}(?!\d)|北京时间|CST(?![A-Za-z])|Asia/Shanghai)[ \t]*[)）]?)?"
)
_DATE = r"(?P<{p}y>\d{{4}})[-/.年](?P<{p}mo>\d{{1,2}})[-/.月](?P<{p}d>\d{{1,2}})日?"
_CLOCK = (
    r"(?P<{p}h>\d{{1,2}})(?::|[ \t]?[点时][ \t]?)(?P<{p}mi>\d{{2}})(?:(?::|[ \t]?分[ \t]?)(?P<{p}s>\d{{2}})"
    r"(?:\.\d{{1,9}})?秒?)?(?!\d)"
)
_BEIJING = r"(?:北京时间[ \t]*)?"
_TOKEN = re.compile(
    r"(?P<datetime>"
    + _BEIJING
    + r"(?<!\d)"
    + _DATE.format(p="dt")
    + r"(?:T|[ \t]*)"
    + _CLOCK.format(p="dt")
    + _ZONE.format(p="dt")
    + r")|(?P<date>(?<!\d)"
    + _DATE.format(p="da")
    + r"(?!\d)"
    r"|(?<!\d)(?P<ymy>\d{4})年(?P<ymm>\d{1,2})月(?![\d日])|(?<![\d年])(?P<mdm>\d{1,2})月(?P<mdd>\d{1,2})日)"
    r"|(?P<time>" + _BEIJING + r"(?<![\d.:])" + _CLOCK.format(p="ti") + _ZONE.format(p="ti") + r")"
    r"|(?P<path>(?<![\w/.:])(?:/[A-Za-z0-9_.\-]+){2,}/?)"
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
_UPPER_WORD = re.compile(r"[A-Z][A-Z0-9_]*[A-Z][A-Z0-9_]*")
_ALNUM_ID = re.compile(r"(?=(?:[^a-z]*[a-z]){2})(?=[^0-9]*[0-9])[a-z0-9]+", re.IGNORECASE)
_QUALIFIER_BEFORE = (
    (APPROX, r"约|大约|大概|近|将近|接近|差不多|~|≈|about|around|approximately|approx\.?|roughly|nearly|almost"),
    (ABOVE, r"超过|超出|高于|多于|大于|逾|>|over|more than|above"),
    (AT_LEAST, r"至少|不少于|不低于|≥|at least"),
    (BELOW, r"低于|少于|小于|不足|不到|<|under|less than|below"),
    (AT_MOST, r"至多|最多|不超过|≤|up to|at most"),
)
_QUALIFIERS_BEFORE = tuple(
    (name, re.compile(r"(?:" + words + r")[ \t]*$", re.IGNORECASE)) for name, words in _QUALIFIER_BEFORE
)
_QUALIFIERS_AFTER = (
    (APPROX, re.compile(r"^[ \t]*(?:左右|上下)")),
    (TENS, re.compile(r"^[ \t]*(?:多|余)")),
    (AT_LEAST, re.compile(r"^[ \t]*(?:以上|\+)")),
    (AT_MOST, re.compile(r"^[ \t]*(?:以下|以内)")),
)
_WINDOW_BEFORE = re.compile(
    r"(?:最近|过去|近|前|窗口|范围|lookback|last|past|within|previous)[^0-9]{0,4}$", re.IGNORECASE
)
_WINDOW_AFTER = re.compile(r"^[^0-9，。；,;]{0,3}(?:窗口|范围|内|以内|之内|window)", re.IGNORECASE)
_ORDINAL_BEFORE = re.compile(r"(?:第|No\.|#)[ \t]*$", re.IGNORECASE)
_LIST_MARKER = re.compile(r"(?:^|\n)[ \t]*$")
_ELLIPSIS = re.compile(r"^(?:…|\.\.\.)")
_NEGATION_BEFORE = re.compile(
    r"(?:没有|没|无|未|未见|未发现|不存在|并非|不是|不含|不包括|(?<![A-Za-z0-9_])(?:no|not|without|never|none of))"
    r"[ \t]*(?:出现|发现|记录|看到|查到|匹配|返回|包含|找到|显示|any|a|an)?[ \t]*$",
    re.IGNORECASE,
)
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
_QUOTING = re.compile(r"(?:['\"「“‘`]|以|用|按|关键词|关键字|query|for|with)[ \t:：]*$", re.IGNORECASE)
_ARITHMETIC = re.compile(r"[×*÷]|乘以|乘|(?<![A-Za-z])x(?=\s*\d)")
_ANY_PATH = re.compile(r"(?:/[A-Za-z0-9_.\-]+){2,}")
_RANGE_JOIN = re.compile(r"^[ \t]*(?:至|到|~|-|–|—|to|and)[ \t]*$", re.IGNORECASE)


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

    @property
    def approximate(self) -> bool:
        return self.qualifier == APPROX


@dataclass(frozen=True)
class Moment:
    """A date, a time of day or both; ``zone`` in minutes east of UTC when one is named."""

    written: str
    year: int | None = None
    month: int | None = None
    day: int | None = None
    hour: int | None = None
    minute: int | None = None
    second: int | None = None
    zone: int | None = None

    @property
    def has_date(self) -> bool:
        return self.month is not None

    @property
    def has_time(self) -> bool:
        return self.hour is not None

    def utc(self) -> Moment:
        """The same moment in UTC (the date moves with it when it has one); itself when no zone is named."""
        if self.zone is None or self.hour is None or self.minute is None:
            return self
        try:
            base = datetime(self.year or 2000, self.month or 1, self.day or 1, self.hour, self.minute, self.second or 0)
        except ValueError:  # 2026-13-45 or 25:61: no instant, so it matches nothing
            return self
        moved = base - timedelta(minutes=self.zone)
        return replace(
            self,
            year=moved.year if self.year is not None else None,
            month=moved.month if self.month is not None else None,
            day=moved.day if self.day is not None else None,
            hour=moved.hour,
            minute=moved.minute,
            second=moved.second if self.second is not None else None,
            zone=0,
        )

    def seconds_of_day(self) -> int | None:
        if self.hour is None:
            return None
        return self.hour * 3600 + (self.minute or 0) * 60 + (self.second or 0)


@dataclass(frozen=True)
class Identifier:
    key: str
    written: str
    clipped: bool = False
    negated: bool = False
    """Named as absent (没有 ERROR 级日志, no TIMEOUT): a claim of absence is the SemanticGuard's to judge."""


@dataclass
class Tokens:
    """The fact tokens of one text, in order of appearance."""

    numbers: list[Number] = field(default_factory=list)
    moments: list[Moment] = field(default_factory=list)
    identifiers: list[Identifier] = field(default_factory=list)
    words: set[str] = field(default_factory=set)
    """Every word of the text, lower-cased (what an identifier of a claim is matched against)."""
    windows: list[Decimal] = field(default_factory=list)
    """Seconds between the two ends of each ``A 至 B`` span of timestamps."""
    span_ends: list[Moment] = field(default_factory=list)
    """The moments that end such a span (what a query scope's window is made of)."""


def normalise(text: str) -> str:
    """NFKC, then Chinese numerals that count something written as digits."""
    return replace_cn_numbers(unicodedata.normalize("NFKC", text))


@functools.lru_cache(maxsize=4096)
def tokenize(text: str, non_facts: frozenset[str] = frozenset()) -> Tokens:
    """Every fact token of ``text`` (and all its words); ``non_facts`` are lower-case words that are not facts.

    Cached: evidence strings recur (an entry cited by several analyses, and again by the conclusion), so callers
    read the result and never change it."""
    text = normalise(text)
    tokens = Tokens()
    previous: tuple[Moment, int] | None = None
    for match in _TOKEN.finditer(text):
        start, end = match.span()
        before, after = text[max(0, start - 16) : start], text[end : end + 12]
        clipped = bool(_ELLIPSIS.match(after))
        if match["datetime"] or match["date"] or match["time"]:
            moment = _moment(match)
            if previous is not None and _RANGE_JOIN.match(text[previous[1] : start]):
                moment, earlier = _share_range(previous[0], moment)
                tokens.moments[-1] = earlier
                tokens.span_ends += [earlier, moment]
                if earlier.has_time and moment.has_time and earlier.has_date == moment.has_date:
                    tokens.windows.append(_span_seconds(earlier, moment))
            tokens.moments.append(moment)
            previous = (moment, end)
            continue
        previous = None
        written = match.group(0)
        if match["path"]:
            if "/..." not in written:  # an elided path names nothing whole
                tokens.identifiers.append(Identifier(written.lower().rstrip("/"), written, clipped))
            continue
        if match["ip"]:
            tokens.identifiers.append(Identifier(written.lower(), written, clipped))
            tokens.words.add(written.lower())
            continue
        if match["thousands"]:
            _add_number(tokens, text, written.replace(",", ""), None, start, end, before, clipped)
            continue
        word = match["word"]
        tokens.words.update(_word_forms(word))
        number = _NUMBER_WORD.fullmatch(word)
        if number is not None and (number["unit"] or "").lower() in _ORDINAL_SUFFIXES:
            continue
        if number is not None and (number["unit"] is None or _is_unit(number["unit"])):
            _add_number(tokens, text, number["number"], number["unit"], start, end, before, clipped)
            continue
        if _NUMBER_RANGE.fullmatch(word):
            for part in word.split("-"):
                tokens.numbers.append(Number(Decimal(part), None, part))
            continue
        if _is_identifier(word, non_facts):
            negated = bool(_NEGATION_BEFORE.search(before))
            tokens.identifiers.append(Identifier(word.lower(), word, clipped, negated))
    for path in _ANY_PATH.finditer(text):
        tokens.words |= _path_forms(path.group(0))
    return tokens


def _path_forms(path: str) -> set[str]:
    """A URL path, every run of two or more of its segments, and each segment's words: what a claim may quote."""
    segments = path.lower().strip("/").split("/")
    forms = {"/" + "/".join(segments[i:j]) for i in range(len(segments)) for j in range(i + 2, len(segments) + 1)}
    for segment in segments:
        forms |= _word_forms(segment)
    return forms


def _word_forms(word: str) -> set[str]:
    lowered = word.lower().rstrip(".")
    return {lowered, *lowered.split(".")} if "." in lowered else {lowered}


def _is_unit(text: str) -> bool:
    return text.lower() in TIME_UNITS or text.lower() in SIZE_UNITS or text.lower() in MULTIPLIERS


def _is_identifier(word: str, non_facts: frozenset[str]) -> bool:
    lowered = word.lower()
    if lowered in non_facts or not any(char.isalpha() for char in word):
        return False
    if "_" in word or "." in word:
        return True
    if "-" in word:
        parts = lowered.split("-")
        return word != lowered or any(part in _INFRA_WORDS or any(c.isdigit() for c in part) for part in parts)
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
    window = bool(_WINDOW_BEFORE.search(before) or _WINDOW_AFTER.match(following_text))
    difference = bool(_DIFFERENCE_BEFORE.search(before)) or bool(re.search(r"\d\s*[-−]\s*\d", text))
    tokens.numbers.append(
        Number(value, unit.lower() if unit else None, written.strip(), qualifier, clipped, total, window, difference)
    )


def _moment(match: re.Match[str]) -> Moment:
    kind = "dt" if match["datetime"] else "ti" if match["time"] else "da"
    zone_text = match[f"{kind}zone"] if kind != "da" else None
    written = match.group(0).strip()
    if zone_text is None and written.startswith("北京时间"):
        zone_text = "北京时间"
    if kind == "da" and match["ymy"]:
        return Moment(written, int(match["ymy"]), int(match["ymm"]))
    if kind == "da" and match["mdm"]:
        return Moment(written, None, int(match["mdm"]), int(match["mdd"]))
    year = int(match[f"{kind}y"]) if kind != "ti" else None
    month = int(match[f"{kind}mo"]) if kind != "ti" else None
    day = int(match[f"{kind}d"]) if kind != "ti" else None
    hour = int(match[f"{kind}h"]) if kind != "da" else None
    minute = int(match[f"{kind}mi"]) if kind != "da" else None
    second = int(match[f"{kind}s"]) if kind != "da" and match[f"{kind}s"] else None
    return Moment(written, year, month, day, hour, minute, second, _zone_minutes(zone_text))


def _zone_minutes(text: str | None) -> int | None:
    if not text:
        return None
    text = text.replace(" ", "").replace("\t", "")
    if text in ("Z", "UTC", "GMT"):
        return 0
    if text in ("北京时间", "CST", "Asia/Shanghai"):
        return 480
    offset = re.search(r"([+-])(\d{1,2}):?(\d{2})?$", text)
    if offset is None:
        return None
    minutes = int(offset[2]) * 60 + int(offset[3] or 0)
    return minutes if offset[1] == "+" else -minutes


def _share_range(first: Moment, second: Moment) -> tuple[Moment, Moment]:
    """``A 至 B``: a zone named once applies to both ends, and B without a date takes A's."""
    zone = second.zone if second.zone is not None else first.zone
    if not second.has_date:
        second = replace(second, year=first.year, month=first.month, day=first.day)
    return replace(second, zone=zone), replace(first, zone=zone)


def _span_seconds(start: Moment, end: Moment) -> Decimal:
    start_s, end_s = start.seconds_of_day() or 0, end.seconds_of_day() or 0
    if start.has_date and end.has_date and start.year and end.year and start.month and end.month:
        try:
            days = (date(end.year, end.month, end.day or 1) - date(start.year, start.month, start.day or 1)).days
        except ValueError:  # not a calendar date: no span
            return Decimal(-1)
        end_s += days * 86400
    return Decimal(abs(end_s - start_s))


# -- evidence ---------------------------------------------------------------------------------------------


@dataclass
class Evidence:
    """What a claim may state: the tokens of its evidence and of the user's query."""

    numbers: list[Number] = field(default_factory=list)
    moments: list[Moment] = field(default_factory=list)
    words: set[str] = field(default_factory=set)
    window_seconds: list[Decimal] = field(default_factory=list)
    asked: list[str] = field(default_factory=list)
    """The free text the agent queried with: a claim may quote it ("以 'X' 查询") without X being a fact."""

    def add_text(self, text: str) -> None:
        tokens = tokenize(text)
        self.numbers += tokens.numbers
        self.moments += tokens.moments
        self.words |= tokens.words
        self.window_seconds += tokens.windows

    def add_value(self, value: Any, key: str | None = None, *, scope_is_fact: bool = True) -> None:
        """Every leaf of a JSON value: strings are read as text, numbers take the unit their key names.

        Without ``scope_is_fact`` (a NORMAL analysis), what the agent itself wrote into its query is not evidence
        that it exists: a log or knowledge query is skipped (a claim may still quote it), while the query's window,
        topic, data source and SQL filters (which every returned row meets) count."""
        if isinstance(value, Mapping):
            for name, item in value.items():
                self.words |= _word_forms(str(name))
                if not scope_is_fact and name in _FREE_TEXT_KEYS:
                    self._add_free_text(item)
                elif not scope_is_fact and name == "scope" and isinstance(item, str):
                    self._add_scope_text(item)
                else:
                    self.add_value(item, str(name), scope_is_fact=scope_is_fact)
            self._add_window(value)
        elif isinstance(value, list | tuple):
            for item in value:
                self.add_value(item, key, scope_is_fact=scope_is_fact)
        elif isinstance(value, str):
            self.add_text(value)
        elif isinstance(value, bool) or value is None:
            self.words.add("null" if value is None else str(value).lower())
        elif isinstance(value, int | float):
            try:
                number = Decimal(str(value))
            except InvalidOperation:
                return
            if number.is_finite():
                self.numbers.append(Number(number, key_unit(key), str(value)))
                self.words.add(str(value).lower())

    def merged(self, other: Evidence) -> Evidence:
        return Evidence(
            self.numbers + other.numbers,
            self.moments + other.moments,
            self.words | other.words,
            self.window_seconds + other.window_seconds,
            self.asked + other.asked,
        )

    def _add_free_text(self, value: Any) -> None:
        if isinstance(value, str) and len(value.strip()) >= 3:
            self.asked.append(value.strip())

    def _add_scope_text(self, scope: str) -> None:
        """A scope as the snapshot writes it: ``SQL params=[…]`` counts whole; of ``query，start 至 end`` only the
        window does."""
        if " params=" in scope:
            self.add_text(scope)
            return
        query, separator, _ = scope.rpartition("，")
        if separator:
            self._add_free_text(query)
        tokens = tokenize(scope)
        self.moments += tokens.span_ends
        self.window_seconds += tokens.windows

    def _add_window(self, value: Mapping[str, Any]) -> None:
        start, end = value.get("start_time"), value.get("end_time")
        if isinstance(start, str) and isinstance(end, str):
            first, last = tokenize(start).moments, tokenize(end).moments
            if first and last and first[0].has_time and last[0].has_time:
                self.window_seconds.append(_span_seconds(first[0].utc(), last[0].utc()))


_FREE_TEXT_KEYS = frozenset({"query"})
"""A log or knowledge query is free text the agent wrote; SQL filters describe the rows returned, so they count."""


def evidence_of(values: Iterable[Any], texts: Iterable[str] = (), *, scope_is_fact: bool = True) -> Evidence:
    evidence = Evidence()
    for value in values:
        evidence.add_value(value, scope_is_fact=scope_is_fact)
    for text in texts:
        evidence.add_text(text)
    return evidence


# -- grounding --------------------------------------------------------------------------------------------


def ungrounded(
    text: str,
    evidence: Evidence,
    *,
    non_facts: frozenset[str] = frozenset(),
    ignore: frozenset[str] = frozenset(),
    operand_texts: Sequence[str] = (),
) -> list[str]:
    """The fact tokens of ``text`` that ``evidence`` does not hold, as written, in order, once each.

    ``ignore``: lower-case words that name parts of the report itself (its analysis ids). ``operand_texts``:
    other texts whose grounded numbers and times may serve as operands of a value derived in ``text`` (a
    conclusion shows its work in the analyses it rests on).
    """
    text = _without_quoted_queries(text, evidence.asked)
    tokens = tokenize(text, non_facts)
    missing: list[str] = []
    for identifier in tokens.identifiers:
        if identifier.key in ignore or identifier.negated or _has_word(evidence.words, identifier):
            continue
        missing.append(identifier.written)
    for moment in tokens.moments:
        if not any(_same_moment(moment, seen) for seen in evidence.moments):
            missing.append(moment.written)
    operands = [n for n in tokens.numbers if _held(n, evidence)]
    times = [m for m in tokens.moments if any(_same_moment(m, seen) for seen in evidence.moments)]
    arithmetic = bool(_ARITHMETIC.search(text))
    for other in operand_texts:
        extra = tokenize(other, non_facts)
        operands += [n for n in extra.numbers if _held(n, evidence)]
        times += [m for m in extra.moments if any(_same_moment(m, seen) for seen in evidence.moments)]
        arithmetic = arithmetic or bool(_ARITHMETIC.search(other))
    pending = [n for n in tokens.numbers if n not in operands]
    while pending:  # a derived value may be the operand of the next one (19 = 12 + 6 + 1, then 6/19 = 32%)
        derived = [n for n in pending if _derived(n, operands, times, arithmetic)]
        if not derived:
            break
        operands += derived
        pending = [n for n in pending if n not in derived]
    missing += [number.written for number in pending]
    return list(dict.fromkeys(missing))


def _without_quoted_queries(text: str, asked: list[str]) -> str:
    """``text`` with each place it quotes the agent's own query ("以 'order-service timeout' 查询") blanked out: what
    was asked is a description of the query, not a finding."""
    for phrase in sorted(set(asked), key=len, reverse=True):
        start = text.find(phrase)
        while start >= 0:
            end = start + len(phrase)
            if _QUOTING.search(text[max(0, start - 6) : start]):
                text = text[:start] + " " * len(phrase) + text[end:]
            start = text.find(phrase, end)
    return text


def _has_word(words: set[str], identifier: Identifier) -> bool:
    if identifier.key in words:
        return True
    return identifier.clipped and any(word.startswith(identifier.key) for word in words)


def _held(number: Number, evidence: Evidence) -> bool:
    """Stated by the evidence: the same value (in a compatible unit), converted exactly, or rounded and marked
    approximate, or bounded as written (超过 X holds when the evidence's value is above X); the length of a
    queried window when the number is written as one; a fraction of the evidence as a percentage."""
    for seen in evidence.numbers:
        converted = _convert(seen, number.unit)
        if converted is None:
            continue
        if _matches(number, converted) or (number.clipped and str(converted).startswith(str(number.value))):
            return True
        fraction = unit_class(number.unit) == "percent" and seen.unit is None and 0 < seen.value < 1
        if fraction and _matches(number, seen.value * 100):
            return True
    if number.window and unit_class(number.unit) == "time":
        return any(_matches(number, seconds / unit_factor(number.unit or "s")) for seconds in evidence.window_seconds)
    return False


def _matches(number: Number, value: Decimal) -> bool:
    """Whether ``value`` is what ``number`` says of it, given how it is qualified."""
    written = number.value
    if value == written:  # a bound quoted as the evidence words it ("超过 15 分钟") holds
        return True
    if number.qualifier in (ABOVE, AT_LEAST):  # a bound rounds a nearby value: 超过 30 秒 for 30.007 s
        return written < value <= written * BOUND_REACH
    if number.qualifier in (BELOW, AT_MOST):
        return written / BOUND_REACH <= value < written
    if number.qualifier == TENS:
        return written <= value < written + _last_step(written)
    return value == written or (number.qualifier == APPROX and _approximately(written, value))


def _last_step(value: Decimal) -> Decimal:
    """The place of the last significant digit of ``value`` (30 -> 10, 300 -> 100, 2.5 -> 0.1)."""
    exponent = value.normalize().as_tuple().exponent
    return Decimal(1).scaleb(exponent if isinstance(exponent, int) else 0)


def _convert(seen: Number, unit: str | None) -> Decimal | None:
    """``seen`` in ``unit``; None when the two cannot be the same kind of quantity."""
    claim_class, seen_class = unit_class(unit), unit_class(seen.unit)
    if seen_class is None and claim_class in MEASURED:  # waiting=30 is not 30 秒
        return None
    if claim_class is None or seen_class is None or (claim_class == "count" and seen_class == "count"):
        return seen.value
    if claim_class != seen_class:
        return None
    if claim_class in ("time", "size") and unit is not None and seen.unit is not None:
        return seen.value * unit_factor(seen.unit) / unit_factor(unit)
    return seen.value


def _derived(number: Number, operands: list[Number], times: list[Moment], arithmetic: bool) -> bool:
    """A value the item shows its work for: computed from grounded operands it states, rounded to the precision
    it is written with (or as it is qualified). A percentage or ratio of two quantities of one kind (counts, or
    times in one unit); a sum or a difference of two of the claim's kind when the item says so (共/合计/相差/多 …);
    a total of several stated counts; a duration between two stated times, or the period of N occurrences across
    it; with the arithmetic written out (×, *, 乘), a product and a share (800 的 80%)."""

    def matches(value: Decimal) -> bool:
        return _rounds_to(number.value, value) if number.qualifier is None else _matches(number, value)

    kind = unit_class(number.unit)
    others = [operand for operand in operands if operand is not number]
    same_kind = [value for operand in others if (value := _in_claim_unit(operand, number)) is not None]
    by_kind: dict[str | None, list[Decimal]] = {}
    for operand in others:  # for ratios: quantities of one kind in their base unit, so s and ms compare
        operand_kind = "count" if unit_class(operand.unit) in (None, "count") else unit_class(operand.unit)
        by_kind.setdefault(operand_kind, []).append(operand.value * unit_factor(operand.unit or ""))
    if kind in ("percent", "ratio", None):
        for values in by_kind.values():
            for a, b in combinations(values, 2):
                for numerator, denominator in ((a, b), (b, a)):
                    if denominator and matches(numerator / denominator * (100 if kind == "percent" else 1)):
                        return True
    if kind != "percent" and (number.total or number.difference):
        for a, b in combinations(same_kind, 2):
            if (number.total and matches(a + b)) or (number.difference and matches(abs(a - b))):
                return True
    if number.total and kind in (None, "count"):
        counts = [o.value for o in others if unit_class(o.unit) in (None, "count")][:MAX_SUMMANDS]
        for size in range(3, len(counts) + 1):
            if any(matches(sum(group, Decimal(0))) for group in combinations(counts, size)):
                return True
    if arithmetic and kind != "percent":
        shares = [o.value for o in others if unit_class(o.unit) == "percent"]
        values = [o.value for o in others]
        for a, b in combinations(values, 2):
            candidates = [a * b] + [x * share / 100 for x in (a, b) for share in shares]
            candidates += [x * (100 - share) / 100 for x in (a, b) for share in shares]
            if any(matches(candidate) for candidate in candidates):
                return True
    if kind == "time" and number.unit is not None:
        counts = [o.value for o in others if unit_class(o.unit) in (None, "count") and o.value > 1]
        for first, second in combinations([t.utc() for t in times if t.has_time], 2):
            if first.has_date != second.has_date:
                continue
            span = _span_seconds(first, second) / unit_factor(number.unit)
            # the span itself, or the period of N stated occurrences across it (5 次 from 02:05 to 02:25: 每 5 分钟)
            if matches(span) or any(matches(span / (count - 1)) or matches(span / count) for count in counts):
                return True
    return False


def _in_claim_unit(operand: Number, number: Number) -> Decimal | None:
    """``operand`` as a quantity of the claim's kind, in its unit; None when it is of another kind."""
    kind, operand_kind = unit_class(number.unit), unit_class(operand.unit)
    if kind in (None, "count"):
        return operand.value if operand_kind in (None, "count") else None
    if operand_kind != kind:
        return None
    return _convert(operand, number.unit)


def _decimals(value: Decimal) -> int:
    exponent = value.normalize().as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0


def _rounds_to(written: Decimal, value: Decimal) -> bool:
    """``value`` shown with as many decimals as ``written`` has is ``written``."""
    step = Decimal(1).scaleb(-_decimals(written))
    return abs(value - written) <= step / 2


def _approximately(written: Decimal, value: Decimal) -> bool:
    """``written`` is ``value`` rounded to ``written``'s significant digits; when those are uncertain (a round
    number such as 60 or 300), also within 5% of it: 约 55% is 55.4%, 约 60% is not."""
    if value == 0:
        return written == 0
    step = _last_step(written)
    if abs(value - written) > step / 2:
        return False
    return step < 10 or abs(value - written) <= abs(value) / 20


def _same_moment(claim: Moment, seen: Moment) -> bool:
    """The claim names the evidence's moment at the claim's own precision (both in UTC when both name a zone,
    else both as written)."""
    if claim.zone is not None and seen.zone is not None:
        claim, seen = claim.utc(), seen.utc()
    if claim.has_date:
        if not seen.has_date:
            return False
        if (claim.year is not None and claim.year != seen.year) or claim.month != seen.month:
            return False
        if claim.day is not None and claim.day != seen.day:
            return False
    if not claim.has_time:
        return True
    if not seen.has_time:
        return False
    if claim.second is not None:
        return (claim.hour, claim.minute, claim.second) == (seen.hour, seen.minute, seen.second)
    difference = (seen.seconds_of_day() or 0) - (claim.seconds_of_day() or 0)
    return 0 <= difference < 60 or abs(difference) <= 30
