"""Chess.com's rating pools, and the tool's perf each game goes in (pure).

Two names for two tracks:

- ``pool_key``: Chess.com's own pool, ``rules`` + ``time_class`` as its stats answer names
  them (``chess_blitz``, ``chess960_daily``): the observed change is worked out within it;
- ``perf_of``: the tool's perf, as a Lichess game's would be. ``rules: chess`` goes by
  Lichess's speed of its ``time_control`` (``core.clock.speed_of``: 1500+10 is
  ``classical``, though Chess.com calls it ``rapid``), a daily game is ``correspondence``;
  a variant is its Lichess variant perf whatever its clock (``chess960``, ``crazyhouse``,
  ``kingOfTheHill``, ``threeCheck``). Bughouse has no Lichess perf: ``None``.
"""

from __future__ import annotations

from lichess_elo.core.clock import parse_time_control, speed_of

#: Chess.com's variant ``rules`` -> the Lichess variant perf (bughouse has none).
VARIANT_PERFS: dict[str, str | None] = {
    "chess960": "chess960",
    "crazyhouse": "crazyhouse",
    "kingofthehill": "kingOfTheHill",
    "threecheck": "threeCheck",
    "bughouse": None,
}


def pool_key(rules: str, time_class: str) -> str:
    """Chess.com's pool of a game: ``rules`` and ``time_class`` joined as its stats name them.

    >>> pool_key("chess", "blitz"), pool_key("chess960", "daily")
    ('chess_blitz', 'chess960_daily')
    """
    return f"{rules}_{time_class}"


def is_daily(time_control: str, time_class: str) -> bool:
    """Whether a game is a daily (correspondence) game: ``time_class`` ``daily`` or a
    ``moves/seconds`` time control such as ``1/259200`` (one move in three days).

    >>> is_daily("1/259200", "daily"), is_daily("180+2", "blitz")
    (True, False)
    """
    return time_class == "daily" or "/" in time_control


def perf_of(rules: str, time_class: str, time_control: str) -> str | None:
    """The tool's perf of a Chess.com game (``None``: no Lichess perf, bughouse).

    >>> perf_of("chess", "rapid", "1500+10"), perf_of("chess", "blitz", "180+2")
    ('classical', 'blitz')
    >>> perf_of("chess", "daily", "1/259200"), perf_of("chess960", "blitz", "180")
    ('correspondence', 'chess960')

    Raises:
        ValueError: a live ``time_control`` that is not ``seconds[+increment]``.
    """
    if rules != "chess":
        return VARIANT_PERFS.get(rules)
    if is_daily(time_control, time_class):
        return "correspondence"
    return speed_of(parse_time_control(time_control))
