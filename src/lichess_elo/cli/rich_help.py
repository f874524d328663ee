"""typer's help renderer without the parts of rich it never uses here.

``typer.rich_utils`` (imported to write any ``--help``) imports ``rich.markdown`` (and with it
markdown-it) and ``rich.traceback`` (with pygments' lexers) at its top, though it uses
``Markdown`` only in the "markdown" markup mode (this program uses "rich") and
``Traceback`` only for pretty exceptions (disabled). Those two imports were a third of the
CPU of ``lichess-elo --help``. ``import_rich_utils`` imports ``typer.rich_utils`` with two
stand-in modules in their place, then takes the stand-ins out of ``sys.modules`` again, so
anything else importing rich's modules gets the real ones. The stand-in classes import the
real class the moment one is made, so nothing changes if typer does use them.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

#: The modules stood in for, and the class each gives ``typer.rich_utils``.
_STAND_INS = {"rich.markdown": "Markdown", "rich.traceback": "Traceback"}


def _stand_in(module_name: str, class_name: str) -> type:
    """A class named ``class_name`` whose instances (and class attributes, such as
    ``Traceback.from_exception``) are those of the real one, imported on first use."""

    def real() -> Any:
        return getattr(importlib.import_module(module_name), class_name)

    class _Meta(type):
        def __getattr__(cls, name: str) -> Any:
            return getattr(real(), name)

    def new(cls: type, *args: Any, **kwargs: Any) -> Any:
        return real()(*args, **kwargs)

    return _Meta(class_name, (), {"__new__": new, "__module__": module_name})


def import_rich_utils() -> None:
    """Import ``typer.rich_utils`` without ``rich.markdown`` and ``rich.traceback``."""
    if "typer.rich_utils" in sys.modules:
        return
    placed = []
    for module_name, class_name in _STAND_INS.items():
        if module_name not in sys.modules:
            module = types.ModuleType(module_name)
            setattr(module, class_name, _stand_in(module_name, class_name))
            sys.modules[module_name] = module
            placed.append(module_name)
    try:
        importlib.import_module("typer.rich_utils")
    finally:
        for module_name in placed:
            del sys.modules[module_name]
