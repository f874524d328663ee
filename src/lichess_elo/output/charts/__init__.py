"""Charts (matplotlib, imported lazily): the report's, the scorecard's, the club's and
``db compare``'s."""
