"""Interpreting the spec's unit-less timestamps (`created`, `lastModified`, `lastModifiedGUI`)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Literal, NamedTuple

__all__ = ["Timestamp", "timestamp"]

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
# Epoch seconds reach 1e11 only in the year 5138; milliseconds pass 1e11 in 1973.
_MILLIS_FROM = 10**11
_MICROS_FROM = 10**14


_UNIT_ARGUMENT = {"s": "seconds", "ms": "milliseconds", "us": "microseconds"}


class Timestamp(NamedTuple):
    """An interpreted timestamp: the datetime and the unit that was assumed."""

    datetime: datetime
    unit: Literal["s", "ms", "us"]


def timestamp(value: int | None) -> Timestamp | None:
    """Turn an epoch number into an aware UTC datetime, guessing the unit by magnitude.

    >>> timestamp(1_700_000_000_000).unit
    'ms'
    """
    if value is None:
        return None
    magnitude = abs(value)
    unit: Literal["s", "ms", "us"] = (
        "us" if magnitude >= _MICROS_FROM else "ms" if magnitude >= _MILLIS_FROM else "s"
    )
    try:
        return Timestamp(_EPOCH + timedelta(**{_UNIT_ARGUMENT[unit]: value}), unit)
    except OverflowError:
        raise ValueError(f"timestamp {value} is beyond the dates Python can represent") from None
