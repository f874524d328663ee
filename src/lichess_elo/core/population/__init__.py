"""Population scale: FIDE-rules monthly lists for every player of the Lichess open database.

The ``db`` commands: ingest the monthly dumps (``.pgn.zst`` headers, or the Parquet
mirror) into DuckDB, build the lists with one set of SQL stages run by DuckDB or Spark,
and compare them with Lichess's Glicko-2 ratings.
"""
