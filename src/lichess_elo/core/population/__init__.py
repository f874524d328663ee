"""Population scale, the pure part: FIDE-rules monthly lists for every player of the Lichess
open database, the month's step over numpy arrays (``arrays_step``, ``arrays_rivals``) and
as SQL text (``stages``, ``rulebook_sql``, ``rivals_sql``), both from the rules written once
as expressions (``core/fide/expressions.py``), and the typed rows of the ``db`` commands.

Nothing here runs a query or reads a file: ``sources/population`` reads the dumps and runs
the arrays (``arrays_run``) or this SQL on DuckDB or Spark, ``app/db.py`` joins the two per
command, ``output/db*.py`` prints the rows (``docs/population.md``).
"""
