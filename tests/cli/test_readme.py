"""The README's "Library use" example runs as written and prints what its comments say."""

from __future__ import annotations

import re
import subprocess
import sys

from tests.helpers import REPO


def test_library_example_runs_and_prints_its_comments() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    start = readme.index("## Library use")
    section = readme[start : readme.index("\n## ", start + 1)]
    match = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert match is not None
    code = match.group(1)
    # Each print's expected output is its trailing comment (up to any parenthesis).
    expected = [
        comment.split(" (")[0].strip()
        for comment in re.findall(r"^ *print\(.*?\)[ \t]+# (.*)$", code, re.MULTILINE)
    ]
    assert len(expected) == 4
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == expected
