"""How the command line turns errors into one line: ``library_errors`` (used by every
command, so CliRunner sees what a shell sees) and the token redaction behind it."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer

from lichess_elo.cli import errors as cli
from lichess_elo.errors import BadInput
from lichess_elo.sources.lichess.checks import scrub
from tests.runners import Cli

TOKEN = "lip_UnitSecretToken4242"


def test_unexpected_error_is_one_redacted_line_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    cli.remember_token(TOKEN)
    with pytest.raises(typer.Exit) as stopped, cli.library_errors():
        raise RuntimeError(f"the server echoed Bearer {TOKEN}\nand a second line")
    assert stopped.value.exit_code == 1
    err = capsys.readouterr().err
    assert err.startswith(
        "lichess-elo: error: unexpected RuntimeError: the server echoed Bearer ***"
    )
    assert TOKEN not in err


def test_library_error_keeps_its_exit_code_and_is_redacted(
    capsys: pytest.CaptureFixture[str],
) -> None:
    cli.remember_token(TOKEN)
    with pytest.raises(typer.Exit) as stopped, cli.library_errors():
        raise BadInput("is a file, not a folder", field="cache_dir", value=f"/tmp/{TOKEN}")
    assert stopped.value.exit_code == 2
    # the structured error is worded with the option that gave the value
    assert capsys.readouterr().err == (
        "lichess-elo: error: --cache-dir /tmp/*** is a file, not a folder\n"
    )


def test_exit_passes_through_untouched() -> None:
    with pytest.raises(typer.Exit) as stopped, cli.library_errors():
        raise typer.Exit(0)
    assert stopped.value.exit_code == 0


def test_short_tokens_are_not_secrets() -> None:
    # "user" as a token would turn "no Lichess user" into "no Lichess ***"
    cli.remember_token("user")
    cli.remember_token("       ")
    assert "user" not in cli.run_state().secrets and "       " not in cli.run_state().secrets
    assert cli.redact("no Lichess user 'nobody'") == "no Lichess user 'nobody'"
    assert scrub("a user and lip_12345678", ["user", "lip_12345678", None, ""]) == (
        "a user and ***"
    )


@pytest.mark.parametrize("command", ["fetch", "games", "report", "club"])
def test_every_network_command_redacts_the_token(cli: Cli, command: str, tmp_path: Path) -> None:
    # the token is part of a path the user gave; each command's error names the path
    named = tmp_path / f"{TOKEN}.pgn"
    args = {
        "fetch": ["fetch", "OnBoard247", "--cache-dir", str(named), "--offline"],
        "games": ["games", "OnBoard247", "--pgn", str(named), "--cache-dir", str(tmp_path)],
        "report": ["report", "OnBoard247", "--pgn", str(named), "--cache-dir", str(tmp_path)],
        "club": ["club", str(named), "--cache-dir", str(tmp_path)],
    }[command]
    if command == "fetch":
        named.write_text("", encoding="utf-8")  # a file where the cache folder should be
    result = cli([*args, "--token", TOKEN])
    assert result.exit_code == 2, result.output
    assert TOKEN not in result.output
    assert "***" in result.stderr and len(result.stderr.splitlines()) == 1
