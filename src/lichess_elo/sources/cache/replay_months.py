"""The replay cache's batch blobs (an edge module): the facts of one month's games in one row.

A warm report read one ``replay_store`` row a game and hashed every game's content to
check it: about a quarter of its time. ``ReplayRun.feed`` is given the games a month at a
time, so the facts of such a batch are also kept together, in ``replay_months``: one row
keyed by ``batch_key`` (the ids and contents of the batch's games, in order, hashed once),
``REPLAY_VERSION`` and whether the facts hold the final FEN. Its ``facts`` are the games'
facts in the batch's order (``encode_facts``), stored with their count and digest.

The per-game rows stay the truth: a blob is only used when its key, version, count and
digest all match and it decodes to as many facts as there are games; anything else (a
cache of an older version, a truncated or damaged blob, a batch never seen) is a miss, and
the games are read from their rows or replayed as before. A blob is written in one
transaction, so an interrupted write leaves either the whole row or none.
"""

from __future__ import annotations

import dataclasses
import hashlib
import marshal
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING

from lichess_elo.core import replay_facts as replay
from lichess_elo.core.replay_facts import ReplayFacts
from lichess_elo.core.value import plain_twin

if TYPE_CHECKING:
    from lichess_elo.core.games import Game

_TABLE = "replay_months"
#: The table (made by ``replay_store``'s connection, beside the per-game rows).
SCHEMA = f"""
CREATE TABLE IF NOT EXISTS {_TABLE} (
    batch TEXT NOT NULL,
    version INTEGER NOT NULL,
    fen INTEGER NOT NULL,
    games INTEGER NOT NULL,
    digest BLOB NOT NULL,
    facts BLOB NOT NULL,
    PRIMARY KEY (batch, version, fen)
)
"""
#: The fields a blob holds a game, in ``ReplayFacts``'s order (all but the id): a row is
#: given back positionally, so a blob of other fields (a field renamed, added, moved) is
#: never read into the wrong ones.
_FIELDS = tuple(f.name for f in dataclasses.fields(ReplayFacts))[1:]
#: The tag inside every blob: bump ``_FORMAT`` when its layout changes.
_FORMAT = 1
_TAG = (_FORMAT, marshal.version, _FIELDS)
_DECODE_ERRORS = (ValueError, EOFError, TypeError, IndexError, KeyError)
_ID, _VARIANT, _FEN, _STATUS, _MOVES = map(
    attrgetter, ("id", "variant", "initial_fen", "status", "moves")
)


def batch_key(games: Sequence[Game]) -> str:
    """What the facts of ``games`` depend on, in order, hashed once: each game's id,
    variant, start position, status and moves (what ``replay_store.content_key`` hashes a
    game at a time)."""
    fens = ["" if fen is None else fen for fen in map(_FEN, games)]
    # a column at a time, in C (a fifth faster than a join a game in a comprehension)
    moves = map(" ".join, map(_MOVES, games))
    parts = zip(
        map(_ID, games), map(_VARIANT, games), fens, map(_STATUS, games), moves, strict=True
    )
    text = "\x1e".join(map("\x1f".join, parts))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:40]


def _digest(blob: bytes) -> bytes:
    return hashlib.blake2b(blob, digest_size=20).digest()


def encode_facts(facts: Sequence[ReplayFacts]) -> bytes:
    """The facts of a batch, in order, as one blob (the game ids are the batch's own)."""
    rows = list(map(attrgetter(*_FIELDS), facts))  # a tuple a game, in field order
    return marshal.dumps((_TAG, rows))


def decode_facts(blob: bytes, games: Sequence[Game]) -> list[ReplayFacts] | None:
    """The facts of ``games`` in an ``encode_facts`` blob of them; ``None`` if it is not one
    (another tag, another count, a row of another shape)."""
    try:
        tag, rows = marshal.loads(blob)
        if tag != _TAG or len(rows) != len(games):
            return None
        make = plain_twin(ReplayFacts)  # ``ReplayFacts(...)`` without a Python call a game
        facts = []
        for game, row in zip(games, rows, strict=True):
            if len(row) != len(_FIELDS):
                return None
            f = make(game.id, *row)
            f.__class__ = ReplayFacts
            facts.append(f)
    except _DECODE_ERRORS:
        return None
    return facts


def read_batch(
    conn: sqlite3.Connection, key: str, games: Sequence[Game], final_fen: bool
) -> list[ReplayFacts] | None:
    """The facts of ``games`` (of ``batch_key`` ``key``) kept as one blob; ``None`` when
    there is none that can be trusted (or the table cannot be read: a cache opened
    read-only from before the table)."""
    query = f"SELECT games, digest, facts FROM {_TABLE} WHERE batch = ? AND version = ? AND fen = ?"
    try:
        row = conn.execute(query, (key, replay.REPLAY_VERSION, int(final_fen))).fetchone()
    except sqlite3.Error:
        return None
    if row is None or row[0] != len(games) or not isinstance(row[2], bytes):
        return None
    if _digest(row[2]) != row[1]:
        return None
    return decode_facts(row[2], games)


def write_batches(
    conn: sqlite3.Connection, batches: Iterable[tuple[str, int, bytes]], final_fen: bool
) -> None:
    """Store ``batches`` (``batch_key``, game count, ``encode_facts`` blob) in one
    transaction, the blobs of other replay versions gone: an interrupted write (an error
    or Ctrl-C while ``batches`` are taken) leaves the table as it was."""
    version = replay.REPLAY_VERSION
    with conn:
        conn.execute(f"DELETE FROM {_TABLE} WHERE version != ?", (version,))
        conn.executemany(
            f"INSERT OR REPLACE INTO {_TABLE} (batch, version, fen, games, digest, facts) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            ((key, version, int(final_fen), n, _digest(b), b) for key, n, b in batches),
        )


def batch_blobs(
    batches: Sequence[tuple[str, Sequence[Game]]],
    games: Mapping[str, Game],
    facts: Mapping[str, ReplayFacts],
) -> list[tuple[str, int, bytes]]:
    """What ``write_batches`` takes for each of ``batches`` (key, games as fed) whose every
    game is the very game ``games`` holds under its id (so ``facts`` under that id are
    its own): a batch with another game of one of its ids is not kept."""
    blobs = []
    for key, held in batches:
        if all(games.get(g.id) is g for g in held):
            blobs.append((key, len(held), encode_facts([facts[g.id] for g in held])))
    return blobs
