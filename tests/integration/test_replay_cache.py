"""replay_all: the SQLite cache (second run replays nothing new, a new version replays all)
and the process pool (same facts as serial)."""

from __future__ import annotations

import functools
import multiprocessing
import os
import signal
import sqlite3
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest

from lichess_elo.core import replay, replay_facts
from lichess_elo.core.games import Game
from lichess_elo.errors import WorkerLost
from lichess_elo.sources.cache import replay as replay_cache
from lichess_elo.sources.lichess.parse import parse_ndjson
from tests import helpers

DATA = helpers.DATA / "lichess"


@pytest.fixture(scope="module")
def games() -> list[Game]:
    text = (DATA / "games-user-export-onboard247-2023-01-02.ndjson").read_text()
    return list(parse_ndjson(text.splitlines()))


def _run(
    games: list[Game], cache: Path | None, workers: int = 1
) -> tuple[dict[str, replay.ReplayFacts], list[tuple[int, int]]]:
    calls: list[tuple[int, int]] = []
    result = replay_cache.replay_all(
        games, cache_dir=cache, workers=workers, progress=lambda d, t: calls.append((d, t))
    )
    assert list(result) == [g.id for g in games]
    return result, calls


def _rows(cache: Path) -> list[tuple[str, int]]:
    with sqlite3.connect(cache / "replay.sqlite") as conn:
        return list(conn.execute("SELECT game_id, version FROM replay_facts ORDER BY game_id"))


def test_second_run_replays_only_new_games(games: list[Game], tmp_path: Path) -> None:
    first, calls = _run(games[:200], tmp_path)
    # progress reports (replayed, to replay): all 200 were replayed.
    assert calls[-1] == (200, 200)
    assert len(_rows(tmp_path)) == 200
    again, calls = _run(games[:200], tmp_path)
    assert calls == []  # nothing replayed at all
    assert again == first  # and the facts read back are the same
    more, calls = _run(games, tmp_path)
    assert calls[-1] == (21, 21)  # only the 21 new games (221 - 200)
    assert len(_rows(tmp_path)) == 221
    assert {k: more[k] for k in first} == first


def test_a_new_replay_version_replays_everything(
    games: list[Game], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _run(games[:50], tmp_path)
    monkeypatch.setattr(replay_facts, "REPLAY_VERSION", replay_facts.REPLAY_VERSION + 1)
    _, calls = _run(games[:50], tmp_path)
    assert calls[-1] == (50, 50)
    versions = {v for _, v in _rows(tmp_path)}
    assert versions == {replay_facts.REPLAY_VERSION - 1, replay_facts.REPLAY_VERSION}


def test_cached_invalid_facts_round_trip(games: list[Game], tmp_path: Path) -> None:
    # Every field, including the error fields and a None status claim, survives the cache.
    damaged = [
        Game(**{**_fields(games[0]), "moves": ("e4", "Ke3")}),  # ply 2: Ke8-e3 is illegal
        Game(**{**_fields(games[1]), "variant": "fairy"}),
    ]
    direct = [replay.replay_game(g) for g in damaged]
    first, _ = _run(damaged, tmp_path)
    second, calls = _run(damaged, tmp_path)
    assert calls == []
    assert list(first.values()) == direct == list(second.values())
    assert second[damaged[0].id].error_ply == 2
    assert second[damaged[1].id].error == "unknown variant 'fairy'"


def _fields(game: Game) -> dict[str, object]:
    return {name: getattr(game, name) for name in Game.__slots__}


def test_without_cache_dir_nothing_is_written(games: list[Game], tmp_path: Path) -> None:
    _, calls = _run(games[:5], None)
    assert calls[-1] == (5, 5)
    assert list(tmp_path.iterdir()) == []


def test_a_damaged_cache_is_started_again(games: list[Game], tmp_path: Path) -> None:
    (tmp_path / "replay.sqlite").write_bytes(b"this is not a database" * 100)
    result, calls = _run(games[:5], tmp_path)
    assert calls[-1] == (5, 5) and all(f.valid for f in result.values())
    assert len(_rows(tmp_path)) == 5  # the damaged file was replaced by a working cache
    _, calls = _run(games[:5], tmp_path)
    assert calls == []


def test_the_pool_gives_the_serial_result(
    games: list[Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    serial, _ = _run(games, None, workers=1)
    monkeypatch.setattr(replay_cache, "POOL_THRESHOLD", 10)  # use the pool on 221 games
    pooled, calls = _run(games, None, workers=2)
    assert calls[-1] == (221, 221)
    assert pooled == serial


def test_a_locked_cache_is_left_alone(
    games: list[Game], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Another run holds the write lock: "database is locked" is no damage, so the cache
    # (and the other run's write) must survive; this run warns and replays without it.
    _run(games[:5], tmp_path)
    monkeypatch.setenv("LICHESS_ELO_LOCK_TIMEOUT", "0.1")
    other = sqlite3.connect(tmp_path / "replay.sqlite", isolation_level=None)
    try:
        other.execute("PRAGMA locking_mode=EXCLUSIVE")
        other.execute("BEGIN EXCLUSIVE")
        other.execute(
            "INSERT INTO replay_facts VALUES "
            "('zzz', 'c', ?, 1, 10, NULL, NULL, NULL, NULL, 0, 39, 39, NULL)",
            (replay.REPLAY_VERSION,),
        )
        warnings: list[str] = []
        result = replay_cache.replay_all(
            games[:5], cache_dir=tmp_path, workers=1, on_warning=warnings.append
        )
        assert list(result) == [g.id for g in games[:5]]
        assert all(f.valid for f in result.values())
        assert warnings == [
            f"the replay cache {tmp_path / 'replay.sqlite'} is in use by another run; "
            "replay results are not kept this time"
        ]
        other.execute("COMMIT")
    finally:
        other.close()
    assert sorted(i for i, _ in _rows(tmp_path)) == sorted([g.id for g in games[:5]] + ["zzz"])


@pytest.mark.parametrize("damage", ["garbage", "malformed"])
def test_a_damaged_cache_file_is_replaced(games: list[Game], tmp_path: Path, damage: str) -> None:
    path = tmp_path / "replay.sqlite"
    if damage == "garbage":  # not a database at all (SQLITE_NOTADB)
        path.write_bytes(b"this is not a database" * 100)
    else:  # a database header over a broken schema page (SQLITE_CORRUPT)
        _run(games[:5], tmp_path)
        data = bytearray(path.read_bytes())
        data[100:4096] = b"\xff" * (4096 - 100)
        path.write_bytes(bytes(data))
    warnings: list[str] = []
    result = replay_cache.replay_all(
        games[:5], cache_dir=tmp_path, workers=1, on_warning=warnings.append
    )
    assert warnings == [] and all(f.valid for f in result.values())
    assert len(_rows(tmp_path)) == 5


def test_an_interrupted_replay_keeps_the_finished_batches(
    games: list[Game], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Batches of 50: when the serial replay reports progress at 221/221, the four full
    # batches (200 games) are already committed and the last 21 are still in memory. Ctrl-C
    # there: the 21 are written as the interruption unwinds, so all 221 are kept and the
    # next run replays nothing.
    monkeypatch.setattr(replay_cache, "_BATCH", 50)
    seen: list[int] = []

    def interrupt(done: int, total: int) -> None:
        if done == 0:
            return  # the first call only announces the total (no "0/?" bar)
        seen.append(len(_rows(tmp_path)))  # rows committed while the replay runs
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        replay_cache.replay_all(games, cache_dir=tmp_path, workers=1, progress=interrupt)
    assert seen == [200]
    assert sorted(i for i, _ in _rows(tmp_path)) == sorted(g.id for g in games)
    _, calls = _run(games, tmp_path)
    assert calls == []  # nothing left to replay


def test_a_reused_id_with_other_moves_replays_afresh(games: list[Game], tmp_path: Path) -> None:
    # Two exports with the same game id but different moves (an edited PGN, another file)
    # must never share a replay: the cache is keyed on the content, not only the id.
    original = next(g for g in games if g.status == "mate")
    _run([original], tmp_path)
    # the same id, the game cut after its first two moves: no mate on the board any more,
    # so Lichess's "mate" no longer agrees and the replay is not valid.
    edited = replace(original, moves=original.moves[:2])
    result, calls = _run([edited], tmp_path)
    assert calls == [(0, 1), (1, 1)]  # replayed (the bar learns its total first), not read
    assert result[edited.id].plies == 2 and result[edited.id].valid is False
    # both versions are kept; the original is read back without replaying
    again, calls = _run([original], tmp_path)
    assert calls == [] and again[original.id].valid is True
    assert again[original.id].plies == len(original.moves)
    assert len(_rows(tmp_path)) == 2
    assert replay_cache.content_key(original) != replay_cache.content_key(edited)


def test_an_old_id_only_cache_is_dropped(games: list[Game], tmp_path: Path) -> None:
    # a cache written before the content key: its table is never read, and is removed
    with sqlite3.connect(tmp_path / "replay.sqlite") as conn:
        conn.execute("CREATE TABLE replay (game_id TEXT, version INTEGER)")
    _, calls = _run(games[:3], tmp_path)
    assert calls[-1] == (3, 3)
    with sqlite3.connect(tmp_path / "replay.sqlite") as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert tables == {"replay_facts", "replay_months"}  # the old one gone


def test_a_few_games_of_a_large_cache_are_looked_up_by_id(
    games: list[Game], tmp_path: Path
) -> None:
    # The cache is read whole when it holds at most 3 rows per wanted game, else by id in
    # batches; both ways give exactly the wanted games' facts, read without a replay.
    everything, _ = _run(games, tmp_path)  # 221 rows
    few = games[:5]  # 221 > 3 x 5: looked up by id
    result, calls = _run(few, tmp_path)
    assert calls == [] and result == {g.id: everything[g.id] for g in few}
    many = games[:100]  # 221 <= 3 x 100: one pass over the table
    result, calls = _run(many, tmp_path)
    assert calls == [] and result == {g.id: everything[g.id] for g in many}
    # the same ids with other moves match neither way: replayed, not read
    edited = [replace(g, moves=g.moves[:1]) for g in few]
    _, calls = _run(edited, tmp_path)
    assert calls[-1] == (5, 5)


def test_a_replay_without_fen_is_a_miss_for_a_reader_that_wants_it(
    games: list[Game], tmp_path: Path
) -> None:
    # A report replays without the final FEN (it shows none): its rows hold NULL there.
    # `games` wants the FEN: those rows are a miss, replayed again with it; after that both
    # kinds of reader find every game cached.
    calls: list[tuple[int, int]] = []
    few = games[:20]
    bare = replay_cache.replay_all(
        few, cache_dir=tmp_path, workers=1, final_fen=False, progress=lambda d, t: None
    )
    assert all(f.final_fen is None for f in bare.values())
    with sqlite3.connect(tmp_path / "replay.sqlite") as conn:
        nulls = conn.execute("SELECT count(*) FROM replay_facts WHERE final_fen IS NULL")
        assert nulls.fetchone() == (20,)
    full = replay_cache.replay_all(
        few, cache_dir=tmp_path, workers=1, progress=lambda d, t: calls.append((d, t))
    )
    assert calls[-1] == (20, 20)  # all replayed again, for their FEN
    assert all(f.final_fen for f in full.values())
    # the facts other than the FEN are the same either way
    assert {k: replace(f, final_fen=None) for k, f in full.items()} == bare
    for want in (True, False):
        calls.clear()
        again = replay_cache.replay_all(
            few,
            cache_dir=tmp_path,
            workers=1,
            final_fen=want,
            progress=lambda d, t: calls.append((d, t)),
        )
        assert calls == [] and all((f.final_fen is not None) == want for f in again.values())


def test_games_fed_early_are_replayed_and_kept_before_finish(
    games: list[Game], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The pool starts once more than 50 games were fed (threshold patched from 2,000) and
    # replays them in chunks of 25 while more are fed; each feed writes the replays already
    # back (batches of 25). So all 200 games fed are in the cache before finish is called,
    # and finish gives exactly the serial facts of all 221.
    monkeypatch.setattr(replay_cache, "POOL_THRESHOLD", 50)
    monkeypatch.setattr(replay_cache, "_CHUNK", 25)
    monkeypatch.setattr(replay_cache, "_BATCH", 25)
    serial, _ = _run(games, None, workers=1)
    calls: list[tuple[int, int]] = []
    with replay_cache.ReplayRun(tmp_path, workers=2) as run:
        for start in range(0, 200, 20):  # ten "months" of 20 games
            run.feed(games[start : start + 20])
        deadline = time.monotonic() + 60
        while len(_rows(tmp_path)) < 200 and time.monotonic() < deadline:
            time.sleep(0.05)
            run.feed([])  # nothing new: only takes and writes what came back
        assert len(_rows(tmp_path)) == 200
        result = run.finish(games, lambda d, t: calls.append((d, t)))
    assert result == serial and list(result) == [g.id for g in games]
    assert calls[0] == (0, 221) and calls[-1] == (221, 221)
    assert len(_rows(tmp_path)) == 221


def test_a_ctrl_c_during_a_write_loses_no_replay(
    games: list[Game], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ctrl-C lands while the first batch of 50 is being written: its transaction is rolled
    # back (simulated: the first write raises before writing anything). Leaving the run
    # writes that batch again, so the 50 games replayed are all kept.
    monkeypatch.setattr(replay_cache, "_BATCH", 50)
    real = replay_cache.write_rows
    calls: list[int] = []

    def interrupted_once(conn: sqlite3.Connection, rows: list[replay_cache.Row]) -> None:
        calls.append(len(rows))
        if len(calls) == 1:
            raise KeyboardInterrupt
        real(conn, rows)

    monkeypatch.setattr(replay_cache, "write_rows", interrupted_once)
    with pytest.raises(KeyboardInterrupt):
        replay_cache.replay_all(games, cache_dir=tmp_path, workers=1)
    assert calls == [50, 50]
    assert len(_rows(tmp_path)) == 50


_REPLAY_ROWS = replay_cache.replay_rows


def _held_rows(
    gate: Path, held: frozenset[str], jobs: list[replay.ReplayJob], final_fen: bool
) -> list[replay_cache.Row]:
    """``replay_rows``, in a worker, but a chunk with a ``held`` game first waits while the
    ``gate`` file exists (at most five minutes): the test knows the worker is busy."""
    if any(job[0] in held for job in jobs):
        waited = 0
        while gate.exists() and waited < 6000:
            time.sleep(0.05)
            waited += 1
    return _REPLAY_ROWS(jobs, final_fen)


def test_a_killed_worker_ends_the_run_and_keeps_the_replays_back(
    games: list[Game], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # kill -9 of a pool worker (or the out-of-memory killer) left the parent
    # waiting forever for the chunk the worker held. Chunks of 25 games: the first four
    # (games 0-99) come back and are written; the next chunks wait at a gate, so both
    # workers are busy when one of them is killed for real.
    monkeypatch.setattr(replay_cache, "POOL_THRESHOLD", 50)
    monkeypatch.setattr(replay_cache, "_CHUNK", 25)
    monkeypatch.setattr(replay_cache, "_BATCH", 25)
    gate = tmp_path / "gate"
    gate.touch()
    held = frozenset(g.id for g in games[100:])
    monkeypatch.setattr(replay_cache, "replay_rows", functools.partial(_held_rows, gate, held))
    cache = tmp_path / "cache"
    cache.mkdir()
    outcome: list[BaseException | dict[str, replay.ReplayFacts]] = []

    def finish(run: replay_cache.ReplayRun) -> None:
        try:
            outcome.append(run.finish(games))
        except BaseException as exc:
            outcome.append(exc)

    with replay_cache.ReplayRun(cache, workers=2) as run:
        run.feed(games[:200])
        deadline = time.monotonic() + 120  # a bound on the wait, not on the speed
        while len(_rows(cache)) < 100 and time.monotonic() < deadline:
            time.sleep(0.05)
            run.feed([])
        assert len(_rows(cache)) == 100
        workers = multiprocessing.active_children()
        assert len(workers) == 2
        victim = workers[0].pid
        assert victim is not None
        os.kill(victim, signal.SIGKILL)
        gate.unlink()
        waiting = threading.Thread(target=finish, args=(run,), daemon=True)
        waiting.start()
        waiting.join(120)
        assert outcome, "finish never returned: the run waits for the killed worker"
    lost = outcome[0]
    assert isinstance(lost, WorkerLost), lost
    assert (lost.pid, lost.signal, lost.kept_in) == (victim, signal.SIGKILL, cache)
    assert str(lost) == (
        f"replay worker PID {victim} was killed by signal 9 (SIGKILL: the out-of-memory "
        f"killer does this); the replays already done are kept in {cache}: "
        "run the command again"
    )
    assert multiprocessing.active_children() == []  # no worker is left behind
    kept = len(_rows(cache))
    assert kept >= 100  # the four chunks back (and any other that made it) are kept

    # The rerun replays only the rest, and gives the serial facts of all 221.
    serial, _ = _run(games, None, workers=1)
    monkeypatch.setattr(replay_cache, "replay_rows", _REPLAY_ROWS)
    again, calls = _run(games, cache, workers=2)
    assert again == serial
    assert calls[-1] == (221 - kept, 221 - kept)
    assert len(_rows(cache)) == 221


def test_games_fed_to_a_warm_cache_come_back_without_moves_and_keep_their_facts(
    games: list[Game], tmp_path: Path
) -> None:
    # The cache holds the first 150 games; game 0 is then fed with other moves (the same
    # id, another game). The 149 cached ones come back without their moves, the others
    # (game 0 edited and the 71 never replayed) as given, and finish, handed what feed gave
    # back, gives each game its own facts: those of a replay without any cache.
    _run(games[:150], tmp_path)
    edited = replace(games[0], moves=games[0].moves[:-1])
    fed = [edited, *games[1:]]
    serial, _ = _run(fed, None)
    with replay_cache.ReplayRun(tmp_path, workers=1) as run:
        held = [g for start in range(0, len(fed), 40) for g in run.feed(fed[start : start + 40])]
        assert [g.id for g in held] == [g.id for g in fed]
        assert held[0] is edited and held[150:] == fed[150:]
        assert held[1:150] == [replace(g, moves=()) for g in fed[1:150]]
        assert all(g.moves for g in fed[1:150])  # these games do have moves to let go
        result = run.finish(held)
    assert result == serial and list(result) == [g.id for g in fed]
