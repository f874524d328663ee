"""The scorecard's contenders, declared once: every rating system whose expected scores the
scorecard (``report --view accuracy``) and ``db compare`` test (pure).

A contender is one :class:`Contender` entry of the registry below: its key (JSON, CSV),
its labels, the chart's colour and marks, how its expected score of a game is made
(``predict``), its constants (``track``: the online monthly track of
:mod:`lichess_elo.core.report.rivals`, with their ``source``) and how ``db compare`` predicts
it (``db``). The scorecard's text, JSON, CSV, predictions view, chart and HTML page, and
``db compare``'s tables, JSON and chart all read :func:`contenders`; nothing else lists
them. Adding one is one entry here (or one :func:`register` call).

The predictions, for every counted game of a perf (a report's ``GameRow``), from what was
known before it:

* **Lichess Glicko-2** (``lichess``): ``glicko.expected_score`` from the player's and the
  opponent's pre-game Lichess ratings, with the colour advantage where Lichess applied it
  (``glicko.advantage_for``: standard and crazyhouse games from its start date on). The
  export has no RD, only the provisional flag, so the opponent's RD is taken as
  :data:`OPPONENT_RD_PROVISIONAL` (110, the smallest RD Lichess shows as provisional) for a
  provisional opponent and :data:`OPPONENT_RD_ESTABLISHED` (60, the RD lila's own comment
  calls a typical active player's) otherwise.
* **FIDE rules** (``fide``): the report's Elo track, i.e. table 8.1.2 (or the formula when
  asked) from the frozen rating of the period against the opponent's rating, with the same
  400-point rule: the ``expected`` the rating itself used.
* **Elo on Lichess ratings** (``elo_on_lichess``): the logistic ``1/(1+10^(-D/400))`` with
  D = Lichess pre-game rating - opponent's rating, no cap: the FIDE formula on Lichess's
  trajectory, to separate "which trajectory" from "which formula".
* **Score rate so far** (``score_rate``): the player's mean score over the perf's previous
  counted games (:data:`FIRST_GAME_RATE`, 0.5, before the first one).
* **Glicko-1** (``glicko1``) and **Stephenson's rating** (``stephenson``): their own online
  tracks of the player's rating over the perf's counted games, month by month, from the
  Lichess rating before the first one (:mod:`lichess_elo.core.report.rivals`); ``db rate``
  runs the same tracks as SQL (``core/population/rivals_sql.py``, generated from ``track``).

``db compare`` scores the contenders that have a ``db`` step (:data:`DB_STEPS`), in the
order of those steps: the FIDE rules from the stored lists, Lichess from the dump's
headers, then every online track from the stored ``rivals`` rows. A contender without one
(Elo on Lichess ratings, the score rate) is left out of ``db compare``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Literal

from lichess_elo.core import fide, glicko
from lichess_elo.core.report import rivals
from lichess_elo.core.report.model import GameRow
from lichess_elo.core.value import plain_twin

__all__ = [
    "DB_STEPS",
    "ELO_ON_LICHESS",
    "FIDE",
    "FIRST_GAME_RATE",
    "GLICKO1",
    "LICHESS",
    "OPPONENT_RD_ESTABLISHED",
    "OPPONENT_RD_PROVISIONAL",
    "SCORE_RATE",
    "STEPHENSON",
    "Contender",
    "Dash",
    "DbStep",
    "PerfGames",
    "Predictor",
    "by_key",
    "contenders",
    "db_contenders",
    "lichess_expectation",
    "opponent_deviation",
    "register",
    "rival_predictions",
    "score_rates",
    "tracked",
    "unregister",
]

OPPONENT_RD_ESTABLISHED = 60.0
"""Opponent RD assumed for an established rating (lila: "a typical player's RD goes from 60
-> 110 in 1 year" of inactivity, ``Glicko.ratingPeriodsPerDay``)."""
OPPONENT_RD_PROVISIONAL = glicko.PROVISIONAL_DEVIATION
"""Opponent RD assumed for a provisional rating: 110, the threshold (RD >= 110)."""
FIRST_GAME_RATE = 0.5
"""The score-rate baseline's prediction before the perf's first counted game."""

#: How ``db compare`` predicts a contender: ``list`` from the stored lists' PD (table
#: 8.1.2, the stages' SQL), ``headers`` with Glicko-2 on the dump's pre-game ratings,
#: ``track`` from the contender's stored monthly track (``rivals_sql``, from ``track``).
DbStep = Literal["list", "headers", "track"]
#: The ``db`` steps in ``db compare``'s order (its first pair is FIDE against Lichess).
DB_STEPS: tuple[DbStep, ...] = ("list", "headers", "track")
#: A matplotlib line style: a name (``"--"``) or an (offset, dashes) pattern.
Dash = str | tuple[int, tuple[int, ...]]


class PerfGames:
    """A perf's counted games (oldest first) as every predictor sees them; what several
    predictors share (the online tracks' games) is made once, when first asked for."""

    def __init__(self, rows: Sequence[GameRow]) -> None:
        self.rows = rows

    @cached_property
    def track_games(self) -> list[rivals.TrackGame]:
        """The rows as the online tracks' games (``rivals.TrackGame``)."""
        return _track_games(self.rows)

    @cached_property
    def results(self) -> list[float]:
        """The player's score in each game: 1, 0.5 or 0."""
        return [float(r.score) for r in self.rows]


#: A predictor: the expected score of the player before each of a perf's counted games.
Predictor = Callable[[PerfGames], Sequence[float]]


@dataclass(frozen=True)
class Contender:
    """One rating system on the scorecard.

    Attributes:
        key: The stable key (JSON, CSV columns); an online track's columns in ``db`` too.
        label: The name in tables, legends, the JSON and ``db compare``.
        short: The narrow column heading of the calibration table (80 columns).
        subject: How a sentence names it ("Lichess's rating" in the verdict).
        predict: Its expected score of every counted game of a perf.
        colour: Its colour on the scorecard's chart; ``None``: not drawn (no rating to
            calibrate, as the score rate).
        mark: Its marker (a filled one: the chart draws it hollow) and line style on the
            chart, so that lines on top of one another stay apart.
        plain: How the headline names it, when not ``subject``.
        track: The constants of its online monthly track, when it is one (``rivals``;
            ``db rate`` runs it as SQL, ``rivals_sql``).
        source: Where its constants come from (the JSON's ``assumptions``).
        db: How ``db compare`` predicts it (:data:`DbStep`); ``None``: left out there.
    """

    key: str
    label: str
    short: str
    subject: str
    predict: Predictor
    colour: str | None = None
    mark: tuple[str, Dash] = ("o", "-")
    plain: str | None = None
    track: rivals.RivalRules | None = None
    source: str | None = None
    db: DbStep | None = None

    @property
    def headline(self) -> str:
        """How the headline names it."""
        return self.plain or self.subject

    @property
    def initial(self) -> str:
        """The one letter ``db compare``'s narrow columns call it by."""
        return self.label[:1]


def opponent_deviation(provisional: bool) -> float:
    """The RD assumed for an opponent from the provisional flag (see the module docstring)."""
    return OPPONENT_RD_PROVISIONAL if provisional else OPPONENT_RD_ESTABLISHED


def lichess_expectation(row: GameRow) -> float:
    """Glicko-2's expected score of the player before ``row``'s game."""
    return glicko.expected_score(
        row.lichess_from,
        row.opponent_rating,
        opponent_deviation(row.opponent_provisional),
        color=row.color,
        advantage=glicko.advantage_for(row.variant, row.played_at),
    )


def score_rates(scores: Sequence[float]) -> list[float]:
    """Before each game, the mean of the scores before it (``FIRST_GAME_RATE`` at first)."""
    rates, total = [], 0.0
    for i, s in enumerate(scores):
        rates.append(total / i if i else FIRST_GAME_RATE)
        total += s
    return rates


@cache
def _logistic(difference: int) -> float:
    """``fide.logistic_expected`` as a float, once per whole rating difference."""
    return float(fide.logistic_expected(difference))


def _track_games(rows: Sequence[GameRow]) -> list[rivals.TrackGame]:
    # each value made as its plain twin, then given its class (``TrackGame(...)`` without
    # a Python call a value)
    track_game, opponent_of = plain_twin(rivals.TrackGame), plain_twin(rivals.Opponent)
    games = []
    for r in rows:
        opponent = opponent_of(
            float(r.opponent_rating),
            opponent_deviation(r.opponent_provisional),
            float(r.score),
            1 if r.color == "white" else -1,
        )
        opponent.__class__ = rivals.Opponent
        game = track_game(
            rivals.month_index(r.played_at.year, r.played_at.month),
            opponent,
            r.variant == "standard",
        )
        game.__class__ = rivals.TrackGame
        games.append(game)
    return games


def _rival(
    rows: Sequence[GameRow], games: Sequence[rivals.TrackGame], rules: rivals.RivalRules
) -> list[float]:
    """An online track's predictions over the rows' track games."""
    if not rows:
        return []
    first = rows[0]
    return rivals.track(
        games, float(first.lichess_from), opponent_deviation(first.provisional), rules
    )


def rival_predictions(rows: Sequence[GameRow], rules: rivals.RivalRules) -> list[float]:
    """One online contender's prediction for every row (rows oldest first), its track
    starting from the first row's Lichess rating and the RD of its provisional flag."""
    return _rival(rows, _track_games(rows), rules)


def tracked(rules: rivals.RivalRules) -> Predictor:
    """The predictor of the online track with ``rules`` (its games made once a perf)."""

    def predict(games: PerfGames) -> list[float]:
        return _rival(games.rows, games.track_games, rules)

    return predict


def _lichess(games: PerfGames) -> list[float]:
    return [lichess_expectation(r) for r in games.rows]


def _fide(games: PerfGames) -> list[float]:
    return [float(r.expected) for r in games.rows]


def _elo_on_lichess(games: PerfGames) -> list[float]:
    return [_logistic(r.lichess_from - r.opponent_rating) for r in games.rows]


def _score_rate(games: PerfGames) -> list[float]:
    return score_rates(games.results)


LICHESS = Contender(
    "lichess",
    "Lichess Glicko-2",
    short="Lichess",
    subject="Lichess's rating",
    predict=_lichess,
    colour="#1f6fb4",
    mark=("o", "-"),
    db="headers",
)
FIDE = Contender(
    "fide",
    "FIDE rules",
    short="FIDE rules",
    subject="the FIDE-rules rating",
    plain="FIDE's rules",
    predict=_fide,
    colour="#d9480f",
    mark=("s", "--"),
    db="list",
)
ELO_ON_LICHESS = Contender(
    "elo_on_lichess",
    "Elo on Lichess ratings",
    short="Elo/Lichess",
    subject="Elo on Lichess's ratings",
    predict=_elo_on_lichess,
    colour="#2b8a3e",
    mark=("^", ":"),
)
SCORE_RATE = Contender(
    "score_rate",
    "Score rate so far",
    short="Score rate",
    subject="the score rate so far",
    predict=_score_rate,
)
GLICKO1 = Contender(
    rivals.GLICKO1.key,
    "Glicko-1",
    short="Glicko-1",
    subject="Glicko-1",
    predict=tracked(rivals.GLICKO1),
    colour="#7048e8",
    mark=("D", "-."),
    track=rivals.GLICKO1,
    source=(
        "Glickman, 'Parameter estimation in large dynamic paired comparison experiments', "
        "Applied Statistics 48 (1999); c by the rule of Glickman's 'The Glicko system': an "
        "RD of 50 returns to 350 after 100 periods, c = sqrt((350^2 - 50^2) / 100)"
    ),
    db="track",
)
STEPHENSON = Contender(
    rivals.STEPHENSON.key,
    "Stephenson",
    short="Stephenson",
    subject="Stephenson's rating",
    predict=tracked(rivals.STEPHENSON),
    colour="#c2255c",
    mark=("v", (0, (5, 1, 1, 1))),
    track=rivals.STEPHENSON,
    source=(
        "PlayerRatings (R) steph() defaults cval=10, hval=10, bval=0, lambda=2, gamma=0, "
        "rdmax=350, and predict()'s gamma=30 (Stephenson & Sonas, Deloitte/FIDE Chess "
        "Rating Challenge, 2012)"
    ),
    db="track",
)

#: The registry, in table order: the scorecard's verdict compares the first two, and every
#: pair keeps this order (the ones added last keep the earlier pairs' order).
_REGISTRY: list[Contender] = [LICHESS, FIDE, ELO_ON_LICHESS, SCORE_RATE, GLICKO1, STEPHENSON]


def contenders() -> tuple[Contender, ...]:
    """Every contender, in table order."""
    return tuple(_REGISTRY)


def by_key(key: str) -> Contender:
    """The contender with ``key``.

    Raises:
        KeyError: no contender has it.
    """
    for c in _REGISTRY:
        if c.key == key:
            return c
    raise KeyError(key)


def db_contenders() -> tuple[Contender, ...]:
    """The contenders ``db compare`` scores (those with a ``db`` step), in its order: by
    step (:data:`DB_STEPS`), then in table order."""
    steps = {c: DB_STEPS.index(c.db) for c in _REGISTRY if c.db is not None}
    return tuple(sorted(steps, key=steps.__getitem__))


def register(contender: Contender) -> Contender:
    """Add ``contender`` at the end of the registry (every output then shows it).

    Raises:
        ValueError: a contender with its key is registered already, or it has a ``track``
            whose key is not its own (the track's columns are named by the key).
    """
    if any(c.key == contender.key for c in _REGISTRY):
        raise ValueError(f"a contender with the key {contender.key!r} is registered already")
    if contender.track is not None and contender.track.key != contender.key:
        raise ValueError(f"the track of {contender.key!r} has the key {contender.track.key!r}")
    if contender.db == "track" and contender.track is None:
        raise ValueError(f"{contender.key!r} has the db step 'track' but no track")
    _REGISTRY.append(contender)
    return contender


def unregister(key: str) -> Contender:
    """Take the contender with ``key`` out of the registry (and return it).

    Raises:
        KeyError: no contender has it.
    """
    found = by_key(key)
    _REGISTRY.remove(found)
    return found
