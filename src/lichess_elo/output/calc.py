"""``calc`` output: the FIDE period table or the initial-rating steps, as text or JSON."""

from __future__ import annotations

from decimal import Decimal

from lichess_elo.core import fide
from lichess_elo.core.fide.wording import (
    edition_text,
    initial_rule_text,
    k_reason_text,
    non_rating_text,
)
from lichess_elo.output.common import dump_json, edition_json, plural, signed
from lichess_elo.output.tables import Column, Table, render_table, wrap_words


def _calc_num(value: Decimal) -> str:
    """At most two decimals, at least one, sign always shown: +7.2, -8.57, +5.55, 0.0.

    For the period total that the rounded change comes from (so +5.55 -> +6 is visible).
    """
    rounded = value.quantize(Decimal("0.01"), rounding="ROUND_HALF_UP")
    if rounded == 0:
        return "0.0"
    text = f"{rounded:+.2f}"
    return text[:-1] if text.endswith("0") else text


def _calc_int(value: int) -> str:
    return f"{value:+d}" if value else "0"


def _calc_score(score: Decimal) -> str:
    return "0.5" if score == Decimal("0.5") else str(int(score))


def _calc_pd(value: Decimal, method: fide.Method) -> str:
    places = "0.01" if method == "table" else "0.0001"
    return str(value.quantize(Decimal(places), rounding="ROUND_HALF_UP"))


def calc_k_text(result: fide.PeriodResult, rule: str, *, games_assumed: bool) -> str:
    """Say which K applied and why (worded from the edition, with the rule's dates),
    including the 700 rule when it cut K."""
    reason = "given with --k" if rule == "given" else k_reason_text(result.edition, rule)
    text = f"K {result.k_requested}: {reason}"
    if games_assumed:
        assumed = result.edition.new_player_games
        text += f"; {assumed} rated games assumed, pass --games N or --k N"
    if result.k_limited:
        n, most = result.rated_games, result.edition.k_times_games_max
        text += (
            f"\n{most} rule: {n} games x K {result.k_requested} = {n * result.k_requested} > "
            f"{most}, so K {result.k} (FIDE 8.3.3)"
        )
    return text


def calc_table(
    result: fide.PeriodResult, rule: str, *, games_assumed: bool, width: int | None = None
) -> str:
    """The rating period as a text table: one row per game, then the totals, fitted to
    ``width`` (``None``: no limit)."""
    method = "table 8.1.2" if result.method == "table" else "the logistic formula"
    edition = result.edition
    exempt = edition.cap_exempt_from
    if not result.cap:
        cap = "400-point rule off (--no-cap)"
    elif exempt is not None and result.rating >= exempt:
        cap = f"no 400-point rule (rated {exempt} or more)"
    else:
        cap = "400-point rule on" + (" (once per event)" if edition.cap_scope == "event" else "")
    columns = [Column("#"), Column("Opponent"), Column("Score"), Column("D"), Column("PD"),
               Column("Change")]  # fmt: skip
    rows = [
        [str(i), str(game.opponent), _calc_score(game.score),
         f"{game.difference:+d}" + ("*" if game.capped else ""),
         _calc_pd(game.expected, result.method),
         signed(game.change, 1) if game.not_rated is None else "not rated"]
        for i, game in enumerate(result.games, 1)
    ]  # fmt: skip
    rows.append(
        ["", "total", _calc_score_total(result.points), "",
         _calc_pd(result.expected, result.method), signed(result.change, 1)]
    )  # fmt: skip
    title = (
        f"FIDE rating period for {result.rating}: {len(result.games)} game(s), "
        f"expected score from {method}, {cap}"
    )
    head = wrap_words(title, width, "  ") + wrap_words(
        f"rules: {edition_text(edition)}", width, "  "
    )
    lines = head + render_table(Table(columns, rows), width)
    after: list[str] = []
    if any(game.capped for game in result.games):
        after.append("* difference over 400 counted as 400 (FIDE 8.3.1)")
    if any(game.not_rated for game in result.games):
        after.append(f"not rated: {non_rating_text(edition)}")
    after += [
        *calc_k_text(result, rule, games_assumed=games_assumed).split("\n"),
        f"rounded change: {_calc_int(result.rounded_change)} "
        f"(period total {_calc_num(result.change)} rounded once, 0.5 away from zero)",
        f"new rating: {result.new_rating}",
        f"performance rating: {result.performance}",
    ]
    for line in after:
        lines += wrap_words(line, width, "  ")
    return "\n".join(lines)


def _calc_score_total(points: Decimal) -> str:
    return f"{points.normalize():f}"


def calc_json(result: fide.PeriodResult, rule: str, *, games_assumed: bool) -> str:
    """The rating period as JSON; ``change`` is the unrounded period total."""
    return dump_json(
        {
            "rating": result.rating,
            "k": result.k,
            "k_requested": result.k_requested,
            "k_limited": result.k_limited,
            "k_rule": rule,
            "games_assumed": games_assumed,
            "method": result.method,
            "cap": result.cap,
            "rules": edition_json(result.edition),
            "games": [
                {
                    "opponent": g.opponent,
                    "score": float(g.score),
                    "difference": g.difference,
                    "capped": g.capped,
                    "expected": float(g.expected),
                    "change": float(g.change),
                    "not_rated": g.not_rated,
                }
                for g in result.games
            ],
            "points": float(result.points),
            "expected": float(result.expected),
            "change": float(result.change),
            "rounded_change": result.rounded_change,
            "new_rating": result.new_rating,
            "performance": result.performance,
        }
    )


def _period(calc: fide.CalcResult) -> tuple[fide.PeriodResult, str]:
    if calc.period is None or calc.k_rule is None:
        raise ValueError("a CalcResult holds a period (with its K rule) or an initial rating")
    return calc.period, calc.k_rule


def calc_text(calc: fide.CalcResult, width: int | None = None) -> str:
    """The table ``calc`` prints for ``fide.calculate``'s result, fitted to ``width``
    (``None``: no limit)."""
    if calc.initial is not None:
        return calc_initial_table(calc.initial, calc.performance, width)
    period, rule = _period(calc)
    return calc_table(period, rule, games_assumed=calc.games_assumed, width=width)


def calc_json_text(calc: fide.CalcResult) -> str:
    """The JSON ``calc`` prints for ``fide.calculate``'s result."""
    if calc.initial is not None:
        return calc_initial_json(calc.initial, calc.performance)
    period, rule = _period(calc)
    return calc_json(period, rule, games_assumed=calc.games_assumed)


def calc_initial_table(
    details: fide.InitialRating, performance: int | None, width: int | None = None
) -> str:
    """The initial rating (FIDE 8.2) step by step as text, under the rule of its edition,
    fitted to ``width`` (``None``: no limit)."""
    n = len(details.games)
    edition = details.edition
    rule = initial_rule_text(edition)
    title = f"FIDE initial rating (8.2, {rule}) from {n} games against rated opponents"
    head = wrap_words(title, width, "  ") + wrap_words(
        f"rules: {edition_text(edition)}", width, "  "
    )
    rows = [
        [str(i), str(game.opponent), _calc_score(game.score)]
        for i, game in enumerate(details.games, 1)
    ]
    table = render_table(Table([Column("#"), Column("Opponent"), Column("Score")], rows), width)
    lines: list[str] = []
    average = details.average.quantize(Decimal("0.01"), rounding="ROUND_HALF_UP")
    unrounded = details.unrounded.quantize(Decimal("0.01"), rounding="ROUND_HALF_UP")
    opponents = sum(g.opponent for g in details.games)
    if details.method == "draws":
        draws, against = edition.hypothetical_draws, edition.hypothetical_opponent
        lines += [
            f"points {_calc_score_total(details.points)} of {n}, plus {draws} hypothetical "
            f"draws against {against}",
            f"Ra = {opponents + draws * against} / {n + draws} = {average}",
            f"p = {_calc_score_total(details.points + draws * Decimal('0.5'))} / {n + draws}"
            f" = {details.p} -> dp {details.dp:+d} (table 8.1.1)",
            f"Ru = Ra + dp = {unrounded} -> {details.rating}"
            + (f" (at most {edition.initial_max})" if details.at_maximum else ""),
        ]
    else:
        lines += [
            f"points {_calc_score_total(details.points)} of {n}",
            f"Ra = {opponents} / {n} = {average}",
        ]
        if details.dp is None:
            per = edition.initial_per_half_point or Decimal(0)
            lines.append(
                f"{plural(details.half_points_over, 'half point')} over 50 % x "
                f"{per.normalize():f} = "
                f"{signed(details.bonus, 1)}; Ru = {unrounded} -> {details.rating}"
            )
        else:
            lines.append(
                f"p = {details.p} (under 50 %) -> dp {details.dp:+d} (table 8.1.1); "
                f"Ru = Ra + dp = {unrounded} -> {details.rating}"
            )
    lines.append(f"initial rating: {details.rating}")
    if not details.publishable:
        lines.append(f"below {edition.floor}: FIDE would not publish this rating (7.1.4)")
    lines.append(f"performance rating (real games only): {performance}")
    return "\n".join(head + table + [t for line in lines for t in wrap_words(line, width, "  ")])


def calc_initial_json(details: fide.InitialRating, performance: int | None) -> str:
    """The initial rating as JSON; ``new_rating`` is the initial rating."""
    return dump_json(
        {
            "rating": None,
            "unrated": True,
            "k": None,
            "method": "table",
            "games": [{"opponent": g.opponent, "score": float(g.score)} for g in details.games],
            "points": float(details.points),
            "initial_method": details.method,
            "hypothetical_draws": (
                details.edition.hypothetical_draws if details.method == "draws" else 0
            ),
            "hypothetical_opponent": (
                details.edition.hypothetical_opponent if details.method == "draws" else None
            ),
            "per_half_point": (
                float(details.edition.initial_per_half_point)
                if details.edition.initial_per_half_point is not None
                else None
            ),
            "average": float(details.average),
            "p": float(details.p),
            "dp": details.dp,
            "bonus": float(details.bonus),
            "change": None,
            "rounded_change": None,
            "new_rating": details.rating,
            "at_maximum": details.at_maximum,
            "publishable": details.publishable,
            "performance": performance,
            "rules": edition_json(details.edition),
        }
    )
