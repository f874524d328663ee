"""``cli.paused_gc``: the collector paused for a block, restored after, optionally frozen."""

from __future__ import annotations

import gc

from lichess_elo.cli import paused_gc


def test_the_collector_is_paused_then_restored_and_frozen_only_when_asked() -> None:
    gc.unfreeze()
    try:
        with paused_gc():
            assert not gc.isenabled()
        assert gc.isenabled() and gc.get_freeze_count() == 0
        with paused_gc(freeze=True):
            kept = [[] for _ in range(10)]  # containers made in the block
            assert not gc.isenabled()
        assert gc.isenabled() and gc.get_freeze_count() >= len(kept)
        gc.disable()
        with paused_gc(freeze=True):  # a collector paused before stays paused
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
        gc.unfreeze()
