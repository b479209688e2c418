"""Quantities as people write them: units (time, size, count, percent, ratio, currency), the unit a JSON key
names, and Chinese numerals that count something, read as digits. The vocabulary of
:mod:`harness.value_grounding`, kept apart from its rules.
"""

from __future__ import annotations

import re
from decimal import Decimal

# -- units ------------------------------------------------------------------------------------------------

TIME_UNITS: dict[str, Decimal] = {
    **dict.fromkeys(("ms", "msec", "msecs", "millisecond", "milliseconds", "毫秒"), Decimal("0.001")),
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds", "秒", "秒钟"), Decimal(1)),
    **dict.fromkeys(("m", "min", "mins", "minute", "minutes", "分钟", "分"), Decimal(60)),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours", "小时", "个小时", "钟头"), Decimal(3600)),
    **dict.fromkeys(("d", "day", "days", "天"), Decimal(86400)),
}
SIZE_UNITS: dict[str, Decimal] = {
    **dict.fromkeys(("b", "byte", "bytes", "字节"), Decimal(1)),
    **dict.fromkeys(("kb", "kib"), Decimal(1024)),
    **dict.fromkeys(("mb", "mib", "兆"), Decimal(1024**2)),
    **dict.fromkeys(("gb", "gib"), Decimal(1024**3)),
    **dict.fromkeys(("tb", "tib"), Decimal(1024**4)),
}
COUNT_UNITS = frozenset((
    "次", "条", "行", "个", "笔", "单", "名", "位", "台", "项",
    "例", "件", "人", "张", "家", "处", "种", "类", "批", "轮",
    "time", "times", "row", "rows", "line", "lines", "record", "records", "request", "requests", "error", "errors",
    "call", "calls", "event", "events", "order", "orders", "entry", "entries", "connection", "connections",
    "thread", "threads", "instance", "instances",
))  # fmt: skip
_PERCENT_UNITS = frozenset({"%", "percent", "pct"})
_RATIO_UNITS = frozenset({"倍"})
_CURRENCY_UNITS = frozenset({"元", "rmb", "cny", "usd", "yuan"})
MULTIPLIERS = {"万": Decimal(10_000), "亿": Decimal(100_000_000), "k": Decimal(1000)}
_UNIT_WORDS = sorted(
    {*TIME_UNITS, *SIZE_UNITS, *COUNT_UNITS, *_PERCENT_UNITS, *_RATIO_UNITS, *_CURRENCY_UNITS},
    key=len,
    reverse=True,
)
_UNITS = "|".join(
    re.escape(word) + (r"(?![为成别开两二三四五六七八九十几类批组种布配析])" if word == "分" else "")
    for word in _UNIT_WORDS
)
"""分 is a minute unless it is the verb that divides (504 分两类, 分为, 分别)."""
UNIT_AFTER = re.compile(
    r"[ \t]?(?:(?P<mult>万|亿)(?:[ \t]?(?P<munit>" + _UNITS + r")(?![A-Za-z]))?|(?P<unit>" + _UNITS + r")(?![A-Za-z]))",
    re.IGNORECASE,
)
_KEY_UNITS = (
    (re.compile(r"(?:^|_)(?:ms|millis|milliseconds)$"), "ms"),
    (re.compile(r"_(?:s|sec|secs)$|(?:^|_)seconds$"), "s"),
    (re.compile(r"_(?:min|mins)$|(?:^|_)minutes$"), "min"),
    (re.compile(r"_h$|(?:^|_)hours$"), "h"),
    (re.compile(r"(?:^|_)days$"), "d"),
    (re.compile(r"(?:^|_)bytes$"), "b"),
    (re.compile(r"(?:^|_)(?:percent|pct)$"), "%"),
)
"""A JSON number takes the unit its key names: ``lookback_minutes: 30`` is 30 minutes. A short unit needs a name
before it: ``min`` alone is a minimum (a series' figures), ``wait_min`` is minutes."""


MEASURED = frozenset({"time", "size", "percent"})
"""Units a bare number in the evidence never grounds: it must say seconds, bytes or per cent itself."""


def unit_class(unit: str | None) -> str | None:
    if unit is None:
        return None
    unit = unit.lower()
    if unit in TIME_UNITS:
        return "time"
    if unit in SIZE_UNITS:
        return "size"
    if unit in _PERCENT_UNITS:
        return "percent"
    if unit in _RATIO_UNITS:
        return "ratio"
    if unit in _CURRENCY_UNITS:
        return "currency"
    return "count"


def unit_factor(unit: str) -> Decimal:
    unit = unit.lower()
    return TIME_UNITS.get(unit) or SIZE_UNITS.get(unit) or Decimal(1)


# -- Chinese numerals ---------------------------------------------------------------------------------------

_CN_DIGITS = dict(zip("零〇一二两三四五六七八九", (0, 0, 1, 2, 2, 3, 4, 5, 6, 7, 8, 9), strict=True))
_CN_SMALL = {"十": 10, "百": 100, "千": 1000}
_CN_LARGE = {"万": 10_000, "亿": 100_000_000}
_CN_CLASSIFIERS = "次条行个笔单名位台项例件人秒倍元天"
_CN_NUMBER = re.compile(
    r"(?P<percent>百分之)?(?P<number>[零〇一二两三四五六七八九十百千万亿]{2,}(?:点[零〇一二三四五六七八九]+)?)"
    r"(?=(?(percent)|(?:多|余|来)?[ \t]?(?:毫秒|分钟|小时|个小时|[" + _CN_CLASSIFIERS + r"])))"
)


def _cn_integer(text: str) -> int | None:
    """The value of a Chinese numeral in its standard form (七十二, 一百三十, 三千零五, 两万) or read digit by
    digit (一〇二四); None for anything else (三三两两)."""
    if all(char in _CN_DIGITS for char in text):
        read_out = len(text) >= 3 and any(char in "零〇" for char in text)
        return int("".join(str(_CN_DIGITS[char]) for char in text)) if read_out else None
    total, section, digit = 0, 0, None
    for char in text:
        if char in _CN_DIGITS:
            if digit not in (None, 0) and _CN_DIGITS[char] != 0:
                return None
            digit = _CN_DIGITS[char]
        elif char in _CN_SMALL:
            section += (1 if digit is None else digit) * _CN_SMALL[char]
            digit = None
        elif char in _CN_LARGE:
            if digit is None and section == 0:
                return None
            total += (section + (digit or 0)) * _CN_LARGE[char]
            section, digit = 0, None
    return total + section + (digit or 0)


_CN_SINGLE_DURATION = re.compile(
    r"(?<![零〇一二两三四五六七八九十百千万亿同某每哪这那任第])([二两三四五六七八九十])"
    r"(?=[ \t]?(?:毫秒|秒|分钟|小时|个小时|天|周))"
)
"""One Chinese numeral before a unit of time is a duration (两小时): a claim about a window, unlike 一次 or 三类."""


def replace_cn_numbers(text: str) -> str:
    def replace(match: re.Match[str]) -> str:
        whole, _, fraction = match["number"].partition("点")
        value = _cn_integer(whole)
        if value is None:
            return match.group(0)
        digits = str(value) + ("." + "".join(str(_CN_DIGITS[c]) for c in fraction) if fraction else "")
        return digits + "%" if match["percent"] else digits

    text = _CN_NUMBER.sub(replace, text)
    return _CN_SINGLE_DURATION.sub(lambda match: str(_CN_DIGITS.get(match.group(1), 10)), text)


def key_unit(key: str | None) -> str | None:
    if not key:
        return None
    lowered = key.lower()
    return next((unit for pattern, unit in _KEY_UNITS if pattern.search(lowered)), None)
