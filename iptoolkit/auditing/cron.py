"""Quartz cron expressions, as the platform's agents schedule with them
(`0 */15 * * * ?`: second, minute, hour, day of month, month, day of week, optional year).

`check` says what is wrong with one (None when it parses); `minutes_of_day` says at which
minutes of a day it can fire, which is what tells a thundering herd (many profiles polling
one host in the same minute). Hand-written because the cron libraries on PyPI read Unix
cron (five fields, no `?`, `L`, `W` or `#`), not Quartz's dialect.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

__all__ = ["check", "minutes_of_day"]

_MONTHS = "JAN FEB MAR APR MAY JUN JUL AUG SEP OCT NOV DEC".split()
_DAYS = "SUN MON TUE WED THU FRI SAT".split()
_FIELDS = (
    ("second", 0, 59, ()),
    ("minute", 0, 59, ()),
    ("hour", 0, 23, ()),
    ("day of month", 1, 31, ()),
    ("month", 1, 12, _MONTHS),
    ("day of week", 1, 7, _DAYS),
    ("year", 1970, 2099, ()),
)
_DOM_SPECIAL = re.compile(r"^(L(-\d{1,2})?|LW|\d{1,2}W)$")
_DOW_SPECIAL = re.compile(r"^([1-7]|[A-Z]{3})(L|#[1-5])$|^L$")
_ITEM = re.compile(r"^(\*|[0-9A-Z]+(?:-[0-9A-Z]+)?)(?:/(\d+))?$")


@functools.lru_cache(maxsize=1024)
def check(expression: str) -> str | None:
    """What is wrong with a Quartz cron expression, in words; None when it is valid."""
    fields = expression.split()
    if len(fields) == 5:
        return "has 5 fields (a Unix cron?); Quartz needs 6 or 7, seconds first"
    if len(fields) not in (6, 7):
        return f"has {len(fields)} fields; Quartz needs 6 or 7 (seconds first)"
    for text, spec in zip(fields, _FIELDS, strict=False):
        problem = _check_field(text.upper(), *spec)
        if problem:
            return problem
    dom, dow = fields[3], fields[5]
    if (dom == "?") == (dow == "?"):
        return "needs '?' in exactly one of day of month and day of week"
    return None


def _check_field(text: str, name: str, low: int, high: int, words: Sequence[str]) -> str:
    if text == "?":
        return "" if name in ("day of month", "day of week") else f"'?' in the {name} field"
    for item in text.split(","):
        if name == "day of month" and _DOM_SPECIAL.match(item):
            continue
        if name == "day of week" and _DOW_SPECIAL.match(item):
            continue
        match = _ITEM.match(item)
        if not match:
            return f"cannot read {item!r} in the {name} field"
        values, step = match.groups()
        if step is not None and int(step) == 0:
            return f"step 0 in the {name} field"
        if values == "*":
            continue
        for value in values.split("-"):
            number = _number(value, words, low)
            if number is None or not low <= number <= high:
                return f"{value!r} is not a {name} ({low}-{high})"
    return ""


def _number(value: str, words: Sequence[str], low: int) -> int | None:
    if value.isdigit():
        return int(value)
    if value in words:
        return words.index(value) + low
    return None


@functools.lru_cache(maxsize=1024)
def minutes_of_day(expression: str) -> frozenset[int]:
    """The minutes of a day (0-1439) at which a valid expression can fire, whatever the
    day; empty for an invalid one."""
    if check(expression) is not None:
        return frozenset()
    _, minute, hour, *_ = expression.split()
    minutes = _expand(minute, 0, 59)
    hours = _expand(hour, 0, 23)
    return frozenset(h * 60 + m for h in hours for m in minutes)


def _expand(text: str, low: int, high: int) -> set[int]:
    found: set[int] = set()
    for item in text.split(","):
        match = _ITEM.match(item)
        if not match:
            continue
        values, step = match.groups()
        if values == "*":
            start, end = low, high
        elif "-" in values:
            start, end = (int(v) for v in values.split("-"))
        else:
            start = int(values)
            end = high if step else start
        found.update(range(start, end + 1, int(step or 1)))
    return found
