"""The ``lichess-elo`` command line (typer): options, one ``app/`` call per command, messages."""

from lichess_elo.cli.root import app, main

__all__ = ["app", "main"]
