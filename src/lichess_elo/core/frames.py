"""Rows as a pandas DataFrame, for a notebook (``to_frame()`` of the report, the lists, a
player's months and the scorecard's predictions).

pandas is not a dependency of the package: it is imported here, on the first call, and a
missing pandas is ``errors.PackageMissing`` (``to_frame() needs pandas: pip install
pandas``). The rows themselves (``to_dict()``) need nothing but Python.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from lichess_elo.errors import PackageMissing


def data_frame(records: Iterable[Mapping[str, Any]], columns: Sequence[str]) -> Any:
    """A ``pandas.DataFrame`` of ``records`` (one dict a row) with ``columns`` in that
    order, even when there is no row.

    Raises:
        PackageMissing: pandas is not installed.
    """
    try:
        import pandas as pd
    except ImportError:
        raise PackageMissing("pandas", "to_frame()") from None
    return pd.DataFrame.from_records(list(records), columns=list(columns))
