"""`keep_out_of_gc`: a large estate's objects moved out of the cyclic collector's sweeps.

An estate of 100,000 profiles, its graph and its grouped views are some four million
objects that live as long as the Explorer. Python's collector sweeps every tracked object
in a full collection, and the objects an Explorer builds trigger one: the first
drill-down after the Explorer was built spent 3.3 of its 4.6 CPU seconds there (issue 42).
`gc.freeze()` moves everything alive now into the permanent generation, which no
collection sweeps; reference counting still frees what is dropped, only cycles among the
frozen objects would stay. Small estates gain nothing and are left alone, so that a test
run building many Explorers freezes nothing.
"""

from __future__ import annotations

import gc

__all__ = ["FREEZE_FROM", "freeze", "keep_out_of_gc", "kept_out"]

FREEZE_FROM = 20_000
"""Profiles from which an estate's objects are frozen: below it a full collection is short."""


def freeze() -> None:
    """Freeze every object alive now (`gc.freeze`), and say so to `kept_out`: the app's
    zygote does before it forks its kernels, which inherit both."""
    global _kept_out
    gc.freeze()
    _kept_out = True


def keep_out_of_gc(profiles: int) -> bool:
    """`freeze` when `profiles` is at least `FREEZE_FROM`; True if it did."""
    if profiles < FREEZE_FROM:
        return False
    freeze()
    return True


def kept_out() -> bool:
    """Whether `freeze` froze objects in this process (or the one it was forked from):
    `gc.get_freeze_count()` says so too, but it counts the frozen objects one by one (0.2 s
    at 100,000 profiles)."""
    return _kept_out


_kept_out = False
