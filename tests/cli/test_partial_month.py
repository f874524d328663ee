"""A month whose answer lacked games' fields is never kept as final: the next
online run asks Lichess again; offline says the month is incomplete and how to refetch
it. Real processes, the real berserk client against the fake server."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from tests.fake_lichess import FakeLichess, Fault
from tests.helpers import DATA
from tests.runners import run_cli

GAMES = DATA / "lichess" / "games-user-export-onboard247-2023-01-02.ndjson"
JANUARY = str(int(datetime(2023, 1, 1, tzinfo=UTC).timestamp() * 1000))


def _fetch(server: FakeLichess, cache: Path, *extra: str) -> tuple[int, list[str]]:
    args = ["fetch", "OnBoard247", "--api-url", server.url, "--cache-dir", str(cache)]
    result = run_cli(*args, "--until", "2023-03", "--format", "json", "-q", *extra)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return json.loads(result.stdout)["games"], result.stderr.splitlines()


def test_a_month_with_skipped_games_is_asked_again_online(tmp_path: Path) -> None:
    games = [json.loads(line) for line in GAMES.read_text(encoding="utf-8").splitlines() if line]
    january = [g for g in games if g["createdAt"] < 1675209600000]  # before 2023-02-01
    server = FakeLichess().start()
    try:
        server.add_user("OnBoard247", datetime(2023, 1, 24, tzinfo=UTC), games)
        # A transient fault: January's answer, this once, lacks the players of all but 5.
        server.faults.append(Fault("fieldless", month="2023-01", after_lines=5))
        count, warnings = _fetch(server, tmp_path)
        lost = len(january) - 5
        assert count == len(games) - lost
        assert sum("skipped malformed game" in w for w in warnings) == lost

        # Offline: the games kept are used, and the month is named as incomplete.
        count, warnings = _fetch(server, tmp_path, "--offline")
        assert count == len(games) - lost
        assert warnings[-1] == (
            f"lichess-elo: warning: month 2023-01 of OnBoard247 is incomplete in the cache "
            f"({lost} game(s) skipped); run online to ask Lichess for it "
            "again"
        )

        # Online: January is asked again (February, whole, is not) and comes back whole.
        asked = len(server.games_requests())
        count, warnings = _fetch(server, tmp_path)
        again = [r.query["since"] for r in server.games_requests()[asked:]]
        assert again == [JANUARY]
        assert (count, warnings) == (len(games), [])

        # Whole now: kept as final, served offline without a warning.
        count, warnings = _fetch(server, tmp_path, "--offline")
        assert (count, warnings) == (len(games), [])
    finally:
        server.stop()


def test_a_month_kept_as_final_with_skipped_games_is_asked_again_at_once(tmp_path: Path) -> None:
    # a version before the fix above kept such a month as final (never to
    # expire). Online, the next run found it in the cache and served it again, warnings
    # and all, for ever. Now a month from the cache with skipped games is asked again.
    from requests_cache import SQLiteCache

    games = [json.loads(line) for line in GAMES.read_text(encoding="utf-8").splitlines() if line]
    server = FakeLichess().start()
    try:
        server.add_user("OnBoard247", datetime(2023, 1, 24, tzinfo=UTC), games)
        server.faults.append(Fault("fieldless", month="2023-01", after_lines=5))
        count, _ = _fetch(server, tmp_path)
        assert count < len(games)
        cache = SQLiteCache(tmp_path / "http.sqlite")
        kept = 0
        for key in list(cache.responses.keys()):
            stored = cache.responses[key]
            if f"since={JANUARY}" in stored.url:
                stored.expires = None  # what the older version stored: final
                cache.responses[key] = stored
                kept += 1
        cache.close()
        assert kept == 1

        asked = len(server.games_requests())
        count, warnings = _fetch(server, tmp_path)
        again = [r.query["since"] for r in server.games_requests()[asked:]]
        assert again == [JANUARY]  # asked again in this run, not only in the next
        assert (count, warnings) == (len(games), [])
    finally:
        server.stop()
