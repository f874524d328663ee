"""Replay games through the replay cache, large histories in a process pool (an edge
module): ``replay_all``, and ``ReplayRun`` to start the pool while the games still arrive.

The cache's file is ``replay_store`` (keyed by game id, content and ``REPLAY_VERSION``);
the replay itself is ``core/replay.py``. Workers send back rows ready for the cache
(``replay_store.Row``), which the parent writes in batches of ``_BATCH``, each in its own
transaction, as they come back: a hard crash keeps every finished batch, and the
unfinished one is written on the way out, also on Ctrl-C. A worker that dies (killed, out
of memory) ends the run with ``WorkerLost`` instead of a wait for a chunk that never
comes: the pool is a ``ProcessPoolExecutor``, which says when it loses a worker.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import TracebackType
from typing import TYPE_CHECKING

from lichess_elo.core.replay_facts import ReplayFacts
from lichess_elo.errors import WorkerLost
from lichess_elo.sources.cache.replay_months import (
    batch_blobs,
    batch_key,
    read_batch,
    write_batches,
)
from lichess_elo.sources.cache.replay_pool import ReplayPool
from lichess_elo.sources.cache.replay_store import (
    Row,
    content_key,
    from_row,
    holds_rows,
    open_cache,
    read_cached,
    replay_rows,
    sent_job,
    table_rows,
    warn_unusable,
    write_rows,
)
from lichess_elo.sources.cache.sqlite import read_only_file

if TYPE_CHECKING:
    from concurrent.futures import Future
    from pathlib import Path

    from lichess_elo.core.games import Game

__all__ = ["POOL_THRESHOLD", "ReplayRun", "Row", "content_key", "replay_all"]

#: Replay in a process pool only above this many uncached games.
POOL_THRESHOLD = 2000
#: Rows written to the cache in one transaction.
_BATCH = 500
#: Progress is told every this many replays (and at the last).
_STEP = 500
#: Games sent to a worker at once while games still arrive.
_CHUNK = 250


class ReplayRun:
    """One replay through the cache, as a context manager.

    ``feed`` may be given the games while they still arrive (a month at a time): when the
    cache holds nothing of this replay version (a first run), every game is a miss, and the
    pool starts as soon as more than ``POOL_THRESHOLD`` games were fed, replaying them while
    the rest arrive. ``finish`` then gives the facts of the games asked, replaying what is
    left. Leaving the block (also on Ctrl-C) writes every replay already back and stops the
    pool.
    """

    def __init__(
        self,
        cache_dir: Path | None,
        *,
        workers: int | None = None,
        on_warning: Callable[[str], None] | None = None,
        final_fen: bool = True,
    ) -> None:
        """Nothing is opened yet: the cache on the first ``feed`` or ``finish``."""
        self._cache_dir = cache_dir
        self._warn = on_warning
        self._final_fen = final_fen
        self._workers = max(1, workers if workers is not None else (os.cpu_count() or 1))
        self._conn: sqlite3.Connection | None = None
        self._opened = False
        self._read_only = False
        self._empty = True  # the cache holds nothing of this version: every game misses
        self._pool = ReplayPool(self._workers)  # started with the first chunk sent
        self._fed: dict[str, Game] = {}  # fed and not yet sent to the pool
        self._sent: dict[str, Game] = {}  # sent to the pool
        self._chunks: list[Future[list[Row]]] = []
        self._taken = 0  # chunks whose rows are taken
        self._facts: dict[str, ReplayFacts] = {}  # the replays taken so far
        # the cached facts read by ``feed``, with the very game (moves let go) they are of
        self._early: dict[str, tuple[Game, ReplayFacts]] = {}
        self._rows: int | None = None  # the cache's row count, once counted
        self._batch: list[Row] = []  # rows not written yet
        # the batches fed whose facts are to be kept as one blob: key, games as held
        self._batches: list[tuple[str, list[Game]]] = []

    def __enter__(self) -> ReplayRun:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            for chunk in self._chunks[self._taken :]:  # replays already back are kept
                if chunk.done() and not chunk.cancelled() and chunk.exception() is None:
                    self._batch += chunk.result()
            self._taken = len(self._chunks)
            self._write()
        finally:
            self._fed, self._sent, self._facts, self._chunks = {}, {}, {}, []
            self._early, self._batches = {}, []
            self._pool.stop()
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def _open(self) -> None:
        """Open the cache once (an unusable one is warned about and only costs time)."""
        if self._opened or self._cache_dir is None:
            return
        self._opened = True
        self._read_only = read_only_file(self._cache_dir / "replay.sqlite")
        try:
            self._conn = open_cache(self._cache_dir, self._read_only)
            self._empty = not holds_rows(self._conn)
        except (sqlite3.Error, OSError) as exc:
            self._drop(exc)

    def _drop(self, exc: sqlite3.Error | OSError) -> None:
        if self._conn is not None:
            self._conn.close()
        self._conn = None  # an unusable cache only costs time: replay everything
        if self._cache_dir is not None:
            warn_unusable(self._cache_dir, exc, self._warn)

    def _write(self) -> None:
        """Write the rows held; on failure (a read-only or full disk) warn once and go on
        without the cache. The rows are let go only once written (or not to be kept): a
        Ctrl-C in the middle rolls the transaction back, and leaving the run writes them."""
        if self._conn is not None and not self._read_only and self._batch:
            try:
                write_rows(self._conn, self._batch)
            except (sqlite3.Error, OSError) as exc:
                self._drop(exc)
        self._batch = []

    def _lost(self) -> WorkerLost:
        """``WorkerLost`` for the pool's lost worker; the cache folder when it kept rows."""
        kept = self._cache_dir if self._conn is not None and not self._read_only else None
        return self._pool.lost(kept)

    def _send(self, games: list[Game], chunk: int) -> None:
        from concurrent.futures.process import BrokenProcessPool

        pool = self._pool.start()
        for start in range(0, len(games), chunk):
            part = games[start : start + chunk]
            jobs = [sent_job(g) for g in part]
            try:
                self._chunks.append(pool.submit(replay_rows, jobs, self._final_fen))
            except BrokenProcessPool:  # a worker died while idle
                raise self._lost() from None
            self._pool.note_workers()  # they start with the first chunk (at once under fork)
            self._sent.update((g.id, g) for g in part)

    def feed(self, games: Iterable[Game]) -> list[Game]:
        """Games that ``finish`` will be asked for, given early: with an empty cache and
        more than one worker, the pool replays them from the moment more than
        ``POOL_THRESHOLD`` games were fed. With a cache that holds replays, their cached
        facts are read now and kept for ``finish``.

        Returns:
            The games as the caller may hold them from now on: a game whose facts were
            read here comes back without its moves (``finish`` knows that very copy; a
            warm report then never holds every game's moves at once), the others as given.
        """
        self._open()
        games = list(games)
        key = self._batch_key(games)
        if not self._empty:
            return self._read_early(games, key)
        if key is not None and not self._read_only:
            self._batches.append((key, games))
        if self._workers == 1:
            return games
        fed = self._fed
        for game in games:
            if game.id not in fed and game.id not in self._sent:
                fed[game.id] = game
        if not self._pool.started and len(fed) <= POOL_THRESHOLD:
            return games
        whole = len(fed) // _CHUNK * _CHUNK  # the rest waits for the next month
        if whole:
            ready = list(fed.values())
            self._send(ready[:whole], _CHUNK)
            self._fed = {g.id: g for g in ready[whole:]}
        # the replays already back are taken (and written) while the fetch goes on
        while self._taken < len(self._chunks) and self._chunks[self._taken].done():
            self._take_chunk()
        return games

    def _batch_key(self, games: list[Game]) -> str | None:
        """``batch_key`` of ``games``: none without a cache or with an id twice."""
        if self._conn is None or not games or len({g.id for g in games}) != len(games):
            return None
        return batch_key(games)

    def _read_early(self, games: list[Game], key: str | None) -> list[Game]:
        """``feed`` with a cache that holds replays: read the cached facts of ``games``, as
        one blob (``key``) when it is kept, else a row a game."""
        if self._conn is None or not games:
            return games
        blob = None if key is None else read_batch(self._conn, key, games, self._final_fen)
        if blob is not None:
            slim = [game.without_moves() for game in games]
            self._early.update((g.id, (g, f)) for g, f in zip(slim, blob, strict=True))
            return slim
        unique = {game.id: game for game in games}
        try:
            if self._rows is None:
                self._rows = table_rows(self._conn)
            found = read_cached(self._conn, list(unique.values()), self._final_fen, self._rows)
        except (sqlite3.Error, OSError) as exc:
            self._drop(exc)
            return games
        held: list[Game] = []
        for game in games:
            facts = found.get(game.id)
            if facts is not None and unique[game.id] is game:
                game = game.without_moves()
                self._early[game.id] = (game, facts)
            held.append(game)
        if key is not None and not self._read_only:
            self._batches.append((key, held))
        return held

    def _take_chunk(self) -> None:
        """Take the rows of the next chunk sent (waiting for it).

        Raises:
            WorkerLost: a worker died (killed, out of memory) before the chunk came back.
        """
        from concurrent.futures.process import BrokenProcessPool  # a chunk: a pool

        try:
            rows = self._chunks[self._taken].result()
        except BrokenProcessPool:
            # the replays already back are written on the way out (``__exit__``)
            raise self._lost() from None
        self._take(rows, self._sent, chunk=True)

    def _take(self, rows: list[Row], games: Mapping[str, Game], chunk: bool = False) -> None:
        """Hold ``rows`` for the cache (written a batch at a time) and keep their facts,
        sharing the id strings of ``games``. The rows are held before anything else, so a
        Ctrl-C from here on still writes them."""
        self._batch += rows
        if chunk:
            self._taken += 1
        facts = self._facts
        for row in rows:
            game = games.get(row[0])
            game_id = row[0] if game is None else game.id
            facts[game_id] = from_row(row, game_id)
        if len(self._batch) >= _BATCH:
            self._write()

    def finish(
        self, games: Sequence[Game], progress: Callable[[int, int], None] | None = None
    ) -> dict[str, ReplayFacts]:
        """The facts of ``games`` by id, in their order (a repeated id is replayed once):
        what was sent to the pool, the cached facts, and the rest replayed now.

        ``progress`` is called with (replayed so far, to replay) while the replays come
        back (first with 0, so a bar shows its total at once).
        """
        self._open()
        unique = list({game.id: game for game in games}.values())
        sent, early = self._sent, self._early
        # a game fed (and sent, or read early) is used only if it is this very game
        late = [g for g in unique if _early_facts(early, g) is None and sent.get(g.id) is not g]
        facts: dict[str, ReplayFacts] = {}
        if self._conn is not None and not self._empty:
            try:
                facts = read_cached(self._conn, late, self._final_fen, self._rows)
            except (sqlite3.Error, OSError) as exc:
                self._drop(exc)
        todo = [g for g in late if g.id not in facts]
        if self._read_only and todo and self._warn is not None and self._conn is not None:
            self._warn(
                f"the replay cache {self._cache_dir} is read-only; {len(todo)} new replay "
                "results are not kept"
            )
        total = len(sent) + len(todo)
        if progress is not None and total:
            progress(0, total)  # the bar shows its total before the first game is done
        if self._pool.started or (self._workers > 1 and len(todo) > POOL_THRESHOLD):
            chunk = max(50, min(1000, len(todo) // (self._workers * 8)))
            self._send(todo, chunk)
            todo = []
        while self._taken < len(self._chunks):  # the pool's: told after each chunk
            self._take_chunk()
            if progress is not None:
                progress(min(len(self._facts), total), total)
        by_id = {g.id: g for g in todo}
        for count, game in enumerate(todo, 1):
            self._take(replay_rows([sent_job(game)], self._final_fen), by_id)
            if progress is not None and (count % _STEP == 0 or count == len(todo)):
                progress(min(len(sent) + count, total), total)
        self._write()
        facts = {**self._facts, **facts}  # a late game's cached facts are its own
        # nothing of the games is held here any more (a report lets their moves go next)
        self._fed, self._sent, self._facts, self._early = {}, {}, {}, {}
        found = {g.id: _early_facts(early, g) or facts[g.id] for g in unique}
        self._keep_batches(unique, found)
        return found

    def _keep_batches(self, games: Sequence[Game], facts: Mapping[str, ReplayFacts]) -> None:
        """Write the blob of every batch fed whose games are all among ``games``, as
        held (their ``facts`` are theirs), in one transaction (a failure only warns)."""
        batches, self._batches = self._batches, []
        blobs = batch_blobs(batches, {g.id: g for g in games}, facts)
        if self._conn is not None and not self._read_only and blobs:
            try:
                write_batches(self._conn, blobs, self._final_fen)
            except (sqlite3.Error, OSError) as exc:
                self._drop(exc)


def _early_facts(early: Mapping[str, tuple[Game, ReplayFacts]], game: Game) -> ReplayFacts | None:
    """The facts ``feed`` read for this very ``game`` (none for another game of its id)."""
    held = early.get(game.id)
    return held[1] if held is not None and held[0] is game else None


def replay_all(
    games: Sequence[Game],
    *,
    cache_dir: Path | None,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    on_warning: Callable[[str], None] | None = None,
    final_fen: bool = True,
) -> dict[str, ReplayFacts]:
    """Replay every game, reusing cached facts; the result is keyed by game id.

    Args:
        games: The games (each id once; a repeated id is replayed once).
        cache_dir: Folder of ``replay.sqlite``; ``None`` replays without a cache.
        workers: Processes to use; ``None`` means the machine's cores. A pool is only
            started for more than ``POOL_THRESHOLD`` uncached games.
        progress: Called with (replayed so far, to replay) while uncached games replay.
        on_warning: Told, in one line, when the cache cannot be used (a file in the way,
            a read-only or full disk): the facts are still right, only not kept.
        final_fen: Make and read each game's final FEN; without it (a report, which shows
            none) the facts have ``final_fen=None`` (a string less a game held, and a FEN
            less made a replay) and rows replayed now are stored without it.
    """
    with ReplayRun(cache_dir, workers=workers, on_warning=on_warning, final_fen=final_fen) as run:
        return run.finish(games, progress)
