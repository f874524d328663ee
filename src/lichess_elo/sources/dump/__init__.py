"""Lichess's database dumps read as Arrow batches: zstd frames, the header scan (C or numpy)."""
