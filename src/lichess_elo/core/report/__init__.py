"""core/report."""
