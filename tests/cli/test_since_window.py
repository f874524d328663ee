"""--since/--until fetch only the months asked, plus the months before --since that K's
30-game rule needs; when 12 months are not enough, one line names --games-before.

The expected months are counted here straight from the generated games (rated games of the
perf by month), independently of the code under test.
"""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, datetime
from typing import Any

from tests.fake_lichess import FakeLichess
from tests.helpers import REPO, generated_games
from tests.runners import Cli, invoke


def _rated_by_month(perf: str) -> Counter[str]:
    """Rated games of ``perf`` by month in the bench server's games (the same seed)."""
    found: Counter[str] = Counter()
    for g in generated_games(3000):
        if g.get("rated") and g["perf"] == perf:
            found[datetime.fromtimestamp(g["createdAt"] / 1000, UTC).strftime("%Y-%m")] += 1
    return found


def _months_asked(server: FakeLichess) -> list[str]:
    return sorted(
        datetime.fromtimestamp(int(r.query["since"]) / 1000, UTC).strftime("%Y-%m")
        for r in server.games_requests()
    )


def _report(server: FakeLichess, tmp: Any, *args: str) -> Any:
    base = ["report", "BenchUser", "--api-url", server.url, "--cache-dir", str(tmp)]
    return invoke([*base, *args, "--format", "json", "-q"])


def test_window_fetches_the_months_asked_and_what_k_needs(
    bench_server: FakeLichess, tmp_path: Any
) -> None:
    by_month = _rated_by_month("blitz")
    # Months before 2022-01, newest first, until 30 rated blitz games are counted.
    before, needed = 0, []
    for month in ("2021-12", "2021-11", "2021-10", "2021-09", "2021-08"):
        if before >= 30:
            break
        needed.append(month)
        before += by_month[month]
    result = _report(
        bench_server, tmp_path, "--since", "2022-01", "--until", "2022-07", "--perf", "blitz"
    )
    assert result.exit_code == 0, result.output
    asked = _months_asked(bench_server)
    window = ["2022-01", "2022-02", "2022-03", "2022-04", "2022-05", "2022-06"]
    assert asked == sorted(needed + window)  # nothing after --until, nothing older
    report = json.loads(result.stdout)["reports"][0]
    assert [p["period"] for p in report["periods"]] == window
    assert report["periods"][0]["games_before"] >= 30
    assert report["periods"][0]["k_reason"] != "new"
    assert "--games-before" not in result.stderr


def test_too_few_games_in_twelve_months_is_said_in_one_line(
    bench_server: FakeLichess, tmp_path: Any
) -> None:
    by_month = _rated_by_month("ultraBullet")
    twelve = [f"2022-{m:02d}" for m in range(1, 13)]
    assert sum(by_month[m] for m in twelve) < 30  # the premise, from the data
    result = _report(
        bench_server, tmp_path, "--since", "2023-01", "--until", "2023-03", "--perf", "ultraBullet"
    )
    assert result.exit_code == 0, result.output
    assert _months_asked(bench_server) == [*twelve, "2023-01", "2023-02"]
    notes = [line for line in result.stderr.splitlines() if "--games-before" in line]
    assert notes == [
        "lichess-elo: note: K's 30-game rule counts the rated ultraBullet games before "
        "2023-01: the 12 months read before it hold fewer than 30 and the account is older, "
        "so K treats them as the first; pass --games-before N with the real count"
    ]
    # With the count given, nothing before --since is fetched and nothing is said.
    again = _report(
        bench_server, tmp_path, "--since", "2023-01", "--until", "2023-03",
        "--perf", "ultraBullet", "--games-before", "80",
    )  # fmt: skip
    assert again.exit_code == 0, again.output
    assert "--games-before" not in again.stderr
    assert json.loads(again.stdout)["reports"][0]["periods"][0]["games_before"] == 80


def test_a_since_after_today_is_refused_before_any_request(
    bench_server: FakeLichess, tmp_path: Any
) -> None:
    # Lichess's clock is now: a --since after it can have no game, so the run says so
    # (exit 2, the option named) instead of asking for months that cannot exist.
    result = _report(bench_server, tmp_path, "--since", "2999-01-01")
    assert result.exit_code == 2
    assert result.stderr.startswith("lichess-elo: error: --since 2999-01-01 is after today (")
    assert bench_server.games_requests() == []


def test_a_since_after_the_cassettes_day_names_the_cassette(cli: Cli, tmp_path: Any) -> None:
    # The bundled cassette was recorded on 2023-02-20 (its Date headers): "today" for it.
    tape = str(REPO / "cassettes" / "onboard247.yaml")
    args = ["report", "OnBoard247", "--replay", tape, "--since", "2023-03-01"]
    result = cli([*args, "--cache-dir", str(tmp_path)])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "lichess-elo: error: --since 2023-03-01 is after the cassette's recording day "
        "(2023-02-20); no game is played yet"
    )
