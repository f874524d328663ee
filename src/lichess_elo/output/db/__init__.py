"""Outputs of the ``db`` commands."""
