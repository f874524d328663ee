"""The compiled header scanner (``pgnscan.c``), when it is built."""

def scan(
    chunk: bytes | bytearray | memoryview, size: int, names: tuple[str, ...], cap: int, /
) -> tuple[int, bytes, bytes, bytes, bool, bytes]:
    """(games, validity, offsets, data, ascii, plies): the values of the tags ``names`` in
    the first ``size`` bytes of ``chunk``, tag by tag, as the buffers of an Arrow binary
    array, whether they are all ASCII, and each game's plies counted up to ``cap`` (a byte
    each)."""
