"""The cache folder every site's caches share, created on first use (an edge)."""

from __future__ import annotations

from pathlib import Path

from lichess_elo.errors import BadInput, CacheUnusable
from lichess_elo.sources.env import cache_folder


def make_cache_folder(given: Path | None = None) -> Path:
    """Create the cache folder (``given``, else ``LICHESS_ELO_CACHE_DIR``, else the user's
    cache folder: ``sources.env.cache_folder``) if needed and return it.

    Raises:
        BadInput: it, or a folder above it, is a file.
        CacheUnusable: it cannot be created.
    """
    cache_dir = cache_folder(given)
    for folder in (cache_dir, *cache_dir.parents):
        if folder.exists():
            if not folder.is_dir():
                what = "" if folder == cache_dir else f"{folder} "
                problem = f"{what}is a file, not a folder"
                raise BadInput(problem, field="cache_dir", value=cache_dir)
            break
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CacheUnusable(f"cannot create the cache folder {cache_dir}: {exc.strerror}") from None
    return cache_dir
