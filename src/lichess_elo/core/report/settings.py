"""The report's settings: what the user asked for, checked by the settings themselves."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal

from lichess_elo.core import arguments as args
from lichess_elo.core import fide
from lichess_elo.core.arguments import keywords_checked
from lichess_elo.core.fide.editions import CHAPTER_CHOICES, ChapterChoice
from lichess_elo.core.games import check_date_range
from lichess_elo.core.report.selection import check_perfs, utc_midnight
from lichess_elo.errors import Conflict, WrongType

Track = Literal["shadow", "lichess"]
PeriodKind = Literal["month", "week", "day", "game"]
TRACKS: tuple[Track, ...] = ("shadow", "lichess")
PERIOD_KINDS: tuple[PeriodKind, ...] = ("month", "week", "day", "game")


@keywords_checked
@dataclass(frozen=True)
class ReportSettings:
    """What the user asked for (the ``report`` command's options).

    Attributes:
        perfs: Perfs to report; empty = the perf with most counted games; ``("all",)`` =
            every perf with at least one counted game.
        track: ``shadow`` (one Elo rating from the start) or ``lichess`` (each period
            restarts from the Lichess rating).
        period: Rating period: ``month``, ``week``, ``day`` or ``game``.
        start_rating: Shadow track's starting Elo (default: the first Lichess rating).
        k: A fixed K (the 700 rule still applies), or ``None`` for the FIDE rules.
        games_before: Rated games in the perf before the first held game (instead of the
            count of the games held before ``since``).
        born: Birth year, for the junior rule.
        method: ``table`` (FIDE table 8.1.2) or ``formula`` (logistic).
        cap: Apply the 400-point rule (players below 2650).
        since: Only games created on or after this day (UTC).
        until: Only games created before this day (UTC).
        rules: The FIDE chapter: ``auto`` (each game's by its clock), ``standard`` or
            ``rapid-blitz``.
        rules_as_of: Rate every period by the rules of this day; ``None``: each period by
            the rules in force on its own date.
        peak: The highest published rating ever (the 2400 rule, the junior's 2300 limit);
            the track's own peak and the start rating count too.
        adjustments: Apply FIDE's one-time compression (``fide.COMPRESSION_2024``, its day
            there) to a shadow track that crosses that day (only where each period has the
            rules of its own date).
    """

    perfs: tuple[str, ...] = ()
    track: Track = "shadow"
    period: PeriodKind = "month"
    start_rating: int | None = None
    k: int | None = None
    games_before: int | None = None
    born: int | None = None
    method: fide.Method = "table"
    cap: bool = True
    since: date | None = None
    until: date | None = None
    rules: ChapterChoice = "auto"
    rules_as_of: date | None = None
    peak: int | None = None
    adjustments: bool = True

    @property
    def start(self) -> datetime | None:
        """``since`` as a UTC instant (midnight), or ``None`` for an open start."""
        return utc_midnight(self.since)

    @property
    def stop(self) -> datetime | None:
        """``until`` as a UTC instant (midnight, exclusive), or ``None`` for an open end."""
        return utc_midnight(self.until)

    def _check_types(self) -> None:
        """Each setting's type: whole numbers, flags, dates (not datetimes), perf names."""
        for name in ("start_rating", "k", "games_before", "born", "peak"):
            if getattr(self, name) is not None:
                args.whole(name, getattr(self, name))
        args.flag("cap", self.cap)
        args.flag("adjustments", self.adjustments)
        for name in ("since", "until", "rules_as_of"):
            day = getattr(self, name)
            if day is not None and (not isinstance(day, date) or isinstance(day, datetime)):
                raise WrongType(name, day, "a date (datetime.date)")
        for perf in args.sequence("perfs", self.perfs, "perf names"):
            args.text("perfs", perf)

    def check(self, year: int) -> None:
        """Check every setting before any work (``year``: the current year, for births).

        Raises:
            UnknownChoice: an unknown perf, track, period or method.
            OutOfRange: a start rating outside 0..4000, a K outside 1..700, a negative or
                huge ``games_before``, a birth year outside 1900..``year``.
            Conflict: a start rating with the lichess track.
            NotBefore: ``since`` not before ``until``.
            WrongType: a setting of the wrong type (``k="40"``, ``since`` a ``str``).
        """
        self._check_types()
        check_perfs(self.perfs)
        fide.check_choice("track", self.track, TRACKS)
        fide.check_choice("period", self.period, PERIOD_KINDS)
        fide.check_choice("method", self.method, fide.METHODS)
        if self.start_rating is not None:
            fide.check_rating(self.start_rating, "start_rating")
            if self.track != "shadow":
                raise Conflict(("start_rating", "track"), "it only applies to the shadow track")
        if self.k is not None:
            fide.check_k(self.k)
        if self.games_before is not None:
            fide.check_games_before(self.games_before)
        if self.born is not None:
            fide.check_birth_year(self.born, year)
        fide.check_choice("rules", self.rules, CHAPTER_CHOICES)
        if self.rules_as_of is not None:
            fide.check_as_of(self.rules_as_of, None if self.rules == "auto" else self.rules)
        if self.peak is not None:
            fide.check_rating(self.peak, "peak")
            if self.k is not None:
                raise Conflict(("peak", "k"), "K is given")
        check_date_range(self.since, self.until)
