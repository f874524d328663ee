"""The Lichess JSON parser, on real responses from ``tests/data/lichess``."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from lichess_elo.core.games import dedupe_sorted
from lichess_elo.sources.lichess.parse import parse_game, parse_ndjson


def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines()


def test_onboard247_history_parses_completely(data_dir: Path) -> None:
    lines = _lines(data_dir / "lichess" / "games-user-export-onboard247-2023-01-02.ndjson")
    warnings: list[str] = []
    games = list(parse_ndjson(lines, warnings.append))
    # The README of the reference data: 221 games, all rated, six perfs.
    assert len(games) == 221
    assert warnings == []
    assert all(g.rated for g in games)
    perfs: dict[str, int] = {}
    for g in games:
        perfs[g.perf] = perfs.get(g.perf, 0) + 1
    assert perfs == {
        "blitz": 130,
        "bullet": 57,
        "rapid": 15,
        "classical": 8,
        "correspondence": 6,
        "chess960": 5,
    }


def test_first_onboard_line_fields(data_dir: Path) -> None:
    line = _lines(data_dir / "lichess" / "games-user-export-onboard247-2023-01-02.ndjson")[0]
    game = parse_game(json.loads(line))
    assert game.id == "8x83EMvs"
    assert game.created_at == datetime.fromtimestamp(1676836497.125, UTC)
    assert game.created_at.tzinfo is UTC
    assert game.white.user_id == "onboard247"
    assert (game.white.rating, game.white.rating_diff) == (2407, -7)
    assert (game.black.rating, game.black.rating_diff) == (2360, 7)
    assert game.winner == "black"
    assert game.score("white") == 0.0 and game.score("black") == 1.0
    assert game.color_of("OnBoard247") == "white"
    assert game.moves[:3] == ("d4", "Nf6", "c4")
    assert game.clock is not None and game.clock.initial == 300


def test_ai_opponent_has_no_user_or_rating(data_dir: Path) -> None:
    obj = json.loads((data_dir / "lichess" / "game-export-ai-opponent-qVChCOTc.json").read_text())
    game = parse_game(obj)
    assert game.white.is_ai and game.white.ai_level == 1
    assert game.white.rating is None and game.white.rating_diff is None
    assert game.white.label == "AI level 1"
    assert game.black.provisional is True
    assert game.rated is False


def test_old_and_new_tournament_keys(data_dir: Path) -> None:
    thibault = _lines(data_dir / "lichess" / "games-user-export-thibault-lastfen.ndjson")
    old = parse_game(json.loads(thibault[0]))
    assert old.id == "Huk88k3D" and old.tournament_id == "ZZQ9tunK"
    assert old.status == "noStart" and old.initial_fen is not None
    prod = {
        json.loads(line)["id"]: json.loads(line)
        for line in _lines(data_dir / "lichess" / "games-api-examples-production.ndjson")
    }
    new = parse_game(prod["q7ZvsdUF"])  # arenaTour {id, name}
    assert new.tournament_id == prod["q7ZvsdUF"]["arenaTour"]["id"]
    assert new.winner is None and new.score("white") == 0.5  # draw: no winner key
    aborted = parse_game(prod["xerffrRn"])
    assert aborted.finished is False and aborted.score("white") is None
    assert aborted.moves == ()


def test_malformed_lines_are_skipped_with_a_named_warning() -> None:
    good = json.dumps(
        {
            "id": "abcdefgh",
            "rated": True,
            "variant": "standard",
            "speed": "blitz",
            "perf": "blitz",
            "createdAt": 1_700_000_000_000,
            "status": "resign",
            "players": {"white": {"rating": 1500}, "black": {"rating": 1600}},
            "winner": "white",
        }
    )
    broken = '{"id": "zzzzzzzz", "createdAt": "yesterday"'
    no_players = json.dumps(
        {
            "id": "yyyyyyyy",
            "createdAt": 1,
            "status": "draw",
            "variant": "standard",
            "speed": "blitz",
        }
    )
    warnings: list[str] = []
    games = list(parse_ndjson([good, "", broken, no_players], warnings.append))
    assert [g.id for g in games] == ["abcdefgh"]
    assert len(warnings) == 2
    assert warnings[0].startswith("line 3:")
    assert "yyyyyyyy" in warnings[1] and "players" in warnings[1]


def test_dedupe_sorted_orders_oldest_first_and_drops_repeats(data_dir: Path) -> None:
    lines = _lines(data_dir / "lichess" / "games-user-export-onboard247-2023-01-02.ndjson")
    games = list(parse_ndjson(lines + lines[:5]))
    out = dedupe_sorted(games)
    assert len(out) == 221
    assert out[0].created_at <= out[-1].created_at
    assert out[-1].id == "8x83EMvs"
