"""The value classes built positionally on hot paths get their arguments in field order.

``GameRow``, ``Game``, ``Side``, ``ReplayFacts``, ``RatedGame`` and ``GameResult`` are built
by position where they are made once a game (keywords cost two to five times as much). A
reordered field would then put a value under the wrong name, and only the report's byte
comparisons would notice, through the output. This test reads each such call in the source
and names its arguments: by the ``# field`` comment on the argument's line, else by the
argument itself when it is a plain name or attribute (``created_at``, ``self.variant``), else
by a ``# positional (a, b, c)`` comment on the line above a one-line call. The names must be
the class's fields, in order, one argument each.
"""

from __future__ import annotations

import ast
import dataclasses
import io
import re
import tokenize
from pathlib import Path

import pytest

from lichess_elo.core.fide.game import GameResult
from lichess_elo.core.fide.period import RatedGame
from lichess_elo.core.games import Game, Side
from lichess_elo.core.replay_facts import ReplayFacts
from lichess_elo.core.report.model import GameRow

SRC = Path(__file__).resolve().parents[2] / "src" / "lichess_elo"

# (module, function holding the call, what the call's callee is named, the class)
SITES = [
    ("core/report/rows.py", "game_row", "GameRow", GameRow),
    ("sources/lichess/parse.py", "_parse_side", "Side", Side),
    ("sources/lichess/parse.py", "parse_game", "Game", Game),
    ("core/games.py", "without_moves", "_plain_game", Game),
    ("sources/cache/replay_store.py", "from_row", "ReplayFacts", ReplayFacts),
    ("core/fide/period.py", "rate_period", "RatedGame", RatedGame),
    ("core/report/perf.py", "_period", "GameResult", GameResult),
]

_LIST = re.compile(r"#\s*positional\s*\(([^)]*)\)")


def _comments(text: str) -> dict[int, str]:
    """Each line's comment, without its ``#``."""
    out = {}
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT:
            out[tok.start[0]] = tok.string
    return out


def _function(tree: ast.Module, name: str) -> ast.FunctionDef:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return node
    raise AssertionError(f"no function {name}")


def _callee(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def _labels(call: ast.Call, comments: dict[int, str]) -> list[str]:
    """The field name each positional argument of ``call`` stands for."""
    above = _LIST.search(comments.get(call.lineno - 1, ""))
    if above and call.lineno == call.end_lineno:
        return [part.strip() for part in above.group(1).split(",")]
    lines = [arg.end_lineno for arg in call.args]
    labels = []
    for arg, line in zip(call.args, lines, strict=True):
        comment = comments.get(line or 0)
        alone = lines.count(line) == 1
        if comment is not None and alone:
            labels.append(comment.lstrip("#").split()[0])
        elif isinstance(arg, ast.Name):
            labels.append(arg.id)
        elif isinstance(arg, ast.Attribute):
            labels.append(arg.attr)
        else:
            labels.append(f"<unnamed argument on line {line}>")
    return labels


@pytest.mark.parametrize(("module", "function", "callee", "cls"), SITES)
def test_a_positional_call_follows_its_class_fields(
    module: str, function: str, callee: str, cls: type
) -> None:
    text = (SRC / module).read_text(encoding="utf-8")
    comments = _comments(text)
    func = _function(ast.parse(text), function)
    calls = [
        n
        for n in ast.walk(func)
        if isinstance(n, ast.Call) and _callee(n) == callee and n.args  # not ``Side()``
    ]
    assert calls, f"{module}:{function} builds no {callee} positionally"
    fields = [f.name for f in dataclasses.fields(cls)]
    for call in calls:
        assert not call.keywords, f"{module}:{call.lineno} mixes keywords in"
        assert _labels(call, comments) == fields, f"{module}:{call.lineno}"


def test_the_reader_names_a_swapped_pair() -> None:
    """The check itself: two swapped arguments are reported, not passed."""
    text = "def f(a, b):\n    return C(\n        b,  # x\n        a,  # y\n    )\n"
    call = next(n for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Call))
    assert _labels(call, _comments(text)) == ["x", "y"]
    text = "def f(a, b):\n    # positional (x, y)\n    return C(b, a)\n"
    call = next(n for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Call))
    assert _labels(call, _comments(text)) == ["x", "y"]
    text = "def f(a, b):\n    return C(\n        g(a),\n        b.y,\n    )\n"
    call = next(n for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Call))
    assert _labels(call, _comments(text)) == ["<unnamed argument on line 3>", "y"]
