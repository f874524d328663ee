"""Population scale, the pure part: FIDE-rules monthly lists for every player of the Lichess
open database as SQL text generated from the rulebook, and the typed rows of the ``db``
commands.

Nothing here runs a query or reads a file: ``sources/population`` reads the dumps and runs
this SQL on DuckDB or Spark, ``app/db.py`` joins the two per command, ``output/db*.py``
prints the rows (``docs/population.md``).
"""
