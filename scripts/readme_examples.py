"""The documentation's command examples: find each ``$ lichess-elo ...`` block of the README
and of every ``docs/*.md`` page, run it, compare.

Each example is a fenced block whose first line is ``$ lichess-elo ARGS`` and whose other
lines are what the command prints on a pipe (its notes on stderr first, then stdout), from
the repository's root, with an empty cache and no ``LICHESS_*`` variable. A first line
``$ COLUMNS=80 lichess-elo ARGS`` is run with its standard output on a terminal of that
many columns (a pseudo-terminal; its escapes and carriage returns taken out, no pager), as
a user sees it there.
``tests/cli/test_readme_examples.py`` runs every one and compares;
``python scripts/readme_examples.py --write`` rewrites the blocks from a run (after a
deliberate change of the output; read the diff).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
DOCS = REPO / "docs"
_BLOCK = re.compile(r"```\n(\$ (?:COLUMNS=\d+ )?lichess-elo [^\n]*)\n(.*?)```", re.DOTALL)
_COLUMNS = re.compile(r"COLUMNS=(\d+) ")
_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


@dataclass(frozen=True)
class Example:
    """One example: its command line, the output the README shows, and where it is."""

    command: str
    shown: str
    start: int
    end: int


def examples(text: str) -> list[Example]:
    """Every ``$ lichess-elo`` block of ``text``, in order."""
    return [
        Example(m.group(1)[2:], m.group(2), m.start(2), m.end(2)) for m in _BLOCK.finditer(text)
    ]


def documents() -> list[Path]:
    """The pages whose examples are run: the README, then every ``docs/*.md`` by name."""
    return [README, *sorted(DOCS.glob("*.md"))]


def _on_terminal(args: list[str], env: dict[str, str], columns: int) -> str:
    """What ``lichess-elo ARGS`` prints with its standard output on a ``columns``-wide
    pseudo-terminal (stderr on a pipe, first), escapes and carriage returns taken out."""
    import fcntl
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    env = {**env, "COLUMNS": str(columns), "LICHESS_ELO_PAGER": "cat", "TERM": "dumb"}
    with subprocess.Popen(
        [sys.executable, "-m", "lichess_elo", *args],
        cwd=REPO,
        stdin=subprocess.DEVNULL,
        stdout=slave,
        stderr=subprocess.PIPE,
        env=env,
    ) as child:
        os.close(slave)
        chunks = []
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the terminal's other end closed: all is read
                break
            if not chunk:
                break
            chunks.append(chunk)
        os.close(master)
        assert child.stderr is not None
        err = child.stderr.read().decode()
        child.wait(300)
    screen = b"".join(chunks).decode().replace("\r\n", "\n").replace("\r", "")
    return err + _ESCAPE.sub("", screen)


def run(command: str, cache: Path) -> str:
    """What ``command`` prints on a pipe (stderr, then stdout), with ``cache`` as its cache;
    ``COLUMNS=N lichess-elo ...``: on a terminal of N columns (``_on_terminal``)."""
    wide = _COLUMNS.match(command)
    if wide is not None:
        command = command[wide.end() :]
    args = shlex.split(command)[1:]
    env = {k: v for k, v in os.environ.items() if not k.startswith("LICHESS")}
    env["LICHESS_ELO_CACHE_DIR"] = str(cache)
    env["COLUMNS"] = "200"
    if wide is not None:
        return _on_terminal(args, env, int(wide.group(1)))
    done = subprocess.run(
        [sys.executable, "-m", "lichess_elo", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    return done.stderr + done.stdout


def refresh(page: Path, write: bool) -> tuple[int, int]:
    """Run ``page``'s examples; with ``write``, put what they print in the page.

    Returns how many examples the page has and how many of them differ.
    """
    text = page.read_text(encoding="utf-8")
    found = examples(text)
    out, last, differ = [], 0, 0
    for example in found:
        with tempfile.TemporaryDirectory() as cache:
            printed = run(example.command, Path(cache))
        if printed != example.shown:
            differ += 1
            print(f"differs: {page.relative_to(REPO)}: {example.command}")
        out += [text[last : example.start], printed]
        last = example.end
    out.append(text[last:])
    if write and differ:
        page.write_text("".join(out), encoding="utf-8")
    return len(found), differ


def main() -> int:
    """``--write``: rewrite every example's output; otherwise list the ones that differ."""
    write = "--write" in sys.argv[1:]
    total = differ = 0
    for page in documents():
        found, changed = refresh(page, write)
        total, differ = total + found, differ + changed
    print(f"{total} examples, {differ} differ")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
