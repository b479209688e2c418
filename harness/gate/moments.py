"""Dates and times as people write them (ISO, ``2026年7月21日 02:05``, ``12 月 1 日``, ``10:05 北京时间``), and when
two of them name the same moment.

A moment keeps the precision it is written with: ``02:05`` names the minute, ``02:05:09`` the second, ``12 月 1 日``
a day of any year. Both sides of a comparison are taken to UTC when both name a zone; otherwise they are compared
as written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from decimal import Decimal

_HALF_DAY = {"上午": 0, "早上": 0, "早晨": 0, "凌晨": 0, "中午": 12, "下午": 12, "傍晚": 12, "晚上": 12, "夜里": 12}
"""Words before a time of day that say which half of the day it is in (下午 7:37 is 19:37)."""
_ZONE = (
    r"(?:[ \t]*[(（]?[ \t]*(?P<{p}zone>Z(?![A-Za-z])|(?:UTC|GMT)(?:[ \t]*[+-][ \t]*\d{{1,2}}(?::?\d{{2}})?)?"
    r"|[+-]\d{{2}}:?\d{{2}}(?!\d)|北京时间|Beijing time|CST(?![A-Za-z])|Asia/Shanghai)[ \t]*[)）]?)?"
)
_DATE = r"(?P<{p}y>\d{{4}})[ \t]?[-/.年][ \t]?(?P<{p}mo>\d{{1,2}})[ \t]?[-/.月][ \t]?(?P<{p}d>\d{{1,2}})[ \t]?日?"
_CLOCK = (
    r"(?:(?P<{p}hd>" + "|".join(_HALF_DAY) + r")[ \t]*)?"
    r"(?P<{p}h>\d{{1,2}})(?::|[ \t]?[点时][ \t]?)(?P<{p}mi>\d{{2}})(?:(?::|[ \t]?分[ \t]?)(?P<{p}s>\d{{2}})"
    r"(?P<{p}f>\.\d{{1,9}})?秒?)?(?!\d)(?:[ \t]*(?P<{p}ap>[AaPp]\.?[Mm]\.?)(?![A-Za-z]))?"
)
_DAY_WORDS = r"创建|起|开始|当天|那天|以来|之前|之后|号"
"""Words that make ``12/01`` a date, as a time of day after it does (``6/19`` alone is a ratio)."""
_LEADING_ZONE = r"(?:北京时间|Beijing time|(?:UTC|GMT)[ \t]*[+-][ \t]*\d{1,2}(?::?\d{2})?)"
_BEIJING = r"(?:" + _LEADING_ZONE + r"[ \t]*)?"
_MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sept?(?:ember)?|Oct(?:ober)?"
    r"|Nov(?:ember)?|Dec(?:ember)?)"
)
_EN_DATE = (
    r"|(?<![A-Za-z])(?P<enm>"
    + _MONTH
    + r")\.?[ \t]+(?P<end>\d{1,2})(?:st|nd|rd|th)?(?:,?[ \t]+(?P<eny>\d{4}))?(?![\d:])"
    r"|(?<![\d.:])(?P<edd>\d{1,2})[ \t]+(?P<edm>" + _MONTH + r")(?![A-Za-z])\.?(?:,?[ \t]+(?P<edy>\d{4}))?"
)
"""English dates: ``Dec 1``, ``December 1, 2026``, ``1 Dec 2026``."""
MOMENT_PATTERN = (
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
    r"|(?<!\d)(?P<ymy>\d{4})[ \t]?年[ \t]?(?P<ymm>\d{1,2})[ \t]?月(?![ \t]?[\d日])"
    r"|(?<![\d年])(?P<mdm>\d{1,2})[ \t]?月[ \t]?(?P<mdd>\d{1,2})[ \t]?日"
    r"|(?<![\d/.])(?P<sdm>\d{1,2})/(?P<sdd>\d{1,2})(?=[ \t]*(?:\d{1,2}:\d{2}|" + _DAY_WORDS + r"))" + _EN_DATE + r")"
    r"|(?P<time>" + _BEIJING + r"(?<![\d.])(?<!\d:)" + _CLOCK.format(p="ti") + _ZONE.format(p="ti") + r")"
)
"""The alternatives of a moment in the fact-token pattern (named groups ``datetime``, ``date``, ``time``)."""
RANGE_JOIN = re.compile(r"^[ \t]*(?:至|到|~|-|–|—|to|and)[ \t]*$", re.IGNORECASE)
"""What joins the two ends of a span (``A 至 B``)."""


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
    at: int = -1
    fraction: Decimal = Decimal(0)
    """The part of its second written after the point (``26.506`` -> 0.506): spans between instants keep it."""
    """Where it starts in the text it was read from."""

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


def moment_of(match: re.Match[str]) -> Moment:
    """The moment a match of :data:`MOMENT_PATTERN` names."""
    kind = "dt" if match["datetime"] else "ti" if match["time"] else "da"
    zone_text = match[f"{kind}zone"] if kind != "da" else None
    written = match.group(0).strip()
    leading = _LEADING.match(written)
    if zone_text is None and leading is not None:
        zone_text = leading.group(0)
    at = match.start()
    if kind == "da" and match["ymy"]:
        return Moment(written, int(match["ymy"]), int(match["ymm"]), at=at)
    if kind == "da" and (match["mdm"] or match["sdm"]):  # 12 月 1 日; 12/01 before a time or 创建: month first
        month, day = (match["mdm"], match["mdd"]) if match["mdm"] else (match["sdm"], match["sdd"])
        return Moment(written, None, int(month), int(day), at=at)
    if kind == "da" and (match["enm"] or match["edm"]):
        month, day, year = (
            (match["enm"], match["end"], match["eny"]) if match["enm"] else match.group("edm", "edd", "edy")
        )
        return Moment(written, int(year) if year else None, _MONTHS[month[:3].lower()], int(day), at=at)
    year = int(match[f"{kind}y"]) if kind != "ti" else None
    month = int(match[f"{kind}mo"]) if kind != "ti" else None
    day = int(match[f"{kind}d"]) if kind != "ti" else None
    hour = _hour(match, kind) if kind != "da" else None
    minute = int(match[f"{kind}mi"]) if kind != "da" else None
    second = int(match[f"{kind}s"]) if kind != "da" and match[f"{kind}s"] else None
    fraction = Decimal("0" + match[f"{kind}f"]) if kind != "da" and match[f"{kind}f"] else Decimal(0)
    return Moment(written, year, month, day, hour, minute, second, _zone_minutes(zone_text), at, fraction)


_LEADING = re.compile(_LEADING_ZONE)
_MONTHS = {name: number for number, name in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), start=1
)}  # fmt: skip


def _hour(match: re.Match[str], kind: str) -> int:
    """The hour on a 24-hour clock: 7 PM and 下午 7 点 are 19, 12 AM is 0."""
    hour = int(match[f"{kind}h"])
    half = match[f"{kind}hd"]
    marker = (match[f"{kind}ap"] or "").lower().replace(".", "")
    if (marker == "pm" or (half is not None and _HALF_DAY[half] == 12)) and hour < 12:
        return hour + 12
    if marker == "am" and hour == 12:
        return 0
    return hour


def _zone_minutes(text: str | None) -> int | None:
    if not text:
        return None
    text = text.replace(" ", "").replace("\t", "")
    if text in ("Z", "UTC", "GMT"):
        return 0
    if text in ("北京时间", "Beijingtime", "CST", "Asia/Shanghai"):
        return 480
    offset = re.search(r"([+-])(\d{1,2}):?(\d{2})?$", text)
    if offset is None:
        return None
    minutes = int(offset[2]) * 60 + int(offset[3] or 0)
    return minutes if offset[1] == "+" else -minutes


def share_range(first: Moment, second: Moment) -> tuple[Moment, Moment]:
    """``A 至 B``: a zone named once applies to both ends, and B without a date takes A's."""
    zone = second.zone if second.zone is not None else first.zone
    if not second.has_date:
        second = replace(second, year=first.year, month=first.month, day=first.day)
    return replace(second, zone=zone), replace(first, zone=zone)


def span_seconds(start: Moment, end: Moment) -> Decimal:
    start_s, end_s = start.seconds_of_day() or 0, end.seconds_of_day() or 0
    if start.has_date and end.has_date and start.year and end.year and start.month and end.month:
        try:
            days = (date(end.year, end.month, end.day or 1) - date(start.year, start.month, start.day or 1)).days
        except ValueError:  # not a calendar date: no span
            return Decimal(-1)
        end_s += days * 86400
    return abs(Decimal(end_s) + end.fraction - Decimal(start_s) - start.fraction)


SOURCE_ZONE = 0
"""The zone of a time a source returns without one (a DATETIME column): UTC, as the services and the tools' clocks
run. A claim that converts it (北京时间 19:15 for 11:15:00) converts from UTC."""


def same_moment(claim: Moment, seen: Moment) -> bool:
    """The claim names the evidence's moment at the claim's own precision: in UTC when the claim names a zone (a
    time of the evidence without one is in :data:`SOURCE_ZONE`), else both as written."""
    if claim.zone is not None:
        claim, seen = claim.utc(), replace(seen, zone=SOURCE_ZONE if seen.zone is None else seen.zone).utc()
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
