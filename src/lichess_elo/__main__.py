"""Allow ``python -m lichess_elo``."""

from lichess_elo.cli import main

main()
