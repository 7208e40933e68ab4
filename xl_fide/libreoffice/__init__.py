"""The FIDE_* functions in LibreOffice Calc: an extension (.oxt) a user installs with a
double click, Tools > Extension Manager or ``unopkg add``.

``xl-fide libreoffice -o xl-fide.oxt`` writes it (:func:`build_extension`). It serves
every function of :mod:`xl_fide.udfs` with the same names, argument order, defaults,
results and messages, read from the functions themselves; the engine's pure-Python
files travel inside it, so nothing is installed into LibreOffice's Python.

This package is also copied into the extension (``_cells``, ``_xlwings_standin``), so
importing it must stay cheap: the builder is imported on first use.
"""
from __future__ import annotations

from typing import Any

__all__ = ["build_extension", "ExtensionError"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        import importlib    # by name: the copy inside the extension needs no builder
        return getattr(importlib.import_module("xl_fide.libreoffice._build"), name)
    raise AttributeError(name)
