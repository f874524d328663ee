"""Real Lichess PGN (tests/data/lichess/real) read by every reader as Lichess means it.

Every expected value is worked out by hand from the files' headers; the
header facts used are written beside each assertion. The export holds 50 games of
thibault, newest first (2025-07-19 .. 2025-05-19); the dump file the first game of the
open database's 2025-03 standard dump.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import duckdb
import pytest

from lichess_elo.app import db as app
from lichess_elo.core import lichess_pgn
from lichess_elo.errors import NotLichessPgn
from lichess_elo.sources.club.files import read_inputs
from lichess_elo.sources.pgn import read_pgn
from tests.runners import invoke

REAL = Path(__file__).resolve().parents[1] / "data" / "lichess" / "real"
EXPORT = REAL / "export-thibault-2025-05-07.pgn"
DUMP_GAME = REAL / "dump-2025-03-first-game.pgn"


def _export() -> list:  # type: ignore[type-arg]
    return read_pgn(EXPORT.read_text(encoding="utf-8"))


def test_every_game_of_the_export_is_read_with_its_rating_status() -> None:
    games = {g.id: g for g in _export()}
    assert len(games) == 50  # 50 header blocks, each with a GameId
    # Events: 44 "rated blitz game", 3 "casual blitz game", 3 "FIDE Social Chess Day
    # Marathon" (an arena's name, each with both RatingDiff tags): 47 rated.
    assert sum(g.rated for g in games.values()) == 47
    assert {i for i, g in games.items() if not g.rated} == {"qvBgsdiy", "h93ZgX6G", "bg8m30YS"}
    assert all(games[i].rated for i in ("Q1bVT3pX", "d7RhIKvd", "OGhtagqF"))


def test_every_termination_maps_as_the_exporter_writes_it() -> None:
    games = {g.id: g for g in _export()}
    # 7 "Time forfeit" (RnUYkTnf, eECO9zhB, oOZ1lrC2, vK88yZL4, 0R7PIRGq, SRP8eYbe,
    # MAht3yT6): outoftime or timeout, which the PGN cannot tell apart.
    forfeits = {"RnUYkTnf", "eECO9zhB", "oOZ1lrC2", "vK88yZL4", "0R7PIRGq", "SRP8eYbe", "MAht3yT6"}
    assert {i for i, g in games.items() if g.status == "timeForfeit"} == forfeits
    # 1 "Abandoned" with 0-1 and diffs -6/+5: noStart, no move, rated, black won.
    no_start = games["OGhtagqF"]
    assert (no_start.status, no_start.moves, no_start.winner) == ("noStart", (), "black")
    assert (no_start.white.rating_diff, no_start.black.rating_diff) == (-6, 5)
    # 42 "Normal": the two 1/2-1/2 are draws (txFGyMCq, WmmhP9vO), the 40 others a mate
    # or a resignation, as the final position says.
    normal = [g for i, g in games.items() if i not in forfeits | {"OGhtagqF"}]
    assert len(normal) == 42
    assert {g.id for g in normal if g.status == "draw"} == {"txFGyMCq", "WmmhP9vO"}
    assert {g.status for g in normal if g.winner is not None} <= {"mate", "resign"}
    # Nothing is left unknown.
    assert not [g.id for g in games.values() if g.status == "unknownFinish"]


def test_the_ai_opponent_is_recognised_and_no_rating_is_invented() -> None:
    (ai_game,) = [g for g in _export() if g.id == "bg8m30YS"]
    # [Black "lichess AI level 3"], [BlackElo "?"], casual.
    assert ai_game.black.ai_level == 3 and ai_game.black.rating is None
    assert not ai_game.rated
    # No provisional mark is ever written: nobody is shown provisional.
    assert not any(g.white.provisional or g.black.provisional for g in _export())


def test_the_dump_s_swiss_game_is_rated() -> None:
    (game,) = read_pgn(DUMP_GAME.read_text(encoding="utf-8"))
    # [Event "Rapid swiss https://lichess.org/swiss/7siKNYGN"]: no "Rated" word; the
    # open database holds rated games only, and the diffs are +3/-4.
    assert (game.rated, game.swiss_id, game.speed) == (True, "7siKNYGN", "rapid")
    assert (game.white.rating, game.white.rating_diff) == (939, 3)


def _report(tmp_path: Path) -> dict:  # type: ignore[type-arg]
    result = invoke(
        [
            "report",
            "thibault",
            "--pgn",
            str(EXPORT),
            "--format",
            "json",
            "--cache-dir",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0, result.output
    (report,) = json.loads(result.stdout)["reports"]
    return report  # type: ignore[no-any-return]


def test_report_counts_the_no_move_game_and_invents_no_gap(tmp_path: Path) -> None:
    report = _report(tmp_path)
    summary = report["summary"]
    # 47 rated blitz games; the AI game and the two casual games are left out.
    assert summary["games"] == 47
    assert summary["excluded"]["ai_opponent"] == 1 and summary["excluded"]["casual"] == 2
    # The chain holds in every pair of consecutive rated games: OGhtagqF 1726 - 6 = 1720,
    # d7RhIKvd's 1720; no gap anywhere.
    assert (summary["gap_count"], summary["lichess_gaps"]) == (0, 0)
    (no_start,) = [g for g in report["games"] if g["id"] == "OGhtagqF"]
    assert (no_start["lichess"]["diff"], no_start["gap_before"]) == (-6, None)
    assert "unplayed" in no_start["flags"]
    # Lichess: 1682 before FDjBpJWf (the oldest) to 1712 + 1 = 1713 after Q1bVT3pX (newest).
    assert (summary["lichess_start"], summary["lichess_final"]) == (1682, 1713)


def test_the_k_warning_claims_nothing_lichess_did_not_write(tmp_path: Path) -> None:
    warning = _report(tmp_path)["summary"]["k_warning"]
    # The first game held, FDjBpJWf, has thibault at 1682: not a new account's 1500, so
    # games came before it; a PGN never says "established".
    assert (warning["first_game"], warning["first_rating"], warning["basis"]) == (
        "FDjBpJWf", 1682, "not_start",
    )  # fmt: skip
    assert "established (" not in warning["text"] and "not provisional" not in warning["text"]


def test_db_ingest_takes_the_user_export_and_the_dump(tmp_path: Path) -> None:
    db = tmp_path / "real.duckdb"
    result = app.ingest(app.IngestSettings((EXPORT, DUMP_GAME), db))
    # By UTCDate: 2025-03 the swiss game; 2025-05 41 games, one against the AI;
    # 2025-06 6 games, two casual; 2025-07 3 arena games, the no-move one included.
    months = [(m.month, m.games, m.rejected) for m in result.months]
    assert months == [
        (202503, 1, {}),
        (202505, 40, {"ai_opponent": 1}),
        (202506, 4, {"unrated": 2}),
        (202507, 3, {}),
    ]
    con = duckdb.connect(str(db), read_only=True)
    swiss = con.execute(
        "SELECT perf, white, white_elo, white_diff FROM games WHERE month = 202503"
    ).fetchall()
    perfs = con.execute("SELECT perf, COUNT(*) FROM games GROUP BY 1").fetchall()
    con.close()
    assert swiss == [("rapid", "STRI0006", 939, 3)]  # 600+0: rapid; Event says Rapid
    assert sorted(perfs) == [("blitz", 47), ("rapid", 1)]


def test_report_and_db_player_agree_on_the_game_count(tmp_path: Path) -> None:
    db = tmp_path / "real.duckdb"
    app.ingest(app.IngestSettings((EXPORT,), db))
    app.rate(app.RateSettings(db))
    rows = app.player(app.PlayerSettings("thibault", db, "blitz")).rows
    played = {r["month"]: r["games"] for r in rows if r["games"]}
    # The report's months: 40 (2025-05), 4 (2025-06), 3 (2025-07) = 47.
    assert played == {"2025-05": 40, "2025-06": 4, "2025-07": 3}
    monthly = {p["period"]: p["games"] for p in _report(tmp_path)["periods"]}
    assert monthly == played


def test_a_pgn_lichess_did_not_write_is_refused_by_name(tmp_path: Path) -> None:
    club = Path(__file__).resolve().parents[1] / "data" / "club" / "seed-event.pgn"
    db = tmp_path / "never-made.duckdb"
    with pytest.raises(NotLichessPgn, match=r"seed-event\.pgn: not a Lichess PGN"):
        app.ingest(app.IngestSettings((club,), db))
    assert not db.exists()  # refused before the database is made


def test_the_sql_and_python_readings_agree_on_every_real_event() -> None:
    """``db ingest``'s SQL and the PGN reader decide alike: the real Events, then the other
    forms the exporters write (lila PgnDump.eventOf; the user export's names)."""
    text = EXPORT.read_text(encoding="utf-8") + "\n" + DUMP_GAME.read_text(encoding="utf-8")
    games = read_pgn(text)
    events = [line[8:-2] for line in text.splitlines() if line.startswith("[Event ")]
    rows = [
        (e, None if g.white.rating_diff is None else str(g.white.rating_diff),
         None if g.black.rating_diff is None else str(g.black.rating_diff))
        for e, g in zip(events, games, strict=True)
    ]  # fmt: skip
    others = [
        "Casual Blitz game", "Rated Bullet tournament https://lichess.org/tournament/x1",
        "Blitz simul https://lichess.org/simul/x2", "Import", "Weekly Swiss", "rated rapid game",
    ]  # fmt: skip
    rows += [(e, d, d) for e in others for d in (None, "+3")]
    con = duckdb.connect()
    con.execute("CREATE TABLE t (event VARCHAR, wd VARCHAR, bd VARCHAR)")
    con.executemany("INSERT INTO t VALUES (?, ?, ?)", rows)
    sql = lichess_pgn.rated_sql("event", "wd", "bd")
    perf_sql = lichess_pgn.event_perf_sql("event")
    got = con.execute(f"SELECT event, wd, bd, {sql}, {perf_sql} FROM t").fetchall()
    names = {n for g in games for n in (g.white.label, g.black.label)} | {"lichess AI level 3"}
    ai = dict(con.execute(
        f"SELECT n, {lichess_pgn.ai_sql('n')} FROM (SELECT unnest(?) AS n)", [sorted(names)]
    ).fetchall())  # fmt: skip
    con.close()
    for event, wd, bd, rated, perf in got:
        assert rated == lichess_pgn.is_rated(event, wd, bd), (event, wd)
        assert perf == lichess_pgn.event_perf(event), event
    assert ai == {n: lichess_pgn.ai_level(n) is not None for n in names}
    # The real Events: 47 name the perf blitz, the dump's swiss rapid, the 3 arena names none.
    assert Counter(lichess_pgn.event_perf(e) for e in events) == {"blitz": 47, None: 3, "rapid": 1}
    # Import and a swiss's own name without diffs are unrated; the database swiss is rated.
    assert not lichess_pgn.is_rated("Import", "+3", "-3")
    assert not lichess_pgn.is_rated("Weekly Swiss", None, None)


def test_club_on_a_user_export_groups_generic_events_by_month_and_rates_no_ai() -> None:
    inputs = read_inputs([str(EXPORT)])
    # 50 games less the AI game bg8m30YS (skipped with a note): 49.
    assert len(inputs.games) == 49
    assert not [g for g in inputs.games if "lichess AI" in g.white + g.black]
    assert any("skipped 1 games against the Lichess AI" in n for n in inputs.notes)
    # Events by hand: "rated blitz game" 40 in May, 4 in June; "casual blitz game" 2 in
    # June; the arena's name for its 3 July games.
    events = Counter(g.event for g in inputs.games)
    assert events == {
        "rated blitz game 2025-05": 40, "rated blitz game 2025-06": 4,
        "casual blitz game 2025-06": 2, "FIDE Social Chess Day Marathon": 3,
    }  # fmt: skip
    (no_start,) = [g for g in inputs.games if g.game_id == "OGhtagqF"]
    # Abandoned, 0-1, no move, but Lichess rated it (WhiteRatingDiff -6, BlackRatingDiff
    # +5): one rule in every command, a game counts where its site rated it; so the club
    # rates it as the 0-1 Lichess gave, not as a forfeit.
    assert (no_start.forfeit, no_start.score) == (False, 0)
