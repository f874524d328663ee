"""core/club."""
