"""The compiled header scanner (``pgnscan.c``), when it is built."""

def scan(
    chunk: bytes | bytearray | memoryview, size: int, names: tuple[str, ...], /
) -> tuple[int, bytes, bytes, bytes, bool]:
    """(games, validity, offsets, data, ascii): the values of the tags ``names`` in the first
    ``size`` bytes of ``chunk``, tag by tag, as the buffers of an Arrow binary array, and
    whether they are all ASCII."""
