"""`support.long_lived`: a large estate's objects are frozen out of the collector's sweeps,
a small one's never (a test run building many Explorers must not freeze its garbage)."""

from __future__ import annotations

import gc

import pytest

from iptoolkit.support import long_lived
from iptoolkit.support.long_lived import FREEZE_FROM, keep_out_of_gc


def test_only_a_large_estate_is_frozen_and_gc_paused_then_counts_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from iptoolkit.models import gc_paused

    before = gc.get_freeze_count()
    assert not keep_out_of_gc(FREEZE_FROM - 1)
    assert gc.get_freeze_count() == before and not long_lived.kept_out()
    try:
        assert keep_out_of_gc(FREEZE_FROM)
        assert gc.get_freeze_count() > before and long_lived.kept_out()
        with monkeypatch.context() as patched:  # the count walks 4 million objects at 100k
            patched.setattr(gc, "get_freeze_count", lambda: pytest.fail("counted"))
            with gc_paused():  # kept frozen, and known to be without counting
                pass
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        long_lived._kept_out = False
