"""Arguments a notebook user passes as one value or several: a str is one value.

Python iterates a str letter by letter, so `ignore="description"` taken as a list ignores
`d`, `e`, `s`, ... and the option is silently lost. Every function that takes "one or
many" names reads them here, so the rule and its error are the same everywhere
(`audit`'s select and ignore, `compare`'s ignore and substitute, `resolve_node`'s kinds).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["texts", "text_pairs"]


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
