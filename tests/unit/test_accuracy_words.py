"""The scorecard's headline, legend and K summary: a winner is named only
when the interval excludes 0, a best K only when it stands out of the noise. Hand-made
verdicts and fits; the numbers beside them."""

from __future__ import annotations

from lichess_elo.core.accuracy import Outcome, Verdict
from lichess_elo.core.report.predictions import KFit, KPoint, PerfAccuracy
from lichess_elo.output.scorecard.text import scores_table
from lichess_elo.output.scorecard.words import SCORE_LEGEND, headline, k_summary, legend


def _verdict(outcome: Outcome, games: int, low: float | None) -> Verdict:
    # FIDE 0.280 against Lichess 0.300: margin 0.020
    return Verdict(outcome, games, "fide", "lichess", 0.28, 0.30, 0.02, low, 0.05, 0.95)


def test_a_clear_interval_names_the_winner() -> None:
    said = headline(_verdict(Outcome.CLEAR, 130, 0.004), "Ann", "blitz")
    assert said == (
        "On Ann's 130 blitz games, FIDE's rules predicted the results better than Lichess's rating."
    )


def test_an_interval_with_zero_or_none_names_no_winner() -> None:
    # interval -0.010 to 0.050 includes 0; one game has no interval at all
    for outcome, games, low in (
        (Outcome.NO_CLEAR_WINNER, 12, -0.01),
        (Outcome.TOO_FEW_GAMES, 1, None),
    ):
        said = headline(_verdict(outcome, games, low), "Ann", "rapid")
        assert said is not None
        assert "better than" not in said and "too few to tell" in said
    assert headline(_verdict(Outcome.TOO_FEW_GAMES, 1, None), "Ann", "rapid") == (
        "Ann's 1 rapid game is too few to tell whether FIDE's rules or Lichess's rating "
        "predicts the results better."
    )
    none = Verdict(Outcome.NO_GAMES, 0, "lichess", "fide", None, None, None, None, None, None)
    assert headline(none, "Ann", "rapid") is None


def _fit(best: int, resolved: bool) -> KFit:
    curve = tuple(KPoint(k, 0.30 - (0.01 if k == best else 0.0)) for k in (10, 20, 30))
    return KFit(curve, KPoint(best, 0.29), (20,), 0.30, resolved=resolved)


def test_k_summary_names_a_best_k_only_when_resolved() -> None:
    assert k_summary(_fit(20, True)) == (
        "Best K 20 (deviance 0.2900); the rules gave K 20 (deviance 0.3000)."
    )
    assert k_summary(_fit(10, False)) == (
        "No best K: the lowest deviance (K 10, 0.2900) is at the edge of the scan; the rules "
        "gave K 20 (deviance 0.3000)."
    )
    assert k_summary(_fit(20, False)).startswith(
        "No best K: the lowest deviance (K 20, 0.2900) does not stand out of the noise"
    )


def test_the_legend_names_every_column_of_the_scores_table() -> None:
    named = {name for name, _ in SCORE_LEGEND}
    # the scores table's headings, from its builder (an empty card has the same columns)
    none = Verdict(Outcome.NO_GAMES, 0, "lichess", "fide", None, None, None, None, None, None)
    table = scores_table(PerfAccuracy(0, (), (), none), "blitz")
    assert {c.header for c in table.columns} <= named
    assert legend(False)[0] == "Legend:"
    assert not any(line.startswith("  K scan:") for line in legend(False))
    assert legend(True)[-1].startswith("  K scan: ")
