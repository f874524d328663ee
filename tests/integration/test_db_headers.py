"""The dump reader (``sources.dump.arrow.read_pgn_zst``, the one ``db ingest`` uses) on
awkward text, at chunk sizes that cut it everywhere, against a plain reading of the same
text written here.

The rule (the open database's PGN, https://database.lichess.org): games are separated by
blank lines; a block of lines whose first line starts with ``[`` is a game's header block
(movetext never starts with ``[``); a line ``[Name "value"]`` gives the tag ``Name``; a line
cut short (no closing ``"]``) gives nothing; a tag given twice keeps its last value; a
missing tag is null. Lines may end in ``\\r\\n``.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pyarrow as pa
import pytest
import zstandard

from lichess_elo.core.population.schema import HEADERS
from lichess_elo.sources.dump.arrow import read_pgn_zst
from tests.integration.db_helpers import game


def _plain(text: str) -> list[dict[str, str | None]]:
    """The header values of every game, read line by line with str methods only."""
    games: list[dict[str, str | None]] = []
    block: list[str] = []
    for line in [*text.replace("\r\n", "\n").split("\n"), ""]:
        if line:
            block.append(line)
            continue
        if block and block[0].startswith("["):
            tags: dict[str, str | None] = dict.fromkeys(HEADERS)
            for tag_line in block:
                name, sep, rest = tag_line[1:].partition(' "')
                if tag_line.startswith("[") and sep and rest.endswith('"]') and name in tags:
                    tags[name] = rest[:-2]
            games.append(tags)
        block = []
    return games


def _read(path: Path, chunk_bytes: int) -> list[dict[str, str | None]]:
    table = pa.Table.from_batches(list(read_pgn_zst(path, HEADERS, chunk_bytes=chunk_bytes)))
    assert table.column("seq").to_pylist() == list(range(table.num_rows))
    return [{h: row[h] for h in HEADERS} for row in table.to_pylist()]


AWKWARD = [
    game("2024.06.01 10:00:00", "Ann", "Ben", "1-0", ("1500", "1501"), ("+5", "-5")),
    # The same tag twice (the last counts), an empty value, a tag cut short.
    game("2024.06.01 10:05:00", "Cy", "Di", "0-1", ("1600", "1601"), titles=("GM", None))
    .replace('[Result "0-1"]', '[Result "1-0"]\n[Result "0-1"]')
    .replace('[ECO "C20"]', '[Variant ""]')
    .replace('[BlackElo "1601"]', '[BlackElo "1601'),
    # Movetext wrapped over lines, one of them starting with "[" (still movetext).
    game("2024.06.01 10:10:00", "Eve", "Fay", "1/2-1/2", ("1700", "1702")).replace(
        "1... e5 {", "1... e5\n[%clk 0:03:00] {"
    ),
    # A tag whose name starts like a wanted one, and names of every length.
    game("2024.06.01 10:15:00", "Gus", "Hal", "1-0", ("1800", "1803"), ("+1", "-1")).replace(
        '[Site "', '[WhiteEloX "9"]\n[Whit "x"]\n[Site "'
    ),
    # A long game (larger than the small chunk sizes below) with a non-ASCII name.
    game("2024.06.01 10:20:00", "Ïngrid", "Jo", "0-1", ("1900", "1904"), tc="600+5").replace(
        "1. e4", "1. e4 " + "{ a long comment } " * 200
    ),
]


@pytest.mark.parametrize("chunk_bytes", [64, 333, 4096, 1 << 20])
@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_every_chunk_size_reads_what_a_plain_reading_reads(
    tmp_path: Path, chunk_bytes: int, newline: str
) -> None:
    text = "".join(AWKWARD).replace("\n", newline)
    path = tmp_path / "awkward.pgn.zst"
    path.write_bytes(zstandard.ZstdCompressor().compress(text.encode()))
    read = _read(path, chunk_bytes)
    assert read == _plain(text)
    # Pinned by hand from AWKWARD, so that a wrong plain reading cannot hide a wrong reader.
    assert [g["White"] for g in read] == ["Ann", "Cy", "Eve", "Gus", "Ïngrid"]
    assert read[1]["Result"] == "0-1"  # given twice: the last
    assert read[1]["Variant"] == ""  # empty, not missing
    assert read[1]["BlackElo"] is None  # cut short
    assert read[1]["WhiteTitle"] == "GM" and read[0]["WhiteTitle"] is None
    assert read[3]["WhiteElo"] == "1800"  # not WhiteEloX
    assert read[4]["TimeControl"] == "600+5"


def test_concatenated_zstd_frames_are_one_dump(tmp_path: Path) -> None:
    # `cat a.pgn.zst b.pgn.zst` is a valid zstd file of two frames; both are read.
    one, two = "".join(AWKWARD[:2]), "".join(AWKWARD[2:])
    path = tmp_path / "two-frames.pgn.zst"
    compress = zstandard.ZstdCompressor().compress
    path.write_bytes(compress(one.encode()) + compress(two.encode()))
    assert [g["White"] for g in _read(path, 4096)] == ["Ann", "Cy", "Eve", "Gus", "Ïngrid"]


def test_text_without_a_final_newline_and_leading_blank_lines(tmp_path: Path) -> None:
    text = "\n\n" + "".join(AWKWARD[:2]).rstrip("\n")
    path = tmp_path / "ragged.pgn.zst"
    path.write_bytes(zstandard.ZstdCompressor().compress(text.encode()))
    assert [g["Black"] for g in _read(path, 128)] == ["Ben", "Di"]


def test_a_dump_cut_short_is_refused_and_replaces_nothing(tmp_path: Path) -> None:
    # A download cut short ends inside a zstd frame: zstd's own reader returns what it has
    # without a word, which would replace a whole month with part of it. The ingest refuses
    # the file (one line naming it) and the month stored before stays whole.
    from lichess_elo.app import db as app
    from lichess_elo.errors import DumpUnreadable

    text = "".join(AWKWARD).encode()
    whole = tmp_path / "lichess_db_standard_rated_2024-06.pgn.zst"
    whole.write_bytes(zstandard.ZstdCompressor().compress(text))
    db = tmp_path / "cut.duckdb"
    before = app.ingest(app.IngestSettings((whole,), db))
    assert before.games + sum(before.rejected.values()) == len(AWKWARD)
    cut = tmp_path / "cut" / whole.name
    cut.parent.mkdir()
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    with pytest.raises(DumpUnreadable, match="ends in the middle of a zstd frame"):
        app.ingest(app.IngestSettings((cut,), db))
    con = duckdb.connect(str(db))
    (stored,) = con.execute("SELECT COUNT(*) FROM games WHERE month = 202406").fetchone() or (0,)
    con.close()
    assert stored == before.games > 0
