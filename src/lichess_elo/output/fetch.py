"""``fetch`` output: the summary table and the JSON document (README "fetch")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.table import Table

from lichess_elo.output.common import console

if TYPE_CHECKING:
    from lichess_elo.sources.lichess.api import FetchResult


def fetch_document(result: FetchResult) -> dict[str, Any]:
    """The ``fetch --format json`` document: user, games, perfs, months, cache (+ split)."""
    split = {p: {"rated": rated, "casual": casual} for p, (rated, casual) in result.split.items()}
    order = sorted(split, key=lambda p: (-(split[p]["rated"] + split[p]["casual"]), p))
    return {
        "user": result.user.username,
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


def print_fetch_summary(result: FetchResult, *, replay: bool) -> None:
    """Print the table summary of a fetch on stdout."""
    doc = fetch_document(result)
    out = console()
    months = doc["months"]
    got = "from the cassette" if replay else "fetched"
    out.print(
        f"{doc['user']}: {doc['games']} games in {months['total']} months "
        f"({months['from_network']} {got}, {months['from_cache']} from the cache)"
    )
    if doc["games"]:
        table = Table(box=None, pad_edge=False)
        for name in ("perf", "rated", "casual", "total"):
            table.add_column(name, justify="left" if name == "perf" else "right")
        for perf, counts in doc["split"].items():
            total = counts["rated"] + counts["casual"]
            table.add_row(perf, str(counts["rated"]), str(counts["casual"]), str(total))
        out.print(table)
    label = "replayed from" if replay else "cache"
    out.print(f"{label}: {doc['cache']}")
