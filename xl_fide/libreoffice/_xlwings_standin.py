"""A stand-in for the ``xlwings`` decorators inside LibreOffice's own Python.

``xl_fide.udfs`` decorates its functions with ``xlwings.func``/``arg`` at import time.
LibreOffice has no xlwings (and needs none: Calc calls the functions through the
extension's component), so :func:`install` registers a module named ``xlwings`` whose
decorators return the function unchanged -- what xlwings itself does off Windows.
Installed only when ``import xlwings`` fails. Standard library only.
"""
from __future__ import annotations

import sys
import types

VERSION = "0+xl-fide-standin"


def _decorator(*args, **kwargs):
    """``@func``, ``@func(...)``, ``@arg("x", ndim=1)``: the function unchanged."""
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return args[0]
    return lambda f: f


def install() -> bool:
    """Register the stand-in unless a real xlwings imports; True if installed."""
    try:
        import xlwings  # noqa: F401
        return False
    except Exception:
        pass
    module = types.ModuleType("xlwings")
    for name in ("func", "arg", "ret", "sub", "script"):
        setattr(module, name, _decorator)
    module.__version__ = VERSION  # type: ignore[attr-defined]
    sys.modules["xlwings"] = module
    return True
