"""Every cache in one package: HTTP, parsed games, replay facts, and how their SQLite files open."""
