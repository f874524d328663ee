"""``club``: read the club's files (and Lichess tournaments), rate the ladder.

``rate_club_files`` is the one library call behind the ``club`` command: it checks its
settings before any input is read, reads the rules (``club.toml``), the CSV/PGN files and
the tournaments, lays the options over the rules and calls the pure
``core.club.rating.rate_club``. It returns plain data; nothing here prints.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lichess_elo.core.arguments import keywords_checked
from lichess_elo.core.club.model import ClubResult, PlayerView, Rules
from lichess_elo.core.club.options import ClubOptions
from lichess_elo.core.club.player import player_view
from lichess_elo.core.club.publish import published
from lichess_elo.core.club.rating import rate_club
from lichess_elo.errors import BadInput
from lichess_elo.sources.base import GameSource
from lichess_elo.sources.club.config import read_rules
from lichess_elo.sources.club.files import read_inputs
from lichess_elo.sources.club.games import club_games
from lichess_elo.sources.lichess.session import LichessSettings
from lichess_elo.sources.lichess.tournaments import tournament_fetcher


@keywords_checked
@dataclass(frozen=True)
class ClubSettings:
    """What to rate and how.

    Attributes:
        config: The club's rules file (``club.toml``), or ``None`` for the default rules.
        options: Overrides of the rules (checked by ``ClubOptions.check``).
        player: Also build this player's page (``ClubRun.player``).
    """

    config: Path | None = None
    options: ClubOptions = field(default_factory=ClubOptions)
    player: str | None = None

    def check(self) -> None:
        """Check the settings before any input is read.

        Raises:
            BadInput: a bad option (see ``ClubOptions.check``) or an empty player name.
        """
        self.options.check()
        if self.player is not None and not self.player.strip():
            raise BadInput("is empty", field="player")


@dataclass(frozen=True)
class ClubRun:
    """The outcome of ``rate_club_files``.

    Attributes:
        result: The ladder (standings, awards, the rules used).
        notes: What the readers and the run noticed (ignored columns, uncounted games...).
        player: The asked player's page, when ``ClubSettings.player`` was set.
        published: The ladder as the ``[publish]`` rules publish it (``publish.published``:
            without the players not yet settled; ``hidden`` counts them); ``result`` when
            no such rule is set.
    """

    result: ClubResult
    notes: tuple[str, ...]
    player: PlayerView | None = None
    published: ClubResult | None = None

    @property
    def table(self) -> ClubResult:
        """The published ladder (``published``, else ``result``)."""
        return self.published if self.published is not None else self.result


@keywords_checked
def rate_club_files(
    inputs: Sequence[str],
    settings: ClubSettings | ClubOptions | None = None,
    *,
    source: LichessSettings | None = None,
    on_warning: Callable[[str], None] | None = None,
    games_from: Sequence[GameSource] = (),
) -> ClubRun:
    """Check the settings, read the rules and inputs, rate the club.

    Args:
        inputs: Files (``.csv``, ``.pgn``) and tournament ids or URLs, in any mix.
        settings: The rules file, the overrides and the player to show (a bare
            ``ClubOptions`` means no rules file and no player).
        source: Where tournaments come from (network, cache, cassette); without it a
            tournament argument is refused.
        on_warning: Told about retries and skipped games while fetching.
        games_from: Any ``GameSource`` (Lichess, a dump, a second site): the games the
            members (of the players file, by their Lichess accounts) played each other.

    Raises:
        BadInput: a bad setting (before any input is read), ``BadFile`` for a bad file
            (with the file, line and field), an unknown player or a duplicated game.
        NotFound, FetchFailed, NotCached, CassetteMissing: from fetching tournaments.
    """
    if settings is None:
        settings = ClubSettings()
    elif isinstance(settings, ClubOptions):
        settings = ClubSettings(options=settings)
    settings.check()
    rules = read_rules(settings.config) if settings.config is not None else Rules()
    fetch = tournament_fetcher(source, on_warning) if source is not None else None
    read = read_inputs(inputs, fetch=fetch, columns=rules.columns)
    if games_from:
        found, notes = club_games(games_from, read.players, seq_start=len(inputs) * 1_000_000)
        read.games.extend(found)
        read.notes.extend(notes)
    groups = {p.group.lower() for p in read.players if p.group}
    rules = settings.options.apply(rules, groups)
    result = rate_club(read.players, read.games, rules, roster=read.roster, notes=read.notes)
    # one player's own page shows them even when the published table leaves them out
    view = player_view(result, settings.player) if settings.player is not None else None
    return ClubRun(result=result, notes=result.notes, player=view, published=published(result))
