"""The optional C header scanner (``sources/dump/pgnscan.c``); everything else is in
pyproject.toml. Without a compiler the install still succeeds and ``db ingest`` reads
dumps with the numpy scanner (``sources/dump/arrow.py``)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "lichess_elo.sources.dump.pgnscan",
            ["src/lichess_elo/sources/dump/pgnscan.c"],
            optional=True,
            extra_compile_args=["-O2"],
        )
    ]
)
