"""What a large report does to save memory changes no byte of it.

From ``SLIM_FROM`` games on, ``run_report`` lets each game's moves go once they are
replayed and the command gives the freed heap back (``cli.heap``, through ``on_release``);
the games and replay facts also go before the scorecard unless K is scanned. Here
``SLIM_FROM`` is lowered to 0 so that OnBoard247's 221 games (the fake server on
127.0.0.1, real berserk and caches) take that path, and every output must be the same as
without it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lichess_elo.app import report as app_report
from lichess_elo.cli import report as cli_report
from tests.fake_lichess import FakeLichess
from tests.runners import invoke


def _outputs(server: FakeLichess, cache: Path) -> list[str]:
    base = ["report", "OnBoard247", "--api-url", server.url, "--until", "2023-03-01"]
    base += ["--cache-dir", str(cache), "--perf", "all"]
    runs = [
        [*base, "--format", "json"],  # with the scorecard, games let go before it
        [*base, "--format", "csv", "--view", "games"],
        [*base, "--view", "accuracy", "--fit-k"],  # the K scan keeps the games
        base,
    ]
    outputs = []
    for args in runs:
        result = invoke(args)
        assert result.exit_code == 0, result.output
        outputs.append(result.stdout)
    return outputs


def test_a_report_without_its_moves_is_the_same_report(
    onboard_server: FakeLichess, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = _outputs(onboard_server, tmp_path / "a")
    slimmed: list[int] = []
    real = cli_report.return_freed_memory

    def counted() -> None:
        slimmed.append(1)
        real()

    monkeypatch.setattr(app_report, "SLIM_FROM", 0)
    monkeypatch.setattr(cli_report, "return_freed_memory", counted)
    assert _outputs(onboard_server, tmp_path / "b") == whole
    # 4 runs slimmed their games; the 3 without a K scan also let them go before the output
    assert len(slimmed) == 4 + 3
    # and they are real reports: 221 games, of which bullet's 57 (tests/data/lichess/README.md)
    doc = json.loads(whole[0])
    assert doc["user"] == "OnBoard247" and "57 bullet games" in whole[3]
    assert sum(len(r["games"]) for r in doc["reports"]) > 0
