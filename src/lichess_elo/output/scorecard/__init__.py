"""The scorecard's outputs (``report --view accuracy`` and ``--view predictions``)."""
