"""One contract, every ``GameSource``: the Lichess API (the real berserk client over HTTP to
the fake server on 127.0.0.1), the bundled cassette, a PGN export and a database dump.

As requests-cache runs one test class against every backend, each test here runs once per
implementation. The games are OnBoard247's 221 real games (tests/data/lichess, CC0): the
server and the cassette serve their NDJSON lines; the PGN export and the dump are those games
written as lila's PgnDump writes them (``tests.helpers.lichess_pgn``), the dump with another
player's games mixed in and compressed in two zstd frames, as the database's files may be.
A PGN carries less than the API (no milliseconds, no provisional flag), so the games are
compared on what every source carries.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
import zstandard

from lichess_elo.core.games import Game
from lichess_elo.errors import BadFile, BadInput, DumpUnreadable
from lichess_elo.sources.base import GameQuery, GameSource, LoadedGames, LoadHooks
from lichess_elo.sources.game_sources import DumpFile, LichessGames, PgnFile, cassette
from lichess_elo.sources.lichess import LichessSettings
from tests.fake_lichess import FakeLichess
from tests.helpers import DATA, ONBOARD_FILE, REPO, lichess_pgn

USER = "OnBoard247"
#: OnBoard247's games: 221 from 2023-01-25 to 2023-02-19 (tests/data/lichess/README).
ALL = 221


def _raw() -> list[dict[str, Any]]:
    lines = (DATA / "lichess" / ONBOARD_FILE).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _stranger(game: dict[str, Any], n: int) -> dict[str, Any]:
    """One of OnBoard247's games with both players renamed: a game of other people."""
    other = json.loads(json.dumps(game))
    other["id"] = f"zz{n:06d}"
    for color, name in (("white", "SomeoneElse"), ("black", "OnBoard2470")):
        other["players"][color]["user"] = {"name": name, "id": name.lower()}
    return other


def _shared(game: Game) -> tuple[Any, ...]:
    """What every source carries: id, perf, rated, the second it began, both sides' names,
    ratings and diffs, the winner and the moves."""
    sides = tuple((side.name, side.rating, side.rating_diff) for side in (game.white, game.black))
    second = game.created_at.replace(microsecond=0)
    return (game.id, game.perf, game.rated, second, sides, game.winner, game.moves)


def _dump(path: Path, raw: list[dict[str, Any]]) -> Path:
    """A ``.pgn.zst`` dump of ``raw`` with strangers' games between them, in two frames."""
    texts: list[str] = []
    for n, game in enumerate(raw):
        texts.append(lichess_pgn(game))
        if n % 3 == 0:
            texts.append(lichess_pgn(_stranger(game, n)))
    half = len(texts) // 2
    packer = zstandard.ZstdCompressor()
    frames = [packer.compress("".join(part).encode()) for part in (texts[:half], texts[half:])]
    path.write_bytes(b"".join(frames))
    return path


Make = Callable[[], GameSource]


@pytest.fixture(params=["api", "cassette", "pgn", "dump"])
def make(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Make]:
    """A maker of one implementation of ``GameSource``, by the test's parameter."""
    kind = request.param
    raw = _raw()
    if kind == "api":
        server: FakeLichess = request.getfixturevalue("onboard_server")
        yield lambda: LichessGames(
            LichessSettings(api_url=server.url, cache_dir=tmp_path / "cache")
        )
    elif kind == "cassette":
        tape = REPO / "cassettes" / "onboard247.yaml"
        yield lambda: cassette(tape, cache_dir=tmp_path / "cache")
    elif kind == "pgn":
        path = tmp_path / "onboard247.pgn"
        path.write_text("".join(lichess_pgn(g) for g in raw), encoding="utf-8")
        yield lambda: PgnFile(path)
    else:
        path = _dump(tmp_path / "lichess_db_standard_rated_2023-02.pgn.zst", raw)
        yield lambda: DumpFile(path)


@pytest.fixture(scope="module")
def expected() -> list[tuple[Any, ...]]:
    """The 221 games as the API gives them, oldest first: what every source must give."""
    from lichess_elo.sources.lichess.parse import parse_game

    games = [parse_game(g) for g in _raw()]
    return [_shared(g) for g in sorted(games, key=lambda g: (g.created_at, g.id))]


def test_is_a_game_source(make: Make) -> None:
    source = make()
    assert isinstance(source, GameSource)
    assert isinstance(source.name, str) and source.name
    assert isinstance(source.provisional_known, bool)


def test_gives_the_players_games_oldest_first_each_once(
    make: Make, expected: list[tuple[Any, ...]]
) -> None:
    warnings: list[str] = []
    loaded = make().load(GameQuery(USER), LoadHooks(on_warning=warnings.append))
    assert isinstance(loaded, LoadedGames)
    assert loaded.user == USER
    assert len(loaded.games) == ALL
    keys = [(g.created_at, g.id) for g in loaded.games]
    assert keys == sorted(keys) and len({g.id for g in loaded.games}) == ALL
    assert [_shared(g) for g in loaded.games] == expected
    assert warnings == []  # real games, all readable


def test_days_asked_are_all_there(make: Make, expected: list[tuple[Any, ...]]) -> None:
    # February 2023 only: the API reads that month; a file holds what it holds and the
    # caller keeps the days. Either way February's games are all there, and only once.
    since, until = date(2023, 2, 1), date(2023, 3, 1)
    low, high = (datetime(d.year, d.month, d.day, tzinfo=UTC) for d in (since, until))
    loaded = make().load(GameQuery(USER, since=since, until=until))
    february = [_shared(g) for g in loaded.games if low <= g.created_at < high]
    wanted = [e for e in expected if low <= e[3] < high]
    assert len(wanted) > 0 and february == wanted


def test_a_name_no_site_can_hold_is_refused(make: Make) -> None:
    with pytest.raises(BadInput) as raised:
        make().load(GameQuery("not a name"))
    assert raised.value.field == "username"


def test_early_games_hook_sees_only_loaded_games(make: Make) -> None:
    seen: list[str] = []
    source = make()
    loaded = source.load(
        GameQuery(USER), LoadHooks(on_games=lambda g: seen.extend(x.id for x in g))
    )
    ids = {g.id for g in loaded.games}
    if isinstance(source, LichessGames):  # read month by month: every game handed over early
        assert sorted(seen) == sorted(ids)
    else:  # a file read whole hands nothing over early, and never a game it does not give
        assert set(seen) <= ids


def test_games_the_early_hook_gives_back_are_the_games_held(make: Make) -> None:
    # A hook that gives back the even-numbered games of each part without their moves:
    # a source read in parts then holds those copies (and only those), the others as read.
    given: dict[str, Game] = {}

    def slim_some(part: list[Game]) -> list[Game]:
        back = [g.without_moves() if n % 2 == 0 else g for n, g in enumerate(part)]
        given.update((g.id, g) for g in back if not g.moves)
        return back

    source = make()
    loaded = source.load(GameQuery(USER), LoadHooks(on_games=slim_some))
    full = {g.id: g for g in make().load(GameQuery(USER)).games}
    assert len(loaded.games) == len(full) == ALL
    for game in loaded.games:
        if game.id in given:
            assert game is given[game.id] and game == replace(full[game.id], moves=())
        else:
            assert game == full[game.id]
    if isinstance(source, LichessGames):  # read month by month: some games were given back
        assert len(given) > ALL // 3


# --- what only some sources do --------------------------------------------------------


def test_a_dump_keeps_only_the_players_games_in_any_case(tmp_path: Path) -> None:
    path = _dump(tmp_path / "d.pgn.zst", _raw())
    loaded = DumpFile(path).load(GameQuery("onboard247"))
    # 221 of OnBoard247's; none of the 74 renamed ones (every third of 221: ceil(221/3))
    assert len(loaded.games) == ALL
    assert loaded.user == USER  # the dump's spelling
    assert all(g.color_of(USER) is not None for g in loaded.games)


def test_a_dump_without_the_player_gives_no_games(tmp_path: Path) -> None:
    path = _dump(tmp_path / "d.pgn.zst", _raw()[:5])
    assert DumpFile(path).load(GameQuery("Nobody_here")).games == ()


def test_a_dump_cut_short_is_refused_not_read_as_whole(tmp_path: Path) -> None:
    path = _dump(tmp_path / "d.pgn.zst", _raw())
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 1000])
    with pytest.raises(DumpUnreadable):
        DumpFile(path).load(GameQuery(USER))


@pytest.mark.parametrize("kind", ["pgn", "dump"])
def test_a_missing_file_is_named(kind: str, tmp_path: Path) -> None:
    path = tmp_path / "nothing.pgn"
    source: GameSource = PgnFile(path) if kind == "pgn" else DumpFile(path)
    with pytest.raises(BadFile) as raised:
        source.load(GameQuery(USER))
    assert raised.value.path == path and "no such file" in str(raised.value)


def test_the_token_is_not_in_the_settings_repr() -> None:
    token = "lip_" + "x" * 20
    source = LichessGames(LichessSettings(token=token))
    assert token not in repr(source) and token not in str(source)
    assert token not in repr(source.source)


@pytest.mark.parametrize(
    ("settings", "name"),
    [
        ({"timeout": 0}, "timeout"),
        ({"timeout": float("nan")}, "timeout"),
        ({"retry_wait": -1}, "retry_wait"),
        ({"max_retries": -1}, "max_retries"),
        ({"max_retries": 2.5}, "max_retries"),
    ],
)
def test_network_settings_are_checked_before_any_request(
    settings: dict[str, Any], name: str
) -> None:
    with pytest.raises(BadInput) as raised:
        LichessSettings(**settings).check()
    assert raised.value.field == name
