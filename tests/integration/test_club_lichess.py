"""``lichess-elo club`` with Lichess tournaments: real berserk over real HTTP, and a cassette.

The suite's one fake Lichess server (tests/fake_lichess.py, fixture ``club_server``) serves
the real-shaped arena and swiss files in tests/data/club (the info objects follow
lichess.org's ``/api/tournament/{id}`` and ``/api/swiss/{id}`` answers, the games the
``/games`` NDJSON export).

``cassettes/club-swiss.yaml`` was recorded from this server through the real command path
(``python -m tests.integration.test_club_lichess``) with the host rewritten to lichess.org.
Its players and games are made up, so every response carries ``X-Lichess-Elo-Built`` (as
the built answers of scripts/build_cassettes.py do) and the fixed Date ``RECORDED``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests import helpers
from tests.fake_lichess import FakeLichess
from tests.runners import invoke, run_cli

DATA = helpers.DATA / "club"
REPO = helpers.REPO
CASSETTE = REPO / "cassettes" / "club-swiss.yaml"
SWISS = "Zr5kTq1B"
ARENA = "clubAr26"
#: The cassette's recording time: every response's Date header (``--replay`` reads "now"
#: from it), kept fixed so re-recording gives the same cassette.
RECORDED = "Sun, 29 Nov 2026 17:53:51 GMT"
#: The marker header of built responses (as scripts/build_cassettes.py stamps them).
BUILT = (
    "made-up club swiss from tests/data/club, served by the test suite's local server and "
    "recorded through berserk by python -m tests.integration.test_club_lichess; "
    "not a lichess.org response"
)
CASSETTE_COMMENT = f"""
Thursday Club Swiss ({SWISS}): a MADE-UP club swiss (6 players, 3 rounds, 9 games) in the
shape of lichess.org's /api/swiss/{{id}} answer and /api/swiss/{{id}}/games NDJSON export,
from tests/data/club/swiss-{SWISS}-info.json and swiss-{SWISS}-games.ndjson. The players
and games are not real. Recorded through berserk (the calls of sources/lichess/tournaments.py)
against the test suite's fake server, then the host rewritten to https://lichess.org.
Every response carries X-Lichess-Elo-Built and the fixed Date header, the recording time
("now" for --replay): {RECORDED}.
Rebuild: python -m tests.integration.test_club_lichess
"""


def _run(*args: str) -> Any:
    return invoke(["club", *args])


# All six swiss players start at 1000 (no players file), so every expected score in the
# single event is 0.5 and each change is K x (points - 0.5 x games) with K 20:
#   round 1: Filip beats Ewa, Ania beats Bartek, Celina-Dawid draw
#   round 2: Ania-Filip draw, Bartek beats Dawid (black), Celina beats Ewa (black)
#   round 3: Bartek beats Ewa, Ania beats Celina (black), Filip beats Dawid
#   Ania 2.5/3 -> 20 x (2.5 - 1.5) = +20 -> 1020; Filip 2.5 -> 1020; Bartek 2 -> 1010;
#   Celina 1.5 -> 1000; Dawid 0.5 -> 980; Ewa 0 -> 970. Total stays 6000.
SWISS_EXPECTED = {
    "Ania_N": 1020,
    "Filip_M": 1020,
    "Bartek_L": 1010,
    "Celina_W": 1000,
    "Dawid_S": 980,
    "Ewa_K": 970,
}


def test_swiss_over_http_then_offline_from_cache(club_server: FakeLichess, tmp_path: Path) -> None:
    url = f"https://lichess.org/swiss/{SWISS}"
    common = ["--api-url", club_server.url, "--cache-dir", str(tmp_path), "--format", "json"]
    first = _run(url, *common)
    assert first.exit_code == 0, first.output
    doc = json.loads(first.stdout)
    assert {p["name"]: p["rating"] for p in doc["players"]} == SWISS_EXPECTED
    assert doc["events"] == [{"name": "Thursday Club Swiss", "date": "2026-10-01", "games": 9}]
    assert [r.path for r in club_server.requests] == [
        f"/api/swiss/{SWISS}",
        f"/api/swiss/{SWISS}/games",
    ]
    # offline: the same answer from the SQLite cache, no request sent
    before = len(club_server.requests)
    again = _run(url, *common, "--offline")
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout) == doc
    assert len(club_server.requests) == before


def test_bare_id_tries_arena_then_swiss_and_arena_skips_aborted(
    club_server: FakeLichess, tmp_path: Path
) -> None:
    # A bare id is tried as an arena first (404 here), then as a swiss.
    result = _run(
        SWISS, "--api-url", club_server.url, "--cache-dir", str(tmp_path), "--format", "json"
    )
    assert result.exit_code == 0, result.output
    assert club_server.requests[0].path == f"/api/tournament/{SWISS}"
    assert club_server.requests[1].path == f"/api/swiss/{SWISS}"
    # The arena: 4 finished games (the aborted 5th does not count), all at 1000, K 20:
    # Ania beats Dawid, Bartek-Celina draw, Bartek beats Dawid (black), Celina beats Ania
    # Ania 1/2 -> 1000, Bartek 1.5/2 -> 1010, Celina 1.5/2 -> 1010, Dawid 0/2 -> 980.
    arena = _run(
        f"https://lichess.org/tournament/{ARENA}",
        "--api-url", club_server.url, "--cache-dir", str(tmp_path), "--format", "json",
    )  # fmt: skip
    assert arena.exit_code == 0, arena.output
    doc = json.loads(arena.stdout)
    assert {p["name"]: p["rating"] for p in doc["players"]} == {
        "Bartek_L": 1010,
        "Celina_W": 1010,
        "Ania_N": 1000,
        "Dawid_S": 980,
    }
    assert doc["events"] == [{"name": "September Club Arena", "date": "2026-09-24", "games": 4}]


def test_unknown_tournament_is_not_found(club_server: FakeLichess, tmp_path: Path) -> None:
    # Like an unknown user: the server's answer, a run-time failure (exit 1), not bad input.
    result = _run("NoSuch12", "--api-url", club_server.url, "--cache-dir", str(tmp_path))
    assert result.exit_code == 1
    assert "NoSuch12: no Lichess tournament with this id" in result.stderr


def test_swiss_cassette_replay_through_the_cli() -> None:
    result = _run(
        f"https://lichess.org/swiss/{SWISS}", "--replay", str(CASSETTE), "--format", "json"
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert {p["name"]: p["rating"] for p in doc["players"]} == SWISS_EXPECTED


def test_swiss_cassette_is_labelled_built_with_a_fixed_date() -> None:
    import yaml

    text = CASSETTE.read_text(encoding="utf-8")
    assert text.startswith("# Thursday Club Swiss (Zr5kTq1B): a MADE-UP club swiss")
    interactions = yaml.safe_load(text)["interactions"]
    assert [i["request"]["uri"].split("?")[0] for i in interactions] == [
        f"https://lichess.org/api/swiss/{SWISS}",
        f"https://lichess.org/api/swiss/{SWISS}/games",
    ]
    for item in interactions:
        headers = item["response"]["headers"]
        assert headers["X-Lichess-Elo-Built"] == [BUILT]
        assert headers["Date"] == [RECORDED]


def test_swiss_cassette_replay_in_a_subprocess_with_csv(tmp_path: Path) -> None:
    # A mix in one run: the club's CSV evening (players file + games) and the swiss.
    # Lichess names are not in the players file, so newcomers are allowed (start 1000).
    out = tmp_path / "ladder.csv"
    cmd = [
        "club",
        str(DATA / "players.csv"), str(DATA / "games.csv"), f"swiss:{SWISS}",
        "--replay", str(CASSETTE), "--newcomers", "--k", "20", "--format", "csv",
        "--output", str(out),
    ]  # fmt: skip
    proc = run_cli(*cmd, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ""
    rows = out.read_text(encoding="utf-8").splitlines()
    assert rows[0] == "rank,name,rating,change,games,provisional,k,k_rule"
    names = [r.split(",")[1] for r in rows[1:]]
    assert "Ania_N" in names and "Ania Nowak" in names
    ania_n = next(r for r in rows[1:] if r.split(",")[1] == "Ania_N")
    # the swiss is the last event, so its change is the "change since the last update"
    assert ania_n.split(",")[2:5] == ["1020", "20", "3"]
    assert "ignored the rating columns" in proc.stderr


def _stamp(response: dict[str, Any]) -> dict[str, Any]:
    """Fix the Date header (the recording time), drop the local server's Server header
    (it names the Python version) and mark the response as built."""
    headers = response["headers"]
    for key in [k for k in headers if k.lower() in ("date", "server")]:
        del headers[key]
    headers["Date"] = [RECORDED]
    headers["X-Lichess-Elo-Built"] = [BUILT]
    return response


def build_cassette(path: Path) -> None:
    """Record the swiss with the same berserk calls as ``tournaments.tournament_fetcher``
    (plain requests session: vcrpy and requests-cache do not record together), then point
    the cassette at lichess.org.

    Recorded into a fresh file: vcrpy's ``all`` mode would keep the old lichess.org
    interactions next to the new 127.0.0.1 ones."""
    import tempfile

    import berserk
    import requests
    import vcr

    srv = FakeLichess(require_user_agent=False).start()
    data = helpers.DATA / "club"
    srv.add_tournament(
        "swiss",
        SWISS,
        (data / f"swiss-{SWISS}-info.json").read_bytes(),
        (data / f"swiss-{SWISS}-games.ndjson").read_bytes(),
    )
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / "club-swiss.yaml"
        client = berserk.Client(session=requests.Session(), base_url=srv.url)
        recorder = vcr.VCR(
            record_mode="all", decode_compressed_response=True, before_record_response=_stamp
        )
        with recorder.use_cassette(str(fresh)):
            client.tournaments.get_swiss(SWISS)
            list(client.tournaments.export_swiss_games(SWISS, moves=False, evals=False))
        text = fresh.read_text(encoding="utf-8").replace(srv.url, "https://lichess.org")
    srv.stop()
    header = "".join(f"# {line}\n" for line in CASSETTE_COMMENT.strip().splitlines())
    path.write_text(header + text, encoding="utf-8")


if __name__ == "__main__":
    build_cassette(CASSETTE)
    print(f"wrote {CASSETTE}")


def test_a_damaged_games_export_is_not_kept(club_server: FakeLichess, tmp_path: Path) -> None:
    # The swiss's games export breaks off in its second line (not JSON): the run fails with
    # one line naming the answer, and nothing of it stays in the cache, so offline the
    # tournament is simply not cached, and the next online run asks again and succeeds.
    info, good = club_server.tournaments[("swiss", SWISS)]
    first_line = good.split(b"\n", 1)[0]
    club_server.tournaments[("swiss", SWISS)] = (info, first_line + b'\n{"id": "broken\n')
    url = f"https://lichess.org/swiss/{SWISS}"
    common = ["--api-url", club_server.url, "--cache-dir", str(tmp_path), "--format", "json"]
    damaged = _run(url, *common)
    assert damaged.exit_code == 1
    assert f"the games export of the swiss {SWISS}" in damaged.stderr
    assert "line 2 is not valid JSON" in damaged.stderr
    offline = _run(url, *common, "--offline")
    assert offline.exit_code == 1
    assert "damaged" not in offline.stderr and "not in the cache" in offline.stderr
    club_server.tournaments[("swiss", SWISS)] = (info, good)
    asked = len(club_server.requests)
    again = _run(url, *common)
    assert again.exit_code == 0, again.output
    assert {p["name"]: p["rating"] for p in json.loads(again.stdout)["players"]} == SWISS_EXPECTED
    assert f"/api/swiss/{SWISS}/games" in [r.path for r in club_server.requests[asked:]]
