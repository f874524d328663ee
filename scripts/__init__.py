"""Maintenance scripts (run as scripts; ``readme_examples`` is also imported by the tests)."""
