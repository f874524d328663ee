"""The replay cache's batch blobs (``replay_months``): one row of facts a month fed."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from lichess_elo.core import replay, replay_facts
from lichess_elo.core.games import Game
from lichess_elo.sources.cache import replay as replay_cache
from lichess_elo.sources.cache import replay_months
from lichess_elo.sources.lichess.parse import parse_ndjson
from tests import helpers

DATA = helpers.DATA / "lichess"
#: The games are fed in batches of this many (as a report feeds a month at a time).
STEP = 40
_REPLAY_ROWS = replay_cache.replay_rows


@pytest.fixture(scope="module")
def games() -> list[Game]:
    text = (DATA / "games-user-export-onboard247-2023-01-02.ndjson").read_text()
    return list(parse_ndjson(text.splitlines()))[:120]


@pytest.fixture
def replayed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ids of the games replayed from here on."""
    ids: list[str] = []

    def counting(jobs: list[replay_cache.SentJob], final_fen: bool) -> list[replay_cache.Row]:
        ids.extend(job[0] for job in jobs)
        return _REPLAY_ROWS(jobs, final_fen)

    monkeypatch.setattr(replay_cache, "replay_rows", counting)
    return ids


def _feed(games: list[Game], cache: Path) -> dict[str, replay_facts.ReplayFacts]:
    """What a report does: feed the games a batch at a time, then finish with what came back."""
    with replay_cache.ReplayRun(cache, workers=1, final_fen=False) as run:
        held = [
            g for start in range(0, len(games), STEP) for g in run.feed(games[start : start + STEP])
        ]
        result = run.finish(held)
    assert list(result) == [g.id for g in games]
    return result


def _sql(cache: Path, query: str, *args: object) -> list[tuple[object, ...]]:
    with sqlite3.connect(cache / "replay.sqlite") as conn:
        return list(conn.execute(query, args))


def _facts(g: Game) -> replay_facts.ReplayFacts:
    return replay.replay_job((g.id, g.variant, g.initial_fen, g.status, g.moves), final_fen=False)


def _serial(games: list[Game]) -> dict[str, replay_facts.ReplayFacts]:
    return {g.id: _facts(g) for g in games}


def test_the_facts_are_kept_a_batch_at_a_time_and_read_back_whole(
    games: list[Game], tmp_path: Path, replayed: list[str]
) -> None:
    first = _feed(games, tmp_path)
    assert first == _serial(games) and len(replayed) == 120
    assert _sql(tmp_path, "SELECT games, fen FROM replay_months") == [(STEP, 0)] * 3
    # the blobs alone give every game its facts: the rows a game (all of other games now)
    # would miss, and nothing is replayed
    _sql(tmp_path, "UPDATE replay_facts SET content = 'other'")
    replayed.clear()
    assert _feed(games, tmp_path) == first
    assert replayed == []


def test_a_cache_without_blobs_is_read_a_row_a_game_and_gets_them(
    games: list[Game], tmp_path: Path, replayed: list[str]
) -> None:
    # A cache written before the blobs (rows only, no table): read, nothing replayed, and
    # the blobs written on the way (read on the next run).
    replay_cache.replay_all(games, cache_dir=tmp_path, workers=1, final_fen=False)
    _sql(tmp_path, "DROP TABLE replay_months")
    replayed.clear()
    assert _feed(games, tmp_path) == _serial(games)
    assert replayed == []
    assert len(_sql(tmp_path, "SELECT batch FROM replay_months")) == 3


def _damage(cache: Path, how: str, games: list[Game]) -> None:
    (key, blob), *_ = _sql(cache, "SELECT batch, facts FROM replay_months ORDER BY batch")
    assert isinstance(blob, bytes)
    if how == "truncated":
        _sql(cache, "UPDATE replay_months SET facts = ? WHERE batch = ?", blob[:-7], key)
    elif how == "flipped":
        _sql(cache, "UPDATE replay_months SET facts = ? WHERE batch = ?", b"\0" + blob[1:], key)
    elif how == "count":
        _sql(cache, "UPDATE replay_months SET games = games - 1 WHERE batch = ?", key)
    else:  # a blob of the right digest holding one fact too few
        (n,) = _sql(cache, "SELECT games FROM replay_months WHERE batch = ?", key)[0]
        short = [_facts(g) for g in games[: int(str(n)) - 1]]
        kept = replay_months.encode_facts(short)
        digest = replay_months._digest(kept)
        _sql(
            cache,
            "UPDATE replay_months SET facts = ?, digest = ? WHERE batch = ?",
            kept,
            digest,
            key,
        )


@pytest.mark.parametrize("how", ["truncated", "flipped", "count", "short"])
def test_a_damaged_blob_is_never_taken_the_games_are_read_or_replayed(
    games: list[Game], tmp_path: Path, replayed: list[str], how: str
) -> None:
    serial = _serial(games)
    _feed(games, tmp_path)
    _damage(tmp_path, how, games)
    replayed.clear()
    assert _feed(games, tmp_path) == serial  # the damaged batch read from its rows
    assert replayed == []
    _damage(tmp_path, how, games)
    _sql(tmp_path, "UPDATE replay_facts SET content = 'other'")
    assert _feed(games, tmp_path) == serial  # and with no rows of them either: replayed
    assert len(replayed) == STEP


def test_a_batch_with_an_edited_game_misses_its_blob(
    games: list[Game], tmp_path: Path, replayed: list[str]
) -> None:
    # The same ids, one game with other moves: its batch's blob is not its own.
    _feed(games, tmp_path)
    edited = [replace(games[0], moves=games[0].moves[:-1]), *games[1:]]
    replayed.clear()
    assert _feed(edited, tmp_path) == _serial(edited)
    assert replayed == [games[0].id]
    assert len(_sql(tmp_path, "SELECT batch FROM replay_months")) == 4


def test_a_new_replay_version_ignores_the_blobs_and_replaces_them(
    games: list[Game], tmp_path: Path, replayed: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _feed(games, tmp_path)
    monkeypatch.setattr(replay_facts, "REPLAY_VERSION", replay_facts.REPLAY_VERSION + 1)
    replayed.clear()
    _feed(games, tmp_path)
    assert len(replayed) == 120
    versions = _sql(tmp_path, "SELECT DISTINCT version FROM replay_months")
    assert versions == [(replay_facts.REPLAY_VERSION,)]


def test_an_interrupted_blob_write_leaves_the_table_as_it_was(
    games: list[Game], tmp_path: Path
) -> None:
    _feed(games, tmp_path)
    _sql(tmp_path, "INSERT INTO replay_months VALUES ('old', 0, 0, 0, x'00', x'00')")
    before = _sql(tmp_path, "SELECT * FROM replay_months ORDER BY batch")
    assert len(before) == 4

    def interrupted() -> Iterator[tuple[str, int, bytes]]:
        yield "k" * 40, 1, replay_months.encode_facts([replay.replay_game(games[0])])
        raise KeyboardInterrupt

    conn = sqlite3.connect(tmp_path / "replay.sqlite")
    try:
        with pytest.raises(KeyboardInterrupt):
            replay_months.write_batches(conn, interrupted(), final_fen=False)
    finally:
        conn.close()
    assert _sql(tmp_path, "SELECT * FROM replay_months ORDER BY batch") == before


def test_a_cache_opened_read_only_from_before_the_blobs_reads_no_blob(
    games: list[Game], tmp_path: Path
) -> None:
    # A read-only connection cannot make the table: a miss, not an unusable cache.
    replay_cache.replay_all(games, cache_dir=tmp_path, workers=1, final_fen=False)
    _sql(tmp_path, "DROP TABLE replay_months")
    conn = sqlite3.connect(f"file:{tmp_path / 'replay.sqlite'}?mode=ro", uri=True)
    try:
        key = replay_months.batch_key(games[:STEP])
        assert replay_months.read_batch(conn, key, games[:STEP], final_fen=False) is None
    finally:
        conn.close()


def test_a_blob_of_other_fields_is_a_miss(
    games: list[Game], tmp_path: Path, replayed: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A ReplayFacts of other fields (one renamed, added or moved) tags its blobs otherwise:
    # the blobs kept before are read from their rows, then kept again under the new tag.
    _feed(games, tmp_path)
    fields = ("valid", "plies", "renamed", *replay_months._FIELDS[3:])
    monkeypatch.setattr(replay_months, "_TAG", (1, 4, fields))
    with sqlite3.connect(tmp_path / "replay.sqlite") as conn:
        key = replay_months.batch_key(games[:STEP])
        assert replay_months.read_batch(conn, key, games[:STEP], final_fen=False) is None
    replayed.clear()
    assert _feed(games, tmp_path) == _serial(games)
    assert replayed == []
    with sqlite3.connect(tmp_path / "replay.sqlite") as conn:
        assert replay_months.read_batch(conn, key, games[:STEP], final_fen=False) is not None
