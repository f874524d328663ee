"""``lichess-elo club`` end to end through the CLI with CSV and PGN inputs (CliRunner).

Logistic expected scores used in the derivations, E(D) = 1/(1+10^(-D/400)):
  E(100) = 0.640065, E(200) = 0.759747, E(340) = 0.876231, E(400) = 0.909091, E(-x) = 1-E(x)
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from tests import helpers
from tests.runners import invoke

DATA = helpers.DATA / "club"
PLAYERS = str(DATA / "players.csv")
GAMES = str(DATA / "games.csv")
CONFIG = str(DATA / "club.toml")


def _run(*args: str) -> Any:
    return invoke(["club", *args])


def test_csv_ladder_json_follows_club_toml() -> None:
    # club.toml: start 1000 (beginner 800), K 20 (children 40), provisional K 40 for a
    # newcomer's first 10 games -> the children have K 40 (their group), Ewa (no rating in
    # the players file: a newcomer) K 40 "new", Bartek and Celina (adults rated in the
    # players file, unmarked) the normal K 20 from the first game; rapid/classical only
    # (the 3+2 Friday Blitz does not count), "*handicap*" excluded; update by event,
    # formula, no cap. Ewa has no rating and group beginner -> 800; Filip has his own
    # start 900.
    # Spring Club Cup (2026-03-07), ratings frozen at 1200/1400/1200/1000:
    #   Ania 2.5 vs E 0.240253+0.5+0.759747 = 1.5        -> 1200 + 40 x 1      = 1240
    #   Bartek 1 vs E 0.759747+0.909091 = 1.668838 (K 20) -> 1400 - 13.3768   = 1386.62
    #   Celina 0.5 vs 0.5                                -> 1200
    #   Dawid 0 vs E 0.240253+0.090909 = 0.331162       -> 1000 - 13.2465     = 986.75
    # April Rapid (2026-04-11): Ewa 800, Filip 900, Ania 1240, Dawid 986.75
    #   Filip 1 vs E(100)+E(-340) = 0.640065+0.123769  -> 900 + 9.4466      = 909.45
    #   Ania 1 vs E(340) = 0.876231                    -> 1240 + 4.9508     = 1244.95
    #   Dawid 0.5 vs E(186.75) = 0.745554              -> 986.75 - 9.8222   = 976.93
    #   Ewa 0.5 vs E(-100)+E(-186.75) = 0.359935+0.254446 -> 800 - 4.5752  = 795.42
    # change = shown now - shown before the last event (April Rapid).
    # Provisional (club.toml: K 40 for the first 10 games) marks only Ewa, who starts from
    # her group's rating; a rating or start from the players file is not provisional.
    result = _run(PLAYERS, GAMES, "--config", CONFIG, "--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["players"] == [
        {"name": "Bartek Lis", "rating": 1387, "change": 0, "games": 2, "provisional": False,
         "k": 20, "k_rule": None},
        {"name": "Ania Nowak", "rating": 1245, "change": 5, "games": 4, "provisional": False,
         "k": 40, "k_rule": "children"},
        {"name": "Celina Wrona", "rating": 1200, "change": 0, "games": 1, "provisional": False,
         "k": 20, "k_rule": None},
        {"name": "Dawid Sowa", "rating": 977, "change": -10, "games": 3, "provisional": False,
         "k": 40, "k_rule": "children"},
        {"name": "Filip Mazur", "rating": 909, "change": 9, "games": 2, "provisional": False,
         "k": 40, "k_rule": "children"},
        {"name": "Ewa Kruk", "rating": 795, "change": -5, "games": 2, "provisional": True,
         "k": 40, "k_rule": "new"},
    ]  # fmt: skip
    assert doc["hidden"] is None  # no [publish] rule
    assert doc["events"] == [
        {"name": "Spring Club Cup", "date": "2026-03-07", "games": 4},
        {"name": "April Rapid", "date": "2026-04-11", "games": 3},
    ]
    assert doc["awards"]["progress"] == [
        {"period": "2026-03", "name": "Ania Nowak", "change": 40},
        {"period": "2026-04", "name": "Filip Mazur", "change": 9},
    ]
    assert doc["awards"]["most_games"][:2] == [
        {"name": "Ania Nowak", "games": 4},
        {"name": "Dawid Sowa", "games": 3},
    ]
    assert "ignored the rating columns (white rating, black rating)" in result.stderr
    assert "2 of 9 games are not rated (forfeits, count/exclude rules)" in result.stderr


@pytest.mark.parametrize("method", ["formula", "fide-table"])
def test_pgn_seed_tournament(method: str) -> None:
    # The seed's example from PGN (rounds out of order in the file, one unfinished game):
    # Ania 1200, K 40, beats Bartek 1400, draws Celina 1200, beats Dawid 1000 -> 1240.
    result = _run(
        str(DATA / "seed-players.csv"), str(DATA / "seed-event.pgn"),
        "--k", "40", "--method", method, "--format", "json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    ania = next(p for p in doc["players"] if p["name"] == "Ania")
    assert (ania["rating"], ania["change"], ania["games"]) == (1240, 40, 3)
    assert doc["events"] == [{"name": "Seed Tournament", "date": "2026-03-07", "games": 3}]
    assert "skipped 1 unfinished games" in result.stderr


def test_table_and_player_view() -> None:
    table = _run(PLAYERS, GAMES, "--config", CONFIG)
    assert table.exit_code == 0, table.output
    lines = table.stdout.splitlines()
    first = lines.index(next(line for line in lines if line.startswith("1  Bartek")))
    assert lines[first].split() == ["1", "Bartek", "Lis", "1387", "0", "2", "20"]
    assert lines[first + 1].split() == ["2", "Ania", "Nowak", "1245", "+5", "4", "40", "children"]
    assert "K used: children 40; others 20, 40 · rules: " in table.stdout
    assert "Biggest progress (by month): 2026-03 Ania Nowak +40; 2026-04 Filip Mazur +9" in (
        table.stdout
    )
    # --player: only that player's numbers; over the last 3 months (since 2026-01-11):
    # 1200 -> 1245 = +45; target +50 = 1295 by the term end in club.toml; K 40 against an
    # equal gains 40 x 0.5 = 20 a win -> ceil(50 / 20) = 3 wins.
    me = _run(PLAYERS, GAMES, "--config", CONFIG, "--player", "ania nowak")
    assert me.exit_code == 0, me.output
    assert "Bartek" not in me.stdout and "Dawid" not in me.stdout
    assert "Change over the last 3 months: +45" in me.stdout
    assert "Next target: 1295 (+50) by the end of term (2026-06-26): about 3 wins" in me.stdout
    doc = json.loads(
        _run(
            PLAYERS, GAMES, "--config", CONFIG, "--player", "Ania Nowak", "--format", "json"
        ).stdout
    )
    assert doc["rating"] == 1245
    assert [h["rating"] for h in doc["history"]] == [1240.0, 1245.0]
    assert doc["target"] == {"rating": 1295, "step": 50, "by": "2026-06-26", "k": 40,
                             "wins_needed": 3}  # fmt: skip


def test_cli_overrides_update_k_and_count() -> None:
    # --update game with --k 20 and no provisional K: the Spring Club Cup game by game
    # (rounds unknown: file order). Ania beats Bartek first: +20 x 0.759747 = +15.19.
    # Only checks that the options reach the rules: K 20 everywhere, blitz counted now.
    result = _run(
        PLAYERS, GAMES, "--update", "game", "--k", "20", "--count-time-control", "*",
        "--exclude-event", "*handicap*", "--format", "json", "--newcomers",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert sum(e["games"] for e in doc["events"]) == 8  # the blitz counts, the simul not
    first = _run(
        str(DATA / "seed-players.csv"), str(DATA / "seed-event.pgn"), "--update", "game",
        "--k", "Ania=40", "--format", "json",
    )  # fmt: skip
    # Ania K 40, the rest K 20. Game order = rounds: Ania-Bartek, Celina-Ania, Ania-Dawid.
    # Bartek loses round 1 at K 20: 1400 - 20 x 0.759747 = 1384.81 -> 1385.
    bartek = next(p for p in json.loads(first.stdout)["players"] if p["name"] == "Bartek")
    assert bartek["rating"] == 1385


def test_csv_output_and_chart(tmp_path: Path) -> None:
    out = tmp_path / "ladder.csv"
    png = tmp_path / "ladder.png"
    result = _run(
        PLAYERS, GAMES, "--config", CONFIG, "--format", "csv", "--output", str(out),
        "--chart", str(png), "--top", "3",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    rows = out.read_text(encoding="utf-8").splitlines()
    assert rows[0] == "rank,name,rating,change,games,provisional,k,k_rule"
    assert rows[1] == "1,Bartek Lis,1387,0,2,false,20,"  # booleans as in the JSON
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not list(tmp_path.glob(".*.tmp"))


def test_chart_lines_start_at_the_start_rating(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The start ratings come from tests/data/club/players.csv (club.toml: start 1000,
    # beginner 800): Ania Nowak has rating 1200, Filip Mazur none but his own start 900.
    # Ania's first update is the Spring Club Cup (2026-03-07): 1200 -> 1240, then the
    # April Rapid (2026-04-11): 1244.95 (derivation in test_csv_ladder_json_follows_club_toml).
    # Filip's first update is the April Rapid: 900 -> 909.45. Each line starts with the
    # start rating at the date of the first update, so the first step is drawn.
    import matplotlib.axes

    from lichess_elo.output.charts import club as render_club

    series: dict[str, render_club.ChartSeries] = {}
    plotted: list[list[float]] = []
    real_series = render_club.club_chart_series
    real_plot = matplotlib.axes.Axes.plot

    def spy_series(s: Any, last_day: Any) -> render_club.ChartSeries:
        series[s.name] = real_series(s, last_day)
        return series[s.name]

    def spy_plot(self: Any, xs: Any, ys: Any, *args: Any, **kwargs: Any) -> Any:
        plotted.append(list(ys))
        return real_plot(self, xs, ys, *args, **kwargs)

    monkeypatch.setattr(render_club, "club_chart_series", spy_series)
    monkeypatch.setattr(matplotlib.axes.Axes, "plot", spy_plot)
    png = tmp_path / "ania.png"
    result = _run(PLAYERS, GAMES, "--config", CONFIG, "--player", "Ania Nowak", "--chart", str(png))
    assert result.exit_code == 0, result.output
    ania = series["Ania Nowak"]
    assert ania.days == (date(2026, 3, 7), date(2026, 3, 7), date(2026, 4, 11))
    assert ania.ratings[:2] == (1200.0, 1240.0)
    assert ania.ratings[2] == pytest.approx(1244.95, abs=0.01)
    assert ania.dots == (0, 1, 2)
    assert plotted[0] == list(ania.ratings)  # what the chart draws (then dots, name line)

    series.clear()
    result = _run(PLAYERS, GAMES, "--config", CONFIG, "--chart", str(tmp_path / "top.png"))
    assert result.exit_code == 0, result.output
    assert (series["Filip Mazur"].days[0], series["Filip Mazur"].ratings[0]) == (
        date(2026, 4, 11),
        900.0,
    )
    assert series["Filip Mazur"].ratings[1] == pytest.approx(909.45, abs=0.01)
    # Bartek (1400) and Dawid (1000) start at the Spring Club Cup, carried to 2026-04-11
    assert series["Bartek Lis"].ratings[0] == 1400.0
    assert series["Dawid Sowa"].days[0] == date(2026, 3, 7)
    assert series["Dawid Sowa"].ratings[0] == 1000.0


@pytest.mark.parametrize(
    ("files", "message"),
    [
        (["bad-result.csv"], "bad-result.csv:3: field result: '2-0' is not a result (1, 0.5, 0"),
        (["bad-date.csv"], "bad-date.csv:3: field date: '2026-13-07' is not a date"),
        (
            ["seed-players.csv", "unknown-player.csv"],
            "unknown-player.csv:3: field black: player 'Zenon' is not in the players file",
        ),
        (["duplicate.csv"], "duplicate.csv:4: field white: duplicated game (same as"),
        (["single-player.csv"], "single-player.csv:3: field black: event 'Solo' has a single"),
    ],
)
def test_bad_input_exit_2_nothing_written(files: list[str], message: str, tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    out.write_text("previous", encoding="utf-8")
    result = _run(*(str(DATA / f) for f in files), "--format", "json", "--output", str(out))
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output
    assert out.read_text(encoding="utf-8") == "previous"
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ("broken.toml", "broken.toml:4: not valid TOML"),
        ("bad-key.toml", "bad-key.toml:5: key k.provisonal: unknown key"),
        ("bad-value.toml", "bad-value.toml:1: key update: expected one of event, month, game"),
    ],
)
def test_broken_club_toml(config: str, message: str) -> None:
    result = _run(PLAYERS, GAMES, "--config", str(DATA / config))
    assert result.exit_code == 2
    assert message in result.stderr


def test_bad_options() -> None:
    assert "--k 'x'" in _run(PLAYERS, GAMES, "--k", "x").stderr
    assert "--return-k '40:6'" in _run(PLAYERS, GAMES, "--return-k", "40:6").stderr
    missing = _run(str(DATA / "nope.csv"))
    assert missing.exit_code == 2 and "nope.csv: no such file" in missing.stderr
    who = _run(PLAYERS, GAMES, "--config", CONFIG, "--player", "Nobody")
    assert who.stderr == "lichess-elo: error: --player 'Nobody' is not a player of this club\n"
    assert who.exit_code == 2


def test_bad_time_control_option_exit_2() -> None:
    result = _run(PLAYERS, GAMES, "--count-time-control", "abc")
    assert result.exit_code == 2
    assert "--count-time-control 'abc' is not a time control; expected a speed" in result.stderr
    assert result.stdout == ""


def test_time_control_in_seconds_and_quiet() -> None:
    # 900+10 is 900 s = 15 min + 10: the eight 15+10 games of games.csv count, the 3+2
    # Friday Blitz does not (no club.toml, so the handicap simul counts) -> 8 of 9 games.
    args = (PLAYERS, GAMES, "--count-time-control", "900+10", "--newcomers", "--format", "json")
    result = _run(*args)
    assert result.exit_code == 0, result.output
    assert sum(e["games"] for e in json.loads(result.stdout)["events"]) == 8
    assert "1 of 9 games are not rated (forfeits, count/exclude rules)" in result.stderr
    quiet = _run(*args, "-q")
    assert quiet.exit_code == 0, quiet.output
    assert quiet.stdout == result.stdout
    assert "note" not in quiet.stderr


@pytest.mark.parametrize("option", ["--output", "--chart"])
def test_output_and_chart_checked_before_any_work(option: str, tmp_path: Path) -> None:
    # bad-result.csv would fail on its line 3: the path is checked first, so its error shows
    for path in (tmp_path / "missing" / "out.png", tmp_path):
        result = _run(str(DATA / "bad-result.csv"), option, str(path))
        assert result.exit_code == 2
        assert result.stderr.startswith(f"lichess-elo: error: {option} {path}: ")
        assert len(result.stderr.splitlines()) == 1
        assert "bad-result" not in result.stderr


@pytest.mark.parametrize(
    ("option", "target"),
    [
        ("--output", "lichess_elo.output.common.write_atomic"),
        ("--chart", "lichess_elo.output.charts.figure.write_atomic"),
    ],
)
def test_late_write_failure_names_the_users_path(
    option: str, target: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the disk fills up after the checks passed: write_atomic fails on its temporary file
    def full_disk(path: Path, data: object) -> None:
        tmp = path.parent / f".{path.name}.6u3bbk8l.tmp"
        raise OSError(28, "No space left on device", str(tmp))

    monkeypatch.setattr(target, full_disk)
    path = tmp_path / "ladder.png"
    result = _run(PLAYERS, GAMES, "--config", CONFIG, option, str(path))
    assert result.exit_code == 1
    assert f"{option} {path}: cannot write (No space left on device)" in result.stderr
    assert ".tmp" not in result.stderr
    assert not path.exists()


def test_svg_chart_is_an_svg_file(tmp_path: Path) -> None:
    # the suffix picks the format, as for the report's --chart
    svg = tmp_path / "ladder.svg"
    result = _run(PLAYERS, GAMES, "--config", CONFIG, "--chart", str(svg), "--top", "3")
    assert result.exit_code == 0, result.output
    text = svg.read_text(encoding="utf-8")
    assert text.startswith("<?xml") and "<svg" in text and text.rstrip().endswith("</svg>")
    assert not list(tmp_path.glob(".*.tmp"))


def test_other_chart_suffix_is_refused_like_the_report(tmp_path: Path) -> None:
    path = tmp_path / "ladder.pdf"
    result = _run(PLAYERS, GAMES, "--config", CONFIG, "--chart", str(path))
    assert result.exit_code == 2
    assert result.stderr == (
        f"lichess-elo: error: --chart {path}: the file name must end in .png or .svg\n"
    )


def test_chart_write_failure_is_write_failed_naming_the_users_path(tmp_path: Path) -> None:
    # A real failure after the checks passed: a file size limit (works for root too)
    # stops the chart's temporary file; SIGXFSZ is ignored so the write gets EFBIG.
    import resource
    import signal

    from lichess_elo.app.club import ClubSettings, rate_club_files
    from lichess_elo.errors import WriteFailed
    from lichess_elo.output.charts.club import write_club_chart

    result = rate_club_files([PLAYERS, GAMES], ClubSettings(config=Path(CONFIG))).result
    names = [s.name for s in result.standings]
    path = tmp_path / "ladder.svg"
    old_handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (1_000, hard))
    try:
        with pytest.raises(WriteFailed) as failed:
            write_club_chart(result, names, path)
        cli = _run(PLAYERS, GAMES, "--config", CONFIG, "--chart", str(path), "--quiet")
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, old_handler)
    assert str(failed.value) == f"{path}: cannot write (File too large)"
    assert failed.value.field == "chart" and failed.value.path == path
    assert failed.value.exit_code == 1
    assert cli.exit_code == 1
    assert cli.stderr == f"lichess-elo: error: --chart {path}: cannot write (File too large)\n"
    assert not path.exists()
    assert not list(tmp_path.glob(".*.tmp"))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        # the library's structured error, worded by the CLI with the option's name
        (["--provisional", "0:12"], "--provisional '0:12': expected K:GAMES, e.g. 40:12"),
        (["--return-k", "40:6"], "--return-k '40:6': expected K:MONTHS:GAMES, e.g. 40:6:5"),
        (["--k", "0"], "--k '0': expected 20 or children=40"),
        (["--start", "5000"], "--start 5000 is outside 0..4000"),
        (["--start", "Nobody Here=fide"], "--start 'Nobody Here=fide': fide is for the default"),
        (["--count-time-control", "15 min"], "--count-time-control '15 min' is not a time"),
    ],
)
def test_option_errors_name_the_option(args: list[str], message: str, tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    result = _run(PLAYERS, GAMES, *args, "--output", str(out))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"lichess-elo: error: {message}")
    assert len(result.stderr.splitlines()) == 1
    assert not out.exists()


def test_bad_options_checked_before_any_input_is_read(tmp_path: Path) -> None:
    # nope.csv does not exist: the option is refused first, so the file is never looked at
    result = _run(str(tmp_path / "nope.csv"), "--provisional", "40")
    assert result.exit_code == 2
    assert "--provisional '40'" in result.stderr and "nope.csv" not in result.stderr
