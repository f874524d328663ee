"""Issue #39, deliverable 4: ratings bounded on every path, and a PGN fuzz by count.

A PGN rating outside 0..4000 (``core.games.RATING_MIN``/``RATING_MAX``) or a rating diff
wider than that range leaves its game out with a one-line warning that names the game and
the value (the reader's policy for every bad tag); the scorecard's logistic cannot overflow
on any value that passes, nor on one far past it.
"""

from __future__ import annotations

import json
import random
from decimal import Decimal
from pathlib import Path

import pytest

from lichess_elo.app.report import run_report
from lichess_elo.core.fide.engine import logistic_expected
from lichess_elo.errors import LichessEloError
from lichess_elo.output.report.json import report_document
from lichess_elo.sources.pgn import read_pgn
from tests.helpers import REPO
from tests.runners import Cli, invoke

SHAPE = REPO / "tests" / "data" / "lichess" / "unplayed" / "dump-2021-10-shape.pgn"
#: Fixed count and seed: every run tries the same 2,000 mutants.
MUTANTS = 2000
#: One mutant in CLI_EVERY also runs through the real CLI (``invoke``): 400 reports, 400
#: game lists.
CLI_EVERY = 5
_TOKENS = [b'"', b"[", b"]", b"{", b"}", b"\n", b"\r", b"\xff", b"\x00", b"1-0", b"*", b"9" * 30]
_NUMBERS = ["100000000000000000000", "4001", "-1", "-4001", "+4001", "0", "4000", "1e9", "?"]


def test_an_elo_of_ten_to_the_twenty_is_one_named_warning(cli: Cli, tmp_path: Path) -> None:
    text = SHAPE.read_text(encoding="utf-8").replace(
        '[BlackElo "1520"]', '[BlackElo "100000000000000000000"]'
    )
    pgn = tmp_path / "big.pgn"
    pgn.write_text(text, encoding="utf-8")
    for extra in (["--format", "json"], ["--html", str(tmp_path / "r.html")]):
        result = cli(["report", "KAISAH_SRAITK", "--pgn", str(pgn), *extra])
        assert result.exit_code == 0, result.output
        assert "unexpected" not in result.output
        # Unplay01 (the first game, number 1) is left out, named with its value
        assert (
            "PGN game 1 (https://lichess.org/Unplay01): skipped "
            "(BlackElo '100000000000000000000' is outside 0..4000)" in result.stderr
        )


@pytest.mark.parametrize(
    ("tag", "value", "kept"),
    [
        ("WhiteElo", "0", True),  # the range's ends pass
        ("WhiteElo", "4000", True),
        ("WhiteElo", "4001", False),
        ("WhiteElo", "-1", False),
        ("WhiteRatingDiff", "+4000", True),  # a change as wide as the range passes
        ("WhiteRatingDiff", "-4001", False),
    ],
)
def test_the_range_is_checked_where_the_pgn_reader_builds_a_game(
    tag: str, value: str, kept: bool
) -> None:
    old = {"WhiteElo": '[WhiteElo "1500"]', "WhiteRatingDiff": '[WhiteRatingDiff "+6"]'}[tag]
    text = SHAPE.read_text(encoding="utf-8").replace(old, f'[{tag} "{value}"]', 1)
    warnings: list[str] = []
    games = read_pgn(text, on_warning=warnings.append)
    assert ("Unplay01" in {g.id for g in games}) is kept
    assert len(warnings) == (0 if kept else 1)


def test_the_logistic_cannot_overflow() -> None:
    # 1/(1+10^(-D/400)): D = 4000 - 0 gives 1/(1+10^-10); D = -4000 gives 1/(1+10^10)
    assert logistic_expected(4000) == Decimal(1) / (1 + Decimal(10) ** -10)
    assert logistic_expected(-4000) == Decimal(1) / (1 + Decimal(10) ** 10)
    assert logistic_expected(0) == Decimal("0.5")
    # far past any rating (the PGN of issue #39: 10^20): clamped at 40,000, 1/(1+10^100)
    assert logistic_expected(-(10**20)) == Decimal(1) / (1 + Decimal(10) ** 100)
    assert logistic_expected(10**20) == Decimal(1) / (1 + Decimal(10) ** -100)


@pytest.mark.parametrize(("white", "black"), [(0, 4000), (4000, 0), (0, 0), (4000, 4000)])
def test_a_scorecard_at_the_range_ends(cli: Cli, tmp_path: Path, white: int, black: int) -> None:
    text = SHAPE.read_text(encoding="utf-8")
    text = text.replace('[WhiteElo "1500"]', f'[WhiteElo "{white}"]').replace(
        '[BlackElo "1520"]', f'[BlackElo "{black}"]'
    )
    pgn = tmp_path / "ends.pgn"
    pgn.write_text(text, encoding="utf-8")
    result = cli(["report", "KAISAH_SRAITK", "--pgn", str(pgn), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["reports"][0]["accuracy"] is not None


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One to four random edits, as ``test_fuzz_inputs.mutate`` makes them: a flipped
    byte, an inserted token, a deleted or duplicated span, or a cut."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(out) + 1)
        choice = rng.randrange(5)
        if choice == 0 and out:
            out[min(at, len(out) - 1)] ^= 1 << rng.randrange(8)
        elif choice == 1:
            out[at:at] = rng.choice(_TOKENS)
        elif choice == 2:
            del out[at : at + rng.randint(1, 40)]
        elif choice == 3:
            out[at:at] = out[at : at + rng.randint(1, 60)]
        else:
            del out[at + rng.randint(0, 200) :]
    return bytes(out)


def _mutant(original: bytes, rng: random.Random) -> bytes:
    """``mutate``'s edits, and one time in two a rating or diff replaced by a wild number."""
    data = mutate(original, rng)
    if rng.random() < 0.5:
        tag = rng.choice([b"WhiteElo", b"BlackElo", b"WhiteRatingDiff", b"BlackRatingDiff"])
        at = data.find(b"[" + tag + b' "', rng.randrange(len(data) + 1) // 2)
        if at >= 0:
            start = at + len(tag) + 3
            end = data.find(b'"', start)
            if end > 0:
                data = data[:start] + rng.choice(_NUMBERS).encode() + data[end:]
    return data


def _library(case: Path, cache: Path) -> None:
    """The report's library path: read, replay, build, score and write the JSON document;
    a named error (``LichessEloError``) is the one-line answer, anything else fails."""
    try:
        run = run_report("KAISAH_SRAITK", pgn_file=case, scorecard=True, cache_dir=cache)
    except LichessEloError:
        return
    json.dumps(report_document(run.user, run.reports, run.accuracy))


def _one_line(result_output: str, stderr: str, exit_code: int, detail: str) -> None:
    assert exit_code in (0, 1, 2), detail
    assert "Traceback" not in result_output and "unexpected" not in result_output, detail
    if exit_code:
        assert len([ln for ln in stderr.splitlines() if "error:" in ln]) == 1, detail


def test_a_pgn_fuzz_of_2000_mutants(tmp_path: Path) -> None:
    rng = random.Random("issue-39-pgn-ratings")
    original = SHAPE.read_bytes()
    cache = tmp_path / "cache"
    through_cli = 0
    for number in range(MUTANTS):
        case = tmp_path / "case.pgn"
        case.write_bytes(_mutant(original, rng))
        detail = f"mutant {number}"
        try:
            _library(case, cache)
        except Exception as exc:
            kept = tmp_path / f"failing-{number}.pgn"
            kept.write_bytes(case.read_bytes())
            pytest.fail(f"{detail}: {type(exc).__name__}: {exc} (kept as {kept})")
        if number % CLI_EVERY == 0:
            for command in (["report", "KAISAH_SRAITK", "--pgn", str(case), "--format", "json"],
                            ["games", "KAISAH_SRAITK", "--pgn", str(case)]):  # fmt: skip
                result = invoke([*command, "--cache-dir", str(cache)])
                _one_line(result.output, result.stderr, result.exit_code, f"{detail} {command}")
                through_cli += 1
    assert through_cli == 2 * MUTANTS // CLI_EVERY
