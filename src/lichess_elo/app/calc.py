"""``calc``: one FIDE rating period, or an unrated player's initial rating."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from lichess_elo.core import fide
from lichess_elo.core.club.config import clock_of, normal_time_control
from lichess_elo.core.fide.editions import ChapterChoice
from lichess_elo.core.games import Clock, parse_score
from lichess_elo.errors import BadInput, Malformed


@dataclass(frozen=True)
class CalcSettings:
    """What to calculate; ``fide.calculate`` checks every value and combination.

    Attributes:
        rating: The player's rating, or ``None`` for an initial rating (``unrated``).
        games: The period's games.
        k: A fixed K instead of the 8.3.3 rules.
        games_before: Rated games before the period (30 assumed when ``None``).
        birth_year: Year of birth, for the junior rule.
        method: ``table`` (FIDE table 8.1.2) or ``formula`` (logistic).
        cap: Apply the 400-point rule.
        unrated: Compute the initial rating (FIDE 8.2) instead.
        peak: The highest published rating ever (the 2400 rule, the junior's 2300 limit).
        rules: The FIDE chapter: ``auto`` = the chapter of ``time_control`` by the Laws of
            Chess, Appendix A, or standard without one.
        rules_as_of: The rules in force on this day (``None``: today's).
        time_control: The games' clock, for ``rules="auto"`` (``None``: standard).
    """

    rating: int | None
    games: tuple[fide.GameResult, ...]
    k: int | None = None
    games_before: int | None = None
    birth_year: int | None = None
    method: fide.Method = "table"
    cap: bool = True
    unrated: bool = False
    peak: int | None = None
    rules: ChapterChoice = "auto"
    rules_as_of: date | None = None
    time_control: Clock | None = None

    @property
    def chapter(self) -> ChapterChoice:
        """The chapter asked for: ``rules`` when forced, else ``time_control``'s (Laws of
        Chess, Appendix A), else ``auto`` (standard)."""
        if self.rules != "auto" or self.time_control is None:
            return self.rules
        return fide.fide_chapter(self.time_control)


def parse_time_control(text: str) -> Clock:
    """A time control typed by the user, as ``count.time_controls`` reads one: ``30+0``
    (minutes + seconds) or ``1800+0`` (a base above 180 is in seconds).

    Raises:
        Malformed: naming ``time_control``.
    """
    clock = clock_of(normal_time_control(text))
    if clock is None:
        raise Malformed("time_control", text.strip(), "BASE+INCREMENT, e.g. 30+0 or 1800+0")
    return clock


def parse_game(text: str) -> fide.GameResult:
    """Parse ``OPP:SCORE`` (e.g. ``1400:1``, ``1600:½``, ``1550:l``) into a game.

    Raises:
        BadInput: the text is not ``OPP:SCORE``, the rating is not a whole number in
            0..4000, or the score is not one of the accepted spellings.
    """
    opponent, sep, score = text.partition(":")
    if not sep or not opponent.strip() or not score.strip():
        raise Malformed("game", text, "OPP:SCORE, e.g. 1400:1")
    try:
        rating = parse_whole(opponent, "opponent rating")
        fide.check_rating(rating, "opponent rating")
        value = parse_score(score)
    except BadInput as exc:
        raise BadInput(exc.describe(), field="game", value=repr(text)) from None
    return fide.GameResult(rating, value)


def parse_whole(text: str, field: str) -> int:
    """A whole number typed by the user.

    Raises:
        Malformed: naming ``field``.
    """
    try:
        return int(text.strip())
    except ValueError:
        raise Malformed(field, text.strip(), "a whole number") from None


def parse_games(texts: Sequence[str]) -> tuple[fide.GameResult, ...]:
    """Every ``OPP:SCORE`` of ``texts`` (see ``parse_game``)."""
    return tuple(parse_game(text) for text in texts)


def run_calc(settings: CalcSettings, *, today: date | None = None) -> fide.CalcResult:
    """Rate the period (or compute the initial rating) as ``settings`` describe.

    Args:
        settings: What to calculate.
        today: The day of the list, for the junior rule (default: today).

    Raises:
        BadInput: a value out of range or inputs that exclude each other (see
            ``fide.calculate``).
    """
    day = today or date.today()
    year = day.year
    return fide.calculate(
        settings.rating,
        settings.games,
        k=settings.k,
        games_before=settings.games_before,
        birth_year=settings.birth_year,
        year=year,
        method=settings.method,
        cap=settings.cap,
        unrated=settings.unrated,
        peak=settings.peak,
        rules=settings.chapter,
        as_of=settings.rules_as_of or day,
    )
