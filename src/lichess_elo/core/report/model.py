"""The report's records: one row per counted game, one per rating period, one report per perf,
and the summary's records (``summary.summarize`` computes them)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Literal

from lichess_elo.core.fide import CURRENT_STANDARD, Adjustment, Edition, KReason
from lichess_elo.core.games import Color, game_url
from lichess_elo.core.value import value_class
from lichess_elo.core.words import plural

if TYPE_CHECKING:
    from lichess_elo.core.report.editions import KWarning
    from lichess_elo.core.report.fide_compare import FideSummary
    from lichess_elo.core.report.settings import ReportSettings

#: Why Lichess's rating chain broke before a game (``Gap.cause``): ``overlap`` when the
#: games overlapped in time (see ``build.gap_cause``), else ``missing`` (missing games or a
#: Lichess adjustment such as a cheat refund).
GapCause = Literal["overlap", "missing"]


@value_class  # frozen for mypy; built as fast as a plain slotted dataclass (one a game)
class GameRow:
    """One counted game, from the player's side, on both tracks.

    The site's track (``lichess_*``, named for the first site) is ``core.games.chain_link``'s:
    ``lichess_rating`` the rating before the game (published, or the one the previous game
    left; ``None`` when unknown: the first game of a site that publishes only post-game
    ratings), ``lichess_diff`` the change (the site's, or the observed after minus before;
    ``None`` when unknown) and ``lichess_after`` the rating after the game. Lichess gives
    every one: ``lichess_after == lichess_rating + lichess_diff``. ``opponent_rating`` is the
    opponent's rating before the game, or after it where the site gives only that.
    """

    id: str
    variant: str
    played_at: datetime
    period: str
    color: Color
    opponent: str
    opponent_title: str | None
    opponent_rating: int
    opponent_provisional: bool
    opponent_bot: bool
    score: Decimal
    status: str
    endings: tuple[str, ...]
    lichess_rating: int | None
    lichess_diff: int | None
    lichess_after: int
    provisional: bool
    gap_before: int | None
    gap_cause: GapCause | None
    days_since_previous: float | None
    elo_rating: int
    expected: Decimal
    k: int
    elo_change: Decimal
    capped: bool
    replay_valid: bool | None
    plies: int | None
    floor: int
    chapter: str = "standard"
    not_rated: str | None = None
    #: The game's site (``core.games.SITES``): the ``lichess_*`` fields are its track.
    site: str = "lichess"
    #: ``opponent_rating`` is an estimate (Chess.com: the opponent's rating before the game
    #: from their post-game rating and the change), marked so in every output.
    opponent_estimated: bool = False

    @property
    def lichess_from(self) -> int:
        """The site's rating the player stood at for this game: ``lichess_rating``, else
        (the first game of a site that gives only post-game ratings, the only one without)
        ``lichess_after``, the nearest the site published, where the site's track starts."""
        before = self.lichess_rating
        return self.lichess_after if before is None else before

    @property
    def url(self) -> str:
        """The game's page on its site (made when asked: one string less a row)."""
        return game_url(self.id, self.site)

    @property
    def flags(self) -> tuple[str, ...]:
        """``provisional``, ``cap``, ``bot``, ``gap``, ``invalid_replay``, ``unplayed`` (the
        replay found no move: FIDE does not rate unplayed games, regulations 5.1, but Lichess
        rated it, so it counts), ``opp_below_floor`` (FIDE rates only games against rated
        players: the opponent is below ``floor``, the floor of the edition that rated the
        game's period; it counts too) and ``not_rated`` (the edition leaves
        it unrated: the 600/2600 rule), as they apply."""
        marks = (
            ("provisional", self.provisional),
            ("cap", self.capped),
            ("bot", self.opponent_bot),
            ("gap", self.gap_before is not None),
            ("invalid_replay", self.replay_valid is False),
            ("unplayed", self.plies == 0),
            ("opp_below_floor", self.opponent_rating < self.floor),
            ("not_rated", self.not_rated is not None),
        )
        return tuple(name for name, on in marks if on)


@dataclass(frozen=True)
class Gap:
    """A break in Lichess's rating chain: ``size`` points appeared before game ``before``.

    ``cause`` is ``overlap`` when the games overlapped in time (``gap_cause``), else
    ``missing`` (missing games or a Lichess adjustment).
    """

    before: str
    size: int
    cause: GapCause = "missing"


@dataclass(frozen=True)
class ChapterPart:
    """The games of a period that one FIDE chapter rates (a period whose games span
    chapters has one part a chapter, each rated as that chapter's period from the same
    rating; docs/rules.md, "The chapter of a game").

    Attributes:
        chapter: ``standard`` or ``rapid-blitz``.
        games: The period's games in the chapter.
        k: K used for them (after the 700 rule on their count).
        k_reason: Why that K.
        edition: The chapter's edition that rated them.
        change: Their rating change, rounded as a period's.
    """

    chapter: str
    games: int
    k: int
    k_reason: KReason
    edition: Edition
    change: int


@dataclass(frozen=True)
class PeriodRow:
    """One rating period on both tracks.

    ``lichess_start`` is the rating before the period's first game (a gap right before it,
    ``gap_before_start``, is already inside it; the first game's rating after it when the
    site gave no rating before it, whose change is then unknown); ``lichess_change`` is the
    sum of the period's known changes (the site's ratingDiffs) and ``lichess_end`` the
    rating after its last game, so ``end = start + change + gap_points_inside``. ``gaps``
    lists every gap found at this period's games, the one before its first game included.
    """

    label: str
    games: int
    score: Decimal
    expected: Decimal
    performance: int | None
    games_before: int
    k: int
    k_requested: int
    k_reason: KReason
    k_limited: bool
    elo_start: int
    elo_change_exact: Decimal
    elo_change: int
    elo_end: int
    lichess_start: int
    lichess_change: int
    lichess_end: int
    gaps: tuple[Gap, ...]
    long_break: bool
    gap_before_start: int | None = None
    edition: Edition = CURRENT_STANDARD
    peak_before: int | None = None
    fide_rating: int | None = None
    first_day: date | None = None
    adjustment: Adjustment | None = None
    adjusted_from: int | None = None
    #: One part a chapter the period's games take, the main one (``edition``, ``k``) first.
    parts: tuple[ChapterPart, ...] = ()

    @property
    def chapters(self) -> tuple[str, ...]:
        """The chapters whose rules rated the period's games, the main one first."""
        return tuple(p.chapter for p in self.parts) or (self.edition.chapter,)

    @property
    def below_floor(self) -> bool:
        """The track ends the period below the edition's floor: FIDE would not list it
        (7.2.1: "shown as unrated on the next list"); the track goes on regardless."""
        return self.elo_end < self.edition.floor

    @property
    def gap_points_inside(self) -> int:
        """The gaps between this period's own games: ``end - start - change``."""
        return sum(g.size for g in self.gaps) - (self.gap_before_start or 0)

    @property
    def difference(self) -> int:
        """Elo end minus Lichess end after this period."""
        return self.elo_end - self.lichess_end

    @property
    def change_difference(self) -> int:
        """Elo change minus Lichess change in this period."""
        return self.elo_change - self.lichess_change


@dataclass(frozen=True)
class Disagreement:
    """A game or period where the two systems moved the rating differently."""

    key: str
    elo: Decimal
    lichess: int
    difference: Decimal
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class EndingStat:
    """How often one kind of ending happened and the rating points it moved."""

    ending: str
    label: str
    games: int
    elo: Decimal
    #: The site's change in those games, summed over the ``known`` games whose change the
    #: site gave (or that was observed); ``None`` when none was.
    lichess: int | None
    known: int

    @property
    def text(self) -> str:
        """E.g. ``losses on time while ...: 7 games, -52.0 Elo (Lichess -49)``."""
        return self.worded("Lichess")

    def worded(self, site: str) -> str:
        """``text`` with the site's name; a change the site did not give is not summed as
        zero: ``(Chess.com: no change known)``, or ``(Chess.com -13 in 1 of them)``."""
        games = plural(self.games, "game")
        if self.lichess is None:
            change = f"{site}: no change known"
        elif self.known < self.games:
            change = f"{site} {self.lichess:+d} in {self.known} of them"
        else:
            change = f"{site} {self.lichess:+d}"
        return f"{self.label}: {games}, {self.elo:+.1f} Elo ({change})"


@dataclass(frozen=True)
class Summary:
    """Totals and comparisons of one perf's report (see the module docstring)."""

    games: int
    periods: int
    elo_start: int | None
    elo_final: int | None
    elo_change: int
    elo_peak: int | None
    lichess_start: int | None
    lichess_final: int | None
    lichess_change: int
    lichess_gaps: int
    gap_count: int
    overlap_gaps: int
    lichess_peak: int | None
    correlation: float | None
    mean_abs_difference: float | None
    top_games: tuple[Disagreement, ...]
    top_periods: tuple[Disagreement, ...]
    endings: tuple[EndingStat, ...]
    provisional_games: int
    bot_games: int
    capped_games: int
    invalid_replays: int


@dataclass(frozen=True)
class PerfReport:
    """The report of one perf: settings used, game rows, period rows and summary.

    Attributes:
        start_rating: The first period's Elo start (``None`` without games).
        excluded: The player's other games in range, counted by exclusion reason.
        message: Why the report is empty, or ``None``.
        missing_games: Rated games counted before the first held game (for K).
        chapter: The FIDE chapter most of the perf's games took (``--rules`` forced: that
            one); each game and period says its own.
        k_warning: The 30-game count contradicted by the games, where it decided K.
        fide: The comparison with the player's real FIDE list, when asked for.
    """

    user: str
    perf: str
    settings: ReportSettings
    start_rating: int | None
    games: tuple[GameRow, ...]
    periods: tuple[PeriodRow, ...]
    excluded: Mapping[str, int]
    summary: Summary
    message: str | None = None
    missing_games: int = 0
    chapter: str = "standard"
    k_warning: KWarning | None = None
    fide: FideSummary | None = None
    #: Counted games in range of every perf (shown or not), to name the perfs left out.
    perf_counts: Mapping[str, int] = field(default_factory=dict)
    #: The site of the games (``core.games.SITES``): whose rating the site's track is.
    site: str = "lichess"
