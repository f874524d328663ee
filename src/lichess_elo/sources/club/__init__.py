"""The club ladder's inputs: its files, ``club.toml`` and its members' games."""
