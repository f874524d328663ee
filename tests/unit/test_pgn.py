"""The Lichess PGN reader: the real export of q7ZvsdUF against the same game's JSON, then
tag rules on small hand-written exports."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lichess_elo.core.games import Clock, Game, speed_of
from lichess_elo.core.replay import replay_game
from lichess_elo.sources.lichess.parse import parse_game
from lichess_elo.sources.pgn import read_pgn
from tests import helpers

LICHESS = helpers.DATA / "lichess"


def test_real_export_matches_the_json_field_by_field() -> None:
    [pgn] = read_pgn((LICHESS / "game-export-q7ZvsdUF.pgn").read_text())
    line = next(
        line
        for line in (LICHESS / "games-api-examples-production.ndjson").read_text().splitlines()
        if '"q7ZvsdUF"' in line
    )
    api = parse_game(json.loads(line))
    for field in ("id", "rated", "variant", "speed", "perf", "status", "winner"):
        assert getattr(pgn, field) == getattr(api, field), field
    # Players: names, titles, ratings and ratingDiffs ("+4" / "-4") are the same.
    assert pgn.white == api.white
    assert pgn.black == api.black
    # The same 125 SAN moves (the PGN's annotations "?!", "??" are not part of the SAN).
    assert pgn.moves == api.moves and len(pgn.moves) == 125
    assert pgn.clock == api.clock == Clock(300, 3)
    assert pgn.initial_fen is api.initial_fen is None
    # UTCDate/UTCTime carry whole seconds: createdAt 1514505150384 ms = 23:52:30.384.
    assert pgn.created_at == api.created_at.replace(microsecond=0)
    assert pgn.created_at == datetime(2017, 12, 28, 23, 52, 30, tzinfo=UTC)
    # What PGN does not carry: the arena id (Event holds only its name "2017 Winter
    # Marathon", the JSON's arenaTour id is "winter17"), lastMoveAt and source.
    assert api.tournament_id == "winter17" and pgn.tournament_id is None
    assert pgn.last_move_at is None and pgn.source is None


def _pgn(moves: str = "1. e4 e5 *", **tags: str) -> str:
    base = {
        "Event": "Rated Blitz game",
        "Site": "https://lichess.org/abcd1234",
        "UTCDate": "2024.03.05",
        "UTCTime": "10:11:12",
        "White": "Alice",
        "Black": "Bob",
        "Result": "*",
        "WhiteElo": "1500",
        "BlackElo": "1600",
        "Variant": "Standard",
        "TimeControl": "180+2",
        "Termination": "Normal",
    }
    base.update(tags)
    head = "\n".join(f'[{k} "{v}"]' for k, v in base.items() if v != "")
    return f"{head}\n\n{moves}\n\n"


def _one(text: str) -> Game:
    warnings: list[str] = []
    games = read_pgn(text, on_warning=warnings.append)
    assert warnings == [] and len(games) == 1
    return games[0]


@pytest.mark.parametrize(
    ("initial", "increment", "speed"),
    [
        # Lichess: estimate = initial + 40 x increment; < 30 ultraBullet, < 180 bullet,
        # < 480 blitz, < 1500 rapid, < 21600 classical, else correspondence.
        (15, 0, "ultraBullet"),  # 15
        (0, 1, "bullet"),  # 40
        (120, 1, "bullet"),  # 160
        (180, 0, "blitz"),  # 180 (not < 180)
        (180, 2, "blitz"),  # 260
        (300, 5, "rapid"),  # 500
        (600, 0, "rapid"),  # 600
        (900, 15, "classical"),  # 1500 (not < 1500)
        (1800, 20, "classical"),  # 2600
        (21600, 0, "correspondence"),  # 21600
    ],
)
def test_speed_from_time_control(initial: int, increment: int, speed: str) -> None:
    assert speed_of(Clock(initial, increment)) == speed
    # An arena's name (the user export's Event) names no perf: the perf is the speed.
    game = _one(_pgn(TimeControl=f"{initial}+{increment}", Event="Hourly Arena"))
    assert (game.speed, game.perf) == (speed, speed)


def test_the_perf_the_event_names_wins() -> None:
    # Before 2018 Lichess had no rapid pool: a 600+0 game was rated as the Event says.
    game = _one(_pgn(TimeControl="600+0", Event="Rated Classical game", UTCDate="2016.05.01"))
    assert (game.speed, game.perf) == ("rapid", "classical")
    swiss = _one(_pgn(TimeControl="180+0", Event="Blitz swiss https://lichess.org/swiss/x"))
    assert (swiss.perf, swiss.rated) == ("blitz", True)


def test_no_time_control_is_correspondence() -> None:
    game = _one(_pgn(TimeControl="-"))
    assert (game.speed, game.clock) == ("correspondence", None)


@pytest.mark.parametrize(
    ("termination", "result", "moves", "status", "winner"),
    [
        ("Normal", "0-1", "1. f3 e5 2. g4 Qh4# 0-1", "mate", "black"),
        ("Normal", "1-0", "1. e4 e5 2. Nf3 1-0", "resign", "white"),
        ("Normal", "1/2-1/2", "1. e4 e5 1/2-1/2", "draw", None),
        # lila writes outoftime and timeout alike as "Time forfeit"
        ("Time forfeit", "1-0", "1. e4 e5 1-0", "timeForfeit", "white"),
        # "Abandoned" is aborted with "*", noStart with a result (moves or not)
        ("Abandoned", "0-1", "1. e4 e5 0-1", "noStart", "black"),
        ("Abandoned", "0-1", "0-1", "noStart", "black"),
        ("Abandoned", "*", "*", "aborted", None),
        ("Rules infraction", "1-0", "1. e4 1-0", "cheat", "white"),
        ("Insufficient material", "1/2-1/2", "1. e4 e5 1/2-1/2", "insufficientMaterialClaim", None),
        ("Unterminated", "*", "1. e4 *", "started", None),
        ("Unknown", "1-0", "1. e4 1-0", "unknownFinish", "white"),
    ],
)
def test_status_from_termination_result_and_position(
    termination: str, result: str, moves: str, status: str, winner: str | None
) -> None:
    game = _one(_pgn(moves, Termination=termination, Result=result))
    assert (game.status, game.winner) == (status, winner)


def test_normal_stalemate() -> None:
    # Qb6 leaves the black king on a8 without a move and not in check.
    text = _pgn(
        "1. Qb6 1/2-1/2",
        Variant="From Position",
        SetUp="1",
        FEN="k7/8/8/1Q6/8/8/8/4K3 w - - 0 1",
        Result="1/2-1/2",
    )
    game = _one(text)
    assert game.status == "stalemate"
    assert game.variant == "fromPosition"
    assert game.initial_fen == "k7/8/8/1Q6/8/8/8/4K3 w - - 0 1"


def test_ratings_diffs_titles_and_casual() -> None:
    text = _pgn(
        Event="Casual Rapid game",
        WhiteElo="?",
        BlackElo="2100",
        WhiteRatingDiff="+12",
        BlackRatingDiff="-7",
        BlackTitle="BOT",
    )
    game = _one(text)
    assert game.rated is False
    assert (game.white.rating, game.white.rating_diff) == (None, 12)
    assert game.black.rating_diff == -7 and game.black.is_bot
    assert game.white.user_id == "alice"


def test_tournament_and_swiss_ids_from_the_event() -> None:
    arena = _one(_pgn(Event="Rated Blitz tournament https://lichess.org/tournament/aBcD1234"))
    assert arena.tournament_id == "aBcD1234" and arena.rated
    swiss = _one(_pgn(Event="Rated Rapid swiss https://lichess.org/swiss/XyZ98765"))
    assert swiss.swiss_id == "XyZ98765"


def test_variants_and_ai_opponents() -> None:
    crazy = _one(_pgn("1. e4 d5 2. exd5 Qxd5 3. P@e4 *", Variant="Crazyhouse"))
    assert (crazy.variant, crazy.perf) == ("crazyhouse", "crazyhouse")
    assert crazy.moves[-1] == "P@e4"  # Lichess writes pawn drops with the P
    koth = _one(_pgn(Variant="King of the Hill"))
    assert koth.perf == "kingOfTheHill"
    three = _one(_pgn(Variant="Three-check"))
    assert three.perf == "threeCheck"
    ai = _one(_pgn(White="lichess AI level 3", WhiteElo="?"))
    assert ai.white.ai_level == 3 and ai.white.user_id is None


def test_only_a_game_its_tags_cannot_make_is_skipped_with_a_warning_naming_it() -> None:
    # Was test_a_bad_game_is_skipped_with_a_warning_naming_it, which expected the illegal
    # move and the unknown variant to be skipped too: those are kept now, flagged invalid.
    good = _pgn()
    illegal = _pgn("1. e4 e5 2. Ke3 *", Site="https://lichess.org/bad00001")
    no_id = _pgn(Site="https://example.org/x")
    weird = _pgn(Variant="Fairy", Site="https://lichess.org/bad00002")
    no_date = _pgn(UTCDate="????.??.??", Site="https://lichess.org/bad00003")
    bad_result = _pgn(Result="2-0", Site="https://lichess.org/bad00004")
    warnings: list[str] = []
    text = illegal + good + no_id + weird + no_date + bad_result
    games = read_pgn(text, on_warning=warnings.append)
    assert [g.id for g in games] == ["bad00001", "abcd1234", "bad00002"]
    assert len(warnings) == 3
    assert "example.org" in warnings[0]
    assert "bad00003" in warnings[1] and "date" in warnings[1]
    assert "bad00004" in warnings[2] and "Result" in warnings[2]
    facts = [replay_game(g) for g in games]
    assert [f.valid for f in facts] == [False, True, False]
    assert (facts[0].error, facts[0].error_ply) == ("illegal move 'Ke3' at ply 3", 3)
    assert games[2].variant == games[2].perf == "Fairy"  # as given, like the JSON's
    assert (facts[2].error, facts[2].error_ply) == ("unknown variant 'Fairy'", 0)


# Hand-damaged copies of the real export of q7ZvsdUF (125 plies, a draw that moved
# Lance5500 +4). Ply numbering: white's move N is ply 2N - 1, black's move N is ply 2N.
REAL = (LICHESS / "game-export-q7ZvsdUF.pgn").read_text()
REAL_MOVES = read_pgn(REAL)[0].moves


def _damaged(old: str, new: str) -> Game:
    assert REAL.count(old) == 1, old
    warnings: list[str] = []
    games = read_pgn(REAL.replace(old, new), on_warning=warnings.append)
    assert warnings == [] and len(games) == 1
    game = games[0]
    # Still the rated game Lichess scored: it counts for ratings like the undamaged one.
    assert (game.id, game.rated, game.status, game.winner) == ("q7ZvsdUF", True, "draw", None)
    assert (game.white.rating_diff, game.black.rating_diff) == (4, -4)
    return game


@pytest.mark.parametrize(
    ("old", "new", "ply", "error"),
    [
        # 17. O-O -> O-O-O: white's 17th move, ply 2 x 17 - 1 = 33; the queenside is not
        # clear (Bc1 moves only at 18. Bd2), so it is illegal.
        ("17. O-O {", "17. O-O-O {", 33, "illegal move 'O-O-O' at ply 33"),
        # 19. Rac1 -> Rc1: ply 2 x 19 - 1 = 37; both rooks (a1, f1) reach c1.
        ("19. Rac1? {", "19. Rc1? {", 37, "ambiguous move 'Rc1' at ply 37"),
        # 25... Nxd6 -> Nxd9: black's 25th move, ply 2 x 25 = 50; no such square.
        # python-chess skips the token without a word; the raw tokens keep it.
        ("25... Nxd6? {", "25... Nxd9? {", 50, "unparsable move 'Nxd9' at ply 50"),
        # The last move, 63. Kc4 -> Kz4: ply 2 x 63 - 1 = 125. python-chess skips it and
        # reports nothing; only the count of tokens (125 written, 124 read) shows it.
        ("63. Kc4 {", "63. Kz4 {", 125, "unparsable move 'Kz4' at ply 125"),
        # 2. c4 -> Ke3 followed by a stray ')': ply 2 x 2 - 1 = 3, the king on e1 cannot
        # reach e3. The ')' once crashed python-chess's builder.
        ("2. c4 {", "2. Ke3 ) {", 3, "illegal move 'Ke3' at ply 3"),
    ],
)
def test_a_damaged_move_keeps_the_game_flagged_at_its_ply(
    old: str, new: str, ply: int, error: str
) -> None:
    game = _damaged(old, new)
    bad = new.split()[1].rstrip("?")
    # Every move as written: the bad one in its place, the ones after it too.
    assert len(game.moves) == len(REAL_MOVES) == 125
    assert game.moves[ply - 1] == bad
    assert game.moves[: ply - 1] == REAL_MOVES[: ply - 1]
    assert game.moves[ply:] == REAL_MOVES[ply:]
    facts = replay_game(game)
    assert (facts.valid, facts.error_ply, facts.error) == (False, ply, error)
    assert (facts.plies, facts.bad_move) == (ply - 1, bad)


def test_a_broken_fen_keeps_the_game_flagged_at_ply_0() -> None:
    broken = "rnbqkbnr/ppppzppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"  # 'z' is no piece
    tags = f'[Variant "Standard"]\n[SetUp "1"]\n[FEN "{broken}"]'
    game = _damaged('[Variant "Standard"]', tags)
    assert (game.variant, game.initial_fen) == ("fromPosition", broken)
    assert game.moves == REAL_MOVES  # as written, none checked
    facts = replay_game(game)
    assert (facts.valid, facts.error_ply, facts.plies) == (False, 0, 0)
    assert facts.error is not None and facts.error.startswith(f"broken FEN {broken!r}")


def test_an_unknown_variant_keeps_the_game_as_given() -> None:
    game = _damaged('[Variant "Standard"]', '[Variant "Fairy Chess"]')
    assert (game.variant, game.perf, game.moves) == ("Fairy Chess", "Fairy Chess", REAL_MOVES)
    facts = replay_game(game)
    assert (facts.valid, facts.error_ply) == (False, 0)
    assert facts.error == "unknown variant 'Fairy Chess'"


def test_bad_moves_are_kept_as_written_without_comments_variations_or_numbers() -> None:
    text = _pgn(
        "1.e4 {a comment (e4)} e5?! $1 (1... c5 2. Nf3) 2.Ke3 ; to the end of the line\n"
        "%escaped line\n2...Nc6 3. Qh5+ ) 3... @e4 0-1",
        Result="0-1",
    )
    game = _one(text)
    assert game.moves == ("e4", "e5", "Ke3", "Nc6", "Qh5+", "P@e4")  # Lichess's drop form
    assert (game.status, game.winner) == ("resign", "black")
    facts = replay_game(game)
    assert (facts.valid, facts.error_ply, facts.bad_move) == (False, 3, "Ke3")


def test_bad_moves_status_from_the_position_the_good_moves_reach() -> None:
    # Qh4# mates at ply 4; the junk move after it cannot change that.
    mate = _one(_pgn("1. f3 e5 2. g4 Qh4# 3. Nc3 0-1", Result="0-1"))
    assert mate.status == "mate"
    assert replay_game(mate).error == "illegal move 'Nc3' at ply 5"
    # An abandoned game with (unreadable) moves was left, not aborted.
    left = _one(_pgn("1. e4 e5 2. Xx9 0-1", Result="0-1", Termination="Abandoned"))
    assert (left.status, left.moves) == ("noStart", ("e4", "e5", "Xx9"))


@settings(max_examples=80, deadline=None)
@given(
    cut=st.integers(0, 4000),
    junk=st.text(max_size=30),
    where=st.integers(0, 4000),
)
def test_damaged_exports_never_crash(cut: int, junk: str, where: int) -> None:
    # A real export cut short and/or with junk spliced in: games come back (flagged by the
    # replay when their moves are bad) or are skipped with a warning; neither read_pgn
    # nor the replay of what it gives ever raises.
    text = (LICHESS / "game-export-q7ZvsdUF.pgn").read_text()
    damaged = text[:where] + junk + text[where:cut] if cut > where else text[:cut] + junk
    warnings: list[str] = []
    games = read_pgn(damaged, on_warning=warnings.append)
    assert all(g.id and g.created_at for g in games)
    for game in games:
        facts = replay_game(game)
        assert facts.valid or (facts.error and facts.error_ply is not None)
