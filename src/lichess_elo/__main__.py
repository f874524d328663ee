"""Allow ``python -m lichess_elo``."""

from lichess_elo.cli.root import main

main()
