"""Names as people type them: ``club --player`` finds a player with
case and accents folded when one name matches, else says which names are close; ``--perf``
takes any case; an unknown choice names the closest."""

from __future__ import annotations

from pathlib import Path

from tests.runners import Cli, invoke

PLAYERS = "name,rating\nHania Zielińska,1500\nŁukasz Wróbel,1500\nJan Kowalski,1500\n"
# Each pair meets twice: five games each against rated players, so everyone is rated.
GAMES = "date,white,black,result,event\n" + "".join(
    f"2026-03-0{d},{w},{b},{r},Cup\n"
    for d, (w, b, r) in enumerate(
        [("Hania Zielińska", "Łukasz Wróbel", "1-0"), ("Łukasz Wróbel", "Jan Kowalski", "1-0"),
         ("Jan Kowalski", "Hania Zielińska", "½-½"), ("Hania Zielińska", "Jan Kowalski", "1-0"),
         ("Łukasz Wróbel", "Hania Zielińska", "0-1"), ("Jan Kowalski", "Łukasz Wróbel", "0-1"),
         ("Hania Zielińska", "Łukasz Wróbel", "½-½"), ("Jan Kowalski", "Hania Zielińska", "0-1")],
        1,
    )
)  # fmt: skip


def _club(tmp_path: Path, *args: str) -> tuple[int, str, str]:
    (tmp_path / "players.csv").write_text(PLAYERS, encoding="utf-8")
    (tmp_path / "games.csv").write_text(GAMES, encoding="utf-8")
    files = [str(tmp_path / "players.csv"), str(tmp_path / "games.csv")]
    out = invoke(["club", *files, "-q", *args])
    return out.exit_code, out.stdout, out.stderr


def test_player_found_without_accents(tmp_path: Path) -> None:
    for typed in ("Hania Zielinska", "hania zielińska", "HANIA  ZIELINSKA"):
        code, out, err = _club(tmp_path, "--player", typed)
        assert code == 0, err
        assert out.startswith("Hania Zielińska: "), out
    # Ł is not taken apart by NFKD: folded by hand to L.
    code, out, err = _club(tmp_path, "--player", "Lukasz Wrobel")
    assert code == 0, err
    assert out.startswith("Łukasz Wróbel: "), out


def test_player_did_you_mean(tmp_path: Path) -> None:
    code, _, err = _club(tmp_path, "--player", "Hanna Zielinska")
    assert code == 2
    assert err == (
        "lichess-elo: error: --player 'Hanna Zielinska' is not a player of this club; "
        "did you mean 'Hania Zielińska'?\n"
    )


def test_perf_any_case_and_closest(cli: Cli) -> None:
    out = cli(["glicko", "1500/60", "1500/60", "1-0", "--perf", "BLITZ"])
    assert out.exit_code == 0, out.output
    assert "perf blitz (gains x1.005)" in out.stdout
    out = cli(["glicko", "1500/60", "1500/60", "1-0", "--perf", "blits"])
    assert out.exit_code == 2
    assert "unknown perf 'blits' (did you mean 'blitz'?); valid: " in out.stderr
