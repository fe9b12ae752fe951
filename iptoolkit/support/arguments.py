"""Arguments a notebook user passes, checked where they are taken, with one rule and one
error each: not a comparison failing deep inside, or a request made with them.

A str is one value: Python iterates a str letter by letter, so `ignore="description"`
taken as a list ignores `d`, `e`, `s`, ... and the option is silently lost (`texts`,
`text_pairs`: `audit`'s select and ignore, `compare`'s ignore and substitute,
`resolve_node`'s kinds). A count is a whole number (`whole_number`: a depth, a limit, a
retry count), a size a finite number above 0 (`positive_number`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["texts", "text_pairs", "whole_number", "positive_number"]


def texts(given: Any, name: str, takes: str = "a str or a list of str") -> tuple[str, ...]:
    """`given` as a tuple of str: a str is one, an iterable of str as many. Anything else
    is a `TypeError` naming `name` (`"compare: ignore"`), what it `takes` and what was
    given."""
    if isinstance(given, str):
        return (given,)
    if isinstance(given, bytes) or not isinstance(given, Iterable):
        raise TypeError(f"{name} takes {takes}, not {_shown(given)}")
    values = tuple(given)
    for value in values:
        if not isinstance(value, str):
            raise TypeError(f"{name} takes {takes}, not {_shown(value)}")
    return values


def text_pairs(given: Any, name: str) -> tuple[tuple[str, str], ...]:
    """`given` as (str, str) pairs: a list of pairs, or one pair on its own (two str can
    be nothing else). A str, or a pair of another size (`["ab"]`, which unpacking would
    read as `a` and `b`), is an error naming `name` and what was given."""
    if isinstance(given, str | bytes) or not isinstance(given, Iterable):
        raise TypeError(f"{name} takes (old, new) pairs of str, not {_shown(given)}")
    values = tuple(given)
    if len(values) == 2 and all(isinstance(value, str) for value in values):
        return ((values[0], values[1]),)
    pairs: list[tuple[str, str]] = []
    for pair in values:
        if isinstance(pair, str | bytes) or not isinstance(pair, Iterable):
            raise TypeError(f"{name} takes (old, new) pairs of str, not {_shown(pair)}")
        both = tuple(pair)
        if len(both) != 2 or not all(isinstance(value, str) for value in both):
            raise ValueError(f"{name} takes (old, new) pairs of str, not {pair!r}")
        pairs.append((both[0], both[1]))
    return tuple(pairs)


def _shown(value: Any) -> str:
    """What was given, for an error: its type and, for short ones, its value."""
    text = repr(value)
    return type(value).__name__ + (f": {text}" if len(text) <= 80 else "")


def whole_number(value: Any, name: str, least: int) -> int:
    """`value` if it is an int of at least `least`; else the error naming `name` and the
    value (`TypeError` for a str, float or None, `ValueError` below `least`), rather than a
    comparison failing inside."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be a whole number, not {type(value).__name__}: {value!r}")
    if value < least:
        raise ValueError(f"{name} must be {least} or more, not {value}")
    return value


def positive_number(value: Any, name: str) -> float:
    """`value` if it is a finite number above 0 (a size, a ratio); else the error naming
    `name` and the value (`TypeError` for a str or None, `ValueError` for 0, a negative,
    NaN or infinity), rather than a layout failing or drawing nothing far inside."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{name} must be a number, not {type(value).__name__}: {value!r}")
    if not 0 < value < float("inf"):
        raise ValueError(f"{name} must be a finite number above 0, not {value!r}")
    return float(value)
