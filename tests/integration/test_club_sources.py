"""``rate_club_files`` reads the members' games from any ``GameSource``.

The made-up Thursday Club Swiss (tests/data/club, 6 players, 3 rounds, 9 games) is served by
the fake Lichess server as a tournament, and written as a database dump (lila's PgnDump
layout, ``tests.helpers.lichess_pgn``) with a stranger's game in it. Read as a tournament
or through the dump, the ladder must be the same: the same games reach the same rating code.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import zstandard

from lichess_elo import DumpFile, LichessSettings, rate_club_files
from lichess_elo.errors import BadInput
from tests.fake_lichess import FakeLichess
from tests.helpers import DATA, lichess_pgn

SWISS = "Zr5kTq1B"
MEMBERS = {
    "Ania Nowak": "Ania_N",
    "Bartek Lis": "Bartek_L",
    "Celina Wrona": "Celina_W",
    "Dawid Sowa": "Dawid_S",
    "Ewa Kos": "Ewa_K",
    "Filip Mak": "Filip_M",
}


def _players(tmp_path: Path) -> Path:
    path = tmp_path / "players.csv"
    rows = [f"{name},1000,{account}" for name, account in MEMBERS.items()]
    path.write_text("name,rating,lichess\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return path


def _dump(tmp_path: Path) -> Path:
    lines = (DATA / "club" / f"swiss-{SWISS}-games.ndjson").read_text(encoding="utf-8")
    games = [json.loads(line) for line in lines.splitlines() if line.strip()]
    for game in games:  # the made-up export has no moves and no diffs; a dump has both
        game.setdefault("moves", "")
        for side in game["players"].values():
            side.setdefault("ratingDiff", 0)
    stranger = json.loads(json.dumps(games[0]))
    stranger["id"] = "zzzzzzzz"
    stranger["players"]["black"]["user"] = {"name": "Not_A_Member", "id": "not_a_member"}
    text = "".join(lichess_pgn(g) for g in [*games, stranger])
    path = tmp_path / "lichess_db_standard_rated_2026-11.pgn.zst"
    path.write_bytes(zstandard.ZstdCompressor().compress(text.encode()))
    return path


def test_a_dump_rates_the_club_as_the_tournament_does(
    club_server: FakeLichess, tmp_path: Path
) -> None:
    players = str(_players(tmp_path))
    source = LichessSettings(api_url=club_server.url, cache_dir=tmp_path / "cache")
    fetched = rate_club_files([players, SWISS], source=source).result
    dumped = rate_club_files([players], games_from=[DumpFile(_dump(tmp_path))]).result

    def ladder(result: object) -> list[tuple[str, object, int]]:
        return [(s.name, s.rating, s.games) for s in result.standings]  # type: ignore[attr-defined]

    assert sum(s.games for s in fetched.standings) == 2 * 9  # 9 games, two players each
    assert ladder(dumped) == ladder(fetched)
    assert {s.name for s in dumped.standings} == set(MEMBERS)  # the stranger's game is out


def test_a_game_source_needs_the_members_accounts(tmp_path: Path) -> None:
    with pytest.raises(BadInput) as raised:
        rate_club_files([], games_from=[DumpFile(_dump(tmp_path))])
    assert raised.value.field == "games_from"
