"""``club`` outputs: the ladder and one player's page."""
