"""One rule for games before --since: the README, ``report --help``,
docs/reading-the-output.md and docs/commands.md say the same as the code
(``tests/cli/test_since_window.py`` checks the code: the months before --since are read, up
to 12, to count 30 games), and none says the profile's public game count gives the games
before."""

from __future__ import annotations

import re

from tests.helpers import REPO
from tests.runners import Cli


def _flat(text: str) -> str:
    return " ".join(re.sub(r"[`│]", "", text).split())


def test_the_same_rule_everywhere(cli: Cli) -> None:
    readme = _flat((REPO / "README.md").read_text(encoding="utf-8"))
    docs = _flat((REPO / "docs" / "reading-the-output.md").read_text(encoding="utf-8"))
    commands = _flat((REPO / "docs" / "commands.md").read_text(encoding="utf-8"))
    rule = (
        "Games before --since only count toward K's 30-game rule (FIDE 8.3.3): the months "
        "before --since are fetched, newest first, until each perf has 30 counted games, "
        "the account's first month is reached, or 12 months were read; they are not replayed "
        "or reported. --games-before N gives the count instead (then nothing before --since "
        "is fetched). The profile's public game count is not used."
    )
    bold = rule.replace("Games", "**Games").replace("--since only", "--since** only")
    assert bold in readme
    assert bold in commands
    assert rule in docs
    out = cli(["report", "--help"], env={"COLUMNS": "200"})
    help_text = _flat(out.stdout)
    assert "games before --since only count toward K's 30-game rule" in help_text
    assert "12 months (never the profile's public count)" in help_text
    for text in (readme, docs, commands, help_text):
        assert "from the user's public game count" not in text
        assert "taken from the profile's" not in text
