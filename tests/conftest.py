"""Shared test helpers: where the copied reference data lives."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
REPO = Path(__file__).parent.parent


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The folder of reference data copied from ``shared/reference``."""
    return DATA
