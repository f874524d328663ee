"""lichess-elo: FIDE-style Elo for your Lichess games, next to Lichess's own Glicko-2.

The pure engines and parsers are importable as a library::

    from lichess_elo.core import fide
    from lichess_elo.core import glicko
    from lichess_elo.core import games
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
