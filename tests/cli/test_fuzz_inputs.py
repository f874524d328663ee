"""A seeded mutation fuzz of the user's files: PGN, club CSV, ``club.toml`` and
cassette YAML. Each mutated file goes through the real command; the run must succeed or
fail with one line (exit 1 or 2), never "unexpected" and never a traceback.

Fixed count: each target runs a fixed number of cases from a fixed seed, so every run tries
the same cases whatever the machine's speed (a time budget made the count, and
the suite, depend on how loaded the machine was) and a failure can be replayed. A failing
case is written to the test's tmp folder and named in the assertion.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.runners import invoke

REPO = Path(__file__).resolve().parents[2]
CLUB = REPO / "tests" / "data" / "club"
CASES = 40  # per target; a cassette case runs a whole fetch, so fewer of those
CASSETTE_CASES = 12

_TOKENS = [
    b",",
    b"\n",
    b'"',
    b"[",
    b"]",
    b"=",
    b"{",
    b"}",
    b":",
    b"-",
    b"1-0",
    b"\t",
    b"#",
    b"\xff",
    b"\xe9",
    b"\xc3",
    b"\x00",
    b"\r",
    b"'",
    b"!!",
    b"*",
    b"999999999999",
]


def mutate(data: bytes, rng: random.Random) -> bytes:
    """``data`` with one to four random edits: a flipped byte, an inserted token, a deleted
    or duplicated span, or a cut."""
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


def _fuzz(
    name: str,
    seed_file: Path,
    tmp_path: Path,
    command: Callable[[Path], list[str]],
    count: int = CASES,
) -> int:
    """Run ``count`` seeded mutations of ``seed_file`` through ``command``; the number of
    cases whose mutation changed the file (so a case that tested something)."""
    rng = random.Random(f"issue-15-{name}")
    original = seed_file.read_bytes()
    changed = 0
    for cases in range(1, count + 1):
        case = tmp_path / f"case{seed_file.suffix}"
        mutated = mutate(original, rng)
        changed += mutated != original
        case.write_bytes(mutated)
        result = invoke(command(case))
        detail = f"{name} case {cases}: exit {result.exit_code}\n{result.output}"
        if result.exit_code != 0:
            kept = tmp_path / f"failing-{cases}{seed_file.suffix}"
            assert result.exit_code in (1, 2), detail
            errors = [ln for ln in result.stderr.splitlines() if "error:" in ln]
            if (
                len(errors) != 1
                or "unexpected" in result.stderr
                or (result.exception and not (isinstance(result.exception, SystemExit)))
            ):
                kept.write_bytes(case.read_bytes())
                pytest.fail(f"{detail}\n(kept as {kept})")
        assert "Traceback" not in result.output, detail
    return changed


def test_fuzz_club_csv(tmp_path: Path) -> None:
    players = CLUB / "players.csv"
    assert _fuzz("csv", CLUB / "games.csv", tmp_path, lambda f: ["club", str(players), str(f)]) > 5


def test_fuzz_club_toml(tmp_path: Path) -> None:
    inputs = [str(CLUB / "players.csv"), str(CLUB / "games.csv")]
    cases = _fuzz(
        "toml", CLUB / "club.toml", tmp_path, lambda f: ["club", *inputs, "--config", str(f)]
    )
    assert cases > 5


def test_fuzz_club_pgn(tmp_path: Path) -> None:
    assert _fuzz("pgn", CLUB / "seed-event.pgn", tmp_path, lambda f: ["club", str(f)]) > 5


def test_fuzz_lichess_pgn(tmp_path: Path, data_dir: Path) -> None:
    seed = data_dir / "lichess" / "game-export-q7ZvsdUF.pgn"
    cases = _fuzz("lichess-pgn", seed, tmp_path, lambda f: ["games", "Lance5500", "--pgn", str(f)])
    assert cases > 5


def test_fuzz_cassette(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    seed = REPO / "cassettes" / "edgecases.yaml"
    cases = _fuzz(
        "cassette",
        seed,
        tmp_path,
        lambda f: ["fetch", "Lance5500", "--replay", str(f), "--cache-dir", str(cache)],
        count=CASSETTE_CASES,
    )
    assert cases > 5


def test_the_number_of_cases_does_not_depend_on_the_clock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A loaded machine, made certain: every reading of the clock is a minute later than the
    # last. A fuzz run bounded by time would try one case; one bounded by count tries all.
    now = [0.0]

    def slow_clock() -> float:
        now[0] += 60.0
        return now[0]

    monkeypatch.setattr(time, "monotonic", slow_clock)
    players = CLUB / "players.csv"
    changed = _fuzz("csv", CLUB / "games.csv", tmp_path, lambda f: ["club", str(players), str(f)])
    assert changed > 5
