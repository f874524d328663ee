"""Each command imports only what it uses: ``--version`` imports none of the
commands and none of the heavy libraries, ``--help`` lists every command without importing
one, and the summaries it lists are the commands' own. Checked on the real program in a
real process, whose every import is written to stderr as it happens by a finder placed
first on ``sys.meta_path`` (it also sees ``importlib.import_module``): no timing involved."""

from __future__ import annotations

import os
import subprocess
import sys

import click
import pytest

from lichess_elo.cli.root import COMMANDS, load_command
from tests.helpers import REPO

_LOGGED = """
import os, sys

class Log:
    def find_spec(self, name, path=None, target=None):
        os.write(2, f"import: {name}\\n".encode())
        return None

sys.meta_path.insert(0, Log())
sys.argv = ["lichess-elo", *sys.argv[1:]]
from lichess_elo.cli import main
main()
"""

#: Every lichess_elo module ``lichess-elo --version`` may import: the entry point, the
#: root app, its Ctrl-C handling and collector pause, and the version's own module. The
#: error wording (``cli.errors``, ``lichess_elo.errors``) and the token checks are imported
#: only by a command, a failure or a secret on the command line.
VERSION_MODULES = {
    "lichess_elo",
    "lichess_elo._version",
    "lichess_elo.cli",
    "lichess_elo.cli.gc_pause",
    "lichess_elo.cli.interrupts",
    "lichess_elo.cli.root",
}

#: Libraries no start-up needs (each is imported by the commands that use it).
HEAVY = {
    "numpy", "chess", "rich", "matplotlib", "duckdb", "pyarrow", "zstandard", "pyspark",
    "berserk", "requests", "requests_cache", "urllib3", "vcr", "yaml", "platformdirs",
    "markdown_it", "pygments",
}  # fmt: skip


def run_logged(*args: str, columns: int = 80) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """``lichess-elo ARGS`` in a real process (the console script's entry point), and the
    modules it imported."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LICHESS", "COLUMNS"))}
    run = subprocess.run(
        [sys.executable, "-c", _LOGGED, *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env | {"COLUMNS": str(columns)},
        timeout=120,
        check=False,
    )
    lines = run.stderr.splitlines()
    return run, {line.removeprefix("import: ") for line in lines if line.startswith("import: ")}


def test_version_imports_only_the_root() -> None:
    run, imported = run_logged("--version")
    assert (run.returncode, run.stdout) == (0, "lichess-elo 0.1.0\n")
    assert {m for m in imported if m.split(".")[0] == "lichess_elo"} == VERSION_MODULES
    assert not {m.split(".")[0] for m in imported} & HEAVY
    assert "logging" not in imported  # the libraries' logs are routed once a command loads


def test_help_lists_every_command_without_importing_one() -> None:
    run, imported = run_logged("--help", columns=200)
    assert run.returncode == 0, run.stderr[-2000:]
    panel = [line for line in run.stdout.split("Commands")[1].splitlines() if line[:2] == "│ "]
    listed = [line[2:].split()[0] for line in panel if line[2:3] != " "]  # not a wrapped line
    assert listed == list(COMMANDS) == ["calc", "glicko", "fetch", "games", "report", "club", "db"]
    assert not {f"lichess_elo.cli.{name}" for name in COMMANDS} & imported
    assert not {m.split(".")[0] for m in imported} & (HEAVY - {"rich"})  # rich draws the help
    assert not {"rich.markdown", "rich.traceback"} & imported  # the parts typer does not use
    assert "logging" not in imported


def test_calc_imports_no_other_command() -> None:
    run, imported = run_logged("calc", "1500", "1400:1")
    assert run.returncode == 0, run.stderr[-2000:]
    assert "new rating: 1507" in run.stdout
    assert "lichess_elo.cli.calc" in imported
    assert not {f"lichess_elo.cli.{n}" for n in COMMANDS if n != "calc"} & imported
    assert not {"numpy", "chess", "matplotlib", "berserk", "requests"} & {
        m.split(".")[0] for m in imported
    }


@pytest.mark.parametrize("name", list(COMMANDS))
def test_the_listed_summary_is_the_first_paragraph_of_the_commands_help(name: str) -> None:
    command = load_command(name)
    assert command.name == name
    assert command.help is not None
    assert command.help.split("\n\n")[0] == COMMANDS[name]
    assert isinstance(command, click.Group) == (name == "db")


_STAND_INS = """
import sys
from lichess_elo.cli.rich_help import import_rich_utils
import_rich_utils()
import typer.rich_utils as ru
print("rich.markdown" in sys.modules, "rich.traceback" in sys.modules)
made = ru.Markdown("*x*")
import rich.markdown, rich.traceback
print(type(made) is rich.markdown.Markdown, ru.Traceback.from_exception is not None)
print(rich.traceback.Traceback.__module__, rich.markdown.Markdown.__module__)
"""


def test_the_help_renderer_stand_ins_become_the_real_classes() -> None:
    run = subprocess.run(
        [sys.executable, "-c", _STAND_INS], capture_output=True, text=True, cwd=REPO, timeout=120
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split("\n") == [
        "False False",  # not imported by the help renderer
        "True True",  # made on use, as the real ones
        "rich.traceback rich.markdown",  # later imports get the real modules
        "",
    ]


_NAMES = """
import sys
import lichess_elo, lichess_elo.sources.lichess as source
print(set(lichess_elo.__all__) <= set(dir(lichess_elo)), set(source.__all__) <= set(dir(source)))
print("lichess_elo.core.fide" in sys.modules, "lichess_elo.sources.lichess.api" in sys.modules)
print(lichess_elo.fide.__name__, source.fetch_games.__module__)
"""


def test_the_packages_list_their_names_before_importing_them() -> None:
    run = subprocess.run(
        [sys.executable, "-c", _NAMES], capture_output=True, text=True, cwd=REPO, timeout=120
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split("\n") == [
        "True True",  # dir() lists every public name
        "False False",  # none of them imported yet
        "lichess_elo.core.fide lichess_elo.sources.lichess.api",  # each on first use
        "",
    ]
