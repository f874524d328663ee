"""What every chart shares: the path check, matplotlib (lazily, Agg) and one atomic save.

matplotlib is imported only when a chart is asked for, with the non-interactive Agg
backend, so the rest of the tool starts fast and works without a display.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from lichess_elo.errors import BadInput, WriteFailed
from lichess_elo.output.common import write_atomic
from lichess_elo.output.writer import check_target

SUFFIXES = (".png", ".svg")


def check_chart_path(path: Path) -> Path:
    """Check that a chart can be written to ``path`` (before any work is done).

    Raises:
        BadInput: the suffix is not ``.png``/``.svg``, the folder does not exist or is not
            writable, or the file exists and is not writable.
    """
    if path.suffix.lower() not in SUFFIXES:
        raise BadInput("the file name must end in .png or .svg", field="chart", value=path)
    check_target(path, "chart")
    return path


def pyplot() -> Any:
    """matplotlib's pyplot on the Agg backend (imported on first use)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


@contextmanager
def figure(path: Path, *args: Any, dpi: int = 130, **kwargs: Any) -> Iterator[tuple[Any, Any]]:
    """Check ``path``, make a figure (``plt.subplots(*args, **kwargs)``), then save it there.

    The figure is drawn inside the block and written when the block ends without an error:
    rendered in memory, then written atomically, so nothing half-written is ever left.

    Raises:
        BadInput: the path cannot take a chart (``check_chart_path``).
        WriteFailed: the file could not be written (disk full...); it names ``path``.
    """
    check_chart_path(path)
    plt = pyplot()
    fig, axes = plt.subplots(*args, **kwargs)
    try:
        yield fig, axes
        fig.tight_layout()
    except BaseException:
        plt.close(fig)
        raise
    save(fig, path, dpi=dpi)


def save(fig: Any, path: Path, *, dpi: int = 130) -> None:
    """Render ``fig`` in memory, close it, then write it to ``path`` atomically (the format
    from the suffix), so nothing half-written is ever left.

    Raises:
        WriteFailed: the file could not be written (disk full...); it names ``path``.
    """
    image = io.BytesIO()
    try:
        fig.savefig(image, format=path.suffix.lower()[1:], dpi=dpi)
    finally:
        pyplot().close(fig)
    try:
        write_atomic(path, image.getvalue())
    except OSError as exc:
        raise WriteFailed(path, exc.strerror or str(exc), "chart") from None
