"""What every chart shares: the path check, matplotlib (lazily, Agg) and one atomic save.

matplotlib is imported only when a chart is asked for, with the non-interactive Agg
backend, so the rest of the tool starts fast and works without a display.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from lichess_elo.errors import BadInput, WriteFailed
from lichess_elo.output.common import write_atomic

SUFFIXES = (".png", ".svg")


def check_chart_path(path: Path) -> Path:
    """Check that a chart can be written to ``path`` (before any work is done).

    Raises:
        BadInput: the suffix is not ``.png``/``.svg``, the folder does not exist or is not
            writable, or the file exists and is not writable.
    """
    if path.suffix.lower() not in SUFFIXES:
        raise BadInput("the file name must end in .png or .svg", field="chart", value=path)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise BadInput(f"folder {folder} does not exist", field="chart", value=path)
    if path.is_dir():
        raise BadInput("is a folder", field="chart", value=path)
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise BadInput("not writable", field="chart", value=path)
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
    image = io.BytesIO()
    try:
        yield fig, axes
        fig.tight_layout()
        fig.savefig(image, format=path.suffix.lower()[1:], dpi=dpi)
    finally:
        plt.close(fig)
    try:
        write_atomic(path, image.getvalue())
    except OSError as exc:
        raise WriteFailed(path, exc.strerror or str(exc), "chart") from None
