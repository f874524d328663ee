"""One contract, three sources: the fake Lichess server, the bundled cassette and a PGN
export of OnBoard247 give the same 221 games.

The server and the cassette serve the same real NDJSON lines, so they must agree on every
field. The PGN export carries less (no milliseconds, no lastMoveAt, a Termination instead of
the status), so the comparison keeps what all three carry.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from lichess_elo.core.games import Game
from lichess_elo.sources.lichess import LichessSettings, fetch_games
from lichess_elo.sources.pgn import read_pgn
from tests.fake_lichess import FakeLichess
from tests.helpers import DATA, ONBOARD_FILE, REPO, lichess_pgn


def _shared(game: Game) -> tuple[Any, ...]:
    """What every source carries: id, perf, rated, the second it began, both sides'
    names, ratings and diffs, the winner and the moves."""
    sides = tuple((side.name, side.rating, side.rating_diff) for side in (game.white, game.black))
    second = game.created_at.replace(microsecond=0)
    return (game.id, game.perf, game.rated, second, sides, game.winner, game.moves)


def test_server_cassette_and_pgn_give_the_same_221_games(
    onboard_server: FakeLichess, tmp_path: Path
) -> None:
    lines = (DATA / "lichess" / ONBOARD_FILE).read_text(encoding="utf-8").splitlines()
    raw = [json.loads(line) for line in lines if line.strip()]
    served = fetch_games(
        "OnBoard247", LichessSettings(api_url=onboard_server.url, cache_dir=tmp_path)
    )
    recorded = fetch_games(
        "OnBoard247",
        LichessSettings(replay=REPO / "cassettes" / "onboard247.yaml", cache_dir=tmp_path / "c"),
    )
    exported = read_pgn("".join(lichess_pgn(game) for game in raw))
    assert len(served.games) == len(recorded.games) == len(exported) == 221
    # Server and cassette: the same real lines, so the very same Game records.
    assert served.games == recorded.games
    by_id = {g.id: g for g in exported}
    assert [_shared(g) for g in served.games] == [_shared(by_id[g.id]) for g in served.games]
    # The statuses the PGN can tell apart agree too (mate and stalemate from the board);
    # outoftime and timeout are both "Time forfeit" (lila PgnDump), read as timeForfeit.
    for game in served.games:
        if game.status in ("mate", "stalemate"):
            assert by_id[game.id].status == game.status, game.id
        if game.status in ("outoftime", "timeout"):
            assert by_id[game.id].status == "timeForfeit", game.id
