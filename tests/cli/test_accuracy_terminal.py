"""``report --view accuracy`` in a real 80-column terminal (a pseudo-terminal, a subprocess)."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import REPO
from tests.runners import pty_run

CASSETTE = REPO / "cassettes" / "onboard247.yaml"


def _run_in_terminal(args: list[str], columns: int, cwd: Path) -> str:
    """Run ``lichess-elo`` with stdout on a pty of ``columns`` columns (stdin and stderr on
    ``/dev/null``; no colour; no pager: the text is read whole from the pty;
    tests/cli/test_pager.py has the pager)."""
    code, text = pty_run(args, width=columns, cwd=cwd, env={"NO_COLOR": "1"}, on_pty="stdout")
    assert code == 0
    return text


def _scorecard(tmp_path: Path, columns: int) -> list[str]:
    text = _run_in_terminal(
        [
            "report", "OnBoard247", "--replay", str(CASSETTE), "--cache-dir", str(tmp_path),
            "--perf", "blitz", "--view", "accuracy", "--fit-k",
        ],
        columns,
        tmp_path,
    )  # fmt: skip
    return text.splitlines()


def test_scorecard_fits_80_columns(tmp_path: Path) -> None:
    lines = _scorecard(tmp_path, 80)
    assert "blitz: how well each rating predicted 130 games" in lines
    assert max(len(line.rstrip()) for line in lines) <= 80
    # the verdict wraps between words, never inside one
    verdict = " ".join(
        line.strip() for line in lines if line.startswith(("No clear winner", "vs ", "Lichess's"))
    )
    assert "No clear winner over 130 blitz games:" in verdict
    assert "95 % interval" in verdict


def test_wide_terminal_keeps_the_verdict_on_one_line(tmp_path: Path) -> None:
    lines = _scorecard(tmp_path, 200)
    (verdict,) = [line for line in lines if line.startswith("No clear winner")]
    assert "95 % interval" in verdict and verdict.rstrip().endswith(").")
    assert len(verdict.rstrip()) > 80


def test_headline_and_legend_at_80_columns(tmp_path: Path) -> None:
    lines = _scorecard(tmp_path, 80)
    # OnBoard247's blitz: Lichess minus FIDE 0.003, 95 % interval -0.005 to 0.013 (the
    # verdict above): it includes 0, so the headline names no winner.
    top = " ".join(line.strip() for line in lines[: lines.index("")])
    assert top.endswith(
        "OnBoard247's 130 blitz games are too few to tell whether FIDE's rules or Lichess's "
        "rating predicts the results better."
    )
    legend = lines[lines.index("Legend:") :]
    for name in ("Contender", "Deviance", "Log-loss", "Brier", "Correct", "E mean", "Score",
                 "Diff., interval", "Calibration", "K scan"):  # fmt: skip
        assert any(line.startswith(f"  {name}: ") for line in legend), name
    assert max(len(line.rstrip()) for line in legend) <= 80
