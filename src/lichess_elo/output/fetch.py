"""``fetch`` output: the summary table and the JSON document (``docs/json.md#fetch``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lichess_elo.app.fetch import SiteFetch
    from lichess_elo.sources.lichess.api import FetchResult


def fetch_document(result: FetchResult | SiteFetch) -> dict[str, Any]:
    """The ``fetch --format json`` document: user, games, perfs, months, cache (+ split);
    the same for a Chess.com account (``SiteFetch``)."""
    user = result.username if hasattr(result, "username") else result.user.username
    split = {p: {"rated": rated, "casual": casual} for p, (rated, casual) in result.split.items()}
    order = sorted(split, key=lambda p: (-(split[p]["rated"] + split[p]["casual"]), p))
    return {
        "user": user,
        "games": result.count,
        "perfs": {p: split[p]["rated"] + split[p]["casual"] for p in order},
        "months": {
            "total": result.months_total,
            "from_network": result.months_from_network,
            "from_cache": result.months_from_cache,
        },
        "cache": str(result.cache_path),
        "split": {p: split[p] for p in order},
    }


def fetch_summary_text(result: FetchResult | SiteFetch, *, replay: bool, width: int | None) -> str:
    """The table summary of a fetch: games and months, games by perf, the cache."""
    from lichess_elo.output.tables import Column, Table, render_table, wrap_words

    doc = fetch_document(result)
    months = doc["months"]
    got = "from the cassette" if replay else "fetched"
    lines = wrap_words(
        f"{doc['user']}: {doc['games']:,} games in {months['total']} months "
        f"({months['from_network']} {got}, {months['from_cache']} from the cache)",
        width,
    )
    if doc["games"]:
        columns = [Column("Perf", "left"), Column("Rated"), Column("Casual"), Column("Total")]
        rows = [
            [perf, str(c["rated"]), str(c["casual"]), str(c["rated"] + c["casual"])]
            for perf, c in doc["split"].items()
        ]
        lines += render_table(Table(columns, rows), width)
    label = "replayed from" if replay else "cache"
    lines += wrap_words(f"{label}: {doc['cache']}", width)
    return "\n".join(lines) + "\n"
