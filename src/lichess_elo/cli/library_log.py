"""The libraries' log records (requests-cache, urllib3...) as one ``lichess-elo: warning:``
line each, routed once a command is loaded (``cli.root.load_command``)."""

from __future__ import annotations

import logging

from lichess_elo.cli.errors import warn

__all__ = ["route_library_logs"]


class _LibraryLog(logging.Handler):
    """The log records of the libraries (requests-cache, urllib3...), each as one
    ``lichess-elo: warning:`` line naming its logger (they were printed bare)."""

    def emit(self, record: logging.LogRecord) -> None:
        """Print ``record`` as one warning line (tokens redacted by ``warn``)."""
        try:
            lines = record.getMessage().strip().splitlines()
        except Exception:  # a record whose arguments do not format
            lines = [str(record.msg)]
        source = record.name.split(".")[0].replace("_", "-")
        warn(f"{source}: {lines[0] if lines else '(no message)'}")


def route_library_logs() -> None:
    """Send the warnings the libraries log through ``_LibraryLog`` (once per process)."""
    root = logging.getLogger()
    if not any(isinstance(h, _LibraryLog) for h in root.handlers):
        root.addHandler(_LibraryLog(logging.WARNING))
