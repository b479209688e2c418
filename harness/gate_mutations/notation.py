"""How the writers spell values the way models do: instants in other notations and zones, rounded and converted
numbers, Chinese approximate numerals. Each function returns marked text (:mod:`.marks`) and can render a shifted
value in the same notation, which is how a time or number mutation keeps the writer's spelling."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from decimal import ROUND_FLOOR, ROUND_HALF_UP, Decimal

from harness.gate_mutations.marks import mark, quantity

BEIJING = timezone(timedelta(hours=8))
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_DIGITS = "零一二三四五六七八九"

NOTATIONS: dict[str, Callable[[datetime], str]] = {
    "iso": lambda t: t.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S") + "Z",
    "iso_ms": lambda t: t.astimezone(UTC).isoformat(timespec="milliseconds"),
    "sql": lambda t: t.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S"),
    "hms_utc": lambda t: t.astimezone(UTC).strftime("%H:%M:%S") + " UTC",
    "hm_utc": lambda t: t.astimezone(UTC).strftime("%H:%M") + " UTC",
    "beijing_zh": lambda t: "北京时间 " + t.astimezone(BEIJING).strftime("%H:%M:%S"),
    "beijing_en": lambda t: t.astimezone(BEIJING).strftime("%H:%M:%S") + " Beijing time",
    "utc8": lambda t: t.astimezone(BEIJING).strftime("%H:%M") + " (UTC+8)",
    "date_zh": lambda t: f"{t.astimezone(UTC).month} 月 {t.astimezone(UTC).day} 日",
    "date_en": lambda t: f"{_MONTHS[t.astimezone(UTC).month - 1]} {t.astimezone(UTC).day}",
    "date_slash": lambda t: t.astimezone(UTC).strftime("%m/%d"),
    "date_zh_hm": lambda t: (
        f"{t.astimezone(UTC).month} 月 {t.astimezone(UTC).day} 日 " + t.astimezone(UTC).strftime("%H:%M") + " UTC"
    ),
}
"""Notation name -> spelling of an instant. The date-only ones say a day; the rest say a time of day."""

DATE_ONLY = frozenset({"date_zh", "date_en", "date_slash"})


def instant(text: str) -> datetime:
    """An instant of a tool result: ISO 8601 (``…+00:00`` or ``Z``) or SQL ``YYYY-MM-DD HH:MM:SS`` in UTC."""
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def when(moment: datetime, notation: str) -> str:
    """``moment`` as a marked time token in ``notation``."""
    return mark("time", NOTATIONS[notation](moment), iso=moment.astimezone(UTC).isoformat(), notation=notation)


def exact(value: float | int | Decimal | str, unit: str = "", **meta: object) -> str:
    """A value as the source wrote it (no rounding), with a unit; a computed Decimal in plain digits."""
    return quantity(format(value.normalize(), "f") if isinstance(value, Decimal) else str(value), unit, **meta)


def rounded(value: float | Decimal, places: int = 0, unit: str = "", *, floor: bool = False, **meta: object) -> str:
    """``value`` rounded to ``places`` decimals (half up, or down with ``floor``), marked approximate."""
    number = _round(Decimal(str(value)), places, floor)
    return quantity(str(number), unit, approx=True, places=places, **meta)


def _round(value: Decimal, places: int, floor: bool = False) -> Decimal:
    step = Decimal(1).scaleb(-places)
    return value.quantize(step, rounding=ROUND_FLOOR if floor else ROUND_HALF_UP)


def seconds_between(first: datetime, last: datetime) -> Decimal:
    return Decimal(str((last - first).total_seconds()))


def chinese_tens(count: int) -> str | None:
    """A Chinese approximate numeral for ``count`` (10–99): 四十多 for 43, 近五十 for 48; None when none fits."""
    tens, ones = divmod(count, 10)
    if not 1 <= tens <= 9 or ones == 0:
        return None
    if ones >= 7 and tens < 9:
        return "近" + _tens_word(tens + 1)
    return _tens_word(tens) + "多"


def _tens_word(tens: int) -> str:
    return ("" if tens == 1 else _DIGITS[tens]) + "十"
