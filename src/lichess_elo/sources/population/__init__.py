"""Population scale, the edge: the Lichess open database's dumps read (headers, ingest,
ledger) into the DuckDB file, and the SQL stages of ``core/population`` run on DuckDB or
Spark (lists, the contenders' tracks, ``db compare``'s samples and ``db months``).
"""
