"""sources/lichess."""
