"""Rule 4 and the periods a clause names: 最近 / 过去 N, 今天 / today, 昨天 / yesterday, in minutes or days."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from offline_model.guard.problem import Problem
from offline_model.guard.records import Record, moments
from offline_model.lexical import leaf_text

PERIOD = re.compile(
    r"(?:最近|过去|\blast|\bpast)\s*(?P<n>\d+|[一两二三四五六七八九十半]+|an?\b)?\s*个?\s*"
    r"(?P<u>分钟|小时|天|周|(?:min(?:ute)?|hour|day|week)s?(?![a-z]))|(?P<d>今天|今日|全天|today|昨天|yesterday)", re.I,
)  # fmt: skip
_MINUTES = {"分": 1, "mi": 1, "小": 60, "ho": 60, "天": 1440, "da": 1440, "周": 10080, "we": 10080}
_CN = {"半": 0.5, "一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}


def period_minutes(match: re.Match[str] | None) -> float | None:
    if match is None or not (unit := match.group("u")):
        return None
    amount = (match.group("n") or "1").lower()
    tens, ten, units = amount.partition("十")
    number = float(amount) if amount.isdigit() else _CN.get(amount, 1)
    number = _CN.get(tens, 1) * 10 + _CN.get(units, 0) if ten else number
    return number * _MINUTES[unit[:2].lower() if unit.isascii() else unit[0]]


def period_problem(text: str, records: list[Record], entries: list[Any]) -> Problem | None:
    latest = max([m for r in records for m in (r.first, r.last) if m] + moments(leaf_text(entries)), default=None)
    spans: list[tuple[datetime, datetime]] = []
    for window in (moments(str(e.get("scope") or "")) for e in entries if isinstance(e, dict)):
        if len(window) > 1:
            spans.append((window[0], window[-1]))
        elif window and latest and latest > window[0]:  # an open window: it ends soon after the latest time seen
            spans.append((window[0], latest + timedelta(hours=1)))
    for match in PERIOD.finditer(text) if spans else ():
        day, minutes = (match.group("d") or "").lower(), period_minutes(match)
        fits = [
            end - start >= timedelta(minutes=minutes) if minutes is not None
            else start.date() < end.date() if day in ("昨天", "yesterday")
            else start <= end.replace(hour=0, minute=0, second=0)
            for start, end in spans
        ]  # fmt: skip
        if not any(fits):
            start, end = f"{spans[0][0]:%m-%d %H:%M}", f"{spans[0][1]:%m-%d %H:%M}"
            return Problem(
                f"说「{match.group(0)}」，但证据只覆盖 {start} 至 {end}",
                f'says "{match.group(0)}", but the evidence covers only {start} to {end}',
            )
    return None
